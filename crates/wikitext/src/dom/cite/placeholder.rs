//! The placeholders the token stage (`transform/cite.rs`) leaves for the DOM
//! pass: an element per `<ref>` (`sup`) and `<references>` (`div`) with one
//! private attribute naming its kind and its [`Pending`] tag, which waits in
//! the page's [`Bodies`] beside its rendered body (the attributes, body
//! source and labels move from the token to the pass: no copy, no JSON). The
//! pass consumes the attribute (it never reaches the output).

use foldhash::HashMap;
use std::cell::RefCell;
use std::collections::hash_map::Entry;
use std::rc::Rc;

use super::super::{Element, Node};

/// The attribute of a placeholder: its kind ([`REF`] or [`REFERENCES`]), a
/// space and the index of its [`Pending`] tag in the page's [`Bodies`].
pub(crate) const KIND: &str = "data-x-cite";
/// A `<ref>`.
pub(crate) const REF: &str = "ref";
/// A `<references>`.
pub(crate) const REFERENCES: &str = "references";
/// Set by the pass on an empty list from a template, which goes unless the
/// template's output goes on after it.
pub(crate) const DROP: &str = "data-x-cite-drop";
/// Set by the pass on the `<sup>` of a ref use: its index in the pass's uses.
pub(crate) const USE: &str = "data-x-cite-use";

/// A tag as the token stage read it, waiting for the pass.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct Pending {
    /// The attributes in source order (names lowercased, values as written).
    pub(crate) attrs: Vec<(String, String)>,
    /// The body's wikitext (`None` when self-closed).
    pub(crate) src: Option<String>,
    /// The body rendered in inline context: its index in [`Bodies`] (`None`
    /// when self-closed).
    pub(crate) body: Option<usize>,
    /// The custom footnote labels of the tag's group, if the wiki has them.
    pub(crate) labels: Option<Vec<String>>,
}

/// The [`KIND`] value of the placeholder of `kind` whose tag is at `index`.
pub(crate) fn kind_value(kind: &str, index: usize) -> String {
    let mut out = String::with_capacity(kind.len() + 8);
    out.push_str(kind);
    out.push(' ');
    super::model::push_number(&mut out, index);
    out
}

/// `n` in decimal (a [`USE`] value).
pub(crate) fn number(n: usize) -> String {
    let mut out = String::with_capacity(8);
    super::model::push_number(&mut out, n);
    out
}

/// Which kind of placeholder `e` is, if any. Placeholders are `sup`s and
/// `div`s (the token stage makes them; nothing renames an element, and a
/// written `data-x-cite` is renamed by the tokenizer,
/// `sanitizer::protect_name`): other elements' attributes are not read
/// (the page's walk asks this of every element).
pub(crate) fn kind(e: &Element) -> Option<&str> {
    if !matches!(e.name.as_bytes(), b"sup" | b"div") {
        debug_assert!(e.attr(KIND).is_none(), "a placeholder named {}", e.name);
        return None;
    }
    e.attr(KIND).map(value_kind)
}

/// The kind a [`KIND`] value names (its text before the first space: these
/// short values are read byte by byte, no searcher set up).
pub(crate) fn value_kind(value: &str) -> &str {
    match value.bytes().position(|b| b == b' ') {
        Some(at) => value.get(..at).unwrap_or(value),
        None => value,
    }
}

/// The index of a placeholder's tag in its [`KIND`] value.
fn tag_index(value: &str) -> Option<usize> {
    let at = value.bytes().position(|b| b == b' ')?;
    value.get(at + 1..)?.parse().ok()
}

