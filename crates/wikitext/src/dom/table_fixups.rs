//! Parsoid's table fix-ups on the tree, before template encapsulation: a call
//! whose output made a cell's syntax (its pipes or attributes), or runs from
//! one cell into another, is encapsulated as whole cells: its markers move to
//! the cells' parent, around the first and the last cell, and its `data-mw`
//! gets the wikitext of those cells around the call as literal parts
//! (`["|align=center ", {template}, " tail"]`), as Parsoid's template ranges
//! do. Empty `|-` rows are flagged `mw-empty-elt` whatever their attributes.
//! The tokenizer's private `tl:` attributes (see `tokenize/table.rs`) are
//! removed here.

use super::{Element, Node, is_private};

const CELL: &str = "tl:cell";
const PREFIX: &str = "tl:prefix";
const SUFFIX: &str = "tl:suffix";
const ROW: &str = "tl:row";
const TID: &str = "tl:tid";
const TPREFIX: &str = "tl:tprefix";
const TSUFFIX: &str = "tl:tsuffix";
const DROP: &str = "tl:drop";
const HSUFFIX: &str = "tl:hsuffix";
const CALL: &str = "tl:call";

/// A path of child indices from the top-level list.
pub(crate) type Path = Vec<usize>;

/// A transclusion marker: its path, whether it is a start marker, its call
/// (`tl:call`).
pub(crate) type Mark = (Path, bool, Option<usize>);

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

/// What a tree holds that the passes look for (one walk, [`survey`]).
#[derive(Default)]
struct Survey {
    /// A private (`tl:`) attribute.
    private: bool,
    /// A private attribute other than `tl:call` (which every marker has).
    more: bool,
    /// A table, one of its sections or a row.
    table: bool,
    /// Start markers.
    starts: usize,
    /// A row or cell with a marker anchored on it (`tl:odata`, `tl:ccall`):
    /// [`unanchor`] may have work.
    anchored: bool,
    /// A table, section or row with a start marker among its children:
    /// [`drop_fosterable_whitespace`] may have work.
    fosterable: bool,
}

/// The survey and the markers ([`marks`]) in one walk: while neither
/// [`unanchor`] nor [`drop_fosterable_whitespace`] has work, the markers
/// found here are the ones the later passes start from.
fn survey(nodes: &[Node]) -> (Survey, Marks) {
    let mut found = Survey::default();
    let mut m = Marks::default();
    walk(nodes, |path, node| {
        let Node::Element(e) = node else { return };
        for (k, _) in &e.attrs {
            if is_private(k) {
                found.private = true;
                if k != "tl:call" {
                    found.more = true;
                    found.anchored |= k == "tl:odata" || k == "tl:ccall";
                }
            }
        }
        if matches!(&*e.name, "table" | "tbody" | "thead" | "tfoot" | "tr") {
            found.table = true;
            found.fosterable |= e.children.iter().any(|c| is_marker(c, true));
            if e.name == "table" {
                m.note_table(path, e);
            }
        }
        if e.name == "meta" {
            let start = m.note(path, e);
            found.starts += usize::from(start);
        }
    });
    (found, m)
}

/// The transclusion markers in document order, and which of the passes that
/// read markers' table attributes have work (one walk).
#[derive(Default)]
struct Marks {
    /// (path, is start).
    list: Vec<Mark>,
    /// A start marker with `tl:tid`.
    from_inside: bool,
    /// A marker with `tl:hsuffix`.
    held: bool,
    /// A marker with `tl:tsuffix`.
    over_table: bool,
    /// The path of every table with an id (its `tl:tid`).
    tables: foldhash::HashMap<String, Path>,
}

impl Marks {
    /// Notes `node` (the element `e`, a `meta`, at `path`) if it is a marker;
    /// whether it is a start marker.
    fn note(&mut self, path: &[usize], e: &Element) -> bool {
        // One look at the attributes (the first `typeof` and `tl:call`, as
        // `Element::attr` finds them).
        let (mut ty, mut call) = (None, None);
        let (mut tid, mut held, mut over_table) = (false, false, false);
        for (k, v) in &e.attrs {
            match &**k {
                "typeof" if ty.is_none() => ty = Some(v.as_str()),
                CALL if call.is_none() => call = Some(v.as_str()),
                TID => tid = true,
                HSUFFIX => held = true,
                TSUFFIX => over_table = true,
                _ => {}
            }
        }
        let start = ty == Some("mw:Transclusion");
        if start || ty == Some("mw:Transclusion/End") {
            let call = call.and_then(|c| c.parse::<usize>().ok());
            self.list.push((path.to_vec(), start, call));
        }
        self.from_inside |= start && tid;
        self.held |= held;
        self.over_table |= over_table;
        start
    }

