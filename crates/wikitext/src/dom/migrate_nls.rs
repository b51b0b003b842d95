//! Parsoid's MigrateTrailingNLs, for inline content: the trailing newlines of
//! the rightmost inline element of a block that ends a wikitext line
//! (paragraph, list item, table cell, caption) leave that element (and its
//! inline ancestors) to end the block itself. Our tree has no record of
//! which end tags were written, so only the rightmost chain is considered,
//! which is where an end tag the tree builder supplied leaves the line's
//! newline, and only formatting elements (which the tree builder closes at
//! a block's end) are left; encapsulated content keeps its own. Table rows
//! are `table_fixups`' part.

use super::{Element, Node};

/// Blocks that end a line in wikitext: `p`, `li`, `dd`, `dt`, `td`, `th`,
/// `caption`. Asked of nearly every element of a page, so told by the
/// name's length first and a two-byte name as one number (no string
/// compare per candidate).
fn ends_line(name: &str) -> bool {
    const fn two(name: &[u8; 2]) -> u16 {
        u16::from_le_bytes(*name)
    }
    const LI: u16 = two(b"li");
    const DD: u16 = two(b"dd");
    const DT: u16 = two(b"dt");
    const TD: u16 = two(b"td");
    const TH: u16 = two(b"th");
    match name.as_bytes() {
        [b'p'] => true,
        &[a, b] => matches!(two(&[a, b]), LI | DD | DT | TD | TH),
        b => b == b"caption",
    }
}

/// The formatting elements the tree builder closes (and reopens) itself:
/// the ones whose end tag at a line's end is the tree builder's rather than
/// written (Parsoid's `autoInsertedEnd`).
fn formatting(name: &str) -> bool {
    match name.as_bytes() {
        [c] => matches!(c, b'a' | b'b' | b'i' | b's' | b'u'),
        b"em" | b"tt" | b"big" | b"code" | b"font" | b"nobr" | b"small" | b"strike" | b"strong" => {
            true
        }
        _ => false,
    }
}

/// Takes the trailing newlines out of the rightmost inline chain of `e`'s
/// last child; they come back to be pushed at `e`'s end.
#[inline(never)]
fn take_from_last(e: &mut Element) -> String {
    let Some(Node::Element(last)) = e.children.last_mut() else {
        return String::new();
    };
    if !formatting(&last.name) || last.attr("typeof").is_some() || last.attr("about").is_some() {
        return String::new();
    }
    let mut nls = take_from_last(last);
    if let Some(Node::Text(t)) = last.children.last_mut() {
        let kept = t.trim_end_matches('\n').len();
        if kept < t.len() {
            nls.insert_str(0, t.get(kept..).unwrap_or(""));
            t.to_mut().truncate(kept);
            if t.is_empty() {
                last.children.pop();
            }
        }
    }
    nls
}

/// The pass on one element: a block that ends a line gets the trailing
/// newlines of its rightmost inline chain. What it changes (texts of the
/// chain, `e`'s own children) is below `e` and above any other such block,
/// so the blocks can be visited in any order. Inline: it is asked of most
/// elements, and most are not such blocks.
#[inline]
pub(crate) fn migrate_at(e: &mut Element) {
    if !ends_line(&e.name) {
        return;
    }
    let nls = take_from_last(e);
    if !nls.is_empty() {
        match e.children.last_mut() {
            Some(Node::Text(t)) => t.push_str(&nls),
            _ => e.children.push(Node::Text(nls.into())),
        }
    }
}

#[cfg(any(test, debug_assertions))]
fn walk(nodes: &mut [Node]) {
    for node in nodes {
        let Node::Element(e) = node else { continue };
        // Most elements hold only text, or nothing.
        if e.children.iter().any(|c| matches!(c, Node::Element(_))) {
            walk(&mut e.children);
        }
        migrate_at(e);
    }
}

/// Runs the pass over the body's children (whole: the render does it inside
/// other passes' walks, which debug builds check against this).
#[cfg(any(test, debug_assertions))]
pub(crate) fn migrate_trailing_nls(nodes: &mut [Node]) {
    walk(nodes);
}

/// A page's pass in two parts: [`Split::early`] on every element pwrap's
/// walk visits (before the marker passes), [`Split::late`] after them.
#[derive(Default)]
pub(crate) struct Split {
    /// Whether the late part may have work: a formatting element seen
    /// holding a text that ends with a newline and could be its last child
    /// after the marker passes ([`may_end_chain`]). Most pages have none:
    /// the late walk is skipped.
    late: bool,
}

impl Split {
    /// The early part on `e`, a node pwrap's walk visits (an element with
    /// children), `below_unmarked` when a proper ancestor of `e` is
    /// unmarked ([`super::Marked`]): the pass itself there (the marker
    /// passes do not look into an unmarked element's subtree, so its work
    /// there is the same before them as after); elsewhere a look for what
    /// the late part could find.
    #[inline]
    pub(crate) fn early(&mut self, e: &mut Element, below_unmarked: bool) {
        if below_unmarked {
            migrate_at(e);
        }
        if !self.late && may_end_chain(e) {
            self.late = true;
        }
    }

    /// The late part, after the marker passes: the elements none of whose
    /// proper ancestors is unmarked ([`migrate_marked`]), if the early part
    /// saw anything it could move.
    pub(crate) fn late(self, nodes: &mut [Node]) {
        if self.late {
            migrate_marked(nodes);
        }
    }
}

