//! Paragraphs for inline content the token pass left bare (Parsoid's PWrap DOM
//! pass): in `<body>` and in every `<blockquote>`, runs of inline nodes with
//! content go into a `<p>`. Formatting elements that hold a block are split
//! around it; comments, whitespace and metadata elements join an open paragraph
//! but do not start one, and trailing ones move back out of it.

use super::{Element, Node};
use tagloom_html::tree_builder::is_formatting_element;

fn only_inline(name: &str) -> bool {
    matches!(
        name,
        "a" | "abbr"
            | "acronym"
            | "applet"
            | "audio"
            | "b"
            | "basefont"
            | "bdi"
            | "bdo"
            | "big"
            | "br"
            | "button"
            | "cite"
            | "code"
            | "data"
            | "del"
            | "dfn"
            | "em"
            | "font"
            | "i"
            | "iframe"
            | "img"
            | "input"
            | "ins"
            | "kbd"
            | "label"
            | "legend"
            | "map"
            | "mark"
            | "object"
            | "param"
            | "q"
            | "rb"
            | "rbc"
            | "rp"
            | "rt"
            | "rtc"
            | "ruby"
            | "s"
            | "samp"
            | "select"
            | "small"
            | "source"
            | "span"
            | "strike"
            | "strong"
            | "sub"
            | "sup"
            | "textarea"
            | "time"
            | "track"
            | "tt"
            | "u"
            | "var"
            | "video"
            | "wbr"
    )
}

fn metadata(name: &str) -> bool {
    matches!(
        name,
        "base" | "link" | "meta" | "noscript" | "script" | "style" | "template" | "title"
    )
}

fn is_block(node: &Node) -> bool {
    matches!(node, Node::Element(e) if !only_inline(&e.name) && !metadata(&e.name))
}

fn has_block_element(e: &Element) -> bool {
    if !only_inline(&e.name) && !metadata(&e.name) {
        return true;
    }
    let mut stack: Vec<&Node> = e.children.iter().collect();
    while let Some(n) = stack.pop() {
        if is_block(n) {
            return true;
        }
        if let Node::Element(e) = n {
            stack.extend(e.children.iter());
        }
    }
    false
}

/// Content that neither needs nor prevents a paragraph.
fn optional(node: &Node) -> bool {
    match node {
        Node::Comment(_) => true,
        Node::Text(t) => t.chars().all(char::is_whitespace),
        Node::Element(e) if e.has_type("mw:Nowiki") => e.children.iter().all(optional),
        Node::Element(e) => metadata(&e.name),
    }
}

/// The wrap-ness of `node` when it is one part ([`split`] would not split
/// it): all but a formatting element with children.
fn whole(node: &Node) -> Option<Option<bool>> {
    if optional(node) {
        return Some(None);
    }
    let Node::Element(e) = node else {
        return Some(Some(true));
    };
    if !is_formatting_element(&e.name) || e.children.is_empty() {
        return Some(Some(!has_block_element(e)));
    }
    None
}

/// `Some(true)`: wrap; `Some(false)`: must not be wrapped; `None`: either.
fn split(node: Node, out: &mut Vec<(Option<bool>, Node)>) {
    let e = match (whole(&node), node) {
        (Some(wrap), node) => {
            out.push((wrap, node));
            return;
        }
        (None, Node::Element(e)) => e,
        // (`whole` answers for every node but an element.)
        (None, node) => {
            out.push((Some(true), node));
            return;
        }
    };
    let mut parts = Vec::new();
    let Element {
        name,
        attrs,
        children,
        ..
    } = e;
    for child in children {
        split(child, &mut parts);
    }
    // Merge runs of the same wrap-ness into clones of the element.
    let mut merged: Vec<(Option<bool>, Element)> = Vec::new();
    for (wrap, child) in parts {
        match merged.last_mut() {
            Some((w, el)) if w.is_none() || wrap.is_none() || *w == wrap => {
                if w.is_none() {
                    *w = wrap;
                }
                el.children.push(child);
            }
            _ => {
                let mut el = Element {
                    name: name.clone(),
                    attrs: attrs.clone(),
                    children: Vec::new(),
                    marked: super::Marked::MAYBE,
                };
                el.children.push(child);
                merged.push((wrap, el));
            }
        }
    }
    out.extend(merged.into_iter().map(|(w, e)| (w, Node::Element(e))));
}