    /// Notes the table `e` at `path` if it has an id.
    fn note_table(&mut self, path: &[usize], e: &Element) {
        if let Some(tid) = e.attr(TID) {
            self.tables.insert(tid.to_owned(), path.to_vec());
        }
    }
}

fn marks(nodes: &[Node]) -> Marks {
    let mut m = Marks::default();
    walk(nodes, |path, node| {
        let Node::Element(e) = node else { return };
        if e.name == "meta" {
            m.note(path, e);
        } else if e.name == "table" {
            m.note_table(path, e);
        }
    });
    m
}

/// The transclusion markers in document order: (path, is start).
pub(crate) fn markers(nodes: &[Node]) -> Vec<Mark> {
    marks(nodes).list
}

/// Calls `f` with every node and its path, in document order, not below an
/// element nothing under which concerns the marker passes
/// ([`super::Marked`]; every pass that walks here looks for markers, private
/// attributes or tables). Iterative, one path buffer: the tree may be deep
/// and large.
pub(crate) fn walk<'a>(nodes: &'a [Node], mut f: impl FnMut(&[usize], &'a Node)) {
    // One iterator per open list; `path` ends with the index of the top
    // list's next node (a node costs one step of its list's iterator, no
    // frame popped and pushed back).
    let mut stack: Vec<std::slice::Iter<'a, Node>> = vec![nodes.iter()];
    let mut path: Path = vec![0];
    while let Some(list) = stack.last_mut() {
        let Some(node) = list.next() else {
            stack.pop();
            path.pop();
            if let Some(i) = path.last_mut() {
                *i += 1;
            }
            continue;
        };
        f(&path, node);
        match node {
            Node::Element(e) if e.marked_below() && !e.children.is_empty() => {
                stack.push(e.children.iter());
                path.push(0);
            }
            _ => {
                if let Some(i) = path.last_mut() {
                    *i += 1;
                }
            }
        }
    }
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
            .filter(|e| matches!(&*e.name, "td" | "th" | "caption"))
            .map(|_| p.to_vec())
    })
}

