//! Parsoid's empty-element flag: an empty `p`, `li`, `tr` or `tbody` without
//! attributes gets `class="mw-empty-elt"` (so wikis can hide it).

use super::{Element, Node};

fn flagged(name: &str) -> bool {
    matches!(name, "li" | "tbody" | "tr" | "p")
}

pub(crate) fn is_empty(e: &Element) -> bool {
    e.children.iter().all(|c| match c {
        Node::Comment(_) => true,
        Node::Text(t) => t.chars().all(|c| matches!(c, ' ' | '\t' | '\r' | '\n')),
        Node::Element(inner) => {
            ((flagged(&inner.name) || inner.has_type("mw:Nowiki")) && is_empty(inner))
                || inner.name == "meta"
                || inner.name == "link"
        }
    })
}

/// Flags the empty elements under `nodes`.
pub(crate) fn flag_empty(nodes: &mut [Node]) {
    let mut stack: Vec<&mut Node> = nodes.iter_mut().collect();
    while let Some(node) = stack.pop() {
        if let Node::Element(e) = node {
            if flagged(&e.name) && e.attrs.is_empty() && is_empty(e) {
                e.attrs.push(("class".into(), "mw-empty-elt".into()));
            }
            stack.extend(e.children.iter_mut());
        }
    }
}
