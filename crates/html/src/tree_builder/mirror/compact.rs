//! Compaction: the mirror forgets the nodes the tree builder will never read
//! again, so that a streaming parse (`tagloom view`, a sink that keeps no tree)
//! holds memory for the open part of the document only, not for every node it
//! has emitted.
//!
//! What the tree builder reads back, and so what a compaction keeps:
//!
//! - **Expanded** nodes: the nodes on the stack of open elements, the `head`
//!   element (reopened by "after head"), every ancestor of one of those, and
//!   the contents of an expanded `template`. Each keeps the tail of its
//!   children: the last child (what "insert a character" coalesces with, and
//!   what becomes the parent of an appended node's previous sibling), and from
//!   the sibling just before its first expanded child on (foster parenting
//!   coalesces with the table's previous sibling; when an open child is moved
//!   away — the adoption agency's furthest block, the `body` for a `frameset` —
//!   the one before it becomes the last child).
//! - Expanded nodes with **all** their children: the document ("has an element
//!   child"), an open element above an open entry of the list of active
//!   formatting elements (it may become the adoption agency's furthest block,
//!   whose children all move, one patch each), the `selectedcontent` a select
//!   clones into (its children are removed) and the whole subtree of an open
//!   `option` a select watches (cloned when popped).
//! - **Kept** nodes, for themselves: the kept children of expanded nodes, and
//!   nodes read only for their name, attributes or identity — entries of the
//!   list of active formatting elements (cloned and compared), the form element
//!   pointer, the fragment case's context element, the script of the last
//!   suspension, a select's selected option. A kept node that is not among its
//!   parent's kept children is an orphan (no parent or sibling links): no step
//!   moves or detaches such a node.
//!
//! Everything else is closed and out of reach: no step of tree construction
//! inserts into, moves, reopens or reads a node that is neither open, nor an
//! ancestor or kept child of an open node, nor held by one of the pointers
//! above (the stack only ever gets elements pushed on top, or clones put where
//! their originals were). A script's change to a forgotten element is accepted
//! and ignored (it could only matter to a formatting element or a watched
//! option's subtree, and those are kept).
//!
//! The kept nodes are copied to a new arena in their order, so their keys stay
//! ascending and [`Mirror::lookup`](super::Mirror::lookup) binary-searches them;
//! nodes created afterwards get arithmetic keys after the last one. The tree
//! builder then maps the node ids it holds through the returned [`Remap`]. It
//! compacts between tokens (no step holds a node id in a local then), once the
//! arena has grown to twice what the last compaction kept, so the copying is
//! amortized O(1) per node (`compaction.rs`).

use super::{ElemExtra, ElemInfo, Kind, Link, Mirror, NO_LINK, Node, NodeId, link, unlink};
use crate::seg_vec::SegVec;
use crate::tree_builder::sink::ElementAttrs;

/// Not kept.
const DROP: u8 = 0;
/// Kept, for itself only.
const KEEP: u8 = 1;
/// Kept with its last child, and if it has expanded children, every child
/// from the one before the first of them on.
const EXPAND: u8 = 2;
/// Kept with all its children.
const FULL: u8 = 3;
/// The level bits of a mark.
const LEVEL: u8 = 3;
/// Flag: listed among its parent's kept children (else kept as an orphan).
const LISTED: u8 = 4;

/// The nodes a compaction keeps, as the tree builder marks them.
#[derive(Debug)]
pub(crate) struct Marks {
    marks: Vec<u8>,
}

impl Marks {
    /// No node marked yet, for `mirror`'s nodes.
    pub(crate) fn new(mirror: &Mirror) -> Marks {
        Marks {
            marks: vec![DROP; mirror.len()],
        }
    }

    fn level(&self, id: NodeId) -> u8 {
        self.marks.get(id).map_or(DROP, |m| m & LEVEL)
    }

    fn listed(&self, id: NodeId) -> bool {
        self.marks.get(id).is_some_and(|m| m & LISTED != 0)
    }