/// Whether `e` is a formatting element holding a text that ends with a
/// newline and could end a chain after the marker passes: its last child
/// when nothing below `e` concerns them (they leave its children as they
/// are), any text child otherwise (a marker after it may go). The passes
/// make no formatting element and no text ending with a newline inside one.
fn may_end_chain(e: &Element) -> bool {
    let newline = |n: &Node| matches!(n, Node::Text(t) if t.ends_with('\n'));
    formatting(&e.name)
        && if e.marked_below() {
            e.children.iter().any(newline)
        } else {
            e.children.last().is_some_and(newline)
        }
}

/// The pass on the elements none of whose proper ancestors is unmarked
/// ([`super::Marked`]): a page's other elements had it in pwrap's walk
/// ([`Split::early`]). Iterative: the tree may be deep.
fn migrate_marked(nodes: &mut [Node]) {
    fn elements(list: &mut [Node]) -> impl Iterator<Item = &mut Element> {
        list.iter_mut().filter_map(|n| match n {
            Node::Element(e) => Some(e),
            _ => None,
        })
    }
    let mut stack: Vec<&mut Element> = elements(nodes).collect();
    while let Some(e) = stack.pop() {
        migrate_at(e);
        if e.marked_below() {
            stack.extend(elements(&mut e.children));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::Marked;
    use crate::dom::test_nodes::{el, text};

    #[test]
    fn line_ending_blocks_are_told_by_name() {
        for name in ["p", "li", "dd", "dt", "td", "th", "caption"] {
            assert!(ends_line(name), "{name}");
        }
        for name in [
            "", "b", "i", "il", "tr", "dl", "hd", "pre", "captio", "captions", "div",
        ] {
            assert!(!ends_line(name), "{name}");
        }
    }

    /// pwrap's walk's part ([`Split::early`]) on every element with
    /// children, parents first.
    fn early(nodes: &mut [Node], below: bool, part: &mut Split) {
        for n in nodes {
            let Node::Element(e) = n else { continue };
            if e.children.is_empty() {
                continue;
            }
            part.early(e, below);
            let below = below || !e.marked_below();
            early(&mut e.children, below, part);
        }
    }

    /// A page's split ([`Split`]) is the whole pass; its late part is
    /// skipped when the early one saw nothing for it.
    #[test]
    fn the_split_pass_is_the_whole_pass() {
        let chain = || el("p", vec![el("b", vec![text("x\n")])]);
        let mut unmarked = Element::new("div");
        unmarked.children = vec![
            chain(),
            el("ul", vec![el("li", vec![el("i", vec![text("y\n\n")])])]),
        ];
        unmarked.marked = Marked::NONE;
        let nodes = vec![chain(), el("div", vec![Node::Element(unmarked), chain()])];
        let mut whole = nodes.clone();
        migrate_trailing_nls(&mut whole);
        assert_eq!(
            whole.first(),
            Some(&el("p", vec![el("b", vec![text("x")]), text("\n")]))
        );
        let mut split = nodes;
        let mut part = Split::default();
        early(&mut split, false, &mut part);
        assert!(part.late);
        part.late(&mut split);
        assert_eq!(split, whole);
        // Nothing left for it: skipped.
        let mut part = Split::default();
        early(&mut split, false, &mut part);
        assert!(!part.late);
        // A text a marker follows may end the chain after the marker passes.
        let mut small = Element::new("small");
        small.children = vec![text("x\n"), el("meta", vec![])];
        assert!(may_end_chain(&small));
        small.marked = Marked::NONE;
        assert!(!may_end_chain(&small));
    }

    #[test]
    fn newlines_leave_the_rightmost_inline_chain() {
        let mut nodes = vec![el(
            "td",
            vec![el(
                "small",
                vec![text("foo"), el("small", vec![text("\n")])],
            )],
        )];
        migrate_trailing_nls(&mut nodes);
        assert_eq!(
            nodes,
            vec![el(
                "td",
                vec![
                    el("small", vec![text("foo"), el("small", vec![])]),
                    text("\n")
                ]
            )]
        );
        let mut nodes = vec![el("p", vec![el("u", vec![text("x\n")])])];
        migrate_trailing_nls(&mut nodes);
        assert_eq!(
            nodes,
            vec![el("p", vec![el("u", vec![text("x")]), text("\n")])]
        );
    }

    #[test]
    fn blocks_and_non_final_elements_keep_theirs() {
        let kept = vec![el("li", vec![el("div", vec![text("x\n")]), text("y")])];
        let mut nodes = kept.clone();
        migrate_trailing_nls(&mut nodes);
        assert_eq!(nodes, kept);
        // Not formatting (its end tag is likely written), or encapsulated.
        for name in ["pre", "span", "ruby"] {
            let kept = vec![el("p", vec![el(name, vec![text("x\n")])])];
            let mut nodes = kept.clone();
            migrate_trailing_nls(&mut nodes);
            assert_eq!(nodes, kept);
        }
        let mut wrapper = Element::new("b");
        wrapper.attrs.push(("about".into(), "#mwt1".into()));
        wrapper.children.push(text("x\n"));
        let kept = vec![el("p", vec![Node::Element(wrapper)])];
        let mut nodes = kept.clone();
        migrate_trailing_nls(&mut nodes);
        assert_eq!(nodes, kept);
    }
}
