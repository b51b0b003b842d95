//! The tree pass: the authoritative check. The tree builder creates and moves
//! nodes the token filter never saw (implied `tbody`, foster parenting, the
//! adoption agency, foreign content), so every node of the parsed fragment is
//! judged again, now with its namespace, and a clean copy is built in a new
//! [`DomStore`] — the tree the output serializes.
//!
//! Rules beyond the policy's lists, each keeping the copy one that re-parses to
//! itself:
//! - adjacent text is merged (unwrapping leaves pieces a parser would join);
//! - an element stays only where the parser would put it back: a foreign element
//!   under an HTML parent (or an integration point) only if it is an `svg` or
//!   `math` root (`mglyph`/`malignmark` in a MathML text integration point); an
//!   HTML element under a foreign parent only in an integration point; others
//!   are unwrapped;
//! - a raw-text element (`style`, `xmp`, `iframe`, `noembed`, `noframes`) keeps
//!   only text, and is dropped if the text holds its own end tag (`</style`),
//!   and `style` if the style sheet loads or runs anything;
//! - SVG animation elements that target a URL, an event handler or `style`
//!   through `attributeName` are dropped;
//! - past [`Policy::max_depth`] elements are unwrapped;
//! - ESC (U+001B) is removed from text and attribute values (ISO-2022-JP
//!   sniffing of a page without a charset).
//!
//! The walk is iterative (no recursion, whatever the depth).
//!
//! The per-element rules (`placement_ok`, `keep_element`, `is_text_only`) are
//! shared with the fast path's streaming twin of this pass (`fast/clean.rs`),
//! which applies them as the tree builder's patches arrive.

use std::borrow::Cow;

use tagloom_html::dom::{DomStore, Element, NodeKind, NodeRef, PatchError};
use tagloom_html::dom_patch::{AttrNamespace, DomPatch, Namespace, PatchAttr, PatchKey};
use tagloom_html::serializer::is_raw_text_element;

use super::attrs::{animation_is_dangerous, clean_attribute, is_animation, link_rel};
use super::css::stylesheet_ok;
use super::policy::Disposition;
use super::rules::{Rules, Verdict};

/// A clean tree: the store and the key of the `html` root whose children are the
/// fragment.
pub(crate) struct CleanTree {
    pub(crate) store: DomStore,
    pub(crate) root: PatchKey,
}

impl CleanTree {
    pub(crate) fn root(&self) -> Option<NodeRef<'_>> {
        self.store.get(self.root)
    }
}

/// An output parent.
struct Dst {
    key: PatchKey,
    ns: Namespace,
    name: String,
    /// The last child is this text node (new text is appended to it).
    last_text: Option<PatchKey>,
    /// Text-only (an HTML raw-text element).
    raw: bool,
    /// HTML integration point (SVG `foreignObject`/`desc`/`title`, an HTML
    /// `annotation-xml`), or a MathML text integration point (`text_ip`).
    html_ip: bool,
    text_ip: bool,
    /// Number of kept elements from the root to here.
    depth: usize,
}

impl Dst {
    fn place(&self) -> Place<'_> {
        Place {
            ns: self.ns,
            name: &self.name,
            html_ip: self.html_ip,
            text_ip: self.text_ip,
        }
    }
}

/// What the placement rule reads of an output parent.
pub(crate) struct Place<'a> {
    pub(crate) ns: Namespace,
    pub(crate) name: &'a str,
    /// An HTML integration point.
    pub(crate) html_ip: bool,
    /// A MathML text integration point.
    pub(crate) text_ip: bool,
}

/// Whether an element of `ns`/`name` would be put back under `parent` by a
/// parser reading the serialization.
pub(crate) fn placement_ok(parent: &Place<'_>, ns: Namespace, name: &str) -> bool {
    let html_context = parent.ns == Namespace::Html || parent.html_ip;
    match ns {
        Namespace::Html => html_context || parent.text_ip,
        Namespace::Svg if name == "svg" => {
            html_context
                || parent.text_ip
                || (parent.ns == Namespace::MathMl && parent.name == "annotation-xml")
                || parent.ns == Namespace::Svg
        }
        Namespace::MathMl if name == "math" => {
            html_context || parent.text_ip || parent.ns == Namespace::MathMl
        }
        Namespace::MathMl if parent.text_ip && matches!(name, "mglyph" | "malignmark") => true,
        _ => parent.ns == ns && !parent.html_ip && !parent.text_ip,
    }
}

/// Whether a kept element may hold only text: the raw-text elements, and a
/// style sheet in any namespace.
pub(crate) fn is_text_only(ns: Namespace, name: &str) -> bool {
    is_raw_text_element(ns, name, true) || name == "style"
}

