//! Compound transclusions (Parsoid's `WrapTemplates` merging): a call whose
//! start marker lies inside another call's range (the siblings from that
//! call's start marker to the node holding its end marker) joins it. The
//! merged range has one `data-mw` whose parts are the calls in source order
//! with the wikitext between them as literal strings
//! (`[{tpl0}, "\nfoo\n", {tpl1}]`), the first call's leading and the last
//! call's trailing strings kept. Runs before `encapsulate`, on the markers the
//! tokenizer left (`tl:call`) after `table_fixups` moved them; the wikitext
//! between calls comes from `transclusion::Call::gap`.

use foldhash::HashMap;

use super::table_fixups::{Mark, Path, element_at, list_at};
use super::{Element, Node};
use crate::transclusion::Call;

const DROP: &str = "tl:drop";
const TID: &str = "tl:tid";
const TSUFFIX: &str = "tl:tsuffix";

/// The items of a `data-mw` `parts` array, as JSON texts.
fn parts(data_mw: &str) -> Option<Vec<&str>> {
    let body = data_mw.strip_prefix("{\"parts\":[")?.strip_suffix("]}")?;
    let mut items = Vec::new();
    let (mut depth, mut in_str, mut escaped, mut start) = (0usize, false, false, 0);
    for (i, b) in body.bytes().enumerate() {
        if in_str {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => in_str = false,
                _ => {}
            }
            continue;
        }
        match b {
            b'"' => in_str = true,
            b'{' | b'[' => depth += 1,
            b'}' | b']' => depth = depth.checked_sub(1)?,
            b',' if depth == 0 => {
                items.push(body.get(start..i)?);
                start = i + 1;
            }
            _ => {}
        }
    }
    items.push(body.get(start..)?);
    Some(items)
}

/// One compound: the range's parent, first and last child index, its calls.
struct Compound {
    parent: Path,
    first: usize,
    last: usize,
    calls: Vec<usize>,
}

impl Compound {
    fn holds(&self, path: &[usize]) -> bool {
        path.len() > self.parent.len()
            && path.starts_with(&self.parent)
            && path
                .get(self.parent.len())
                .is_some_and(|&i| i >= self.first && i <= self.last)
    }
}

fn attr<'a>(nodes: &'a [Node], path: &[usize], name: &str) -> Option<&'a str> {
    element_at(nodes, path)?.attr(name)
}

/// The merged `data-mw` of `calls` (in source order).
fn merged(
    nodes: &[Node],
    gaps: &[Call],
    calls: &[usize],
    starts: &HashMap<usize, Path>,
    ends: &HashMap<usize, Path>,
    tail: &str,
) -> Option<String> {
    let json = |s: &str| serde_json::Value::String(s.to_owned()).to_string();
    let mut out: Vec<String> = Vec::new();
    let last = calls.len().saturating_sub(1);
    for (k, call) in calls.iter().enumerate() {
        let start = starts.get(call)?;
        let data = attr(nodes, start, "data-mw")?;
        let items = parts(data)?;
        let tpl = items.iter().position(|i| i.starts_with('{'))?;
        if k > 0 {
            let gap = gaps.get(*call).map_or("", |c| c.gap.as_str());
            if !gap.is_empty() {
                out.push(json(gap));
            }
        } else {
            out.extend(items.get(..tpl)?.iter().map(|s| (*s).to_owned()));
        }
        let object = items.get(tpl)?;
        let object = match object.strip_suffix("\"i\":0}}") {
            Some(head) => format!("{head}\"i\":{k}}}}}"),
            None => (*object).to_owned(),
        };
        out.push(object);
        if k == last {
            let trailing = items.get(tpl + 1..)?;
            if trailing.is_empty() && !tail.is_empty() {
                out.push(json(tail));
            }
            out.extend(trailing.iter().map(|s| (*s).to_owned()));
        }
    }
    let _ = ends;
    Some(format!("{{\"parts\":[{}]}}", out.join(",")))
}

fn set_attr(nodes: &mut [Node], path: &[usize], name: &str, value: String) {
    let mut list = nodes;
    let Some((last, parent)) = path.split_last() else {
        return;
    };
    for &i in parent {
        match list.get_mut(i) {
            Some(Node::Element(e)) => list = &mut e.children,
            _ => return,
        }
    }
    if let Some(Node::Element(e)) = list.get_mut(*last) {
        e.attrs.retain(|(k, _)| k != name);
        e.attrs.push((name.to_owned().into(), value.into()));
    }
}