/// An attribute value as MediaWiki's sanitizer leaves it: trimmed, runs of
/// whitespace as one space (most values already are: kept as they are).
fn normalize_space(v: String) -> String {
    let bytes = v.as_bytes();
    let space = |b: &u8| matches!(b, b' ' | b'\t' | b'\n' | b'\r');
    let normal = bytes.first().is_none_or(|b| !space(b))
        && bytes.last().is_none_or(|b| !space(b))
        && !bytes
            .windows(2)
            .any(|w| w.first().is_some_and(space) && w.get(1).is_some_and(space))
        && !bytes.iter().any(|b| matches!(b, b'\t' | b'\n' | b'\r'));
    if normal {
        return v;
    }
    v.split([' ', '\t', '\n', '\r'])
        .filter(|w| !w.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

/// A placeholder's contents, read back.
pub(crate) struct Tag {
    pub(crate) attrs: Vec<(String, String)>,
    pub(crate) src: Option<String>,
    /// The body's index in the page's [`Bodies`].
    pub(crate) body: Option<usize>,
    /// Attributes other passes put on the placeholder (template `about`/`typeof`).
    pub(crate) extra: Vec<crate::dom::Attr>,
    /// Inside a template's output wrapper (set by the walk).
    pub(crate) in_wrapper: bool,
    /// The custom labels of the tag's group.
    pub(crate) labels: Option<Vec<String>>,
}

impl Tag {
    /// Takes a placeholder's contents out of it (the pass replaces it next):
    /// its tag out of `bodies`, its other attributes moved, nothing copied
    /// (but the tag of a placeholder in a nested body, see [`Bodies::tag`]).
    pub(crate) fn take(e: &mut Element, bodies: &mut Bodies) -> Tag {
        let mut pending = None;
        let mut extra = Vec::new();
        for (k, v) in std::mem::take(&mut e.attrs) {
            // The first of a name counts, as `Element::attr` finds it.
            if k == KIND {
                if pending.is_none() {
                    pending = Some(
                        tag_index(&v)
                            .and_then(|i| bodies.tag(i))
                            .unwrap_or_default(),
                    );
                }
            } else if !k.starts_with("data-x-cite") {
                extra.push((k, v));
            }
        }
        let Pending {
            attrs,
            src,
            body,
            labels,
        } = pending.unwrap_or_default();
        Tag {
            attrs: attrs
                .into_iter()
                .map(|(k, v)| (k, normalize_space(v)))
                .collect(),
            src,
            body,
            extra,
            in_wrapper: false,
            labels,
        }
    }

    /// The transclusion's `parts` (raw JSON) when the tag came from a template
    /// (the encapsulation pass put its `data-mw` on the placeholder).
    pub(crate) fn parts(&self) -> Option<&str> {
        let data_mw = self
            .extra
            .iter()
            .find(|(k, _)| k == "data-mw")
            .map(|(_, v)| v.as_str())?;
        data_mw
            .strip_prefix("{\"parts\":")
            .and_then(|p| p.strip_suffix('}'))
    }

    /// The group as written (`group="…"`).
    pub(crate) fn group(&self) -> Option<&str> {
        self.attrs
            .iter()
            .rev()
            .find(|(k, _)| k == "group")
            .map(|(_, v)| v.as_str())
    }

    /// Whether the tag was self-closed.
    pub(crate) fn self_closed(&self) -> bool {
        self.src.is_none()
    }
}

/// Ref and `<references>` bodies rendered in inline context and the tags of
/// the placeholders, shared by the token stage (which renders each distinct
/// body once per nesting depth) and the DOM pass (which reads a placeholder's
/// tag by the index its [`KIND`] holds, and its body by the tag's). The nodes
/// go from the inner render to the pass as they are: no HTML string, no
/// second parse.
#[derive(Default)]
pub(crate) struct Bodies {
    nodes: Vec<Vec<Node>>,
    /// Per body, how many of the page's own placeholders name it and have not
    /// read it yet (`None`: a body of a nested ref, which every copy of its
    /// container's body names again, so it is always copied).
    unread: Vec<Option<usize>>,
    /// Per body, whether its render made placeholders (a body without any
    /// needs no search for them).
    nests: Vec<bool>,
    /// Per body, whether its source has a `<nowiki` tag ([`may_hold_nowiki`]):
    /// only then may its nodes hold `mw:Nowiki` spans to unwrap.
    nowiki: Vec<bool>,
    /// How many placeholders' tags were recorded ([`Bodies::add_tag`] calls).
    tags_made: usize,
    /// How many of them are the page's own (depth 0): the page's walk stops
    /// once it has met as many.
    page_tags: usize,
    /// Whether a `<ref>` placeholder may sit inside a link (made while an
    /// `<a>` was open, or after tags that can keep one open past its `</a>`):
    /// only then are refs hoisted out of links.
    pub(crate) refs_in_links: bool,
    /// Per nesting depth, body source → index: the same source at the same
    /// depth renders the same nodes (its markers name the same transclusions).
    index: Vec<HashMap<String, usize>>,
    /// The placeholders' tags, each with the nesting depth it was read at
    /// (the page's are taken once; a nested body's are copied, as its nodes).
    tags: Vec<(usize, Option<Pending>)>,
    /// Per nested depth, the tags there → their index: the same tag at the
    /// same depth is one entry (a body rendered again, by a reused renderer,
    /// makes the same placeholders).
    nested_tags: HashMap<(usize, Pending), usize>,
    /// The page's link form (`./Title`), set by the token stage.
    pub(crate) page: String,
    /// The page's bodies recorded before their render, in page order: each
    /// body's index and its tag's (which holds the source). The token stage
    /// renders them all at the page's end of input
    /// (`transform::cite::Cite::render_deferred`), one phase at a time
    /// (`render::render_inline_all`): a phase's code stays in the
    /// instruction cache from one body to the next, where a whole render
    /// between two of the page's tokens evicted the page's code and then
    /// lost its own (the simulated L1 instruction misses halved).
    pub(crate) deferred: Vec<(usize, usize)>,
}

/// The table as the token stage and the sink share it (one page, one thread).
pub(crate) type SharedBodies = Rc<RefCell<Bodies>>;

impl Bodies {
    /// The index of the body `src` rendered at `depth`, if it was, for one
    /// more placeholder.
    pub(crate) fn find(&mut self, depth: usize, src: &str) -> Option<usize> {
        let i = self.index.get(depth)?.get(src).copied()?;
        if let Some(Some(n)) = self.unread.get_mut(i) {
            *n += 1;
        }
        Some(i)
    }

    /// Records `nodes` as the rendering of `src` at `depth` for one
    /// placeholder; its index.
    /// `nests`: its render made placeholders (see [`Bodies::tags_made`]).
    pub(crate) fn add(&mut self, depth: usize, src: &str, nodes: Vec<Node>, nests: bool) -> usize {
        let i = self.nodes.len();
        self.nodes.push(nodes);
        self.nests.push(nests);
        self.nowiki.push(may_hold_nowiki(src));
        // Only the page's placeholders (depth 0) are each read once: the tree
        // builder and the DOM passes never copy a placeholder.
        self.unread.push((depth == 0).then_some(1));
        if self.index.len() <= depth {
            // Room for a page's usual bodies (the corpus's pages: 52 on
            // average at depth 0), not grown from a few by rehashing.
            self.index.resize_with(depth + 1, || {
                HashMap::with_capacity_and_hasher(64, Default::default())
            });
        }
        if let Some(map) = self.index.get_mut(depth) {
            map.insert(src.to_owned(), i);
        }
        i
    }

    /// Gives the body `id` ([`Bodies::add`] made it empty, deferred) its
    /// render: `nests`, whether the render made placeholders.
    pub(crate) fn fill(&mut self, id: usize, nodes: Vec<Node>, nests: bool) {
        if let Some(slot) = self.nodes.get_mut(id) {
            *slot = nodes;
        }
        if let Some(slot) = self.nests.get_mut(id) {
            *slot = nests;
        }
    }

    /// The body source of the tag at `index`, taken out while it renders
    /// (the render records more tags: no borrow of the table can last), put
    /// back by [`Bodies::put_src`].
    pub(crate) fn take_src(&mut self, index: usize) -> Option<String> {
        self.tags
            .get_mut(index)
            .and_then(|(_, tag)| tag.as_mut())
            .and_then(|tag| tag.src.take())
    }

    /// Puts back the source [`Bodies::take_src`] took.
    pub(crate) fn put_src(&mut self, index: usize, src: String) {
        if let Some((_, Some(tag))) = self.tags.get_mut(index) {
            tag.src = Some(src);
        }
    }

    /// Records the tag of a placeholder made at `depth`; its index.
    pub(crate) fn add_tag(&mut self, depth: usize, tag: Pending) -> usize {
        self.tags_made += 1;
        let index = self.tags.len();
        if depth == 0 {
            self.page_tags += 1;
        }
        if depth > 0 {
            match self.nested_tags.entry((depth, tag)) {
                Entry::Occupied(e) => return *e.get(),
                Entry::Vacant(e) => {
                    self.tags.push((depth, Some(e.key().1.clone())));
                    e.insert(index);
                }
            }
        } else {
            self.tags.push((depth, Some(tag)));
        }
        index
    }

    /// How many placeholders were made so far (a render that changes it made
    /// some).
    pub(crate) fn tags_made(&self) -> usize {
        self.tags_made
    }

    /// How many placeholders the page's own tokens made (each is in the
    /// page's tree once: the tree builder and the DOM passes never copy one).
    pub(crate) fn page_tags(&self) -> usize {
        self.page_tags
    }

    /// Whether the body `id` names may hold placeholders (an unknown one may).
    pub(crate) fn may_nest(&self, id: Option<usize>) -> bool {
        id.and_then(|i| self.nests.get(i).copied()).unwrap_or(true)
    }

    /// Whether the body `id` names may hold `mw:Nowiki` spans: its source
    /// has a `<nowiki` tag (an unknown body may; no body has none).
    pub(crate) fn may_unwrap(&self, id: Option<usize>) -> bool {
        id.is_some_and(|i| self.nowiki.get(i).copied().unwrap_or(true))
    }

    /// The tag at `index`: moved out for a placeholder of the page (each is
    /// read once: the tree builder and the DOM passes never copy one), copied
    /// for one in a nested body (every copy of its container names it again).
    pub(crate) fn tag(&mut self, index: usize) -> Option<Pending> {
        match self.tags.get_mut(index)? {
            (0, tag) => tag.take(),
            (_, tag) => tag.clone(),
        }
    }

    /// The body a tag names (none for a missing or unknown one): moved out
    /// for the last of the page's placeholders that name it, else copied (one
    /// body may serve several placeholders).
    pub(crate) fn get(&mut self, id: Option<usize>) -> Vec<Node> {
        let Some(i) = id else {
            return Vec::new();
        };
        let last = match self.unread.get_mut(i) {
            Some(Some(n)) => {
                *n = n.saturating_sub(1);
                *n == 0
            }
            _ => false,
        };
        match self.nodes.get_mut(i) {
            Some(nodes) if last => std::mem::take(nodes),
            Some(nodes) => nodes.clone(),
            None => Vec::new(),
        }
    }
}

/// Whether the wikitext `src` has a `<nowiki` start tag (any case), the
/// only thing the tokenizer makes a `mw:Nowiki` span of (`tokenize/tags.rs`;
/// a written `typeof` is renamed): a body without one has no span for
/// [`unwrap_nowiki`] to take away, and each of its uses skips that walk.
fn may_hold_nowiki(src: &str) -> bool {
    let bytes = src.as_bytes();
    memchr::memchr_iter(b'<', bytes).any(|at| {
        bytes
            .get(at + 1..at + 7)
            .is_some_and(|name| name.eq_ignore_ascii_case(b"nowiki"))
    })
}

/// Extension content keeps no `mw:Nowiki` wrappers (Parsoid's cleanup strips
/// them from encapsulated content): their children take their place.
pub(crate) fn unwrap_nowiki(nodes: &mut Vec<Node>) {
    let mut stack: Vec<&mut Vec<Node>> = vec![nodes];
    while let Some(list) = stack.pop() {
        let nowiki =
            |n: &Node| matches!(n, Node::Element(e) if e.name == "span" && e.has_type("mw:Nowiki"));
        if list.iter().any(nowiki) {
            let mut out = Vec::with_capacity(list.len());
            for n in std::mem::take(list) {
                match n {
                    Node::Element(e) if e.name == "span" && e.has_type("mw:Nowiki") => {
                        out.extend(e.children);
                    }
                    other => out.push(other),
                }
            }
            *list = out;
        }
        for child in list.iter_mut() {
            if let Node::Element(e) = child {
                stack.push(&mut e.children);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Bodies, Node, Pending, kind_value, normalize_space, tag_index};

    #[test]
    fn page_bodies_move_to_their_last_reader_and_nested_ones_are_copied() {
        let body = || vec![Node::Text("x".into())];
        let mut bodies = Bodies::default();
        let page = bodies.add(0, "x", body(), false);
        assert_eq!(bodies.find(0, "x"), Some(page));
        let nested = bodies.add(1, "x", body(), true);
        assert!(!bodies.may_nest(Some(page)));
        assert!(bodies.may_nest(Some(nested)));
        assert!(bodies.may_nest(Some(99)));
        assert_ne!(page, nested);
        // Two placeholders of the page: a copy, then the body itself.
        assert_eq!(bodies.get(Some(page)), body());
        assert_eq!(bodies.get(Some(page)), body());
        // Every copy of a container names a nested body again.
        for _ in 0..3 {
            assert_eq!(bodies.get(Some(nested)), body());
        }
        assert!(bodies.get(Some(99)).is_empty());
        assert!(bodies.get(None).is_empty());
    }

    #[test]
    fn only_bodies_with_a_nowiki_tag_may_hold_nowiki_spans() {
        for (src, may) in [
            ("plain <b>text</b> < x", false),
            ("a <nowiki>''x''</nowiki>", true),
            ("<NoWiki/>", true),
            ("</nowiki> and <nowik", false),
            ("<", false),
            ("", false),
        ] {
            assert_eq!(super::may_hold_nowiki(src), may, "{src:?}");
        }
        let mut bodies = Bodies::default();
        let plain = bodies.add(0, "x", vec![Node::Text("x".into())], false);
        let nowiki = bodies.add(0, "<nowiki>x</nowiki>", Vec::new(), false);
        assert!(!bodies.may_unwrap(Some(plain)));
        assert!(bodies.may_unwrap(Some(nowiki)));
        assert!(bodies.may_unwrap(Some(99)));
        assert!(!bodies.may_unwrap(None));
    }

    #[test]
    fn page_tags_are_taken_once_and_nested_ones_copied() {
        let tag = || Pending {
            attrs: vec![("name".to_owned(), "a".to_owned())],
            src: Some("x".to_owned()),
            body: Some(0),
            labels: None,
        };
        let mut bodies = Bodies::default();
        let page = bodies.add_tag(0, tag());
        let nested = bodies.add_tag(1, tag());
        assert_eq!(bodies.tag(page), Some(tag()));
        assert_eq!(bodies.tag(page), None);
        for _ in 0..3 {
            assert_eq!(bodies.tag(nested), Some(tag()));
        }
        assert_eq!(bodies.add_tag(1, tag()), nested);
        assert_ne!(bodies.add_tag(0, tag()), page);
        assert_eq!(bodies.tag(99), None);
    }

    #[test]
    fn kind_values_name_the_kind_and_the_tag() {
        let value = kind_value("references", 42);
        assert_eq!(value, "references 42");
        assert_eq!(tag_index(&value), Some(42));
        assert_eq!(tag_index("ref"), None);
        assert_eq!(tag_index("ref x"), None);
    }

    #[test]
    fn values_keep_or_lose_their_spaces_as_the_sanitizer_leaves_them() {
        for (value, normal) in [
            ("", ""),
            ("a", "a"),
            ("a b", "a b"),
            (" a", "a"),
            ("a ", "a"),
            ("a  b", "a b"),
            ("a\tb", "a b"),
            ("a\nb\r", "a b"),
            ("\t", ""),
            ("é \u{a0}x", "é \u{a0}x"),
        ] {
            assert_eq!(normalize_space(value.to_owned()), normal, "{value:?}");
        }
    }
}
