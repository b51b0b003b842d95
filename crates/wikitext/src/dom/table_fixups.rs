//! Parsoid's table fix-ups on the tree, before template encapsulation: a call
//! whose output made a cell's syntax (its pipes or attributes), or runs from
//! one cell into another, is encapsulated as whole cells: its markers move to
//! the cells' parent, around the first and the last cell, and its `data-mw`
//! gets the wikitext of those cells around the call as literal parts
//! (`["|align=center ", {template}, " tail"]`), as Parsoid's template ranges
//! do. Empty `|-` rows are flagged `mw-empty-elt` whatever their attributes.
//! The tokenizer's private `tl:` attributes (see `tokenize/table.rs`) are
//! removed here.

use super::{Element, Node};

const CELL: &str = "tl:cell";
const PREFIX: &str = "tl:prefix";
const SUFFIX: &str = "tl:suffix";
const ROW: &str = "tl:row";
const TID: &str = "tl:tid";
const TPREFIX: &str = "tl:tprefix";
const TSUFFIX: &str = "tl:tsuffix";

/// A path of child indices from the top-level list.
pub(crate) type Path = Vec<usize>;

fn is_marker(node: &Node, start: bool) -> bool {
    let Node::Element(e) = node else { return false };
    e.name == "meta"
        && e.attr("typeof")
            == Some(if start {
                "mw:Transclusion"
            } else {
                "mw:Transclusion/End"
            })
}

fn has_private(nodes: &[Node]) -> bool {
    let mut stack: Vec<&Node> = nodes.iter().collect();
    while let Some(n) = stack.pop() {
        if let Node::Element(e) = n {
            if e.attrs.iter().any(|(k, _)| k.starts_with("tl:")) {
                return true;
            }
            stack.extend(e.children.iter());
        }
    }
    false
}

/// The transclusion markers in document order: (path, is start).
pub(crate) fn markers(nodes: &[Node]) -> Vec<(Path, bool)> {
    let mut out = Vec::new();
    // (list, index into it, path of the list's parent)
    let mut stack: Vec<(&[Node], usize)> = vec![(nodes, 0)];
    let mut path: Path = Vec::new();
    while let Some((list, i)) = stack.pop() {
        let Some(node) = list.get(i) else {
            path.pop();
            continue;
        };
        stack.push((list, i + 1));
        let mut here = path.clone();
        here.push(i);
        if is_marker(node, true) {
            out.push((here, true));
        } else if is_marker(node, false) {
            out.push((here, false));
        } else if let Node::Element(e) = node
            && !e.children.is_empty()
        {
            path.push(i);
            stack.push((&e.children, 0));
        }
    }
    out
}

fn node_at<'a>(nodes: &'a [Node], path: &[usize]) -> Option<&'a Node> {
    let (first, rest) = path.split_first()?;
    let mut node = nodes.get(*first)?;
    for &i in rest {
        let Node::Element(e) = node else { return None };
        node = e.children.get(i)?;
    }
    Some(node)
}

pub(crate) fn list_at<'a>(nodes: &'a mut Vec<Node>, parent: &[usize]) -> Option<&'a mut Vec<Node>> {
    let mut list = nodes;
    for &i in parent {
        match list.get_mut(i)? {
            Node::Element(e) => list = &mut e.children,
            _ => return None,
        }
    }
    Some(list)
}

pub(crate) fn element_at<'a>(nodes: &'a [Node], path: &[usize]) -> Option<&'a Element> {
    match node_at(nodes, path)? {
        Node::Element(e) => Some(e),
        _ => None,
    }
}

/// The child list at `parent`, read-only.
pub(crate) fn list_ref<'a>(nodes: &'a [Node], parent: &[usize]) -> Option<&'a [Node]> {
    let mut list = nodes;
    for &i in parent {
        match list.get(i)? {
            Node::Element(e) => list = &e.children,
            _ => return None,
        }
    }
    Some(list)
}

/// The path of the nearest cell (`td`, `th`, `caption`) holding `path`.
fn cell_of(nodes: &[Node], path: &[usize]) -> Option<Path> {
    (1..path.len()).rev().find_map(|n| {
        let p = path.get(..n)?;
        element_at(nodes, p)
            .filter(|e| matches!(e.name.as_str(), "td" | "th" | "caption"))
            .map(|_| p.to_vec())
    })
}