/// The value of the no-namespace attribute `name`.
fn attr<'a>(attrs: &'a [PatchAttr], name: &str) -> Option<&'a str> {
    attrs
        .iter()
        .find(|a| a.ns == AttrNamespace::None && a.name == name)
        .map(|a| a.value.as_str())
}

/// A kept element's clean attributes and what kind of parent it makes.
pub(crate) struct KeptElement {
    pub(crate) attrs: Vec<PatchAttr>,
    pub(crate) html_ip: bool,
    pub(crate) text_ip: bool,
    /// How `attrs` differ from the ones given.
    pub(crate) change: AttrChange,
}

/// How [`keep_element`] changed an element's attributes. It is a function of
/// the policy, namespace, name and attributes: when nothing changed, the same
/// call on its result gives it back unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AttrChange {
    /// Kept exactly as given.
    None,
    /// Only `rel` on a link changed (the policy's [`link_rel`](super::Policy::link_rel): the
    /// attribute is rewritten and moved last); every other attribute was kept
    /// as given.
    RelOnly,
    /// Some other attribute was dropped or changed.
    Other,
}

/// Whether an element is an HTML integration point and whether it is a
/// MathML text integration point.
pub(crate) fn integration_points(ns: Namespace, name: &str, attrs: &[PatchAttr]) -> (bool, bool) {
    let html_ip = match ns {
        Namespace::Svg => matches!(name, "foreignObject" | "desc" | "title"),
        Namespace::MathMl => {
            name == "annotation-xml"
                && attr(attrs, "encoding").is_some_and(|e| {
                    e.eq_ignore_ascii_case("text/html")
                        || e.eq_ignore_ascii_case("application/xhtml+xml")
                })
        }
        Namespace::Html => false,
    };
    let text_ip = ns == Namespace::MathMl && matches!(name, "mi" | "mo" | "mn" | "ms" | "mtext");
    (html_ip, text_ip)
}

/// The attributes an element the policy keeps ends up with (`attrs` are the
/// parsed ones, cleaned in place: values checked, ESC removed, `rel` rewritten
/// on links), or `None` when the element must go after all (an SVG animation of
/// a URL, an event handler or a style).
///
/// `judged`: the token filter already found that every attribute stays as it
/// is and the element is no animation (an HTML element from a start tag
/// [`SanitizeFilter::filter_token`](super::SanitizeFilter::filter_token)
/// judged, with these very attributes): only the link's `rel` is left to do.
pub(crate) fn keep_element(
    policy: &Rules,
    ns: Namespace,
    name: &str,
    attrs: Vec<PatchAttr>,
    judged: bool,
) -> Option<KeptElement> {
    keep_element_in(policy, ns, name, attrs, judged, &mut Vec::new())
}

/// [`keep_element`], taking the `rel` attribute it adds to a link from
/// `slots` (attributes to reuse, whose strings keep their allocations) when
/// there is one.
pub(crate) fn keep_element_in(
    policy: &Rules,
    ns: Namespace,
    name: &str,
    mut attrs: Vec<PatchAttr>,
    judged: bool,
    slots: &mut Vec<PatchAttr>,
) -> Option<KeptElement> {
    if !judged
        && (is_animation(name)
            || attr(&attrs, "attributename").is_some()
            || attr(&attrs, "attributeName").is_some())
    {
        let target = attr(&attrs, "attributeName").or_else(|| attr(&attrs, "attributename"));
        if animation_is_dangerous(policy, target) {
            return None;
        }
    }
    let (html_ip, text_ip) = integration_points(ns, name, &attrs);
    // The policy's `rel` on links is rewritten below: changes to `rel` are
    // told apart from changes to the other attributes.
    let link = ns == Namespace::Html && matches!(name, "a" | "area") && policy.link_rel.is_some();
    let mut other = false;
    let mut rel = false;
    // A judged element keeps every attribute as it is.
    if !judged {
        attrs.retain_mut(|a| {
            let changed = if link && a.ns == AttrNamespace::None && a.name == "rel" {
                &mut rel
            } else {
                &mut other
            };
            let Some(full) = attr_full_name(a) else {
                *changed = true;
                return false;
            };
            let value = match clean_attribute(policy, Some(ns), name, &full, &a.value) {
                None => {
                    *changed = true;
                    return false;
                }
                Some(Cow::Borrowed(_)) => None,
                Some(Cow::Owned(v)) => Some(v),
            };
            if let Some(v) = value {
                a.value = v;
                *changed = true;
            }
            if let Cow::Owned(v) = strip_escape(&a.value) {
                a.value = v;
                *changed = true;
            }
            true
        });
    }
    if link && let Some(add) = &policy.link_rel {
        let at = attrs
            .iter()
            .position(|a| a.ns == AttrNamespace::None && a.name == "rel");
        let last = at.is_some_and(|i| i + 1 == attrs.len());
        let existing = at.map(|i| attrs.remove(i).value);
        let mut slot = slots
            .pop()
            .unwrap_or_else(|| PatchAttr::new("rel", String::new()));
        slot.ns = AttrNamespace::None;
        slot.name = Cow::Borrowed("rel");
        slot.value.clear();
        match (&existing, &policy.fresh_link_rel) {
            (None, Some(fresh)) => slot.value.push_str(fresh),
            _ => slot.value.push_str(&link_rel(existing.as_deref(), add)),
        }
        rel |= !last || existing.as_deref() != Some(slot.value.as_str());
        attrs.push(slot);
    }
    let change = match (other, rel) {
        (false, false) => AttrChange::None,
        (false, true) => AttrChange::RelOnly,
        (true, _) => AttrChange::Other,
    };
    Some(KeptElement {
        attrs,
        html_ip,
        text_ip,
        change,
    })
}

