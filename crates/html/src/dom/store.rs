//! [`DomStore`]: the arena, key lookup, tree links and the read-only [`NodeRef`] view.

use crate::dom_patch::{PatchKey, QuirksMode};
use crate::seg_vec::SegVec;

use super::attr_arena::AttrArena;
use super::element::{Element, ElementRec};
use super::node::{
    Doctype, ElementId, NONE, Node, NodeData, NodeKind, ProcessingInstruction, Slot,
};
use super::text_arena::{TextArena, TextRange};

/// A document built from [`DomPatch`](crate::dom_patch::DomPatch) batches.
///
/// Nodes are kept in a `Vec` in creation order. Because the protocol makes keys
/// strictly increasing in creation order, that `Vec` is sorted by key: a key is
/// found by guessing its slot (`key - first key`, exact when keys are dense, as a
/// tree builder's counter makes them) and falling back to a binary search when
/// they are sparse. No separate key index is kept, so there is nothing to keep in
/// sync and nothing to roll back.
///
/// ```
/// use std::num::NonZeroU64;
/// use tagloom_html::dom::{DomStore, NodeKind};
/// use tagloom_html::dom_patch::{DomPatch, Namespace, PatchKey};
///
/// let key = |n| PatchKey(NonZeroU64::new(n).unwrap());
/// let mut store = DomStore::new();
/// store
///     .apply_patches(&[
///         DomPatch::CreateDocument { key: key(1) },
///         DomPatch::CreateElement {
///             key: key(2),
///             ns: Namespace::Html,
///             name: "html".into(),
///             attrs: vec![],
///             contents: None,
///         },
///         DomPatch::AppendChild { parent: key(1), child: key(2) },
///     ])
///     .unwrap();
/// let html = store.document().unwrap().first_child().unwrap();
/// assert!(matches!(html.kind(), NodeKind::Element(e) if e.local_name() == "html"));
/// // A bad batch is rejected whole and changes nothing.
/// assert!(store.apply_patches(&[DomPatch::Remove { node: key(2) }, DomPatch::Clear]).is_err());
/// assert_eq!(store.document().unwrap().first_child().unwrap().key(), key(2));
/// ```
#[derive(Clone, Debug, Default)]
pub struct DomStore {
    pub(crate) nodes: SegVec<Node>,
    /// Slot of the document node, or [`NONE`].
    pub(crate) document: Slot,
    pub(crate) quirks_mode: QuirksMode,
    /// Highest key ever created in this document (0: none yet). Survives `Clear`.
    pub(crate) high_water: u64,
    /// `high_water` at the last `Clear`: keys up to it are stale, not unknown.
    pub(crate) cleared_through: u64,
    /// The data of every text and comment node.
    pub(crate) text: TextArena,
    /// The name, namespace, attributes and template contents of every element,
    /// in creation order ([`NodeData::Element`] holds the index).
    pub(crate) elements: SegVec<ElementRec>,
    /// Every element's attributes and non-static names (`attr_arena.rs`).
    pub(crate) attrs: AttrArena,
    /// The DOCTYPE nodes' data ([`NodeData::Doctype`] holds the index).
    pub(crate) doctypes: Vec<Doctype>,
    /// The processing instructions' data (rare: only when enabled).
    pub(crate) pis: Vec<ProcessingInstruction>,
    /// Reused undo log of the batch being applied (see `apply.rs`).
    pub(crate) undo: Vec<super::apply::Undo>,
    /// The document of the versioned batches applied so far (`version.rs`).
    pub(crate) doc: Option<crate::batch::DocHandle>,
    /// The `to` of the last versioned batch applied (`version.rs`).
    pub(crate) version: u64,
}

/// What a key lookup found.
pub(crate) enum Lookup {
    Found(Slot),
    Stale,
    Unknown,
}

impl DomStore {
    /// An empty store: no nodes, no keys used yet.
    pub fn new() -> DomStore {
        DomStore {
            document: NONE,
            ..DomStore::default()
        }
    }

    /// An empty store expecting about `nodes` nodes (e.g. the input length
    /// divided by [`BYTES_PER_NODE`](crate::session::BYTES_PER_NODE)). The arena
    /// grows in fixed-size segments and never copies its nodes, so this only
    /// sizes the first segment: an over-estimate costs little.
    pub fn with_capacity(nodes: usize) -> DomStore {
        DomStore {
            nodes: SegVec::with_first_segment(nodes),
            ..DomStore::new()
        }
    }

    /// Number of live nodes (attached or not; a `Clear` drops them all).
    pub fn len(&self) -> usize {
        self.nodes.len()
    }

    /// True when there are no nodes.
    pub fn is_empty(&self) -> bool {
        self.nodes.is_empty()
    }