/// The attributes a moved marker keeps (its call, for `compound`).
fn kept(e: &Element) -> Vec<super::Attr> {
    e.attrs
        .iter()
        .filter(|(k, _)| k == "tl:call")
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

/// Structural edits collected while paths are still valid, applied at once.
#[derive(Default)]
struct Edits {
    /// (parent path, index, sequence, meta to insert there)
    inserts: Vec<(Path, usize, usize, Element)>,
}

impl Edits {
    fn insert(&mut self, parent: &[usize], at: usize, meta: Element) {
        let seq = self.inserts.len();
        self.inserts.push((parent.to_vec(), at, seq, meta));
    }

    /// Inserts the metas (later positions first, so earlier ones stay valid)
    /// and removes the nodes flagged `tl:drop`.
    fn apply(mut self, nodes: &mut Vec<Node>) {
        self.inserts.sort_by(|a, b| {
            let pa = a.0.iter().chain(std::iter::once(&a.1));
            let pb = b.0.iter().chain(std::iter::once(&b.1));
            pb.cmp(pa).then(b.2.cmp(&a.2))
        });
        for (parent, at, _, meta) in self.inserts {
            if let Some(list) = list_at(nodes, &parent) {
                list.insert(at.min(list.len()), Node::Element(meta));
            }
        }
        sweep(nodes);
    }
}

/// Flags the element at `path` for removal.
pub(crate) fn drop_at(nodes: &mut [Node], path: &[usize]) -> Option<()> {
    let (last, parent) = path.split_last()?;
    let mut list = nodes;
    for &i in parent {
        match list.get_mut(i)? {
            Node::Element(e) => list = &mut e.children,
            _ => return None,
        }
    }
    match list.get_mut(*last)? {
        Node::Element(e) => e.attrs.push((DROP.into(), super::Value::EMPTY)),
        _ => return None,
    }
    Some(())
}

/// Removes the elements flagged `tl:drop` (iterative: the tree may be deep).
/// Only markers are flagged: not below elements nothing under which
/// concerns the marker passes.
pub(crate) fn sweep(nodes: &mut Vec<Node>) {
    let mut stack: Vec<&mut Vec<Node>> = vec![nodes];
    while let Some(list) = stack.pop() {
        list.retain(|n| !matches!(n, Node::Element(e) if e.attr(DROP).is_some()));
        for n in list {
            if let Node::Element(e) = n
                && e.marked_below()
            {
                stack.push(&mut e.children);
            }
        }
    }
}

fn end_meta(kept: Vec<super::Attr>) -> Element {
    let mut end = Element::new("meta");
    end.attrs
        .push(("typeof".into(), "mw:Transclusion/End".into()));
    end.attrs.extend(kept);
    end
}

fn start_meta(data: String, kept: Vec<super::Attr>) -> Element {
    let mut begin = Element::new("meta");
    begin
        .attrs
        .push(("typeof".into(), "mw:Transclusion".into()));
    begin.attrs.push(("data-mw".into(), data.into()));
    begin.attrs.extend(kept);
    begin
}

/// Widens one call (markers at `s` and `e`) to whole cells where its output
/// made cell syntax or spans cells.
fn fix_pair(nodes: &mut [Node], s: &[usize], e: &[usize], edits: &mut Edits) -> Option<()> {
    let start = element_at(nodes, s)?;
    // Only markers met in a cell carry a prefix or the cell flag.
    let flagged = start.attr(CELL).is_some();
    if !flagged && start.attr(PREFIX).is_none() {
        return None;
    }
    let first = cell_of(nodes, s)?;
    let last = cell_of(nodes, e)?;
    if !flagged && first == last {
        return None;
    }
    let start_kept = kept(start);
    let end_kept = kept(element_at(nodes, e)?);
    let prefix = start.attr(PREFIX).unwrap_or("").to_owned();
    let data = start.attr("data-mw")?.to_owned();
    let suffix = element_at(nodes, e)?.attr(SUFFIX).unwrap_or("").to_owned();
    let (first_at, parent) = first.split_last()?;
    let (last_at, last_parent) = last.split_last()?;
    if parent != last_parent || last_at < first_at {
        return None;
    }
    drop_at(nodes, e)?;
    drop_at(nodes, s)?;
    edits.insert(parent, last_at + 1, end_meta(end_kept));
    let data = with_parts(&data, &prefix, &suffix);
    edits.insert(parent, *first_at, start_meta(data, start_kept));
    Some(())
}

/// The path of every table with an id (its `tl:tid`).
fn tables(nodes: &[Node]) -> foldhash::HashMap<String, Path> {
    marks(nodes).tables
}

/// A call whose start marker the tree builder fostered out of the table it
/// was written in: the range runs from the fostered content over the table
/// (or past it, where the call ends after the table), with the table's
/// wikitext around the call as literal parts.
fn fix_fostered(
    nodes: &mut [Node],
    s: &[usize],
    e: &[usize],
    tables: &foldhash::HashMap<String, Path>,
    edits: &mut Edits,
) -> Option<()> {
    let start = element_at(nodes, s)?;
    let tid = start.attr(TID)?.to_owned();
    let prefix = start.attr(TPREFIX)?.to_owned();
    if tables.get(&tid).is_some_and(|table| s.starts_with(table)) {
        return None; // not fostered
    }
    let start_kept = kept(start);
    let end_kept = kept(element_at(nodes, e)?);
    let data = start.attr("data-mw")?.to_owned();
    let end = element_at(nodes, e)?;
    let suffix = if end.attr(TID) == Some(tid.as_str()) {
        end.attr(TSUFFIX).unwrap_or("").to_owned()
    } else {
        String::new()
    };
    let table = tables.get(&tid)?.clone();
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
        drop_at(nodes, e)?;
        edits.insert(parent, e_top.max(table_at) + 1, end_meta(end_kept));
    }
    if s.len() == depth + 1 {
        if let Some(Node::Element(m)) = list_at_mut(nodes, parent)?.get_mut(first_at) {
            m.attrs.retain(|(k, _)| k != "data-mw");
            m.attrs.push(("data-mw".into(), data.into()));
        }
    } else {
        drop_at(nodes, s)?;
        edits.insert(parent, first_at, start_meta(data, start_kept));
    }
    Some(())
}