/// The attributes a moved marker keeps (its call, for `compound`).
fn kept(e: &Element) -> Vec<(String, String)> {
    e.attrs
        .iter()
        .filter(|(k, _)| k == "tl:call" || k == "tl:gap")
        .cloned()
        .collect()
}

/// `data-mw` with `prefix` and `suffix` as literal parts around the call.
fn with_parts(data_mw: &str, prefix: &str, suffix: &str) -> String {
    let json = |s: &str| serde_json::Value::String(s.to_owned()).to_string();
    let Some(body) = data_mw
        .strip_prefix("{\"parts\":[")
        .and_then(|b| b.strip_suffix("]}"))
    else {
        return data_mw.to_owned();
    };
    let mut out = String::from("{\"parts\":[");
    if !prefix.is_empty() {
        out.push_str(&json(prefix));
        out.push(',');
    }
    out.push_str(body);
    if !suffix.is_empty() {
        out.push(',');
        out.push_str(&json(suffix));
    }
    out.push_str("]}");
    out
}

fn remove_at(nodes: &mut Vec<Node>, path: &[usize]) -> Option<Node> {
    let (last, parent) = path.split_last()?;
    let list = list_at(nodes, parent)?;
    (*last < list.len()).then(|| list.remove(*last))
}

/// Widens one call (markers at `s` and `e`) to whole cells where its output
/// made cell syntax or spans cells.
fn fix_pair(nodes: &mut Vec<Node>, s: &[usize], e: &[usize]) -> Option<()> {
    let start = element_at(nodes, s)?;
    let start_kept = kept(start);
    let end_kept = kept(element_at(nodes, e)?);
    let flagged = start.attr(CELL).is_some();
    let prefix = start.attr(PREFIX).unwrap_or("").to_owned();
    let data = start.attr("data-mw")?.to_owned();
    let suffix = element_at(nodes, e)?.attr(SUFFIX).unwrap_or("").to_owned();
    let first = cell_of(nodes, s)?;
    let last = cell_of(nodes, e)?;
    if !flagged && first == last {
        return None;
    }
    let (first_at, parent) = first.split_last()?;
    let (last_at, last_parent) = last.split_last()?;
    if parent != last_parent || last_at < first_at {
        return None;
    }
    let (first_at, last_at) = (*first_at, *last_at);
    let parent = parent.to_vec();
    remove_at(nodes, e)?;
    remove_at(nodes, s)?;
    let list = list_at(nodes, &parent)?;
    let mut end = Element::new("meta");
    end.attrs
        .push(("typeof".into(), "mw:Transclusion/End".into()));
    let mut begin = Element::new("meta");
    begin
        .attrs
        .push(("typeof".into(), "mw:Transclusion".into()));
    begin
        .attrs
        .push(("data-mw".into(), with_parts(&data, &prefix, &suffix)));
    begin.attrs.extend(start_kept);
    end.attrs.extend(end_kept);
    let at = (last_at + 1).min(list.len());
    list.insert(at, Node::Element(end));
    list.insert(first_at.min(list.len()), Node::Element(begin));
    Some(())
}

/// The path of the table with id `tid` (its `tl:tid`).
fn find_table(nodes: &[Node], tid: &str) -> Option<Path> {
    let mut stack: Vec<(Path, &Node)> = nodes
        .iter()
        .enumerate()
        .rev()
        .map(|(i, n)| (vec![i], n))
        .collect();
    while let Some((path, node)) = stack.pop() {
        if let Node::Element(e) = node {
            if e.name == "table" && e.attr(TID) == Some(tid) {
                return Some(path);
            }
            for (i, c) in e.children.iter().enumerate().rev() {
                let mut p = path.clone();
                p.push(i);
                stack.push((p, c));
            }
        }
    }
    None
}