/// A source sibling list being walked.
struct Frame<'a> {
    next: Option<NodeRef<'a>>,
    dst: usize,
    /// Text to add to `dst` when the list is done (an escaped end tag).
    close: Option<String>,
    /// This frame's `dst` was pushed for it (pop it at the end).
    owns_dst: bool,
}

struct Builder<'p> {
    policy: &'p Rules,
    patches: Vec<DomPatch>,
    next_key: u64,
    dsts: Vec<Dst>,
}

/// The attribute's serialized name (`xlink:href`); `None` for namespace
/// declarations, which never stay.
pub(crate) fn attr_full_name(a: &PatchAttr) -> Option<Cow<'_, str>> {
    match a.ns {
        AttrNamespace::None => Some(Cow::Borrowed(&a.name)),
        AttrNamespace::XLink => Some(Cow::Owned(format!("xlink:{}", a.name))),
        AttrNamespace::Xml => Some(Cow::Owned(format!("xml:{}", a.name))),
        AttrNamespace::Xmlns => None,
    }
}

/// Copies the children of `src_root` under a new fragment root, keeping what
/// `policy` allows.
pub(crate) fn clean_tree(src_root: NodeRef<'_>, policy: &Rules) -> Result<CleanTree, PatchError> {
    let mut b = Builder {
        policy,
        patches: Vec::new(),
        next_key: 1,
        dsts: Vec::new(),
    };
    let doc = b.key();
    let root = b.key();
    b.patches.push(DomPatch::CreateDocument { key: doc });
    b.patches.push(DomPatch::html_element(root, "html"));
    b.patches.push(DomPatch::AppendChild {
        parent: doc,
        child: root,
    });
    b.dsts.push(Dst {
        key: root,
        ns: Namespace::Html,
        name: "body".into(),
        last_text: None,
        raw: false,
        html_ip: false,
        text_ip: false,
        depth: 0,
    });
    let mut frames = vec![Frame {
        next: src_root.first_child(),
        dst: 0,
        close: None,
        owns_dst: false,
    }];
    while let Some(frame) = frames.last_mut() {
        let Some(node) = frame.next else {
            if let Some(frame) = frames.pop() {
                if let Some(text) = frame.close {
                    b.text(frame.dst, &text);
                }
                if frame.owns_dst {
                    b.dsts.pop();
                }
            }
            continue;
        };
        frame.next = node.next_sibling();
        let dst = frame.dst;
        match node.kind() {
            NodeKind::Text(text) => b.text(dst, text),
            NodeKind::Comment(data)
                if policy.allow_comments && !b.dsts.get(dst).is_some_and(|d| d.raw) =>
            {
                let key = b.key();
                b.patches.push(DomPatch::CreateComment {
                    key,
                    text: data.to_owned(),
                });
                b.append(dst, key);
            }
            NodeKind::Element(e) => {
                if let Some(frame) = b.element(node, &e, dst) {
                    frames.push(frame);
                }
            }
            _ => {}
        }
    }
    let mut store = DomStore::new();
    store.apply_patches_owned(b.patches)?;
    Ok(CleanTree { store, root })
}