fn list_at_mut<'a>(nodes: &'a mut [Node], parent: &[usize]) -> Option<&'a mut [Node]> {
    let mut list = nodes;
    for &i in parent {
        match list.get_mut(i)? {
            Node::Element(e) => list = &mut e.children,
            _ => return None,
        }
    }
    Some(list)
}

/// Markers the tokenizer put on a row or cell tag (`tokenize::table::
/// anchor_markers`) go back beside the element, in its parent.
fn unanchor(nodes: &mut Vec<Node>) {
    let mut edits = Edits::default();
    walk(nodes, |path, node| {
        let Node::Element(e) = node else { return };
        let Some((at, parent)) = path.split_last() else {
            return;
        };
        if let (Some(data), Some(call)) = (e.attr("tl:odata"), e.attr("tl:ocall")) {
            let mut kept = vec![("tl:call".into(), call.to_owned().into())];
            if let (Some(tid), Some(prefix)) = (e.attr("tl:otid"), e.attr("tl:otprefix")) {
                kept.push((TID.into(), tid.to_owned().into()));
                kept.push((TPREFIX.into(), prefix.to_owned().into()));
            }
            edits.insert(parent, *at, start_meta(data.to_owned(), kept));
        }
        if let Some(call) = e.attr("tl:ccall") {
            let kept = vec![("tl:call".into(), call.to_owned().into())];
            edits.insert(parent, at + 1, end_meta(kept));
        }
    });
    if !edits.inserts.is_empty() {
        edits.apply(nodes);
    }
}

/// Whitespace and comments of a call's output directly in a table, body or
/// row (where text cannot be wrapped) go (Parsoid deletes them while
/// template-wrapping).
fn drop_fosterable_whitespace(nodes: &mut [Node]) {
    let mut stack: Vec<&mut Node> = nodes.iter_mut().collect();
    while let Some(node) = stack.pop() {
        let Node::Element(e) = node else { continue };
        if matches!(&*e.name, "table" | "tbody" | "thead" | "tfoot" | "tr")
            && e.children.iter().any(|c| is_marker(c, true))
        {
            let mut inside = false;
            e.children.retain(|c| {
                if is_marker(c, true) {
                    inside = true;
                } else if is_marker(c, false) {
                    inside = false;
                } else if inside {
                    return match c {
                        Node::Text(t) => !t.chars().all(char::is_whitespace),
                        Node::Comment(_) => false,
                        Node::Element(_) => true,
                    };
                }
                true
            });
        }
        if e.marked_below() {
            stack.extend(e.children.iter_mut());
        }
    }
}

/// Each call's start and end markers (by `tl:call`), in document order of
/// the starts.
fn pairs(nodes: &[Node]) -> Vec<(Path, Path)> {
    let marks = markers(nodes);
    pairs_of(&marks)
        .into_iter()
        .map(|(s, e)| (s.to_vec(), e.to_vec()))
        .collect()
}

/// [`pairs`] from the markers `marks` of `nodes`.
fn pairs_of<'a>(marks: &'a [Mark]) -> Vec<(&'a [usize], &'a [usize])> {
    let mut starts: Vec<(usize, &'a [usize])> = Vec::new();
    let mut ends: foldhash::HashMap<usize, &'a [usize]> = foldhash::HashMap::default();
    for (path, start, call) in marks {
        let Some(call) = *call else {
            continue;
        };
        if *start {
            starts.push((call, path));
        } else {
            ends.entry(call).or_insert(path);
        }
    }
    starts
        .into_iter()
        .filter_map(|(call, s)| Some((s, ends.remove(&call)?)))
        .collect()
}

/// Removes the private attributes; flags empty `|-` rows; trims wikitext
/// cells; moves the trailing newlines out of wikitext rows
/// ([`migrate_rows_in`]). One walk: an element's child list gives up its
/// rows' newlines before the element itself is stripped (a row is flagged
/// empty once its newlines left, a cell trimmed once its list is final), as
/// when the rows of the whole tree moved first.
fn strip(nodes: &mut Vec<Node>) {
    migrate_rows_in(nodes);
    let mut stack: Vec<&mut Element> = Vec::new();
    push_elements(nodes, &mut stack);
    while let Some(e) = stack.pop() {
        // Private attributes and wikitext rows are only below marked elements.
        let below = e.marked_below();
        if below {
            migrate_rows_in(&mut e.children);
        }
        strip_element(e);
        if below {
            push_elements(&mut e.children, &mut stack);
        }
    }
}

fn push_elements<'a>(list: &'a mut [Node], stack: &mut Vec<&'a mut Element>) {
    stack.extend(list.iter_mut().filter_map(|n| match n {
        Node::Element(e) => Some(e),
        _ => None,
    }));
}

