//! The tree of a flat token run without the tree builder: a ref body that is
//! text, links and call markers only (most of the corpus's non-plain bodies:
//! a citation template's output) is a list of text, `meta`/`link` and
//! properly nested `a`/`span` elements. For such runs the tree builder (in
//! `<body>`, fragment or document) does nothing but append: no element
//! closes another, no formatting element is reconstructed, no text is
//! fostered. Anything else is `None` and goes the whole way.

use tagloom_html::atom;
use tagloom_html::token::{OwnedTag, OwnedToken};

use super::patch_tree::AttrHandoff;
use super::{Element, Marked, Node};
use crate::token::{Tok, WikiToken};

/// Start tags the run may hold: void ones (closed at once) and containers
/// that must be closed by their own end tag while they are the current node.
fn kind(tag: &OwnedTag) -> Option<bool> {
    let name = tag.name();
    if name.is(atom::META) || name.is(atom::LINK) {
        Some(true)
    } else if name.is(atom::A) || name.is(atom::SPAN) {
        Some(false)
    } else {
        None
    }
}

/// Whether `tag`'s attribute names are distinct (the tree builder keeps a
/// token's list as it is; a repeated name is left to it).
fn distinct_attrs(tag: &OwnedTag) -> bool {
    let attrs = tag.attrs();
    attrs.iter().enumerate().all(|(i, a)| {
        attrs
            .get(..i)
            .is_some_and(|before| before.iter().all(|b| b.name.as_str() != a.name.as_str()))
    })
}

/// An element made from a start tag; its `marked` is set when it closes.
fn element(mut tag: OwnedTag) -> Element {
    let name = tag.name().clone().into_cow();
    let attrs = AttrHandoff::into_tree_attrs(std::mem::take(tag.attrs_mut()));
    Element {
        name,
        attrs,
        children: Vec::new(),
        marked: Marked::MAYBE,
    }
}

/// Sets `e.marked` as the tree's construction does (`patch_tree`): whether
/// anything below concerns the marker passes.
fn close(mut e: Element) -> Node {
    let below = e.children.iter().any(|c| match c {
        Node::Element(c) => c.marked_below() || Marked::concerns(c),
        _ => false,
    });
    e.marked = if below { Marked::MAYBE } else { Marked::NONE };
    Node::Element(e)
}

/// Appends `node` to the open element or the roots; text joins a text
/// node just before it (the tree builder inserts characters so).
fn append(open: &mut [Element], roots: &mut Vec<Node>, node: Node) {
    let list = match open.last_mut() {
        Some(parent) => &mut parent.children,
        None => roots,
    };
    match (list.last_mut(), node) {
        (Some(Node::Text(last)), Node::Text(t)) => last.push_str(&t),
        (_, node) => list.push(node),
    }
}

/// The tree `tokens` build in `<body>`, if they are a flat run (see the
/// module's note); `None` otherwise (`tokens` is then left as it was).
pub(crate) fn build(tokens: &mut Vec<WikiToken>) -> Option<Vec<Node>> {
    if !tokens.iter().all(|t| match &t.tok {
        Tok::Html(OwnedToken::StartTag(tag)) => kind(tag).is_some() && distinct_attrs(tag),
        Tok::Html(OwnedToken::EndTag(tag)) => kind(tag) == Some(false),
        Tok::Html(OwnedToken::Characters(t)) => !t.text().is_empty() && !t.text().contains('\0'),
        Tok::Eof => true,
        _ => false,
    }) {
        return None;
    }
    // Nesting: every end tag closes the current node; no `a` inside an `a`.
    let mut names: Vec<bool> = Vec::new();
    for t in tokens.iter() {
        match &t.tok {
            Tok::Html(OwnedToken::StartTag(tag)) if kind(tag) == Some(false) => {
                let is_a = tag.name().is(atom::A);
                if is_a && names.contains(&true) {
                    return None;
                }
                names.push(is_a);
            }
            Tok::Html(OwnedToken::EndTag(tag)) if names.pop() != Some(tag.name().is(atom::A)) => {
                return None;
            }
            _ => {}
        }
    }
    let mut roots = Vec::new();
    let mut open: Vec<Element> = Vec::new();
    for t in tokens.drain(..) {
        match t.tok {
            Tok::Html(OwnedToken::StartTag(tag)) => {
                let void = kind(&tag) == Some(true);
                let e = element(tag);
                if void {
                    append(&mut open, &mut roots, close(e));
                } else {
                    open.push(e);
                }
            }
            Tok::Html(OwnedToken::EndTag(_)) => {
                if let Some(e) = open.pop() {
                    append(&mut open, &mut roots, close(e));
                }
            }
            Tok::Html(OwnedToken::Characters(mut t)) => {
                append(&mut open, &mut roots, Node::Text(t.take_text()));
            }
            _ => {}
        }
    }
    // Elements left open end with the input.
    while let Some(e) = open.pop() {
        append(&mut open, &mut roots, close(e));
    }
    Some(roots)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::RenderOptions;
    use crate::render::{Page, render_inline};
    use std::rc::Rc;
    use std::sync::Arc;

    /// `body`'s tokens as an inline render makes them, built flat.
    fn flat(body: &str) -> Option<Vec<Node>> {
        let page = Page::new(Arc::new(RenderOptions::default()), Arc::from(Vec::new()));
        let mut tokens =
            crate::tokenize::tokenize_with(body, &page.calls, &page.options.preprocess.site);
        crate::transform::links::resolve_links(&mut tokens, &page.options, &page.title);
        build(&mut tokens)
    }

    #[test]
    fn flat_bodies_build_what_the_tree_builder_builds() {
        // Debug builds compare each flat render with the pipeline's.
        for body in [
            "[[Some page]]",
            "[[a|b]] and [[c]]s",
            "[http://example.org x] y",
            "x: [[Foo]], [[Bar]]",
            "<span>x</span> [[y]]",
            "[[Category:X]] text",
        ] {
            assert!(flat(body).is_some(), "{body}");
            let page = Rc::new(Page::new(
                Arc::new(RenderOptions::default()),
                Arc::from(Vec::new()),
            ));
            assert!(!render_inline(body, &page, 1).is_empty(), "{body}");
            page.release_renderers();
        }
        for body in ["''x''", "a\nb", "<b>x</b>", "* item"] {
            assert!(flat(body).is_none(), "{body}");
        }
    }
}