impl Builder<'_> {
    fn key(&mut self) -> PatchKey {
        let k = PatchKey::new(self.next_key).unwrap_or(PatchKey(std::num::NonZeroU64::MIN));
        self.next_key += 1;
        k
    }

    fn append(&mut self, dst: usize, child: PatchKey) {
        if let Some(d) = self.dsts.get_mut(dst) {
            d.last_text = None;
            self.patches.push(DomPatch::AppendChild {
                parent: d.key,
                child,
            });
        }
    }

    fn text(&mut self, dst: usize, text: &str) {
        let text = &*strip_escape(text);
        if text.is_empty() {
            return;
        }
        let Some(d) = self.dsts.get(dst) else { return };
        if let Some(node) = d.last_text {
            self.patches.push(DomPatch::AppendText {
                node,
                text: text.to_owned(),
            });
            return;
        }
        let key = self.key();
        self.patches.push(DomPatch::CreateText {
            key,
            text: text.to_owned(),
        });
        self.append(dst, key);
        if let Some(d) = self.dsts.get_mut(dst) {
            d.last_text = Some(key);
        }
    }

    /// Handles one source element; returns the frame for its children, if they
    /// are to be walked.
    fn element<'a>(&mut self, node: NodeRef<'a>, e: &Element, dst: usize) -> Option<Frame<'a>> {
        let parent = self.dsts.get(dst)?;
        if parent.raw {
            return None;
        }
        let (ns, name) = (e.ns(), e.local_name());
        let children = || match node.template_contents() {
            Some(contents) => contents.first_child(),
            None => node.first_child(),
        };
        let mut verdict = self.policy.verdict(ns, name);
        if verdict == Verdict::Keep
            && (!placement_ok(&parent.place(), ns, name) || parent.depth >= self.policy.max_depth)
        {
            verdict = Verdict::Not(Disposition::Unwrap);
        }
        match verdict {
            Verdict::Not(Disposition::Drop) => None,
            Verdict::Not(Disposition::Unwrap) => Some(Frame {
                next: children(),
                dst,
                close: None,
                owns_dst: false,
            }),
            Verdict::Not(Disposition::Escape) => {
                let mut open = format!("<{name}");
                for a in e.attrs() {
                    open.push(' ');
                    open.push_str(&attr_full_name(&a.to_patch_attr()).unwrap_or_default());
                    open.push_str("=\"");
                    open.push_str(&a.value.replace('"', "&quot;"));
                    open.push('"');
                }
                open.push('>');
                self.text(dst, &open);
                let close = (!tagloom_html::serializer::serializes_as_void(ns, name))
                    .then(|| format!("</{name}>"));
                Some(Frame {
                    next: children(),
                    dst,
                    close,
                    owns_dst: false,
                })
            }
            Verdict::Keep => self.keep(node, e, dst, children()),
        }
    }

    fn keep<'a>(
        &mut self,
        node: NodeRef<'a>,
        e: &Element,
        dst: usize,
        first: Option<NodeRef<'a>>,
    ) -> Option<Frame<'a>> {
        let (ns, name) = (e.ns(), e.local_name());
        // Text only: the raw-text elements, and a style sheet in any namespace.
        let raw = is_text_only(ns, name);
        if raw && !raw_text_ok(node, name) {
            return None;
        }
        let kept = keep_element(self.policy, ns, name, e.attrs().to_vec(), false)?;
        let key = self.key();
        let contents = (ns == Namespace::Html && name == "template").then(|| self.key());
        self.patches.push(DomPatch::CreateElement {
            key,
            ns,
            name: name.to_owned().into(),
            attrs: kept.attrs,
            contents,
        });
        self.append(dst, key);
        let depth = self.dsts.get(dst).map_or(0, |d| d.depth) + 1;
        self.dsts.push(Dst {
            key: contents.unwrap_or(key),
            ns,
            name: name.to_owned(),
            last_text: None,
            raw,
            html_ip: kept.html_ip,
            text_ip: kept.text_ip,
            depth,
        });
        let dst = self.dsts.len() - 1;
        Some(Frame {
            next: first,
            dst,
            close: None,
            owns_dst: true,
        })
    }
}

/// Removes ESC (U+001B): the output holds none, so a page that forgets its
/// charset cannot be sniffed as ISO-2022-JP, whose escape sequences would
/// swallow the quotes and tags around them.
pub(crate) fn strip_escape(text: &str) -> Cow<'_, str> {
    if has_escape(text) {
        text.replace('\u{1b}', "").into()
    } else {
        text.into()
    }
}

/// Whether `text` holds an ESC (U+001B). A vectorized search for text that
/// can be long; a plain scan for short text (such as the whitespace between
/// tags), where the search's fixed cost per call does not pay.
pub(crate) fn has_escape(text: &str) -> bool {
    let bytes = text.as_bytes();
    if bytes.len() <= 32 {
        bytes.contains(&0x1b)
    } else {
        memchr::memchr(0x1b, bytes).is_some()
    }
}

/// A kept raw-text element: its text must not end it early when re-read, and a
/// `style` must hold a harmless style sheet.
fn raw_text_ok(node: NodeRef<'_>, name: &str) -> bool {
    let mut text = String::new();
    for child in node.children() {
        if let NodeKind::Text(t) = child.kind() {
            text.push_str(t);
        }
    }
    let lower = text.to_ascii_lowercase();
    if lower.contains(&format!("</{name}")) || lower.contains("<!--") {
        return false;
    }
    name != "style" || stylesheet_ok(&text)
}