    /// The document's quirks mode (reset to no-quirks by `Clear`).
    pub fn quirks_mode(&self) -> QuirksMode {
        self.quirks_mode
    }

    /// The highest key created so far, if any (kept across `Clear`).
    pub fn last_key(&self) -> Option<PatchKey> {
        std::num::NonZeroU64::new(self.high_water).map(PatchKey)
    }

    /// The document node, if one was created.
    pub fn document(&self) -> Option<NodeRef<'_>> {
        self.node_at(self.document)
    }

    /// The node with this key, if it is alive.
    pub fn get(&self, key: PatchKey) -> Option<NodeRef<'_>> {
        match self.lookup(key) {
            Lookup::Found(slot) => self.node_at(slot),
            Lookup::Stale | Lookup::Unknown => None,
        }
    }

    pub(crate) fn node_at(&self, slot: Slot) -> Option<NodeRef<'_>> {
        self.nodes.get(slot as usize).map(|node| NodeRef {
            store: self,
            slot,
            node,
        })
    }

    /// Finds the slot of `key` (see the type docs for why this is cheap).
    pub(crate) fn lookup(&self, key: PatchKey) -> Lookup {
        let k = key.0.get();
        let found = match self.nodes.first() {
            Some(first) if k >= first.key.0.get() => {
                let guess = k - first.key.0.get();
                match usize::try_from(guess).ok().and_then(|g| self.nodes.get(g)) {
                    Some(node) if node.key == key => Some(guess as Slot),
                    _ => self
                        .nodes
                        .binary_search_by_key(&key, |n| n.key)
                        .map(|s| s as Slot),
                }
            }
            _ => None,
        };
        match found {
            Some(slot) => Lookup::Found(slot),
            None if k <= self.cleared_through => Lookup::Stale,
            None => Lookup::Unknown,
        }
    }

    /// An element's record. Ids come from the store's own nodes, so they are
    /// always in range.
    #[inline]
    pub(crate) fn rec(&self, id: ElementId) -> &ElementRec {
        &self.elements[id.0 as usize]
    }

    #[inline]
    pub(crate) fn rec_mut(&mut self, id: ElementId) -> &mut ElementRec {
        &mut self.elements[id.0 as usize]
    }

    /// A DOCTYPE node's data. Indexes come from the store's own nodes, so
    /// they are always in range.
    pub(crate) fn doctype(&self, index: u32) -> &Doctype {
        &self.doctypes[index as usize]
    }

    /// A processing instruction's data (indexes as for [`doctype`](Self::doctype)).
    pub(crate) fn pi(&self, index: u32) -> &ProcessingInstruction {
        &self.pis[index as usize]
    }

    /// An element's view.
    #[inline]
    pub(crate) fn element(&self, id: ElementId) -> Element<'_> {
        Element::new(self.rec(id), self)
    }

    /// The element of the node in `slot`, if there is such a node and it
    /// is an element ([`NONE`] gives `None`).
    #[inline]
    pub(crate) fn element_at(&self, slot: Slot) -> Option<Element<'_>> {
        match self.nodes.get(slot as usize)?.data {
            NodeData::Element(id) => Some(self.element(id)),
            _ => None,
        }
    }

    /// The data of a text or comment node.
    #[inline]
    pub(crate) fn text(&self, range: TextRange) -> &str {
        self.text.get(range)
    }

    /// The node in `slot`. Slots handed to this come from [`lookup`](Self::lookup)
    /// or from links the store maintains, so they are always in range.
    #[inline]
    pub(crate) fn n(&self, slot: Slot) -> &Node {
        &self.nodes[slot as usize]
    }

    #[inline]
    pub(crate) fn n_mut(&mut self, slot: Slot) -> &mut Node {
        &mut self.nodes[slot as usize]
    }

    /// Links `child` (parentless) as the last child of `parent`, or just before
    /// `before` (a child of `parent`) when it is not [`NONE`].
    pub(crate) fn link(&mut self, parent: Slot, child: Slot, before: Slot) {
        if before == NONE {
            // Appending (every node the parser creates): each of the three nodes
            // is looked up once.
            let p = self.n_mut(parent);
            let prev = std::mem::replace(&mut p.last_child, child);
            if prev == NONE {
                p.first_child = child;
            }
            let c = self.n_mut(child);
            c.parent = parent;
            c.prev_sibling = prev;
            c.next_sibling = NONE;
            if prev != NONE {
                self.n_mut(prev).next_sibling = child;
            }
            return;
        }
        let prev = std::mem::replace(&mut self.n_mut(before).prev_sibling, child);
        let c = self.n_mut(child);
        c.parent = parent;
        c.prev_sibling = prev;
        c.next_sibling = before;
        if prev == NONE {
            self.n_mut(parent).first_child = child;
        } else {
            self.n_mut(prev).next_sibling = child;
        }
    }

    /// Detaches `child` from its parent; returns (parent, next sibling) so the
    /// removal can be undone with [`link`](Self::link).
    pub(crate) fn unlink(&mut self, child: Slot) -> (Slot, Slot) {
        let (parent, prev, next) = {
            let c = self.n(child);
            (c.parent, c.prev_sibling, c.next_sibling)
        };
        if parent == NONE {
            return (NONE, NONE);
        }
        if prev == NONE {
            self.n_mut(parent).first_child = next;
        } else {
            self.n_mut(prev).next_sibling = next;
        }
        if next == NONE {
            self.n_mut(parent).last_child = prev;
        } else {
            self.n_mut(next).prev_sibling = prev;
        }
        let c = self.n_mut(child);
        c.parent = NONE;
        c.prev_sibling = NONE;
        c.next_sibling = NONE;
        (parent, next)
    }
}

