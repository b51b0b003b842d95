//! Runs of tokens that the tree builder would only append (the wikitext
//! render builds them itself, without the builder).

use crate::atom::{self, Atom};
use crate::token::OwnedTag;

use super::stack::Scope;
use super::{InsertionMode, TreeBuilder, tag_sets};

/// The state of a run being checked: which tokens the tree builder would
/// only append from where the run starts. Made once and reused
/// ([`TreeBuilder::start_append_run`]).
///
/// At some points the builder's state is plain: "in body" (or "in cell" /
/// "in caption", which give every token below to the "in body" rules), no
/// foster parenting, no template, no `select`, no active formatting element
/// after the last marker, frameset-ok already "not ok", the current node an
/// HTML element. From there a run of text, comments and properly nested
/// elements of the kinds [`AppendRun::start`] accepts is built by appending
/// only: each start tag makes an element in the current node (nothing is
/// closed first: no `p` in button scope where a block starts, `li` only in
/// `ul`/`ol`, `dd`/`dt` only in `dl`, a heading not in a heading), each end
/// tag closes the current node (the adoption agency then only pops it: no
/// formatting element is nested in one of its name, so the list holds each
/// once and the Noah's Ark clause never applies), no active formatting
/// element is reconstructed (every one of the run's is open) and no node
/// reaches the depth limit. When the run's elements are all closed again the
/// builder's state is what it was before, except for the nodes appended to
/// the current node: a caller can build those itself and tell the builder of
/// them by a stand-in that is no text node either (a comment), as long as
/// the run starts and ends with an element or a comment (then no text node
/// of the builder's joins a text of the run's).
#[derive(Debug, Default)]
pub struct AppendRun {
    /// The builder's current node (an HTML element).
    current: Option<Atom>,
    /// Whether the builder has a `p` in button scope.
    p_in_button_scope: bool,
    /// How many elements the run may hold open where it inserts a node
    /// (below the depth limit).
    room: usize,
    /// How many formatting elements the run may hold open (below the bound
    /// of the list of active formatting elements).
    formatting_room: usize,
    /// The run's open elements.
    open: Vec<Atom>,
    /// How many of them are `p`.
    p_open: usize,
}

impl TreeBuilder {
    /// Starts `run` here: `false` (and nothing to check) unless the builder's
    /// state is plain (see [`AppendRun`]).
    pub fn start_append_run(&self, run: &mut AppendRun) -> bool {
        run.open.clear();
        run.p_open = 0;
        run.current = None;
        let plain = !self.finished
            && matches!(
                self.mode,
                InsertionMode::InBody | InsertionMode::InCell | InsertionMode::InCaption
            )
            && self.template_modes.is_empty()
            && !self.skip_newline
            && !self.foster_parenting
            && !self.frameset_ok
            && matches!(self.active.entries.last(), None | Some(None))
            && !self.select_tracker.full_mirror
            && self.select_tracker.watched.is_empty()
            && self.adjusted_current_surely_html()
            && !self.has_open(atom::SELECT);
        if !plain {
            return false;
        }
        let Some(current) = self.current_node().and_then(|n| self.html_name(n)) else {
            return false;
        };
        // Past the depth limit already, every node goes elsewhere.
        let Some(room) = self.config.max_depth.max(2).checked_sub(self.open.len()) else {
            return false;
        };
        if current == atom::TEMPLATE {
            return false;
        }
        run.current = Some(current);
        run.p_in_button_scope = self.has_in_scope(atom::P, Scope::Button);
        run.room = room;
        run.formatting_room = self.config.max_active_formatting.max(3);
        true
    }
}