    /// Raises the level of `id` to at least `level`.
    fn set(&mut self, id: NodeId, level: u8) {
        if let Some(m) = self.marks.get_mut(id)
            && *m & LEVEL < level
        {
            *m = (*m & !LEVEL) | level;
        }
    }

    /// Keeps `id` as one of its parent's listed children.
    fn list(&mut self, id: NodeId) {
        self.set(id, KEEP);
        if let Some(m) = self.marks.get_mut(id) {
            *m |= LISTED;
        }
    }

    /// Whether `id` is expanded (or kept with all its children).
    pub(crate) fn is_expanded(&self, id: NodeId) -> bool {
        self.level(id) >= EXPAND
    }

    /// Keeps `id` for itself: its name, attributes or identity (not its place
    /// in the tree, unless it is kept as a child anyway).
    pub(crate) fn keep(&mut self, id: NodeId) {
        self.set(id, KEEP);
    }

    /// Keeps `id` expanded: its last child, the children from just before its
    /// first expanded child on, its ancestors likewise, and a template's
    /// contents likewise.
    pub(crate) fn expand(&mut self, mirror: &Mirror, id: NodeId) {
        self.raise(mirror, id, EXPAND);
    }

    /// Keeps `id` with all its children (and expands its ancestors).
    pub(crate) fn expand_full(&mut self, mirror: &Mirror, id: NodeId) {
        self.raise(mirror, id, FULL);
    }

    fn raise(&mut self, mirror: &Mirror, id: NodeId, level: u8) {
        if id >= self.marks.len() {
            return;
        }
        let was = self.level(id);
        self.set(id, level);
        if was >= EXPAND {
            return;
        }
        if let Some(contents) = mirror.elem(id).and_then(ElemInfo::contents) {
            self.raise(mirror, contents, EXPAND);
        }
        let mut cur = mirror.parent(id);
        while let Some(n) = cur {
            if self.level(n) >= EXPAND {
                break;
            }
            self.set(n, EXPAND);
            if let Some(contents) = mirror.elem(n).and_then(ElemInfo::contents) {
                self.raise(mirror, contents, EXPAND);
            }
            cur = mirror.parent(n);
        }
    }

    /// Keeps `id` and its whole subtree with all their children.
    pub(crate) fn expand_subtree(&mut self, mirror: &Mirror, id: NodeId) {
        self.expand_full(mirror, id);
        let mut work = vec![id];
        while let Some(n) = work.pop() {
            let mut child = mirror.get(n).and_then(Node::first_child);
            while let Some(c) = child {
                self.expand_full(mirror, c);
                work.push(c);
                child = mirror.get(c).and_then(Node::next);
            }
        }
    }
}

/// Where each node of the arena before a compaction went.
#[derive(Debug)]
pub(crate) struct Remap {
    new: Vec<Link>,
}

impl Remap {
    /// The new id of the old node `old`, if it was kept.
    pub(crate) fn get(&self, old: NodeId) -> Option<NodeId> {
        self.new.get(old).copied().and_then(unlink)
    }

    fn link(&self, old: Link) -> Link {
        link(unlink(old).and_then(|o| self.get(o)))
    }
}