/// A call whose start marker the tree builder fostered out of the table it
/// was written in: the range runs from the fostered content over the table
/// (or past it, where the call ends after the table), with the table's
/// wikitext around the call as literal parts.
fn fix_fostered(nodes: &mut Vec<Node>, s: &[usize], e: &[usize]) -> Option<()> {
    let start = element_at(nodes, s)?;
    let start_kept = kept(start);
    let end_kept = kept(element_at(nodes, e)?);
    let tid = start.attr(TID)?.to_owned();
    let prefix = start.attr(TPREFIX)?.to_owned();
    let data = start.attr("data-mw")?.to_owned();
    let end = element_at(nodes, e)?;
    let suffix = if end.attr(TID) == Some(tid.as_str()) {
        end.attr(TSUFFIX).unwrap_or("").to_owned()
    } else {
        String::new()
    };
    let table = find_table(nodes, &tid)?;
    if s.starts_with(&table) {
        return None; // not fostered
    }
    let (table_at, parent) = table.split_last()?;
    let table_at = *table_at;
    if !s.starts_with(parent) || !e.starts_with(parent) {
        return None;
    }
    let depth = parent.len();
    let first_at = *s.get(depth)?;
    let e_top = *e.get(depth)?;
    if first_at >= table_at {
        return None;
    }
    let data = with_parts(&data, &prefix, &suffix);
    // The end: kept where it is after the table, else moved after the range.
    if !(e.len() == depth + 1 && e_top > table_at) {
        let direct_before = e.len() == depth + 1 && e_top < table_at;
        remove_at(nodes, e)?;
        let last = if e_top > table_at {
            e_top
        } else if direct_before {
            table_at - 1
        } else {
            table_at
        };
        let list = list_at(nodes, parent)?;
        let mut meta = Element::new("meta");
        meta.attrs
            .push(("typeof".into(), "mw:Transclusion/End".into()));
        meta.attrs.extend(end_kept);
        list.insert((last + 1).min(list.len()), Node::Element(meta));
    }
    if s.len() == depth + 1 {
        if let Some(Node::Element(m)) = list_at(nodes, parent)?.get_mut(first_at) {
            m.attrs.retain(|(k, _)| k != "data-mw");
            m.attrs.push(("data-mw".into(), data));
        }
    } else {
        remove_at(nodes, s)?;
        let list = list_at(nodes, parent)?;
        let mut meta = Element::new("meta");
        meta.attrs.push(("typeof".into(), "mw:Transclusion".into()));
        meta.attrs.push(("data-mw".into(), data));
        meta.attrs.extend(start_kept);
        list.insert(first_at.min(list.len()), Node::Element(meta));
    }
    Some(())
}

fn pairs(nodes: &[Node]) -> Vec<(Path, Path)> {
    let mut pairs = Vec::new();
    let mut open: Option<Path> = None;
    for (path, start) in markers(nodes) {
        if start {
            open = Some(path);
        } else if let Some(s) = open.take() {
            pairs.push((s, path));
        }
    }
    pairs
}

/// Removes the private attributes; flags empty `|-` rows.
fn strip(nodes: &mut [Node]) {
    let mut stack: Vec<&mut Node> = nodes.iter_mut().collect();
    while let Some(node) = stack.pop() {
        if let Node::Element(e) = node {
            let row = e.attrs.iter().any(|(k, _)| k == ROW);
            e.attrs.retain(|(k, _)| !k.starts_with("tl:"));
            if row && !e.attrs.is_empty() && super::cleanup::is_empty(e) {
                match e.attrs.iter_mut().find(|(k, _)| k == "class") {
                    Some((_, v)) if !v.split_whitespace().any(|c| c == "mw-empty-elt") => {
                        v.push_str(" mw-empty-elt");
                    }
                    Some(_) => {}
                    None => e.attrs.push(("class".into(), "mw-empty-elt".into())),
                }
            }
            stack.extend(e.children.iter_mut());
        }
    }
}

/// Runs the pass over the body's children.
pub(crate) fn table_fixups(nodes: &mut Vec<Node>) {
    if !has_private(nodes) {
        return;
    }
    // Last first: moving a later call's markers leaves earlier paths intact.
    for (s, e) in pairs(nodes).iter().rev() {
        let _ = fix_pair(nodes, s, e);
    }
    for (s, e) in pairs(nodes).iter().rev() {
        let _ = fix_fostered(nodes, s, e);
    }
    super::compound::compounds(nodes);
    strip(nodes);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_around_the_call() {
        let data = r#"{"parts":[{"template":{}}]}"#;
        assert_eq!(
            with_parts(data, "|a ", " b"),
            r#"{"parts":["|a ",{"template":{}}," b"]}"#
        );
        assert_eq!(with_parts(data, "", ""), data);
    }
}