/// [`strip`] on one element: its private attributes, a wikitext cell's
/// whitespace, an empty wikitext row's flag.
fn strip_element(e: &mut Element) {
    // One look at the attributes: most elements have no private one.
    let (mut private, mut wt, mut row) = (false, false, false);
    for (k, _) in &e.attrs {
        if is_private(k) {
            private = true;
            wt |= k == "tl:wt";
            row |= k == ROW;
        }
    }
    if wt {
        super::trim::trim_whitespace(e);
    }
    if private {
        e.attrs.retain(|(k, _)| !is_private(k));
    }
    if row && !e.attrs.is_empty() && super::cleanup::is_empty(e) {
        match e.attrs.iter_mut().find(|(k, _)| k == "class") {
            Some((_, v)) if !v.split_whitespace().any(|c| c == "mw-empty-elt") => {
                v.push_str(" mw-empty-elt");
            }
            Some(_) => {}
            None => e.attrs.push(("class".into(), "mw-empty-elt".into())),
        }
    }
}

/// A call whose start marker stayed in the table it was written in and whose
/// end marker the tree builder fostered out of it (with the call's fostered
/// output): the range runs from that fostered content over the table, the
/// table's wikitext around the call as literal parts.
fn fostered_end_from_inside(nodes: &mut Vec<Node>) {
    let tables = tables(nodes);
    let mut edits = Edits::default();
    let mut moves: Vec<(Path, usize, usize)> = Vec::new();
    for (s, e) in pairs(nodes) {
        let Some(start) = element_at(nodes, &s) else {
            continue;
        };
        let (Some(tid), Some(prefix), Some(data)) =
            (start.attr(TID), start.attr(TPREFIX), start.attr("data-mw"))
        else {
            continue;
        };
        let Some(table) = tables.get(tid) else {
            continue;
        };
        let (Some((&ti, tp)), Some((&ei, ep))) = (table.split_last(), e.split_last()) else {
            continue;
        };
        let Some(end) = element_at(nodes, &e) else {
            continue;
        };
        if !s.starts_with(table) || ep != tp || ei >= ti || end.attr(TID) != Some(tid) {
            continue;
        }
        let data = with_parts(data, prefix, end.attr(TSUFFIX).unwrap_or(""));
        let kept = kept(start);
        let Some(list) = list_ref(nodes, tp) else {
            continue;
        };
        // The call's fostered output just before its end marker.
        let mut first = ei;
        while first > 0
            && list.get(first - 1).is_some_and(|n| match n {
                Node::Comment(_) => true,
                Node::Element(x) => {
                    matches!(&*x.name, "link" | "meta")
                        && !is_marker(n, true)
                        && !is_marker(n, false)
                }
                Node::Text(_) => false,
            })
        {
            first -= 1;
        }
        if drop_at(nodes, &s).is_none() {
            continue;
        }
        edits.insert(tp, first, start_meta(data, kept));
        moves.push((tp.to_vec(), ei, ti));
    }
    // The end markers go after their tables (before the inserts, which are
    // all at or before them).
    for (parent, ei, ti) in moves.iter().rev() {
        if let Some(span) = list_at_mut(nodes, parent).and_then(|l| l.get_mut(*ei..=*ti)) {
            span.rotate_left(1);
        }
    }
    if !edits.inserts.is_empty() {
        edits.apply(nodes);
    }
}

