//! 13.2.4.3 the list of active formatting elements: markers, the Noah's Ark
//! clause, and "reconstruct the active formatting elements".

use crate::atom::Atom;
use crate::dom_patch::PatchAttr;

use super::TreeBuilder;
use super::mirror::NodeId;
use super::sink::ElementAttrs;

/// An entry: a formatting element, or a marker (`None`).
pub(crate) type Entry = Option<NodeId>;

/// The list itself.
#[derive(Clone, Debug, Default)]
pub(crate) struct FormattingList {
    pub(crate) entries: Vec<Entry>,
}

impl FormattingList {
    /// Inserts a marker (applet, object, marquee, template, td, th, caption).
    pub(crate) fn push_marker(&mut self) {
        self.entries.push(None);
    }

    /// 13.2.4.3 "clear the list of active formatting elements up to the last
    /// marker".
    pub(crate) fn clear_to_last_marker(&mut self) {
        while let Some(entry) = self.entries.pop() {
            if entry.is_none() {
                break;
            }
        }
    }

    /// The index of `node`'s entry.
    pub(crate) fn position(&self, node: NodeId) -> Option<usize> {
        self.entries.iter().rposition(|e| *e == Some(node))
    }

    /// Whether `node` is in the list.
    pub(crate) fn contains(&self, node: NodeId) -> bool {
        self.position(node).is_some()
    }

    /// Removes `node`'s entry, if any.
    pub(crate) fn remove(&mut self, node: NodeId) {
        if let Some(i) = self.position(node) {
            self.entries.remove(i);
        }
    }
}

impl TreeBuilder {
    /// 13.2.4.3 "push onto the list of active formatting elements", with the
    /// Noah's Ark clause (at most three equal elements after the last marker) and
    /// tagloom's bound ([`max_active_formatting`](super::TreeBuilderConfig::max_active_formatting)
    /// entries after the last marker: the earliest goes).
    pub(crate) fn push_formatting(&mut self, node: NodeId) {
        // An element left unopened at the depth limit is not tracked either.
        if self.current_node() != Some(node) {
            return;
        }
        let Some(new) = self.mirror.elem(node) else {
            return;
        };
        let (ns, name) = (new.ns, new.name);
        // The entries after the last marker: at most `max_active_formatting`, so
        // this walk is bounded. Attributes are compared only when three entries
        // have the element's name (fewer cannot make three equal ones).
        let mut same_name = 0;
        let mut after_marker = 0;
        let mut earliest = None;
        for (i, entry) in self.active.entries.iter().enumerate().rev() {
            let Some(other) = entry else { break };
            after_marker += 1;
            earliest = Some(i);
            if self
                .mirror
                .elem(*other)
                .is_some_and(|e| e.ns == ns && e.name == name)
            {
                same_name += 1;
            }
        }
        let equal: Vec<usize> = if same_name >= 3 {
            let first = earliest.unwrap_or(0);
            (first..self.active.entries.len())
                .rev()
                .filter(|&i| {
                    self.active
                        .entries
                        .get(i)
                        .copied()
                        .flatten()
                        .is_some_and(|other| {
                            self.mirror
                                .elem(other)
                                .is_some_and(|e| e.ns == ns && e.name == name)
                                && self.same_attrs(other, node)
                        })
                })
                .collect()
        } else {
            Vec::new()
        };
        let drop = if equal.len() >= 3 {
            equal.last().copied()
        } else if after_marker >= self.config.max_active_formatting.max(3) {
            earliest
        } else {
            None
        };
        if let Some(i) = drop
            && let Some(gone) = self.active.entries.remove(i)
        {
            self.forget_kept_attrs(gone);
        }
        self.active.entries.push(Some(node));
    }

    /// Frees the attributes the mirror kept for `node`, a formatting element that
    /// has left the list for good (only list entries are cloned or compared;
    /// `selectedcontent` clones any node, so a full mirror keeps them).
    pub(crate) fn forget_kept_attrs(&mut self, node: NodeId) {
        if !self.select_tracker.full_mirror {
            self.mirror.forget_attrs(node);
        }
    }

