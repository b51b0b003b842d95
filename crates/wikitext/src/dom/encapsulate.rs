//! Template encapsulation on the tree: the nodes between a
//! `<meta typeof="mw:Transclusion">` and its `…/End` meta (same parent) get
//! Parsoid's form: `typeof="mw:Transclusion"` and `data-mw` on the first
//! element (a leading text node is wrapped in a `<span>` for it), the other
//! text nodes in `<span>`s, all sharing one `about` id. Markers whose output
//! spans different parents are dropped without encapsulation.

use super::{Element, Node, Value};

/// On a start marker: the call expanded to nothing (set by the tokenizer from
/// `transclusion::Call::empty`; markers never reach the output).
pub(crate) const EMPTY_OUTPUT: &str = "data-tl-empty";

/// Whether start marker `node` says its call expanded to nothing.
fn marks_empty(node: &Node) -> bool {
    matches!(node, Node::Element(e) if e.attr(EMPTY_OUTPUT).is_some())
}

/// Whether `node` is a start marker (`Some(true)`) or an end marker
/// (`Some(false)`).
fn marker_kind(node: &Node) -> Option<bool> {
    let Node::Element(e) = node else { return None };
    if e.name != "meta" {
        return None;
    }
    match e.attr("typeof") {
        Some("mw:Transclusion" | "mw:Param") => Some(true),
        Some("mw:Transclusion/End" | "mw:Param/End") => Some(false),
        _ => None,
    }
}

/// [`marker_kind`], with a start marker's `data-mw` (taken out: markers do
/// not reach the output).
fn marker(node: &mut Node) -> Option<(bool, Option<String>)> {
    let start = marker_kind(node)?;
    let data = match node {
        Node::Element(e) if start => e
            .attrs
            .iter_mut()
            .find(|(k, _)| k == "data-mw")
            .map(|(_, v)| std::mem::take(v).into_string()),
        _ => None,
    };
    Some((start, data))
}

fn span(children: Vec<Node>, about: Value) -> Node {
    let mut s = Element::new("span");
    s.attrs.push(("about".into(), about));
    s.children = children;
    Node::Element(s)
}

