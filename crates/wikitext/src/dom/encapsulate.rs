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

/// Stashable rendering-transparent nodes (Parsoid's `isStashableElt`): a
/// `link` (a category), a page-property `meta` other than the TOC's, an
/// include directive's `meta`.
fn transparent(node: &Node) -> bool {
    let Node::Element(e) = node else { return false };
    match e.name.as_str() {
        "link" => true,
        "meta" => {
            e.attr("property")
                .is_some_and(|p| p.starts_with("mw:PageProp/") && !p.starts_with("mw:PageProp/toc"))
                || e.attr("typeof").is_some_and(|t| {
                    t.starts_with("mw:Includes/") || t == "mw:Placeholder/StrippedTag"
                })
        }
        _ => false,
    }
}

/// The range's leading rendering-transparent nodes (from `from`), when a
/// table or a div or nothing follows them, go in a `<span class="mw-empty-elt">`
/// that can carry the transclusion (Parsoid's DOMRangeBuilder stashing, e.g.
/// a category fostered out of a table).
fn stash_transparent(mut range: Vec<Node>, from: usize) -> Vec<Node> {
    let run = range
        .get(from..)
        .unwrap_or(&[])
        .iter()
        .take_while(|n| transparent(n))
        .count();
    let next_ok = match range.get(from + run) {
        None => true,
        Some(Node::Element(e)) => matches!(e.name.as_str(), "table" | "div"),
        Some(_) => false,
    };
    if run == 0 || !next_ok {
        return range;
    }
    let mut span = Element::new("span");
    span.attrs.push(("class".into(), "mw-empty-elt".into()));
    span.children = range.drain(from..from + run).collect();
    range.insert(from, Node::Element(span));
    range
}

fn wrap(range: Vec<Node>, data_mw: &str, about: &str) -> Vec<Node> {
    let mut out = Vec::with_capacity(range.len());
    // Leading whitespace (a newline the expansion put before block output)
    // stays outside; the first real node carries the transclusion.
    let lead = range
        .iter()
        .take_while(|n| matches!(n, Node::Text(t) if t.trim().is_empty()))
        .count();
    let lead = if lead == range.len() { 0 } else { lead };
    let range = stash_transparent(range, lead);
    let mut range = range.into_iter();
    out.extend(range.by_ref().take(lead));
    for (i, node) in range.enumerate() {
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
                        // Parsoid's order: after mw:Nowiki, before the rest.
                        Some((_, v)) if v == "mw:Nowiki" => {
                            *v = format!("{v} mw:Transclusion");
                        }
                        Some((_, v)) => *v = format!("mw:Transclusion {v}"),
                        None => e.attrs.push(("typeof".into(), "mw:Transclusion".into())),
                    }
                    // Expanded attributes already there: one `data-mw`,
                    // `attribs` before `parts` (Parsoid's order).
                    match e.attrs.iter_mut().find(|(k, _)| k == "data-mw") {
                        Some((_, v)) if v.starts_with("{\"attribs\":") && v.ends_with('}') => {
                            v.pop();
                            v.push(',');
                            v.push_str(data_mw.strip_prefix('{').unwrap_or(data_mw));
                        }
                        _ => e.attrs.push(("data-mw".into(), data_mw.into())),
                    }
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
                // Up to the end marker, or to the next call's start (this
                // call's end is then inside a node of the range).
                while let Some(next) = iter.next_if(|n| !matches!(marker(n), Some((true, _)))) {
                    if matches!(marker(&next), Some((false, _))) {
                        closed = true;
                        break;
                    }
                    range.push(next);
                }
                // The end inside a later sibling (a list or table the output
                // opened): the range runs to that sibling.
                let mut rest = Vec::new();
                if !closed && let Some(k) = range.iter().position(contains_end) {
                    rest = range.split_off(k + 1);
                    if let Some(last) = range.last_mut() {
                        remove_first_end(last);
                    }
                    closed = true;
                }
                // The end marker fostered out of the table right after it:
                // the call's output opened that table, the range is the table.
                if closed
                    && range.is_empty()
                    && let Some(table) =
                        iter.next_if(|n| matches!(n, Node::Element(e) if e.name == "table"))
                {
                    range.push(table);
                }
                let mut range = process_children(range, counter);
                // Output the tree builder dropped entirely (stray table tags):
                // Parsoid keeps the transclusion on an empty
                // `<span class="mw-empty-elt">` (its stripped-tag placeholder
                // wrapped by DOMRangeBuilder, kept by CleanUp).
                if closed && range.is_empty() && data.is_some() {
                    let mut e = Element::new("span");
                    e.attrs.push(("class".into(), "mw-empty-elt".into()));
                    range.push(Node::Element(e));
                }
                if closed
                    && !range.is_empty()
                    && let Some(data) = data
                {
                    *counter += 1;
                    let about = format!("#mwt{counter}");
                    range = wrap(range, &data, &about);
                }
                out.append(&mut range);
                if !rest.is_empty() {
                    out.append(&mut process(rest, counter));
                }
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
    if !nodes.iter().any(contains_marker) {
        return nodes;
    }
    let mut counter = 0;
    process(nodes, &mut counter)
}

fn contains_end(node: &Node) -> bool {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if matches!(marker(n), Some((false, _))) {
            return true;
        }
        if let Node::Element(e) = n {
            stack.extend(e.children.iter());
        }
    }
    false
}

/// Removes the first end marker (in document order) under `node`.
fn remove_first_end(node: &mut Node) -> bool {
    let Node::Element(e) = node else { return false };
    for i in 0..e.children.len() {
        let is_end = e
            .children
            .get(i)
            .is_some_and(|c| matches!(marker(c), Some((false, _))));
        if is_end {
            e.children.remove(i);
            return true;
        }
        if e.children.get_mut(i).is_some_and(remove_first_end) {
            return true;
        }
    }
    false
}

fn contains_marker(node: &Node) -> bool {
    let mut stack = vec![node];
    while let Some(n) = stack.pop() {
        if marker(n).is_some() {
            return true;
        }
        if let Node::Element(e) = n {
            stack.extend(e.children.iter());
        }
    }
    false
}