/// A read-only handle to one node of a [`DomStore`]. Cheap to copy.
#[derive(Clone, Copy)]
pub struct NodeRef<'a> {
    store: &'a DomStore,
    slot: Slot,
    node: &'a Node,
}

impl std::fmt::Debug for NodeRef<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("NodeRef")
            .field("key", &self.node.key)
            .field("kind", &self.kind())
            .finish()
    }
}

impl PartialEq for NodeRef<'_> {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self.store, other.store) && self.slot == other.slot
    }
}

impl Eq for NodeRef<'_> {}

impl<'a> NodeRef<'a> {
    /// The node's key.
    pub fn key(&self) -> PatchKey {
        self.node.key
    }

    /// The store the node lives in.
    pub fn store(&self) -> &'a DomStore {
        self.store
    }

    pub(crate) fn slot(&self) -> Slot {
        self.slot
    }

    /// What the node is.
    pub fn kind(&self) -> NodeKind<'a> {
        match &self.node.data {
            NodeData::Document => NodeKind::Document,
            NodeData::Doctype(d) => NodeKind::Doctype(self.store.doctype(*d)),
            NodeData::Element(e) => NodeKind::Element(self.store.element(*e)),
            NodeData::Text(t) => NodeKind::Text(self.store.text(*t)),
            NodeData::Comment(c) => NodeKind::Comment(self.store.text(*c)),
            NodeData::ProcessingInstruction(pi) => {
                NodeKind::ProcessingInstruction(self.store.pi(*pi))
            }
            NodeData::Fragment { .. } => NodeKind::DocumentFragment,
        }
    }

    /// The element data, if this is an element.
    pub fn as_element(&self) -> Option<Element<'a>> {
        match &self.node.data {
            NodeData::Element(e) => Some(self.store.element(*e)),
            _ => None,
        }
    }

    /// The parent node (a template's contents fragment has none; see [`host`](Self::host)).
    pub fn parent(&self) -> Option<NodeRef<'a>> {
        self.store.node_at(self.node.parent)
    }

    /// The first child.
    pub fn first_child(&self) -> Option<NodeRef<'a>> {
        self.store.node_at(self.node.first_child)
    }

    /// The last child.
    pub fn last_child(&self) -> Option<NodeRef<'a>> {
        self.store.node_at(self.node.last_child)
    }

    /// The next sibling.
    pub fn next_sibling(&self) -> Option<NodeRef<'a>> {
        self.store.node_at(self.node.next_sibling)
    }

    /// The previous sibling.
    pub fn previous_sibling(&self) -> Option<NodeRef<'a>> {
        self.store.node_at(self.node.prev_sibling)
    }

    /// The children, in tree order.
    pub fn children(&self) -> Children<'a> {
        Children {
            store: self.store,
            next: self.node.first_child,
        }
    }

    /// For an HTML `template` element: its template contents fragment.
    pub fn template_contents(&self) -> Option<NodeRef<'a>> {
        match &self.node.data {
            NodeData::Element(e) => self.store.node_at(self.store.rec(*e).contents),
            _ => None,
        }
    }

    /// For a template contents fragment: the `template` element owning it.
    pub fn host(&self) -> Option<NodeRef<'a>> {
        match self.node.data {
            NodeData::Fragment { host } => self.store.node_at(host),
            _ => None,
        }
    }
}

/// Iterator over a node's children, see [`NodeRef::children`].
#[derive(Clone, Debug)]
pub struct Children<'a> {
    store: &'a DomStore,
    next: Slot,
}

impl<'a> Iterator for Children<'a> {
    type Item = NodeRef<'a>;

    fn next(&mut self) -> Option<NodeRef<'a>> {
        let node = self.store.node_at(self.next)?;
        self.next = node.node.next_sibling;
        Some(node)
    }
}
