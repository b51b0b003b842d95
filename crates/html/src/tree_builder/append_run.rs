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
/// reaches the depth limit.
///
/// A run may also hold a whole table (`table` where a block may start, when
/// closing a table would reset the insertion mode to the one the run starts
/// in): in the table's own modes ("in table", "in table body", "in row")
/// only ASCII whitespace text (which "in table text" then appends), comments
/// and the table's structure are taken, never anything the builder would
/// foster-parent. The structure follows the table model: a row in a table
/// gets an implied `tbody`, a cell in a table body an implied `tr`
/// ([`RunStep::implied`]); a cell, row or section start tag closes the run's
/// open cell, row or section, a `</table>`/`</tr>`/section end tag closes
/// them down to its element ([`RunStep::close`]); each only where the run's
/// current node is that cell, caption, row, section or table (never one of
/// the builder's, and never an element inside a cell). A cell's and a
/// caption's content follow the "in body" rules above (a cell's marker
/// bounds the formatting elements and the button scope).
///
/// When the run's elements are all closed again the builder's state is what
/// it was before, except for the nodes appended to the current node: a caller
/// can build those itself and tell the builder of them by a stand-in that is
/// no text node either (a comment), as long as the run starts and ends with
/// an element or a comment (then no text node of the builder's joins a text
/// of the run's).
#[derive(Debug, Default)]
pub struct AppendRun {
    /// The builder's current node (an HTML element).
    current: Option<Atom>,
    /// Whether the builder has a `p` in button scope.
    p_in_button_scope: bool,
    /// Whether closing a table of the run's (not in a cell or caption of the
    /// run's) resets the insertion mode to the builder's present one.
    table_ok: bool,
    /// How many elements the run may hold open where it inserts a node
    /// (below the depth limit).
    room: usize,
    /// How many formatting elements the run may hold open (below the bound
    /// of the list of active formatting elements).
    formatting_room: usize,
    /// The run's open elements.
    open: Vec<Atom>,
}

/// What a start tag does in a run ([`AppendRun::start`]), in this order:
/// closes the run's last `close` open elements, inserts the `implied`
/// elements (no attributes, each in the last), then inserts its own element
/// (closed at once when `void`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RunStep {
    /// How many of the run's open elements close first.
    pub close: usize,
    /// The elements the table model inserts before the tag's own.
    pub implied: &'static [Atom],
    /// Whether the element is void (closed at once).
    pub void: bool,
}

impl RunStep {
    /// An element opened in the current node, nothing else.
    const OPEN: RunStep = RunStep {
        close: 0,
        implied: &[],
        void: false,
    };
}

impl TreeBuilder {
    /// Starts `run` here: `false` (and nothing to check) unless the builder's
    /// state is plain (see [`AppendRun`]).
    pub fn start_append_run(&self, run: &mut AppendRun) -> bool {
        run.open.clear();
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
        run.table_ok = self.reset_mode() == self.mode;
        run.room = room;
        run.formatting_room = self.config.max_active_formatting.max(3);
        true
    }
}

/// Whether `name` is a table section (`tbody`, `thead`, `tfoot`).
fn is_section(name: Atom) -> bool {
    matches!(name, atom::TBODY | atom::THEAD | atom::TFOOT)
}

/// Whether text in an element `name` of the run's goes through "in table
/// text" (the builder's mode is then "in table", "in table body" or "in row").
fn is_table_context(name: Atom) -> bool {
    name == atom::TABLE || name == atom::TR || is_section(name)
}

