//! Customizable `<select>` (A.0 item 2, A.6): when an `option` is popped off the
//! stack of open elements, "maybe clone an option into `selectedcontent`" — the
//! option element's own steps, which html5lib-tests (webkit02.dat) expect from a
//! parser. The selected option is the last one inserted with a `selected`
//! attribute, or else the first one inserted; the `selectedcontent` is the first
//! one inserted in the select ("the select's enabled selectedcontent"), and
//! nothing is cloned into it when it is *disabled*: it has an `option` or
//! `selectedcontent` ancestor, or a second `select` ancestor (what Chromium
//! decides when the element is inserted). To clone, the mirror keeps text and
//! attributes once a `selectedcontent` element exists (`full_mirror`).

use std::collections::HashMap;

use crate::atom;
use crate::dom_patch::Namespace;

use super::TreeBuilder;
use super::mirror::{Kind, Marks, Mirror, NodeId, Remap};
use super::sink::{ElementAttrs, TreeSink};

/// What the tree builder tracks per `select` element.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct SelectState {
    selected: Option<NodeId>,
    selectedcontent: Option<NodeId>,
    /// The `selectedcontent` is disabled: nothing is ever cloned into it.
    disabled: bool,
}

/// The per-document state of this feature.
#[derive(Clone, Debug, Default)]
pub(crate) struct SelectTracker {
    /// Keep text and attributes in the mirror (a `selectedcontent` exists).
    pub(crate) full_mirror: bool,
    selects: HashMap<NodeId, SelectState>,
    /// Open options whose popping must be noticed.
    pub(super) watched: Vec<NodeId>,
    /// Text and comment data, when `full_mirror`.
    pub(crate) texts: HashMap<NodeId, String>,
    /// Processing instructions' target and data, when `full_mirror`.
    pub(crate) pis: HashMap<NodeId, (String, String)>,
}

impl SelectTracker {
    /// Marks what the feature may read again before a compaction: the watched
    /// (open) options with their subtrees (cloned when popped), and for each
    /// select that can still get options (an expanded one: open or an ancestor of
    /// an open node) its selected option and its `selectedcontent` (whose
    /// children are replaced). The state of any other select is dropped: no
    /// option is inserted under it again.
    pub(crate) fn mark(&mut self, mirror: &Mirror, marks: &mut Marks) {
        for &option in &self.watched {
            marks.expand_subtree(mirror, option);
        }
        // Expanding a selectedcontent expands its ancestors, which may hold
        // another select: repeat until nothing changes.
        let mut done = std::collections::HashSet::new();
        loop {
            let mut changed = false;
            for (&select, state) in &self.selects {
                if done.contains(&select) || !marks.is_expanded(select) {
                    continue;
                }
                done.insert(select);
                changed = true;
                if let Some(option) = state.selected {
                    marks.keep(option);
                }
                if let Some(target) = state.selectedcontent {
                    marks.expand_full(mirror, target);
                }
            }
            if !changed {
                break;
            }
        }
        self.selects.retain(|select, _| done.contains(select));
    }

    /// Maps the held node ids after a compaction, dropping what it forgot.
    pub(crate) fn remap(&mut self, remap: &Remap) {
        let map = |id: Option<NodeId>| id.and_then(|id| remap.get(id));
        self.selects = std::mem::take(&mut self.selects)
            .into_iter()
            .filter_map(|(select, state)| {
                let state = SelectState {
                    selected: map(state.selected),
                    selectedcontent: map(state.selectedcontent),
                    disabled: state.disabled,
                };
                Some((remap.get(select)?, state))
            })
            .collect();
        self.watched = self.watched.iter().filter_map(|&o| remap.get(o)).collect();
        self.texts = std::mem::take(&mut self.texts)
            .into_iter()
            .filter_map(|(id, text)| Some((remap.get(id)?, text)))
            .collect();
        self.pis = std::mem::take(&mut self.pis)
            .into_iter()
            .filter_map(|(id, pi)| Some((remap.get(id)?, pi)))
            .collect();
    }
}

impl TreeBuilder {
    /// The option element's nearest ancestor `select`.
    fn nearest_select(&self, node: NodeId) -> Option<NodeId> {
        let mut cur = self.mirror.parent(node);
        while let Some(n) = cur {
            if self.is_html(n, atom::SELECT) {
                return Some(n);
            }
            cur = self.mirror.parent(n);
        }
        None
    }

    /// An `option` was inserted: update its select's selectedness and watch it.
    pub(crate) fn option_inserted(&mut self, option: NodeId, has_selected: bool) {
        let Some(select) = self.nearest_select(option) else {
            return;
        };
        let state = self.select_tracker.selects.entry(select).or_default();
        if has_selected || state.selected.is_none() {
            state.selected = Some(option);
        }
        if self.is_open(option) {
            self.select_tracker.watched.push(option);
        }
    }