/// Room the body's list keeps for the nodes later passes append (Cite's
/// auto-generated reference lists: a newline and a list per group). Without
/// it the first append moves the whole list (a page's top level is often
/// hundreds of nodes, and few are wrapped: the list is as long as it was).
const BODY_SPARE: usize = 4;

/// Wraps the inline runs among `children` (the result with room for
/// `spare` more nodes).
fn wrap_children(children: Vec<Node>, spare: usize) -> Vec<Node> {
    let mut out: Vec<Node> = Vec::with_capacity(children.len() + spare);
    // Index in `out` of the open paragraph.
    let mut open: Option<usize> = None;
    // One buffer for every child's parts.
    let mut parts = Vec::new();
    for child in children {
        if is_block(&child)
            && !(matches!(&child, Node::Element(e) if is_formatting_element(&e.name)))
        {
            close(&mut out, &mut open);
            out.push(child);
            continue;
        }
        // Most children are one part: placed without the buffer's moves.
        if let Some(wrap) = whole(&child) {
            place(wrap, child, &mut out, &mut open);
            continue;
        }
        split(child, &mut parts);
        for (wrap, node) in parts.drain(..) {
            place(wrap, node, &mut out, &mut open);
        }
    }
    close(&mut out, &mut open);
    out
}

/// Closes the open paragraph (at `open` in `out`), if any.
fn close(out: &mut Vec<Node>, open: &mut Option<usize>) {
    let Some(at) = open.take() else { return };
    // Trailing optional nodes move back out.
    let mut moved = Vec::new();
    if let Some(Node::Element(p)) = out.get_mut(at) {
        while p.children.last().is_some_and(optional) {
            if let Some(n) = p.children.pop() {
                moved.push(n);
            }
        }
    }
    moved.reverse();
    out.extend(moved);
}

/// Puts a part of wrap-ness `wrap` ([`split`]) at the end of `out`: in the
/// open paragraph (one opened for it if it must be wrapped) or after it.
fn place(wrap: Option<bool>, node: Node, out: &mut Vec<Node>, open: &mut Option<usize>) {
    match wrap {
        Some(false) => {
            close(out, open);
            out.push(node);
        }
        None => match open.and_then(|at| out.get_mut(at)) {
            Some(Node::Element(p)) => p.children.push(node),
            _ => out.push(node),
        },
        Some(true) => {
            if open.is_none() {
                out.push(Node::Element(Element::new("p")));
                *open = Some(out.len() - 1);
            }
            if let Some(Node::Element(p)) = open.and_then(|at| out.get_mut(at)) {
                p.children.push(node);
            }
        }
    }
}

/// Runs the pass on the children of `<body>`. The walk that looks for
/// blockquotes visits every element with children, so it also serves a
/// later pass: `visit` is called on each (after the blockquote above it, if
/// any, is wrapped), with whether a proper ancestor of it is unmarked
/// ([`Marked`](super::Marked): the marker passes leave its subtree as it is
/// here; `migrate_nls::Split::early`).
pub(crate) fn pwrap(body: Vec<Node>, visit: impl FnMut(&mut Element, bool)) -> Vec<Node> {
    let mut body = wrap_children(body, BODY_SPARE);
    inside_blockquotes(&mut body, visit);
    body
}

fn inside_blockquotes(nodes: &mut [Node], mut visit: impl FnMut(&mut Element, bool)) {
    // Only elements with children are visited (most nodes are texts or
    // empty elements): (element, below an unmarked element).
    fn push<'a>(list: &'a mut [Node], below: bool, stack: &mut Vec<(&'a mut Element, bool)>) {
        stack.extend(list.iter_mut().filter_map(|n| match n {
            Node::Element(e) if !e.children.is_empty() => Some((e, below)),
            _ => None,
        }));
    }
    let mut stack: Vec<(&mut Element, bool)> = Vec::new();
    push(nodes, false, &mut stack);
    while let Some((e, below)) = stack.pop() {
        if e.name == "blockquote" {
            let children = std::mem::take(&mut e.children);
            e.children = wrap_children(children, 0);
        }
        visit(e, below);
        let below = below || !e.marked_below();
        push(&mut e.children, below, &mut stack);
    }
}