impl AppendRun {
    /// What `tag` does here, if it only appends ([`RunStep`]); `None`: the
    /// run cannot take it. An element not void stays open until an end tag
    /// ([`end`](Self::end)) or a later start tag ([`RunStep::close`]) closes it.
    pub fn start(&mut self, tag: &OwnedTag) -> Option<RunStep> {
        use atom::*;
        let name = tag.name().atom()?;
        if matches!(name, CAPTION | TBODY | THEAD | TFOOT | TR | TD | TH) {
            return self.table_start(name);
        }
        let top = self.open.last().copied();
        if top.is_some_and(is_table_context) {
            // Fostered (or a parse error): not an append.
            return None;
        }
        let current = top.or(self.current)?;
        if self.open.len() > self.room {
            return None;
        }
        if Self::is_void(name) {
            // A `meta` goes through "in head", where one declaring an
            // encoding asks for a change.
            let declares = name == META
                && tag
                    .attrs()
                    .iter()
                    .any(|a| a.name.is(CHARSET) || a.name.is(HTTP_EQUIV));
            return (!declares).then_some(RunStep {
                void: true,
                ..RunStep::OPEN
            });
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
            | FOOTER | HEADER | MAIN | NAV | OL | P | SECTION | UL => !self.p_in_scope(),
            TABLE => self.table_ok && !self.p_in_scope(),
            H1 | H2 | H3 | H4 | H5 | H6 => !self.p_in_scope() && !tag_sets::is_heading(current),
            LI => !self.p_in_scope() && (current == UL || current == OL),
            DD | DT => !self.p_in_scope() && current == DL,
            _ => false,
        };
        if !ok {
            return None;
        }
        self.open.push(name);
        Some(RunStep::OPEN)
    }