    /// The attributes of the element `node` was created for: kept in the
    /// mirror, or read back from the sink.
    fn element_attrs(&self, node: NodeId) -> Vec<PatchAttr> {
        match self.mirror.elem(node) {
            Some(e) if e.attrs_in_sink => self
                .emit
                .element_attrs(self.mirror.key(node))
                .unwrap_or_default(),
            Some(e) => self.mirror.attrs(e),
            None => Vec::new(),
        }
    }

    /// Whether elements `a` and `b` have equal attributes (as sets).
    fn same_attrs(&self, a: NodeId, b: NodeId) -> bool {
        match (self.mirror.elem(a), self.mirror.elem(b)) {
            (Some(x), Some(y)) if !x.attrs_in_sink && !y.attrs_in_sink => {
                self.mirror.same_attrs(x, y)
            }
            (Some(_), Some(_)) => {
                let (x, y) = (self.element_attrs(a), self.element_attrs(b));
                x.len() == y.len() && x.iter().all(|p| y.contains(p))
            }
            _ => false,
        }
    }

    /// Copies the attributes the sink holds of the list's elements into the
    /// mirror: the sink is about to go (the store is handed back to its
    /// owner, who may change it before the builder reads them).
    pub(crate) fn keep_sink_attrs(&mut self) {
        let held: Vec<NodeId> = self
            .active
            .entries
            .iter()
            .flatten()
            .copied()
            .filter(|&n| self.mirror.elem(n).is_some_and(|e| e.attrs_in_sink))
            .collect();
        for node in held {
            let attrs = self.element_attrs(node);
            self.mirror.keep_for(node, ElementAttrs::list(&attrs));
        }
    }

    /// The last formatting element named `name` after the last marker.
    pub(crate) fn formatting_element_named(&self, name: Atom) -> Option<NodeId> {
        for entry in self.active.entries.iter().rev() {
            let node = (*entry)?;
            if self.is_html(node, name) {
                return Some(node);
            }
        }
        None
    }

    /// A new element with the same name and attributes as `node` (the element
    /// "for the token for which `node` was created"), not inserted.
    pub(crate) fn clone_element(&mut self, node: NodeId) -> Option<NodeId> {
        let e = self.mirror.elem(node)?;
        let (ns, name) = (e.ns, e.name);
        let qual = self.mirror.qual(e);
        let attrs = self.element_attrs(node);
        Some(self.create_element(ns, name, qual, ElementAttrs::list(&attrs)))
    }

    /// 13.2.4.3 "reconstruct the active formatting elements".
    #[inline]
    pub(crate) fn reconstruct_active_formatting(&mut self) {
        // Steps 1–2: nothing to do if the list is empty or its last entry is a
        // marker or open; asked before every text run, so the usual answers
        // (an empty list, the current node) are found without a call.
        let Some(&Some(last)) = self.active.entries.last() else {
            return;
        };
        if self.open.last() == Some(last) {
            return;
        }
        self.reconstruct_from(last);
    }

    /// [`reconstruct_active_formatting`](Self::reconstruct_active_formatting)
    /// past its usual case: `last` is the list's last entry, an element.
    #[inline(never)]
    fn reconstruct_from(&mut self, last: NodeId) {
        if self.is_open(last) {
            return;
        }
        // Steps 3–6 (rewind): find the first entry to recreate.
        let mut index = self.active.entries.len() - 1;
        while index > 0 {
            match self.active.entries.get(index - 1) {
                Some(Some(node)) if !self.is_open(*node) => index -= 1,
                _ => break,
            }
        }
        // Steps 7–10 (create): recreate each entry from there on.
        while let Some(&Some(entry)) = self.active.entries.get(index) {
            let place = self.node_place(None);
            let Some(new) = self.clone_element(entry) else {
                break;
            };
            self.insert_at(place, new);
            self.push_open(new);
            if let Some(slot) = self.active.entries.get_mut(index) {
                *slot = Some(new);
            }
            index += 1;
        }
    }
}
