//! Template encapsulation on the tree: the nodes between a
//! `<meta typeof="mw:Transclusion">` and its `…/End` meta (same parent) get
//! Parsoid's form: `typeof="mw:Transclusion"` and `data-mw` on the first
//! element (a leading text node is wrapped in a `<span>` for it), the other
//! text nodes in `<span>`s, all sharing one `about` id. Markers whose output
//! spans different parents are dropped without encapsulation.

use super::{Element, Node};

fn marker(node: &Node) -> Option<(bool, Option<String>)> {
    let Node::Element(e) = node else { return None };
    if e.name != "meta" {
        return None;
    }
    match e.attr("typeof") {
        Some("mw:Transclusion") => Some((true, e.attr("data-mw").map(str::to_owned))),
        Some("mw:Transclusion/End") => Some((false, None)),
        _ => None,
    }
}

fn span(children: Vec<Node>, about: &str) -> Node {
    let mut s = Element::new("span");
    s.attrs.push(("about".into(), about.into()));
    s.children = children;
    Node::Element(s)
}

fn wrap(range: Vec<Node>, data_mw: &str, about: &str) -> Vec<Node> {
    let mut out = Vec::with_capacity(range.len());
    for (i, node) in range.into_iter().enumerate() {
        let node = match node {
            Node::Text(t) => span(vec![Node::Text(t)], about),
            other => other,
        };
        let node = match node {
            Node::Element(mut e) => {
                if !e.attrs.iter().any(|(k, _)| k == "about") {
                    e.attrs.push(("about".into(), about.into()));
                }
                if i == 0 {
                    match e.attrs.iter_mut().find(|(k, _)| k == "typeof") {
                        Some((_, v)) => *v = format!("mw:Transclusion {v}"),
                        None => e.attrs.push(("typeof".into(), "mw:Transclusion".into())),
                    }
                    e.attrs.push(("data-mw".into(), data_mw.into()));
                }
                Node::Element(e)
            }
            other => other,
        };
        out.push(node);
    }
    out
}

fn process(children: Vec<Node>, counter: &mut usize) -> Vec<Node> {
    let mut out: Vec<Node> = Vec::with_capacity(children.len());
    let mut iter = children.into_iter().peekable();
    while let Some(node) = iter.next() {
        match marker(&node) {
            Some((true, data)) => {
                // Collect up to the matching end in this list.
                let mut range = Vec::new();
                let mut closed = false;
                for next in iter.by_ref() {
                    if matches!(marker(&next), Some((false, _))) {
                        closed = true;
                        break;
                    }
                    range.push(next);
                }
                let mut range = process_children(range, counter);
                if closed
                    && !range.is_empty()
                    && let Some(data) = data
                {
                    *counter += 1;
                    let about = format!("#mwt{counter}");
                    range = wrap(range, &data, &about);
                }
                out.append(&mut range);
            }
            Some((false, _)) => {}
            None => out.push(match node {
                Node::Element(mut e) => {
                    e.children = process(std::mem::take(&mut e.children), counter);
                    Node::Element(e)
                }
                other => other,
            }),
        }
    }
    out
}

fn process_children(nodes: Vec<Node>, counter: &mut usize) -> Vec<Node> {
    nodes
        .into_iter()
        .map(|n| match n {
            Node::Element(mut e) => {
                e.children = process(std::mem::take(&mut e.children), counter);
                Node::Element(e)
            }
            other => other,
        })
        .collect()
}

/// Runs the pass over the body's children.
pub(crate) fn encapsulate(nodes: Vec<Node>) -> Vec<Node> {
    let mut counter = 0;
    process(nodes, &mut counter)
}
