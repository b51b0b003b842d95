//! Parsoid's empty-element flag: an empty `p`, `li`, `tr` or `tbody` without
//! attributes gets `class="mw-empty-elt"` (so wikis can hide it).

use super::{Element, Node};

/// Whether an element named `name` may get the empty-element class.
pub(crate) fn flaggable(name: &str) -> bool {
    matches!(name, "li" | "tbody" | "tr" | "p")
}

pub(crate) fn is_empty(e: &Element) -> bool {
    e.children.iter().all(|c| match c {
        Node::Comment(_) => true,
        // Bytes: the four are ASCII, and no other character has an ASCII byte.
        Node::Text(t) => t.bytes().all(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n')),
        // Emptiness first: it is told by the first child that is not (most
        // elements have text), the type only read of an empty element.
        Node::Element(inner) => {
            matches!(&*inner.name, "meta" | "link")
                || (is_empty(inner) && (flaggable(&inner.name) || inner.has_type("mw:Nowiki")))
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

/// Whether `e`'s children are inside template output (under a node with an
/// `about`), given whether `e` is (`in_tpl`).
pub(crate) fn in_template(e: &Element, in_tpl: bool) -> bool {
    in_tpl || e.attr(TEMPLATE_ATTR).is_some()
}

/// The attribute of the nodes of template output (their `about` id).
pub(crate) const TEMPLATE_ATTR: &str = "about";

/// Whether `c`, a child inside template output, is removed (Parsoid's
/// CleanUp): an empty `li` or `tr` that is not the encapsulation's first
/// node and holds nothing rendering-transparent.
pub(crate) fn removed(c: &Node) -> bool {
    matches!(c, Node::Element(inner)
        if matches!(&*inner.name, "li" | "tr")
            && !inner.has_type("mw:Transclusion")
            && inner.attrs.iter().all(|(k, _)| k == "about")
            && is_empty(inner)
            && !has_transparent(inner))
}

/// Whether `e` gets the empty-element class (`e`'s [`removed`] children
/// make no difference: they are empty `li`s and `tr`s).
pub(crate) fn flags(e: &Element) -> bool {
    flaggable(&e.name) && flags_flaggable(e)
}

/// [`flags`] of an element whose name is [`flaggable`] (a caller that has
/// told the name already).
pub(crate) fn flags_flaggable(e: &Element) -> bool {
    e.attrs.is_empty() && is_empty(e)
}

/// The class an empty element gets.
pub(crate) const EMPTY_CLASS: &str = "mw-empty-elt";

/// Flags `e` when it is empty ([`flags`]); inside template output
/// ([`in_template`]) its [`removed`] children go. Whether `e`'s children are
/// inside template output. Called on every element, parents first (before
/// any other change to the children: [`super::flag_empty_and_display_space`]).
pub(crate) fn flag_element(e: &mut Element, in_tpl: bool) -> bool {
    let tpl = in_template(e, in_tpl);
    if tpl {
        e.children.retain(|c| !removed(c));
    }
    if flags(e) {
        e.attrs.push(("class".into(), EMPTY_CLASS.into()));
    }
    tpl
}