/// A call whose output opened a table (its start marker before the table) and
/// whose end marker the tree builder fostered out of it: the range runs over
/// the fostered content to the table, the table's wikitext after the call a
/// literal part (Parsoid's range by source offsets).
/// Whether an end marker moved. `tables` and `pairs` are the tree's
/// ([`Marks`]).
fn fostered_end_over_table(
    nodes: &mut [Node],
    tables: &foldhash::HashMap<String, Path>,
    pairs: &[(&[usize], &[usize])],
) -> bool {
    let mut moved = false;
    for &(s, e) in pairs.iter().rev() {
        let (Some((&si, sp)), Some((&ei, ep))) = (s.split_last(), e.split_last()) else {
            continue;
        };
        let (Some(start), Some(end)) = (element_at(nodes, s), element_at(nodes, e)) else {
            continue;
        };
        if sp != ep || si >= ei || start.attr(TID).is_some() {
            continue;
        }
        let (Some(tid), Some(suffix)) = (end.attr(TID), end.attr(TSUFFIX)) else {
            continue;
        };
        let Some((&ti, tp)) = tables.get(tid).and_then(|t| t.split_last()) else {
            continue;
        };
        let Some(data) = start.attr("data-mw") else {
            continue;
        };
        if tp != sp || ti <= ei {
            continue;
        }
        let data = with_parts(data, "", suffix);
        let Some(list) = list_at_mut(nodes, sp) else {
            continue;
        };
        if let Some(Node::Element(m)) = list.get_mut(si) {
            m.attrs.retain(|(k, _)| k != "data-mw");
            m.attrs.push(("data-mw".into(), data.into()));
        }
        // The end marker moves to just after the table.
        if let Some(span) = list.get_mut(ei..=ti) {
            span.rotate_left(1);
            moved = true;
        }
    }
    moved
}

/// A call that opened a table and ended on its `{|` line holds the whole
/// table (its end marker waited for `|}`): the table's wikitext after the
/// call closes its parts, as in Parsoid's range over the table.
fn held_table_suffixes(nodes: &mut [Node], pairs: &[(&[usize], &[usize])]) {
    for &(s, e) in pairs {
        let Some(suffix) = element_at(nodes, e)
            .and_then(|m| m.attr(HSUFFIX))
            .map(str::to_owned)
        else {
            continue;
        };
        let Some(data) = element_at(nodes, s).and_then(|m| m.attr("data-mw")) else {
            continue;
        };
        let data = with_parts(data, "", &suffix);
        let Some((last, parent)) = s.split_last() else {
            continue;
        };
        if let Some(Node::Element(m)) = list_at_mut(nodes, parent).and_then(|l| l.get_mut(*last)) {
            m.attrs.retain(|(k, _)| k != "data-mw");
            m.attrs.push(("data-mw".into(), data.into()));
        }
    }
}

/// How many of `children`'s last nodes move out of a wikitext row (Parsoid's
/// MigrateTrailingNLs: a row ends a line in wikitext, so the trailing run of
/// comments and all-whitespace text holding a newline leaves it; a text that
/// only ends in newlines gives those up and stops the run). The second value
/// is the count of newlines split off the text that stopped the run.
fn trailing_newline_run(children: &[Node]) -> (usize, usize) {
    let (mut taken, mut found_nl, mut partial) = (0, false, 0);
    for node in children.iter().rev() {
        match node {
            Node::Comment(_) => taken += 1,
            Node::Text(t) if t.contains('\n') && t.bytes().all(|b| b" \t\r\n".contains(&b)) => {
                taken += 1;
                found_nl = true;
            }
            Node::Text(t) if t.ends_with('\n') => {
                found_nl = true;
                partial = t.len() - t.trim_end_matches('\n').len();
                break;
            }
            _ => break,
        }
    }
    if found_nl { (taken, partial) } else { (0, 0) }
}

/// Moves the trailing newlines (with the comments among them) out of each
/// wikitext row (`tl:row`) of `nodes` to just after it (the rows of this
/// list only: [`strip`] calls it on every list it visits).
fn migrate_rows_in(nodes: &mut Vec<Node>) {
    let mut i = nodes.len();
    while i > 0 {
        i -= 1;
        let Some(Node::Element(e)) = nodes.get_mut(i) else {
            continue;
        };
        if e.name != "tr" || !e.attrs.iter().any(|(k, _)| k == ROW) {
            continue;
        }
        let (count, partial) = trailing_newline_run(&e.children);
        if count == 0 && partial == 0 {
            continue;
        }
        let mut moved = e.children.split_off(e.children.len() - count);
        if partial > 0
            && let Some(Node::Text(t)) = e.children.last_mut()
        {
            let at = t.len() - partial;
            let nls = t.to_mut().split_off(at);
            if t.is_empty() {
                e.children.pop();
            }
            moved.insert(0, Node::Text(nls.into()));
        }
        let at = i + 1;
        for (k, n) in moved.into_iter().enumerate() {
            nodes.insert(at + k, n);
        }
    }
}