impl Mirror {
    /// Keeps the nodes `marks` names (with the children of the expanded ones)
    /// and forgets the others; the caller maps its node ids through the result.
    pub(crate) fn compact(&mut self, mut marks: Marks) -> Remap {
        let len = self.nodes.len();
        let first_kept = self.list_children(&mut marks);
        // A kept template keeps its contents node.
        for id in 0..len {
            if marks.level(id) != DROP
                && let Some(contents) = self.elem(id).and_then(ElemInfo::contents)
            {
                marks.set(contents, KEEP);
            }
        }
        let mut new = vec![NO_LINK; len];
        let mut kept = 0;
        for (id, slot) in new.iter_mut().enumerate() {
            if marks.level(id) != DROP {
                *slot = link(Some(kept));
                kept += 1;
            }
        }
        let remap = Remap { new };
        let mut out = Mirror {
            nodes: SegVec::with_first_segment(kept),
            extras: Vec::new(),
            kept: Vec::new(),
            kept_text: String::new(),
            key_base: self.key_base,
            keys: Vec::with_capacity(kept),
            tail_base: self.next_key(),
            released: 0,
        };
        for id in 0..len {
            let level = marks.level(id);
            let Some(node) = self.nodes.get(id).filter(|_| level != DROP) else {
                continue;
            };
            let kind = match &node.kind {
                Kind::Element(e) => Kind::Element(self.copy_element(e, &mut out, &remap)),
                other => other.clone(),
            };
            let (children, listed) = (level >= EXPAND, marks.listed(id));
            let first = first_kept.get(id).copied().unwrap_or(NO_LINK);
            let if_ = |yes: bool, l: Link| if yes { remap.link(l) } else { NO_LINK };
            // Through `add`, the one caller of the arena's push (a second one
            // changed how the store path's `add` was inlined).
            let copy = out.add(kind);
            if let Some(n) = out.nodes.get_mut(copy) {
                n.parent = if_(listed, node.parent);
                n.first_child = if_(children, first);
                n.last_child = if_(children, node.last_child);
                n.prev = if_(listed, node.prev);
                n.next = if_(listed, node.next);
            }
            out.keys.push(self.key(id).0.get());
        }
        *self = out;
        remap
    }

    /// Lists the kept children of the expanded nodes (see [`Marks`]); the first
    /// kept child of each node.
    fn list_children(&self, marks: &mut Marks) -> Vec<Link> {
        let len = self.nodes.len();
        // First the number of expanded children of each node.
        let mut aux: Vec<Link> = vec![0; len];
        for id in 0..len {
            if marks.is_expanded(id)
                && let Some(count) = self.parent(id).and_then(|p| aux.get_mut(p))
            {
                *count += 1;
            }
        }
        // Then, walking back from the last child, the first kept child.
        for (id, slot) in aux.iter_mut().enumerate() {
            let Some(node) = self.nodes.get(id) else {
                continue;
            };
            match marks.level(id) {
                FULL => {
                    let mut child = node.first_child();
                    while let Some(c) = child {
                        marks.list(c);
                        child = self.nodes.get(c).and_then(Node::next);
                    }
                    *slot = node.first_child;
                }
                EXPAND => {
                    let expanded = *slot;
                    let mut left = expanded;
                    let mut first = NO_LINK;
                    let mut child = node.last_child();
                    while let Some(c) = child {
                        if marks.is_expanded(c) {
                            left = left.saturating_sub(1);
                        }
                        marks.list(c);
                        first = link(Some(c));
                        child = self.nodes.get(c).and_then(Node::prev);
                        if left == 0 {
                            // The one before the first expanded child: what
                            // becomes the last child if that one is moved away.
                            if let Some(before) = child.filter(|_| expanded > 0) {
                                marks.list(before);
                                first = link(Some(before));
                            }
                            break;
                        }
                    }
                    *slot = first;
                }
                _ => *slot = NO_LINK,
            }
        }
        aux
    }

    /// `e` as a node of `out` (its contents link mapped, its rare data copied).
    fn copy_element(&self, e: &ElemInfo, out: &mut Mirror, remap: &Remap) -> ElemInfo {
        let extra = match self
            .extra(e)
            .filter(|x| x.qual.is_some() || !x.attrs.is_empty())
        {
            Some(x) => {
                let attrs = out.keep_attrs(ElementAttrs::list(&self.attrs(e)));
                out.extras.push(ElemExtra {
                    qual: x.qual.clone(),
                    attrs,
                });
                link(Some(out.extras.len() - 1))
            }
            None => NO_LINK,
        };
        ElemInfo {
            ns: e.ns,
            name: e.name,
            html_integration_point: e.html_integration_point,
            attrs_in_sink: e.attrs_in_sink,
            contents: remap.link(e.contents),
            extra,
        }
    }
}

#[cfg(test)]
mod tests;
