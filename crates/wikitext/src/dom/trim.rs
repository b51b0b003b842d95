//! Parsoid's CleanUp `trimWhiteSpace` for elements made by wikitext syntax
//! (table cells and captions here; Parsoid also trims list items and
//! headings): leading and trailing spaces and tabs go, past
//! rendering-transparent nodes.

use super::{Element, Node};

/// Rendering-transparent for whitespace trimming: comments, `meta` and
/// `link` (a transclusion marker is not: the call's output starts there).
fn transparent(node: &Node) -> bool {
    match node {
        Node::Comment(_) => true,
        Node::Element(e) => {
            matches!(&*e.name, "meta" | "link")
                && !e
                    .attr("typeof")
                    .is_some_and(|t| t.starts_with("mw:Transclusion"))
        }
        Node::Text(_) => false,
    }
}

fn blank(s: &str) -> bool {
    s.bytes().all(|b| b == b' ' || b == b'\t')
}

/// Trims `e`'s content: spaces and tabs at the start (past comments) and at
/// the end (before comments) go; a last newline (the line's end, which our
/// cells hold) stays last.
pub(crate) fn trim_whitespace(e: &mut Element) {
    let mut i = 0;
    while let Some(c) = e.children.get(i) {
        match c {
            Node::Text(t) if blank(t) => {
                e.children.remove(i);
            }
            c if transparent(c) => i += 1,
            _ => break,
        }
    }
    if let Some(Node::Text(t)) = e.children.get_mut(i) {
        let trimmed = t.trim_start_matches([' ', '\t']);
        if trimmed.len() != t.len() {
            *t = trimmed.to_owned().into();
        }
    }
    // The line's newline ends our cells (Parsoid's end before it): it stays
    // last, the trimming happens before it.
    let newline = match e.children.last_mut() {
        Some(Node::Text(t)) if t.ends_with('\n') => {
            t.pop();
            if t.is_empty() {
                e.children.pop();
            }
            true
        }
        _ => false,
    };
    let mut j = e.children.len();
    while j > 0 {
        match e.children.get(j - 1) {
            Some(Node::Text(t)) if blank(t) => {
                e.children.remove(j - 1);
                j -= 1;
            }
            Some(c) if transparent(c) => j -= 1,
            _ => break,
        }
    }
    if let Some(Node::Text(t)) = j.checked_sub(1).and_then(|k| e.children.get_mut(k)) {
        let trimmed = t.trim_end_matches([' ', '\t']);
        if trimmed.len() != t.len() && !trimmed.is_empty() {
            *t = trimmed.to_owned().into();
        }
    }
    if newline {
        match e.children.last_mut() {
            Some(Node::Text(t)) => t.push('\n'),
            _ => e.children.push(Node::Text("\n".into())),
        }
    }
}