    /// A table structure start tag (`caption`, a section, `tr`, `td`,
    /// `th`): taken only where the run's current node is its own table,
    /// section, row, cell or caption, as the table model has it.
    fn table_start(&mut self, name: Atom) -> Option<RunStep> {
        use atom::*;
        let mut depth = self.open.len();
        let implied: &'static [Atom] = loop {
            let top = *self.open.get(depth.checked_sub(1)?)?;
            let at_top = depth == self.open.len();
            match (top, name) {
                (TABLE, CAPTION | TBODY | THEAD | TFOOT) => break &[],
                (TABLE, TR) => break &[TBODY],
                (TABLE, TD | TH) => break &[TBODY, TR],
                (TBODY | THEAD | TFOOT, TR) => break &[],
                (TBODY | THEAD | TFOOT, TD | TH) => break &[TR],
                (TR, TD | TH) => break &[],
                // The section, row or (only as the current node) cell or
                // caption closes, and the tag is taken where it was.
                (TBODY | THEAD | TFOOT, CAPTION | TBODY | THEAD | TFOOT)
                | (TR, TR | CAPTION | TBODY | THEAD | TFOOT) => depth -= 1,
                (TD | TH | CAPTION, _) if at_top => depth -= 1,
                _ => return None,
            }
        };
        // Each element inserted where the depth limit allows it.
        if depth + implied.len() > self.room {
            return None;
        }
        let close = self.open.len() - depth;
        self.open.truncate(depth);
        self.open.extend_from_slice(implied);
        self.open.push(name);
        Some(RunStep {
            close,
            implied,
            void: false,
        })
    }

    /// Whether a `p` is in button scope (the run's own, or the builder's
    /// below the run's last table, cell or caption if none).
    fn p_in_scope(&self) -> bool {
        for &n in self.open.iter().rev() {
            if n == atom::P {
                return true;
            }
            if matches!(n, atom::TABLE | atom::TD | atom::TH | atom::CAPTION) {
                return false;
            }
        }
        self.p_in_button_scope
    }

    /// Whether [`start`](Self::start) takes `name` as a void element (`br`,
    /// `wbr`, `img`, `link`, `meta`: inserted and closed at once).
    pub fn is_void(name: Atom) -> bool {
        [atom::BR, atom::WBR, atom::IMG, atom::LINK, atom::META].contains(&name)
    }

    /// How many of the run's open elements the end tag `tag` closes (its
    /// own, the current node, or a `</table>`, `</tr>` or section end tag
    /// closing the run's open cell, row and section down to its element);
    /// `None`: the run cannot take it.
    pub fn end(&mut self, tag: &OwnedTag) -> Option<usize> {
        use atom::*;
        let name = tag.name().atom()?;
        let top = *self.open.last()?;
        if top != name {
            if !is_table_context(name) {
                return None;
            }
            let mut depth = self.open.len();
            loop {
                let n = *self.open.get(depth.checked_sub(1)?)?;
                if n == name {
                    break;
                }
                let ok = match n {
                    TD | TH => depth == self.open.len(),
                    CAPTION => depth == self.open.len() && name == TABLE,
                    TR => true,
                    TBODY | THEAD | TFOOT => name == TABLE,
                    _ => false,
                };
                if !ok {
                    return None;
                }
                depth -= 1;
            }
            let closed = self.open.len() - depth + 1;
            self.open.truncate(depth - 1);
            return Some(closed);
        }
        self.open.pop();
        Some(1)
    }

    /// Whether a comment only appends here (below the depth limit).
    pub fn comment(&self) -> bool {
        self.open.len() <= self.room
    }

    /// Whether `text` only appends: no U+0000, which "in body" drops, and
    /// in a table's own modes ASCII whitespace only (other text is fostered).
    pub fn text(&self, text: &str) -> bool {
        if self.open.last().copied().is_some_and(is_table_context) {
            text.bytes()
                .all(|b| matches!(b, b'\t' | b'\n' | b'\x0c' | b'\r' | b' '))
        } else {
            !super::modes::has_nul(text)
        }
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
                    Some(step) => (true, step.void),
                    None => (false, false),
                },
                OwnedToken::EndTag(tag) => {
                    let ok = run.end(tag).is_some();
                    (ok, ok)
                }
                OwnedToken::Comment(_) => (run.comment(), run.comment()),
                OwnedToken::Characters(c) => (run.text(c.text()), false),
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
            "h3", "table", "td", "th", "tr", "tbody", "thead", "tfoot", "caption", "colgroup",
            "col", "br", "img", "meta", "pre", "button", "nobr", "select", "template", "svg",
        ];
        prop_oneof![
            proptest::sample::select(names.to_vec()).prop_map(OwnedToken::start),
            proptest::sample::select(names.to_vec()).prop_map(OwnedToken::end),
            proptest::sample::select(vec!["x", " ", "\n", "a\0b", "", " \0"])
                .prop_map(OwnedToken::text),
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
            "table", "tr", "th", "tbody", "caption",
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

    /// A table's tokens as wikitext makes them (start tags only for its
    /// rows and cells, whitespace between them, optional end tags), with
    /// nested content in its cells and caption.
    fn table() -> impl Strategy<Value = Vec<OwnedToken>> {
        let part = prop_oneof![
            proptest::sample::select(vec!["tr", "td", "th", "caption", "tbody", "thead"])
                .prop_map(|n| vec![OwnedToken::start(n)]),
            proptest::sample::select(vec!["tr", "td", "th", "caption", "tbody", "table"])
                .prop_map(|n| vec![OwnedToken::end(n)]),
            proptest::sample::select(vec!["\n", " ", "x", ""])
                .prop_map(|t| vec![OwnedToken::text(t)]),
            Just(vec![OwnedToken::comment("c")]),
            nested(),
        ];
        (proptest::collection::vec(part, 0..10), proptest::bool::ANY).prop_map(|(parts, close)| {
            let mut tokens = vec![OwnedToken::start("table")];
            tokens.extend(parts.into_iter().flatten());
            if close {
                tokens.push(OwnedToken::end("table"));
            }
            tokens
        })
    }

    proptest! {
        #[test]
        fn table_runs_only_append(
            parts in proptest::collection::vec(
                prop_oneof![table(), nested(), token().prop_map(|t| vec![t])],
                0..8,
            ),
            nest in proptest::bool::ANY,
        ) {
            let mut tokens: Vec<OwnedToken> = parts.into_iter().flatten().collect();
            if nest {
                // Inside a cell of the builder's (a run starts "in cell").
                let mut outer = vec![
                    OwnedToken::start("table"),
                    OwnedToken::start("td"),
                ];
                outer.append(&mut tokens);
                tokens = outer;
            }
            check(&tokens, TreeBuilderConfig::default());
            let tight = TreeBuilderConfig {
                max_depth: 6,
                max_active_formatting: 3,
                ..TreeBuilderConfig::default()
            };
            check(&tokens, tight);
        }

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
        let open = Some(RunStep::OPEN);
        assert_eq!(run.start(&OwnedTag::new(atom::SPAN)), open);
        assert_eq!(run.start(&OwnedTag::new(atom::DIV)), None);
        assert_eq!(run.start(&OwnedTag::new(atom::LI)), None);
        let charset = OwnedTag::new(atom::META).with_attr("charset", "utf-8");
        assert_eq!(run.start(&charset), None);
        let void = RunStep {
            void: true,
            ..RunStep::OPEN
        };
        assert_eq!(run.start(&OwnedTag::new(atom::META)), Some(void));
    }

    #[test]
    fn tables_follow_the_table_model() {
        let s = OwnedToken::start;
        let e = OwnedToken::end;
        let t = OwnedToken::text;
        // As wikitext makes them: start tags only for rows and cells.
        let page = [
            s("table"),
            t("\n"),
            s("caption"),
            t("c"),
            s("tr"),
            t("\n"),
            s("th"),
            t("h"),
            s("th"),
            s("tr"),
            s("td"),
            s("p"),
            t("x"),
            e("p"),
            s("table"),
            s("td"),
            e("table"),
            s("td"),
            t("y\n"),
            e("table"),
        ];
        assert_eq!(check(&page, TreeBuilderConfig::default()), 1);
        let mut tb = TreeBuilder::new(TreeBuilderConfig::default());
        assert!(tb.process_owned(&s("body")).is_ok());
        let mut run = AppendRun::default();
        assert!(tb.start_append_run(&mut run));
        let tag = |n| OwnedTag::new(n);
        assert_eq!(run.start(&tag(atom::TABLE)), Some(RunStep::OPEN));
        // Text other than whitespace is fostered; a row gets a `tbody`.
        assert!(!run.text("x") && run.text(" \n"));
        let row = RunStep {
            implied: &[atom::TBODY],
            ..RunStep::OPEN
        };
        assert_eq!(run.start(&tag(atom::TR)), Some(row));
        assert_eq!(run.start(&tag(atom::TD)), Some(RunStep::OPEN));
        assert!(run.text("x"));
        let next_row = RunStep {
            close: 2,
            ..RunStep::OPEN
        };
        assert_eq!(run.start(&tag(atom::TR)), Some(next_row));
        assert_eq!(run.start(&tag(atom::TD)), Some(RunStep::OPEN));
        assert_eq!(run.start(&tag(atom::B)), Some(RunStep::OPEN));
        // Not from inside the cell's content.
        assert_eq!(run.start(&tag(atom::TD)), None);
        assert_eq!(run.end(&tag(atom::TABLE)), None);
        assert_eq!(run.end(&tag(atom::B)), Some(1));
        assert_eq!(run.end(&tag(atom::TABLE)), Some(4));
        assert_eq!(run.depth(), 0);
        // No cell of the builder's is closed by the run.
        let mut tb = TreeBuilder::new(TreeBuilderConfig::default());
        for token in [s("body"), s("table"), s("td")] {
            assert!(tb.process_owned(&token).is_ok());
        }
        assert!(tb.start_append_run(&mut run));
        assert_eq!(run.start(&tag(atom::TD)), None);
        assert_eq!(run.start(&tag(atom::TR)), None);
        assert_eq!(run.end(&tag(atom::TD)), None);
    }
}
