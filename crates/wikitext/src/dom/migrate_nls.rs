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
    matches!(
        name,
        "a" | "b"
            | "big"
            | "code"
            | "em"
            | "font"
            | "i"
            | "nobr"
            | "s"
            | "small"
            | "strike"
            | "strong"
            | "tt"
            | "u"
    )
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

/// The pass on the elements none of whose proper ancestors is unmarked
/// ([`super::Marked`]): the page's other elements had it in pwrap's walk
/// (`pwrap::pwrap`'s `unmarked`), before the marker passes, which do not
/// look into an unmarked element's subtree (the pass's work there is the
/// same before them as after). Iterative: the tree may be deep.
pub(crate) fn migrate_marked(nodes: &mut [Node]) {
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

    /// The page's split: `migrate_at` on the elements below an unmarked
    /// one (in any order, here parents first), then `migrate_marked`, is
    /// the whole pass.
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
        let mut split = nodes;
        fn below_unmarked(nodes: &mut [Node], below: bool) {
            for n in nodes {
                let Node::Element(e) = n else { continue };
                if below {
                    migrate_at(e);
                }
                let below = below || !e.marked_below();
                below_unmarked(&mut e.children, below);
            }
        }
        below_unmarked(&mut split, false);
        migrate_marked(&mut split);
        assert_eq!(split, whole);
        assert_eq!(
            whole.first(),
            Some(&el("p", vec![el("b", vec![text("x")]), text("\n")]))
        );
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
