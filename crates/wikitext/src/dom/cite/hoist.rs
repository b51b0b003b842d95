//! Refs inside links (Cite's `insertChildOutsideOfLink`): a footnote marker is
//! itself a link, so a ref written inside `[[…|…]]` or `[url …]` goes right
//! after the link (several keep their order).

use super::super::{Element, Node};
use super::placeholder;

/// How deep inside a link refs are looked for (deeper ones stay).
const MAX_LINK_DEPTH: usize = 256;

/// Moves the ref placeholders inside `<a>` elements under `nodes` to just
/// after their link.
pub(super) fn hoist_out_of_links(nodes: &mut Vec<Node>) {
    let mut stack: Vec<&mut Vec<Node>> = vec![nodes];
    while let Some(list) = stack.pop() {
        let mut i = 0;
        while i < list.len() {
            let hoisted = match list.get_mut(i) {
                Some(Node::Element(a)) if a.name == "a" => {
                    let mut out = Vec::new();
                    take_refs(a, 0, &mut out);
                    out
                }
                _ => Vec::new(),
            };
            let n = hoisted.len();
            for (k, node) in hoisted.into_iter().enumerate() {
                list.insert(i + 1 + k, node);
            }
            i += 1 + n;
        }
        for child in list.iter_mut() {
            if let Node::Element(e) = child
                && e.name != "a"
            {
                stack.push(&mut e.children);
            }
        }
    }
}

/// Removes the ref placeholders under `e`, in document order, into `out`.
fn take_refs(e: &mut Element, depth: usize, out: &mut Vec<Node>) {
    if depth > MAX_LINK_DEPTH {
        return;
    }
    // No placeholder among the children (most links): the list stays, the
    // children's are looked at.
    if !e
        .children
        .iter()
        .any(|c| matches!(c, Node::Element(c) if placeholder::kind(c) == Some(placeholder::REF)))
    {
        for child in &mut e.children {
            if let Node::Element(c) = child {
                take_refs(c, depth + 1, out);
            }
        }
        return;
    }
    let mut kept = Vec::with_capacity(e.children.len());
    for mut child in std::mem::take(&mut e.children) {
        match &mut child {
            Node::Element(c) if placeholder::kind(c) == Some(placeholder::REF) => out.push(child),
            Node::Element(c) => {
                take_refs(c, depth + 1, out);
                kept.push(child);
            }
            _ => kept.push(child),
        }
    }
    e.children = kept;
}