impl AppendRun {
    /// Whether `tag` only appends here: `Some(true)` for a void element
    /// (closed at once), `Some(false)` for one now open (closed by its own
    /// end tag, [`end`](Self::end)); `None`: the run cannot take it.
    pub fn start(&mut self, tag: &OwnedTag) -> Option<bool> {
        use atom::*;
        let name = tag.name().atom()?;
        let current = self.open.last().copied().or(self.current)?;
        if self.open.len() > self.room {
            return None;
        }
        let p_scope = self.p_open > 0 || self.p_in_button_scope;
        if Self::is_void(name) {
            // A `meta` goes through "in head", where one declaring an
            // encoding asks for a change.
            let declares = name == META
                && tag
                    .attrs()
                    .iter()
                    .any(|a| a.name.is(CHARSET) || a.name.is(HTTP_EQUIV));
            return (!declares).then_some(true);
        }
        let ok = match name {
            A | B | BIG | CODE | EM | FONT | I | S | SMALL | STRIKE | STRONG | TT | U => {
                let formatting = self
                    .open
                    .iter()
                    .filter(|&&n| tag_sets::is_formatting(n))
                    .count();
                !self.open.contains(&name) && formatting + 1 < self.formatting_room
            }
            SPAN | SUP | SUB | ABBR | CITE | Q | VAR | KBD | SAMP | DFN | BDI | BDO | DATA
            | TIME | MARK | INS | DEL => true,
            ADDRESS | ARTICLE | ASIDE | BLOCKQUOTE | CENTER | DIV | DL | FIGCAPTION | FIGURE
            | FOOTER | HEADER | MAIN | NAV | OL | P | SECTION | UL => !p_scope,
            H1 | H2 | H3 | H4 | H5 | H6 => !p_scope && !tag_sets::is_heading(current),
            LI => !p_scope && (current == UL || current == OL),
            DD | DT => !p_scope && current == DL,
            _ => false,
        };
        if !ok {
            return None;
        }
        if name == P {
            self.p_open += 1;
        }
        self.open.push(name);
        Some(false)
    }

    /// Whether [`start`](Self::start) takes `name` as a void element (`br`,
    /// `wbr`, `img`, `link`, `meta`: inserted and closed at once).
    pub fn is_void(name: Atom) -> bool {
        [atom::BR, atom::WBR, atom::IMG, atom::LINK, atom::META].contains(&name)
    }

    /// Whether the end tag `tag` closes the run's current node (it is then
    /// closed); `false`: the run cannot take it.
    pub fn end(&mut self, tag: &OwnedTag) -> bool {
        let Some(name) = tag.name().atom() else {
            return false;
        };
        if self.open.last() != Some(&name) {
            return false;
        }
        self.open.pop();
        if name == atom::P {
            self.p_open = self.p_open.saturating_sub(1);
        }
        true
    }

    /// Whether a comment only appends here (below the depth limit).
    pub fn comment(&self) -> bool {
        self.open.len() <= self.room
    }

    /// Whether `text` only appends (no U+0000, which "in body" drops).
    pub fn text(text: &str) -> bool {
        !text.contains('\0')
    }