/// Runs the pass over the body's children.
pub(crate) fn table_fixups(nodes: &mut Vec<Node>, gaps: &[crate::transclusion::Call]) {
    // Nothing marked at the top (most ref bodies): no marker, table or
    // private attribute anywhere ([`super::Marked`]), no walk.
    if !nodes
        .iter()
        .any(|n| matches!(n, Node::Element(e) if e.marked_below() || super::Marked::concerns(e)))
    {
        return;
    }
    let (survey, found) = survey(nodes);
    if !survey.private {
        return;
    }
    if !survey.more && !survey.table {
        // Markers and no table (a ref body, most template output): the passes
        // before `compounds` need a table or attributes of one, which the
        // markers do not have; compounds needs two calls.
        if survey.starts > 1 {
            super::compound::compounds_with(nodes, gaps, found.list);
        }
        // The only private attribute is `tl:call`, which only markers have,
        // and `encapsulate` removes every marker: nothing to strip.
        return;
    }
    // The survey's markers stay the tree's unless these two change it.
    let found = if survey.anchored || survey.fosterable {
        if survey.anchored {
            unanchor(nodes);
        }
        drop_fosterable_whitespace(nodes);
        marks(nodes)
    } else {
        found
    };
    // Markers are flagged and new ones collected; the tree changes only once
    // every pair is done, so the paths stay valid.
    let pairs_now = pairs_of(&found.list);
    let any = |name: &str| {
        pairs_now
            .iter()
            .any(|(s, _)| element_at(nodes, s).is_some_and(|m| m.attr(name).is_some()))
    };
    let (cells, fostered) = (any(PREFIX) || any(CELL), any(TPREFIX));
    // The passes below read attributes the tokenizer put on markers; the
    // markers the passes make keep only `tl:call`, so a pass none of whose
    // attributes is on a marker now has nothing to do (each would walk the
    // tree for its pairs).
    let (from_inside, held, over_table) = (found.from_inside, found.held, found.over_table);
    // Whether the tree's structure changed since `found` (its markers and
    // tables no longer the tree's).
    let mut changed = false;
    if cells {
        let mut edits = Edits::default();
        for (s, e) in &pairs_now {
            changed |= fix_pair(nodes, s, e, &mut edits).is_some();
        }
        if changed {
            edits.apply(nodes);
        }
    }
    if fostered {
        changed = true;
        let mut edits = Edits::default();
        let tables = tables(nodes);
        for (s, e) in &pairs(nodes) {
            let _ = fix_fostered(nodes, s, e, &tables, &mut edits);
        }
        edits.apply(nodes);
    }
    if from_inside {
        fostered_end_from_inside(nodes);
        changed = true;
    }
    // The last two read the markers and tables: `found`'s while the tree
    // kept its structure (`held` changes only attributes).
    let fresh;
    let (marks_now, pairs_now) = if changed && (held || over_table) {
        fresh = marks(nodes);
        let pairs = pairs_of(&fresh.list);
        (&fresh, pairs)
    } else {
        (&found, pairs_now)
    };
    if held {
        held_table_suffixes(nodes, &pairs_now);
    }
    if over_table {
        changed |= fostered_end_over_table(nodes, &marks_now.tables, &pairs_now);
    }
    // The markers found above are still the tree's unless a pass moved one.
    let now = if changed { markers(nodes) } else { found.list };
    super::compound::compounds_with(nodes, gaps, now);
    strip(nodes);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::test_nodes::text;

    /// Every node's path, in document order, not below an element marked
    /// as holding nothing for the passes.
    #[test]
    fn walk_gives_paths_in_document_order() {
        let el = |name: &'static str, children: Vec<Node>, marked: bool| {
            let mut e = Element::new(name);
            e.children = children;
            if !marked {
                e.marked = crate::dom::Marked::NONE;
            }
            Node::Element(e)
        };
        let nodes = vec![
            text("a"),
            el(
                "x",
                vec![
                    text("b"),
                    el("y", vec![text("c")], true),
                    el("z", vec![text("d")], false),
                ],
                true,
            ),
            el("w", Vec::new(), true),
            text("e"),
        ];
        let mut seen = Vec::new();
        walk(&nodes, |path, _| seen.push(path.to_vec()));
        let want: Vec<Vec<usize>> = vec![
            vec![0],
            vec![1],
            vec![1, 0],
            vec![1, 1],
            vec![1, 1, 0],
            vec![1, 2],
            vec![2],
            vec![3],
        ];
        assert_eq!(seen, want);
    }

    fn comment(s: &str) -> Node {
        Node::Comment(s.into())
    }

    fn row(children: Vec<Node>) -> Node {
        let mut e = Element::new("tr");
        e.attrs.push((ROW.into(), super::super::Value::EMPTY));
        e.children = children;
        Node::Element(e)
    }

    #[test]
    fn newline_runs_leave_wikitext_rows() {
        // Whitespace with a newline and the comments among it move out.
        let mut nodes = vec![row(vec![text("\n "), comment("c"), text("\n")])];
        migrate_rows_in(&mut nodes);
        assert_eq!(
            nodes,
            vec![row(vec![]), text("\n "), comment("c"), text("\n")]
        );
        // A space without a newline stops the run.
        let mut nodes = vec![row(vec![comment("c"), text(" "), comment("d"), text("\n")])];
        migrate_rows_in(&mut nodes);
        assert_eq!(
            nodes,
            vec![row(vec![comment("c"), text(" ")]), comment("d"), text("\n")]
        );
        // A text ending in newlines gives up only those.
        let mut nodes = vec![row(vec![text("x\n\n")])];
        migrate_rows_in(&mut nodes);
        assert_eq!(nodes, vec![row(vec![text("x")]), text("\n\n")]);
        // No newline: nothing moves; HTML rows (no marker) are left alone.
        let mut nodes = vec![row(vec![comment("c")])];
        migrate_rows_in(&mut nodes);
        assert_eq!(nodes, vec![row(vec![comment("c")])]);
        let mut html_row = Element::new("tr");
        html_row.children.push(text("\n"));
        let mut nodes = vec![Node::Element(html_row.clone())];
        migrate_rows_in(&mut nodes);
        assert_eq!(nodes, vec![Node::Element(html_row)]);
    }

    #[test]
    fn strip_moves_row_newlines_then_strips_the_row() {
        let mut tr = Element::new("tr");
        tr.attrs.push((ROW.into(), super::super::Value::EMPTY));
        tr.attrs.push(("style".into(), "x".into()));
        tr.children = vec![text("\n")];
        let mut tbody = Element::new("tbody");
        tbody.children = vec![Node::Element(tr)];
        let mut nodes = vec![Node::Element(tbody)];
        strip(&mut nodes);
        let mut want_tr = Element::new("tr");
        want_tr.attrs.push(("style".into(), "x".into()));
        want_tr.attrs.push(("class".into(), "mw-empty-elt".into()));
        let mut want = Element::new("tbody");
        want.children = vec![Node::Element(want_tr), text("\n")];
        assert_eq!(nodes, vec![Node::Element(want)]);
    }

    #[test]
    fn markers_without_a_table_keep_no_private_attribute() {
        // The short path leaves `tl:call` on the markers; `encapsulate`
        // removes every marker.
        let marker = |ty: &str| {
            let mut m = Element::new("meta");
            m.attrs.push(("typeof".into(), ty.to_owned().into()));
            if ty == "mw:Transclusion" {
                m.attrs.push(("data-mw".into(), "{}".into()));
            }
            m.attrs.push(("tl:call".into(), "0".into()));
            Node::Element(m)
        };
        let mut p = Element::new("p");
        p.children = vec![
            marker("mw:Transclusion"),
            text("x"),
            marker("mw:Transclusion/End"),
        ];
        let mut nodes = vec![Node::Element(p)];
        table_fixups(&mut nodes, &[]);
        let nodes = super::super::encapsulate::encapsulate(nodes);
        let mut private = false;
        walk(&nodes, |_, n| {
            private |=
                matches!(n, Node::Element(e) if e.attrs.iter().any(|(k, _)| k.starts_with("tl:")));
        });
        assert!(!private);
        assert!(!nodes.iter().any(|n| matches!(n, Node::Element(e) if e.children.iter().any(|c| matches!(c, Node::Element(m) if m.name == "meta")))));
    }

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