/// Stashable rendering-transparent nodes (Parsoid's `isStashableElt`): a
/// `link` (a category), a page-property `meta` other than the TOC's, an
/// include directive's `meta`.
fn transparent(node: &Node) -> bool {
    let Node::Element(e) = node else { return false };
    match &*e.name {
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
        Some(Node::Element(e)) => matches!(&*e.name, "table" | "div"),
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

/// `data_mw` goes to the range's first element (moved there).
/// `about` goes to the range's last node that takes one (moved: one copy
/// fewer per range).
fn wrap(range: Vec<Node>, data_mw: String, about: Value) -> Vec<Node> {
    // Leading whitespace (a newline the expansion put before block output)
    // stays outside; the first real node carries the transclusion.
    let lead = range
        .iter()
        .take_while(|n| matches!(n, Node::Text(t) if t.trim().is_empty()))
        .count();
    let mut range: Vec<Node> = range;
    let only_whitespace = lead == range.len();
    if only_whitespace {
        // Only whitespace: an empty element carries the transclusion.
        let mut empty = Element::new("span");
        empty.attrs.push(("class".into(), "mw-empty-elt".into()));
        range = vec![Node::Element(empty)];
    }
    let lead = if only_whitespace { 0 } else { lead };
    // No leading whitespace (the usual case): the whole range, not copied.
    let mut rest = if lead == 0 {
        std::mem::take(&mut range)
    } else {
        range.split_off(lead)
    };
    if lead > 0
        && rest
            .first()
            .is_some_and(|n| matches!(n, Node::Element(e) if e.name == "div"))
    {
        // A newline before block output: an empty element carries the
        // transclusion and the newline goes (Parsoid).
        let mut empty = Element::new("span");
        empty.attrs.push(("class".into(), "mw-empty-elt".into()));
        rest.insert(0, Node::Element(empty));
        range.clear();
    }
    // The leading whitespace stays before the range (`range` holds only it now).
    let mut out = range;
    // Trailing newlines after a template's <div> stay outside too (Parsoid
    // drops them from the transclusion, T378906).
    let trail = rest
        .iter()
        .rev()
        .take_while(|n| matches!(n, Node::Text(t) if t.trim().is_empty()))
        .count();
    let trailing = if trail < rest.len()
        && rest
            .get(rest.len() - trail - 1)
            .is_some_and(|n| matches!(n, Node::Element(e) if e.name == "div"))
    {
        rest.split_off(rest.len() - trail)
    } else {
        Vec::new()
    };
    // Output that starts with rendering-transparent nodes (category links,
    // page properties) before a table, a div or nothing has them in an
    // empty-element span that carries the transclusion (Parsoid).
    let mut rest = stash_transparent(rest, 0);
    decorate(&mut rest, data_mw, about);
    if out.is_empty() {
        out = rest;
    } else {
        out.append(&mut rest);
    }
    out.extend(trailing);
    out
}

/// Whether [`wrap`] leaves `range` (processed, not empty) as it is and only
/// [`decorate`]s it: no leading whitespace, no trailing whitespace after a
/// `<div>`, no leading rendering-transparent nodes to stash.
fn stays(range: &[Node]) -> bool {
    let ws = |n: &Node| matches!(n, Node::Text(t) if t.trim().is_empty());
    if range.first().is_none_or(ws) {
        return false;
    }
    let trail = range.iter().rev().take_while(|n| ws(n)).count();
    if trail > 0
        && range
            .len()
            .checked_sub(trail + 1)
            .and_then(|i| range.get(i))
            .is_some_and(|n| matches!(n, Node::Element(e) if e.name == "div"))
    {
        return false;
    }
    let run = range.iter().take_while(|n| transparent(n)).count();
    let next_ok = match range.get(run) {
        None => true,
        Some(Node::Element(e)) => matches!(&*e.name, "table" | "div"),
        Some(_) => false,
    };
    run == 0 || !next_ok
}

/// The range's nodes (changed in place) carry the transclusion: texts in
/// `<span>`s, every node the `about` id (moved into the last one), the
/// first one `typeof` and `data_mw`.
fn decorate(range: &mut [Node], mut data_mw: String, about: Value) {
    let last = range.len().saturating_sub(1);
    let mut about = Some(about);
    // A copy, or at the last node the id itself.
    let mut about_for = |i: usize| {
        if i == last {
            about.take().unwrap_or_default()
        } else {
            about.clone().unwrap_or_default()
        }
    };
    for (i, node) in range.iter_mut().enumerate() {
        if let Node::Text(t) = node {
            let t = std::mem::take(t);
            *node = span(vec![Node::Text(t)], about_for(i));
        } else if let Node::Element(e) = node
            && !e.attrs.iter().any(|(k, _)| k == "about")
        {
            e.attrs.push(("about".into(), about_for(i)));
        }
        if i == 0
            && let Node::Element(e) = node
        {
            let kind = if data_mw.starts_with("{\"parts\":[{\"templatearg\"") {
                "mw:Param"
            } else {
                "mw:Transclusion"
            };
            match e.attrs.iter_mut().find(|(k, _)| k == "typeof") {
                // Parsoid's order: a nowiki's type first, others after.
                Some((_, v))
                    if v == "mw:Nowiki"
                        || (v.starts_with("mw:Extension/") && v != "mw:Extension/ref") =>
                {
                    v.push(' ');
                    v.push_str(kind);
                }
                Some((_, v)) => {
                    // Made at its size (inserting twice grew it by a copy).
                    let mut typed = String::with_capacity(kind.len() + 1 + v.len());
                    typed.push_str(kind);
                    typed.push(' ');
                    typed.push_str(v);
                    *v = typed.into();
                }
                None => e.attrs.push(("typeof".into(), kind.into())),
            }
            // `{{#tag:pre|…}}`: the call, not the tag, is what the
            // element stands for.
            if is_tag_call(&data_mw) {
                e.attrs.retain(|(k, _)| k != "typeof");
                e.attrs.push(("typeof".into(), kind.into()));
            }
            // Expanded attributes already there: one `data-mw`,
            // `attribs` before `parts` (Parsoid's order); otherwise the
            // transclusion's replaces an extension's.
            match e.attrs.iter_mut().find(|(k, _)| k == "data-mw") {
                Some((_, v)) if v.starts_with("{\"attribs\":") && v.ends_with('}') => {
                    v.pop();
                    v.push(',');
                    v.push_str(data_mw.strip_prefix('{').unwrap_or(&data_mw));
                }
                // None there (the usual case): no list to filter.
                found => {
                    if found.is_some() {
                        e.attrs.retain(|(k, _)| k != "data-mw");
                    }
                    // The first element only: nothing reads it after.
                    e.attrs
                        .push(("data-mw".into(), std::mem::take(&mut data_mw).into()));
                }
            }
        }
    }
}

/// Whether a range's `data-mw` has a `{{#tag:…}}` call (`"function":"tag"`,
/// which only the JSON's structure writes: quotes in values are escaped).
/// The finder is made once (the search runs on every range's `data-mw`).
fn is_tag_call(data_mw: &str) -> bool {
    static FINDER: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new(b"\"function\":\"tag\""));
    FINDER.find(data_mw.as_bytes()).is_some()
}

/// `#mwt` and the decimal texts below [`crate::decimal::LIMIT`].
const ABOUT_TEXT: crate::decimal::Decimals = crate::decimal::decimals!(b"#mwt");

/// `#mwt` and the decimal digits of `n` (a range's `about`): static text
/// below 1 000 (a page's ranges are numbered from 0, and every node of a
/// range gets a copy: no allocation for any), formatted above.
fn about_id(n: usize) -> Value {
    match ABOUT_TEXT.get(n) {
        Some(id) => Value::from(id),
        None => Value::from(format!("#mwt{n}")),
    }
}

/// Encapsulates the ranges among `children` in place. The nodes before the
/// first marker do not move; from there a write index trails the read
/// index, the slots between them holding spent nodes (markers, emptied
/// slots) that the end truncates. A range that `wrap` leaves as it is (one
/// `<a>` or element, the usual case) is decorated where it lies and moved
/// down once; the others are taken out and go through [`wrap`] as a list.
fn process(children: &mut Vec<Node>, counter: &mut usize) {
    let Some(first) = children.iter().position(|n| marker_kind(n).is_some()) else {
        process_children(children, counter);
        return;
    };
    if let Some(before) = children.get_mut(..first) {
        process_children(before, counter);
    }
    // children[w..r] are spent.
    let mut w = first;
    let mut r = first;
    while let Some(node) = children.get_mut(r) {
        match marker(node) {
            None => {
                if let Node::Element(e) = node
                    && e.marked_below()
                {
                    process(&mut e.children, counter);
                }
                if w != r {
                    children.swap(w, r);
                }
                w += 1;
                r += 1;
            }
            Some((false, _)) => r += 1,
            Some((true, data)) => {
                let empty_output = marks_empty(node);
                r += 1;
                // The range: up to the end marker, or to the next call's start
                // (this call's end is then inside a node of the range).
                let mut s = r;
                let mut closed = false;
                while let Some(next) = children.get(s) {
                    match marker_kind(next) {
                        Some(true) => break,
                        Some(false) => {
                            closed = true;
                            break;
                        }
                        None => s += 1,
                    }
                }
                if closed && s > r {
                    let range = children.get_mut(r..s).unwrap_or_default();
                    process_children(range, counter);
                    if let Some(data) = data {
                        if stays(range) {
                            *counter += 1;
                            decorate(range, data, about_id(*counter));
                        } else {
                            let taken = take_out(range);
                            *counter += 1;
                            let wrapped = wrap(taken, data, about_id(*counter));
                            // The end marker is spent too.
                            r = s + 1;
                            place(children, &mut w, &mut r, wrapped);
                            continue;
                        }
                    }
                    // Down to the write index, in order.
                    for i in r..s {
                        if w != i {
                            children.swap(w, i);
                        }
                        w += 1;
                    }
                    r = s + 1;
                    continue;
                }
                let mut range = take_out(children.get_mut(r..s).unwrap_or_default());
                r = s;
                if closed {
                    // The end marker is spent.
                    r += 1;
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
                    && !empty_output
                    && let Some(next) = children.get_mut(r)
                    && matches!(next, Node::Element(e) if e.name == "table")
                {
                    range.push(std::mem::replace(next, SPENT));
                    r += 1;
                }
                process_children(&mut range, counter);
                // Empty output: an empty span carries the transclusion. Output
                // the tree builder dropped entirely (stray table tags) gets
                // `class="mw-empty-elt"`, as in Parsoid (its stripped-tag
                // placeholder wrapped by DOMRangeBuilder, kept by CleanUp).
                if closed && range.is_empty() && data.is_some() {
                    let mut e = Element::new("span");
                    if !empty_output {
                        e.attrs.push(("class".into(), "mw-empty-elt".into()));
                    }
                    range.push(Node::Element(e));
                }
                if closed
                    && !range.is_empty()
                    && let Some(data) = data
                {
                    *counter += 1;
                    range = wrap(range, data, about_id(*counter));
                }
                place(children, &mut w, &mut r, range);
                if !rest.is_empty() {
                    process(&mut rest, counter);
                    place(children, &mut w, &mut r, rest);
                }
            }
        }
    }
    children.truncate(w);
}

/// What an emptied slot holds until the end truncates it (no allocation).
const SPENT: Node = Node::Text(Value::EMPTY);

/// The nodes of `range`, their slots left spent.
fn take_out(range: &mut [Node]) -> Vec<Node> {
    range
        .iter_mut()
        .map(|n| std::mem::replace(n, SPENT))
        .collect()
}

/// Puts `nodes` at the write index `w`, over spent slots (the read index `r`
/// moves on when there is none left: a range's output is no longer than
/// the nodes and markers it came from, so this does not happen).
fn place(children: &mut Vec<Node>, w: &mut usize, r: &mut usize, nodes: Vec<Node>) {
    for node in nodes {
        match children.get_mut(*w) {
            Some(slot) if *w < *r => *slot = node,
            _ => {
                children.insert(*w, node);
                *r += 1;
            }
        }
        *w += 1;
    }
}

/// Each node's children processed, in order.
fn process_children(nodes: &mut [Node], counter: &mut usize) {
    for node in nodes {
        if let Node::Element(e) = node
            && e.marked_below()
        {
            process(&mut e.children, counter);
        }
    }
}

/// Runs the pass over the body's children.
pub(crate) fn encapsulate(nodes: Vec<Node>) -> Vec<Node> {
    if !nodes.iter().any(contains_marker) {
        return nodes;
    }
    let mut nodes = nodes;
    hoist_trailing_starts(&mut nodes);
    let mut counter = 0;
    process(&mut nodes, &mut counter);
    nodes
}

/// A start marker that is the last thing in an element (its output begins
/// after the element closed: `*Foo {{bullet}}` whose output starts the next
/// list item) moves after that element, as Parsoid's range builder starts
/// such a range at the next sibling. Bottom-up, so it climbs nested lists.
///
/// Then a start marker first in an element whose output ends outside it
/// (`{{1x|a\nb</p>}}`: two paragraphs) moves before the element: the range
/// is then the siblings from this element to the one holding the end
/// (Parsoid's common-ancestor range).
///
/// Both in one walk of the list: the second looks only at the element the
/// first has just finished with (a moved marker is a childless sibling
/// neither looks into), so the order of the two per element is the order of
/// two whole-list walks.
fn hoist_trailing_starts(nodes: &mut Vec<Node>) {
    let mut i = 0;
    while i < nodes.len() {
        let (mut trailing, mut leading) = (None, None);
        // No marker below: nothing to hoist in or out of it.
        if let Some(Node::Element(e)) = nodes.get_mut(i)
            && e.marked_below()
        {
            hoist_trailing_starts(&mut e.children);
            let last = e
                .children
                .iter()
                .rposition(|c| !matches!(c, Node::Text(t) if t.trim().is_empty()));
            if let Some(at) = last
                && e.children
                    .get(at)
                    .is_some_and(|c| marker_kind(c) == Some(true))
            {
                trailing = Some(e.children.remove(at));
            }
            let first = e
                .children
                .iter()
                .position(|c| !matches!(c, Node::Text(t) if t.trim().is_empty()));
            if let Some(at) = first
                && e.children
                    .get(at)
                    .is_some_and(|c| marker_kind(c) == Some(true))
                && !e.children.iter().any(contains_end)
            {
                leading = Some(e.children.remove(at));
            }
        }
        // Leading before the element, trailing after it.
        if let Some(m) = leading {
            nodes.insert(i, m);
            i += 1;
        }
        if let Some(m) = trailing {
            nodes.insert(i + 1, m);
            i += 1;
        }
        i += 1;
    }
}

fn contains_end(node: &Node) -> bool {
    contains(node, |kind| kind == Some(false))
}

/// Removes the first end marker (in document order) under `node`.
fn remove_first_end(node: &mut Node) -> bool {
    let Node::Element(e) = node else { return false };
    if !e.marked_below() {
        return false;
    }
    for i in 0..e.children.len() {
        let is_end = e
            .children
            .get(i)
            .is_some_and(|c| marker_kind(c) == Some(false));
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
    contains(node, |kind| kind.is_some())
}

/// Whether `node` or a node under it is a marker whose [`marker_kind`]
/// `wanted` accepts. A node with nothing marked below is answered without a
/// stack (most are).
fn contains(node: &Node, wanted: impl Fn(Option<bool>) -> bool) -> bool {
    if wanted(marker_kind(node)) {
        return true;
    }
    let Node::Element(e) = node else { return false };
    if !e.marked_below() {
        return false;
    }
    let mut stack: Vec<&Node> = e.children.iter().collect();
    while let Some(n) = stack.pop() {
        if wanted(marker_kind(n)) {
            return true;
        }
        if let Node::Element(e) = n
            && e.marked_below()
        {
            stack.extend(e.children.iter());
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::{
        Element, Node, about_id, decorate, encapsulate, hoist_trailing_starts, stays, wrap,
    };
    use crate::dom::test_nodes::{el, text};

    fn start(call: &'static str) -> Node {
        let mut m = Element::new("meta");
        m.attrs.push(("typeof".into(), "mw:Transclusion".into()));
        m.attrs.push(("data-mw".into(), call.into()));
        Node::Element(m)
    }

    fn end() -> Node {
        let mut m = Element::new("meta");
        m.attrs
            .push(("typeof".into(), "mw:Transclusion/End".into()));
        Node::Element(m)
    }

    /// `node` with the attributes `decorate` gives a range's first node.
    fn first(node: Node, about: &'static str, data: &'static str) -> Node {
        let Node::Element(mut e) = node else {
            return node;
        };
        e.attrs.push(("about".into(), about.into()));
        e.attrs.push(("typeof".into(), "mw:Transclusion".into()));
        e.attrs.push(("data-mw".into(), data.into()));
        Node::Element(e)
    }

    /// A range `wrap` leaves in place is decorated the same where it lies.
    #[test]
    fn ranges_that_stay_are_wrapped_in_place() {
        let ranges = [
            vec![el("a", vec![text("x")])],
            vec![text("a"), el("b", vec![]), text("c")],
            vec![el("div", vec![]), text("x"), text("\n")],
            vec![el("link", vec![]), text("x")],
            // Not in place: leading whitespace, whitespace after a div,
            // a stashed category before a table.
            vec![text("\n"), el("b", vec![])],
            vec![el("div", vec![]), text("\n")],
            vec![el("link", vec![]), el("table", vec![])],
        ];
        let mut kept = 0;
        for range in ranges {
            let wrapped = wrap(range.clone(), "{}".into(), "#mwt1".into());
            let mut decorated = range.clone();
            decorate(&mut decorated, "{}".into(), "#mwt1".into());
            if stays(&range) {
                kept += 1;
                assert_eq!(wrapped, decorated);
            } else {
                assert_ne!(wrapped, decorated);
            }
        }
        assert_eq!(kept, 4);
    }

    /// Ranges in place and through `wrap`, a stray end, an empty call and
    /// a range left open (its end inside a later sibling) in one list.
    #[test]
    fn a_list_is_encapsulated_in_place() {
        let nodes = vec![
            text("a"),
            start("d1"),
            el("b", vec![text("x")]),
            end(),
            text("c"),
            end(),
            start("d2"),
            text(" "),
            el("i", vec![]),
            end(),
            start("d3"),
            end(),
            start("d4"),
            el("ul", vec![el("li", vec![text("y"), end()])]),
            el("p", vec![]),
            text("z"),
        ];
        let mut empty = Element::new("span");
        empty.attrs.push(("class".into(), "mw-empty-elt".into()));
        let want = vec![
            text("a"),
            first(el("b", vec![text("x")]), "#mwt1", "d1"),
            text("c"),
            text(" "),
            first(el("i", vec![]), "#mwt2", "d2"),
            first(Node::Element(empty), "#mwt3", "d3"),
            first(el("ul", vec![el("li", vec![text("y")])]), "#mwt4", "d4"),
            el("p", vec![]),
            text("z"),
        ];
        assert_eq!(encapsulate(nodes), want);
    }

    #[test]
    fn starts_first_and_last_in_an_element_move_before_and_after_it() {
        let mut p = Element::new("p");
        p.children = vec![start("a"), Node::Text("x".into()), start("b")];
        let mut nodes = vec![Node::Element(p), Node::Text("y".into())];
        hoist_trailing_starts(&mut nodes);
        let mut want_p = Element::new("p");
        want_p.children = vec![Node::Text("x".into())];
        assert_eq!(
            nodes,
            vec![
                start("a"),
                Node::Element(want_p),
                start("b"),
                Node::Text("y".into())
            ]
        );
    }

    #[test]
    fn a_range_shares_one_about_id() {
        let mut b = Element::new("b");
        b.children = vec![Node::Text("x".into())];
        let range = vec![
            Node::Text("a".into()),
            Node::Element(b),
            Node::Text("c".into()),
        ];
        let out = wrap(range, "{}".into(), "#mwt3".into());
        assert_eq!(out.len(), 3);
        for n in &out {
            assert!(matches!(n, Node::Element(e) if e.attr("about") == Some("#mwt3")));
        }
    }

    #[test]
    fn whitespace_only_output_is_one_empty_element() {
        // Two whitespace texts (a pass may leave them apart).
        for range in [
            vec![Node::Text(" ".into())],
            vec![Node::Text(" ".into()), Node::Text("\n".into())],
            Vec::new(),
        ] {
            let out = wrap(range, "{}".into(), "#mwt1".into());
            assert_eq!(out.len(), 1);
            assert!(
                matches!(out.first(), Some(Node::Element(e)) if e.name == "span" && e.attr("class") == Some("mw-empty-elt"))
            );
        }
    }

    #[test]
    fn about_ids_are_decimal() {
        for n in (0..1100).chain([usize::MAX]) {
            assert_eq!(about_id(n).as_str(), format!("#mwt{n}"));
        }
    }
}