    /// How many of the run's elements are open.
    pub fn depth(&self) -> usize {
        self.open.len()
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;

    use proptest::prelude::*;

    use super::*;
    use crate::dom_patch::{DomPatch, PatchKey};
    use crate::token::OwnedToken;
    use crate::tree_builder::TreeBuilderConfig;

    /// How many of `tokens` (a start tag first) make a run from the builder's
    /// state, ending where its last open element closes (as the wikitext
    /// render finds them).
    fn run_len(tb: &TreeBuilder, tokens: &[OwnedToken]) -> usize {
        let mut run = AppendRun::default();
        if !tb.start_append_run(&mut run) {
            return 0;
        }
        let mut len = 0;
        for (i, t) in tokens.iter().enumerate() {
            let (ok, closed) = match t {
                OwnedToken::StartTag(tag) => match run.start(tag) {
                    Some(void) => (true, void),
                    None => (false, false),
                },
                OwnedToken::EndTag(tag) => {
                    let ok = run.end(tag);
                    (ok, ok)
                }
                OwnedToken::Comment(_) => (run.comment(), run.comment()),
                OwnedToken::Characters(c) => (AppendRun::text(c.text()), false),
                _ => (false, false),
            };
            if !ok {
                break;
            }
            if closed && run.depth() == 0 {
                len = i + 1;
            }
        }
        len
    }

    /// What a run must leave as it was.
    fn state(tb: &TreeBuilder) -> impl PartialEq + std::fmt::Debug + use<> {
        (
            tb.open.nodes().collect::<Vec<_>>(),
            tb.active.entries.clone(),
            tb.mode,
            tb.frameset_ok,
            tb.foster_parenting,
            tb.skip_newline,
            tb.pending_table_text.clone(),
            tb.template_modes.clone(),
            tb.form,
        )
    }

    /// Feeds `tokens` after `<body>`; every run found only creates nodes and
    /// appends them (to the current node where it starts, or to its own
    /// nodes), starts and ends with a node that is no text, and leaves the
    /// builder's state as it found it.
    fn check(tokens: &[OwnedToken], config: TreeBuilderConfig) -> usize {
        let mut tb = TreeBuilder::new(config);
        let mut runs = 0;
        let body = OwnedToken::start("body");
        assert!(tb.process_owned(&body).is_ok());
        let mut i = 0;
        while let Some(t) = tokens.get(i) {
            let len = match t {
                OwnedToken::StartTag(_) => run_len(&tb, tokens.get(i..).unwrap_or_default()),
                _ => 0,
            };
            if len == 0 {
                assert!(tb.process_owned(t).is_ok());
                i += 1;
                continue;
            }
            runs += 1;
            let before = state(&tb);
            let current = tb.current_node().map(|n| tb.mirror.key(n));
            tb.take_patches();
            for t in tokens.get(i..i + len).unwrap_or_default() {
                assert!(tb.process_owned(t).is_ok());
            }
            let mut made: HashSet<PatchKey> = HashSet::new();
            let mut texts: HashSet<PatchKey> = HashSet::new();
            let mut top: Vec<PatchKey> = Vec::new();
            for p in tb.take_patches() {
                match p {
                    DomPatch::CreateElement { key, .. } | DomPatch::CreateComment { key, .. } => {
                        made.insert(key);
                    }
                    DomPatch::CreateText { key, .. } => {
                        made.insert(key);
                        texts.insert(key);
                    }
                    DomPatch::AppendChild { parent, child } => {
                        assert!(made.contains(&child));
                        if Some(parent) == current {
                            top.push(child);
                        } else {
                            assert!(made.contains(&parent), "{tokens:?} at {i}");
                        }
                    }
                    DomPatch::AppendText { node, .. } => assert!(made.contains(&node)),
                    p => panic!("{p:?} in a run of {tokens:?} at {i}"),
                }
            }
            let ends = [top.first(), top.last()];
            assert!(ends.iter().all(|k| k.is_some_and(|k| !texts.contains(k))));
            assert_eq!(state(&tb), before, "{tokens:?} at {i}");
            i += len;
        }
        runs
    }

    fn token() -> impl Strategy<Value = OwnedToken> {
        let names = [
            "p", "div", "b", "i", "a", "span", "sup", "li", "ul", "ol", "dl", "dd", "dt", "h2",
            "h3", "table", "td", "tr", "br", "img", "meta", "pre", "button", "nobr", "select",
            "template", "caption", "svg",
        ];
        prop_oneof![
            proptest::sample::select(names.to_vec()).prop_map(OwnedToken::start),
            proptest::sample::select(names.to_vec()).prop_map(OwnedToken::end),
            proptest::sample::select(vec!["x", " ", "\n", "a\0b", ""]).prop_map(OwnedToken::text),
            Just(OwnedToken::comment("c")),
        ]
    }

    /// Properly nested elements (of every kind, the run's or not) around
    /// text, void elements and comments.
    fn nested() -> impl Strategy<Value = Vec<OwnedToken>> {
        let leaf = prop_oneof![
            proptest::sample::select(vec!["x", "\n"]).prop_map(OwnedToken::text),
            proptest::sample::select(vec!["br", "img", "meta"]).prop_map(OwnedToken::start),
            Just(OwnedToken::comment("c")),
        ]
        .prop_map(|t| vec![t]);
        let names = vec![
            "p", "div", "b", "i", "a", "span", "li", "ul", "dl", "dd", "h2", "h3", "td", "pre",
        ];
        leaf.prop_recursive(4, 32, 4, move |inner| {
            (
                proptest::sample::select(names.clone()),
                proptest::collection::vec(inner, 0..4),
            )
                .prop_map(|(name, children)| {
                    let mut tokens = vec![OwnedToken::start(name)];
                    tokens.extend(children.into_iter().flatten());
                    tokens.push(OwnedToken::end(name));
                    tokens
                })
        })
    }

    proptest! {
        #[test]
        fn nested_runs_only_append(
            parts in proptest::collection::vec(
                prop_oneof![nested(), token().prop_map(|t| vec![t])],
                0..12,
            )
        ) {
            let tokens: Vec<OwnedToken> = parts.into_iter().flatten().collect();
            check(&tokens, TreeBuilderConfig::default());
            let tight = TreeBuilderConfig {
                max_depth: 4,
                ..TreeBuilderConfig::default()
            };
            check(&tokens, tight);
        }

        #[test]
        fn runs_only_append(tokens in proptest::collection::vec(token(), 0..40)) {
            check(&tokens, TreeBuilderConfig::default());
            let tight = TreeBuilderConfig {
                max_depth: 4,
                max_active_formatting: 3,
                ..TreeBuilderConfig::default()
            };
            check(&tokens, tight);
        }
    }

    #[test]
    fn plain_states_only() {
        let s = OwnedToken::start;
        let e = OwnedToken::end;
        let t = OwnedToken::text;
        // Paragraphs, lists and headings of properly nested inline content.
        let page = [
            s("p"),
            t("a "),
            s("b"),
            s("i"),
            t("x"),
            e("i"),
            e("b"),
            e("p"),
            t("\n"),
            s("ul"),
            s("li"),
            s("a"),
            t("l"),
            e("a"),
            e("li"),
            e("ul"),
            s("h2"),
            t("h"),
            e("h2"),
        ];
        // One run: text between the blocks is part of it.
        assert_eq!(check(&page, TreeBuilderConfig::default()), 1);
        // An open formatting element (reconstructed later), a table's own
        // modes, a `p` in button scope before a block: no run there.
        let mut tb = TreeBuilder::new(TreeBuilderConfig::default());
        let mut run = AppendRun::default();
        for token in [s("body"), s("b")] {
            assert!(tb.process_owned(&token).is_ok());
        }
        assert!(!tb.start_append_run(&mut run));
        let mut tb = TreeBuilder::new(TreeBuilderConfig::default());
        for token in [s("body"), s("table")] {
            assert!(tb.process_owned(&token).is_ok());
        }
        assert!(!tb.start_append_run(&mut run));
        let mut tb = TreeBuilder::new(TreeBuilderConfig::default());
        for token in [s("body"), s("p")] {
            assert!(tb.process_owned(&token).is_ok());
        }
        assert!(tb.start_append_run(&mut run));
        assert_eq!(run.start(&OwnedTag::new(atom::SPAN)), Some(false));
        assert_eq!(run.start(&OwnedTag::new(atom::DIV)), None);
        assert_eq!(run.start(&OwnedTag::new(atom::LI)), None);
        let charset = OwnedTag::new(atom::META).with_attr("charset", "utf-8");
        assert_eq!(run.start(&charset), None);
        assert_eq!(run.start(&OwnedTag::new(atom::META)), Some(true));
    }
}
