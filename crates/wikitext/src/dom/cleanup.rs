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

/// Whether an empty element holds rendering-transparent nodes (comments,
/// `meta`, `link`).
fn has_transparent(e: &Element) -> bool {
    e.children.iter().any(|c| match c {
        Node::Comment(_) => true,
        Node::Element(inner) => matches!(&*inner.name, "meta" | "link") || has_transparent(inner),
        Node::Text(_) => false,
    })
}

/// Flags `e` when it is empty; inside template output (under a node with
/// an `about`, `in_tpl`), an empty `li` or `tr` child that is not the
/// encapsulation's first node and holds nothing rendering-transparent is
/// removed instead (Parsoid's CleanUp). Whether `e`'s children are inside
/// template output. Called on every element, parents first (before any
/// other change to the children: [`super::flag_empty_and_display_space`]).
pub(crate) fn flag_element(e: &mut Element, in_tpl: bool) -> bool {
    let tpl = in_tpl || e.attr("about").is_some();
    if tpl {
        e.children.retain(|c| {
            !matches!(c, Node::Element(inner)
                if matches!(&*inner.name, "li" | "tr")
                    && !inner.has_type("mw:Transclusion")
                    && inner.attrs.iter().all(|(k, _)| k == "about")
                    && is_empty(inner)
                    && !has_transparent(inner))
        });
    }
    if flagged(&e.name) && e.attrs.is_empty() && is_empty(e) {
        e.attrs.push(("class".into(), "mw-empty-elt".into()));
    }
    tpl
}