/// Merges overlapping and nested call ranges, given the tree's markers
/// (`table_fixups::markers`).
pub(crate) fn compounds_with(nodes: &mut Vec<Node>, gaps: &[Call], marks: Vec<Mark>) {
    if all_apart(&marks) {
        return;
    }
    // Looked up by call only (no order needed).
    let half = marks.len() / 2;
    let mut starts: HashMap<usize, Path> =
        HashMap::with_capacity_and_hasher(half, Default::default());
    let mut ends: HashMap<usize, Path> =
        HashMap::with_capacity_and_hasher(half, Default::default());
    let mut order = Vec::new();
    for (path, is_start, call) in marks {
        let Some(call) = call else {
            continue;
        };
        if is_start {
            order.push(call);
            starts.insert(call, path);
        } else {
            ends.insert(call, path);
        }
    }
    let mut groups: Vec<Compound> = Vec::new();
    for call in order {
        let (Some(s), Some(e)) = (starts.get(&call), ends.get(&call)) else {
            continue;
        };
        let Some((&first, parent)) = s.split_last() else {
            continue;
        };
        let end_top = (e.len() > parent.len() && e.starts_with(parent))
            .then(|| e.get(parent.len()).copied())
            .flatten()
            .filter(|&i| i >= first);
        // Starts come in document order and ranges do not nest: only the
        // latest group can hold this start.
        if let Some(g) = groups.last_mut().filter(|g| g.holds(s)) {
            g.calls.push(call);
            if e.starts_with(&g.parent)
                && let Some(&i) = e.get(g.parent.len())
            {
                g.last = g.last.max(i);
            }
            continue;
        }
        if let Some(last) = end_top {
            groups.push(Compound {
                parent: parent.to_vec(),
                first,
                last,
                calls: vec![call],
            });
        }
    }
    let mut changed = false;
    for g in groups.iter_mut().rev() {
        if g.calls.len() < 2 {
            continue;
        }
        let Some(&lead) = g.calls.first() else {
            continue;
        };
        g.calls.sort_unstable();
        let Some(&last_call) = g.calls.last() else {
            continue;
        };
        // A fostered range over its table: the table's wikitext after the
        // last call closes the parts.
        let tail = ends
            .get(&last_call)
            .and_then(|e| {
                let end = element_at(nodes, e)?;
                let tid = end.attr(TID)?;
                let list = super::table_fixups::list_ref(nodes, &g.parent)?;
                let covered = list.get(g.first..=g.last)?.iter().any(
                    |n| matches!(n, Node::Element(t) if t.name == "table" && t.attr(TID) == Some(tid)),
                );
                covered.then(|| end.attr(TSUFFIX).unwrap_or("").to_owned())
            })
            .unwrap_or_default();
        let Some(data) = merged(nodes, gaps, &g.calls, &starts, &ends, &tail) else {
            continue;
        };
        let Some(lead_path) = starts.get(&lead).cloned() else {
            continue;
        };
        set_attr(nodes, &lead_path, "data-mw", data);
        for call in &g.calls {
            if *call != lead
                && let Some(p) = starts.get(call)
            {
                set_attr(nodes, p, DROP, String::new());
            }
            if let Some(p) = ends.get(call) {
                set_attr(nodes, p, DROP, String::new());
            }
        }
        if let Some(list) = list_at(nodes, &g.parent) {
            let mut end = Element::new("meta");
            end.attrs
                .push(("typeof".into(), "mw:Transclusion/End".into()));
            list.insert((g.last + 1).min(list.len()), Node::Element(end));
        }
        changed = true;
    }
    if changed {
        super::table_fixups::sweep(nodes);
    }
}

/// Whether no call can join another: each call's start marker is followed,
/// in document order, by its own end marker, a later sibling of it (its
/// range holds no other marker, nor any node after its end). Most trees'
/// markers are so; the groups need not be looked for.
fn all_apart(marks: &[Mark]) -> bool {
    let mut last: Option<usize> = None;
    let mut iter = marks.iter().filter(|(_, _, call)| call.is_some());
    while let Some((s, start, call)) = iter.next() {
        let Some((e, false, end_call)) = iter.next() else {
            return false;
        };
        let (Some((si, sp)), Some((ei, ep))) = (s.split_last(), e.split_last()) else {
            return false;
        };
        // A call appears once (increasing), in one list.
        if !*start || call != end_call || last >= *call || sp != ep || ei <= si {
            return false;
        }
        last = *call;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn calls_apart_are_told_without_groups() {
        let m = |path: &[usize], start: bool, call: usize| (path.to_vec(), start, Some(call));
        assert!(all_apart(&[]));
        assert!(all_apart(&[
            m(&[0], true, 0),
            m(&[2], false, 0),
            m(&[1, 0], true, 1),
            m(&[1, 3], false, 1)
        ]));
        // Nested, crossing, ending in another list, reused: looked at.
        assert!(!all_apart(&[
            m(&[0], true, 0),
            m(&[1], true, 1),
            m(&[2], false, 1),
            m(&[3], false, 0)
        ]));
        assert!(!all_apart(&[m(&[0], true, 0), m(&[1, 2], false, 0)]));
        assert!(!all_apart(&[
            m(&[0], true, 1),
            m(&[1], false, 1),
            m(&[2], true, 1),
            m(&[3], false, 1)
        ]));
        assert!(!all_apart(&[m(&[0], true, 0)]));
    }

    #[test]
    fn splits_parts() {
        let data = r#"{"parts":["a,{",{"template":{"i":0}},"b]"]}"#;
        assert_eq!(
            parts(data),
            Some(vec![r#""a,{""#, r#"{"template":{"i":0}}"#, r#""b]""#])
        );
    }
}