    /// A `selectedcontent` was inserted: the first one in a select is its
    /// selected content.
    pub(crate) fn selectedcontent_inserted(&mut self, element: NodeId) {
        self.select_tracker.full_mirror = true;
        let Some(select) = self.nearest_select(element) else {
            return;
        };
        let disabled = self.selectedcontent_disabled(element);
        let state = self.select_tracker.selects.entry(select).or_default();
        if state.selectedcontent.is_none() {
            state.selectedcontent = Some(element);
            state.disabled = disabled;
        }
    }

    /// Whether a just inserted `selectedcontent` is disabled: an `option` or
    /// `selectedcontent` ancestor, or a second `select` ancestor, would make
    /// cloning into it loop.
    fn selectedcontent_disabled(&self, element: NodeId) -> bool {
        let mut selects = 0;
        let mut cur = self.mirror.parent(element);
        while let Some(n) = cur {
            if self.is_html(n, atom::OPTION) || self.is_html(n, atom::SELECTEDCONTENT) {
                return true;
            }
            if self.is_html(n, atom::SELECT) {
                selects += 1;
                if selects > 1 {
                    return true;
                }
            }
            cur = self.mirror.parent(n);
        }
        false
    }

    /// Runs the popped steps for every watched option no longer open.
    #[inline(never)]
    pub(crate) fn check_popped_options(&mut self) {
        if self.select_tracker.watched.is_empty() {
            return;
        }
        let watched = std::mem::take(&mut self.select_tracker.watched);
        let mut still_open = Vec::new();
        for option in watched {
            if self.is_open(option) {
                still_open.push(option);
            } else {
                self.maybe_clone_option(option);
            }
        }
        self.select_tracker.watched = still_open;
    }

    /// "Maybe clone an option into selectedcontent".
    fn maybe_clone_option(&mut self, option: NodeId) {
        let Some(select) = self.nearest_select(option) else {
            return;
        };
        let Some(state) = self.select_tracker.selects.get(&select).copied() else {
            return;
        };
        let Some(target) = state.selectedcontent else {
            return;
        };
        if state.disabled || state.selected != Some(option) {
            return;
        }
        // "Clone" the option's children first, as a snapshot: the copies are built
        // detached, so a selectedcontent inside the option itself is copied as it
        // was, never walked while it grows.
        let mut clones = Vec::new();
        let mut work: Vec<(NodeId, Option<NodeId>)> = vec![(option, None)];
        while let Some((source, dest)) = work.pop() {
            let mut children = Vec::new();
            let mut child = self.mirror.get(source).and_then(|n| n.first_child());
            while let Some(c) = child {
                children.push(c);
                child = self.mirror.get(c).and_then(|n| n.next());
            }
            for c in children {
                let Some(copy) = self.clone_node(c) else {
                    continue;
                };
                match dest {
                    Some(dest) => self.append_to(dest, copy),
                    None => clones.push(copy),
                }
                if self.mirror.elem(c).is_some() {
                    work.push((c, Some(copy)));
                }
            }
        }
        // Then replace all children of the selectedcontent with the clones.
        while let Some(child) = self.mirror.get(target).and_then(|n| n.first_child()) {
            self.detach(child);
        }
        for copy in clones {
            self.append_to(target, copy);
        }
    }

    /// A shallow copy of a mirrored node (element, text or comment).
    fn clone_node(&mut self, node: NodeId) -> Option<NodeId> {
        match self.mirror.get(node).map(|n| n.kind.clone())? {
            Kind::Element(e) => {
                let ns: Namespace = e.ns;
                let (qual, attrs) = (self.mirror.qual(&e), self.mirror.attrs(&e));
                Some(self.create_element(ns, e.name, qual, ElementAttrs::list(&attrs)))
            }
            Kind::Text => {
                let text = self.select_tracker.texts.get(&node).cloned()?;
                let copy = self.mirror.add(Kind::Text);
                let key = self.mirror.key(copy);
                self.emit.create_text(key, &text);
                self.select_tracker.texts.insert(copy, text);
                Some(copy)
            }
            Kind::Other if self.select_tracker.pis.contains_key(&node) => {
                let (target, data) = self.select_tracker.pis.get(&node).cloned()?;
                let copy = self.mirror.add(Kind::Other);
                self.select_tracker
                    .pis
                    .insert(copy, (target.clone(), data.clone()));
                let key = self.mirror.key(copy);
                self.emit.create_processing_instruction(key, &target, &data);
                Some(copy)
            }
            Kind::Other => {
                let text = self.select_tracker.texts.get(&node).cloned()?;
                let copy = self.mirror.add(Kind::Other);
                let key = self.mirror.key(copy);
                self.emit.create_comment(key, &text);
                Some(copy)
            }
            Kind::Document | Kind::Fragment => None,
        }
    }
}
