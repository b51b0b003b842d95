//! The tree builder's lightweight mirror of the document it has emitted: just what
//! the algorithms read back (element names, namespaces, attributes of formatting
//! elements, parent and sibling links for foster parenting, text coalescing and the
//! adoption agency). Node ids are indexes into one arena; a node's patch key is
//! `key_base + id`, so keys are monotonic and never reused.

use std::num::NonZeroU64;

use crate::atom::Atom;
use crate::dom_patch::{Namespace, PatchAttr, PatchKey};

/// Index of a node in the mirror arena.
pub(crate) type NodeId = usize;

/// What a mirrored node is.
#[derive(Clone, Debug)]
pub(crate) enum Kind {
    Document,
    /// A template's contents (`DocumentFragment`).
    Fragment,
    Element(ElemInfo),
    Text,
    Other,
}

/// An element as the tree builder remembers it.
#[derive(Clone, Debug)]
pub(crate) struct ElemInfo {
    pub(crate) ns: Namespace,
    /// The token's (lowercased) tag name; SVG case fixes live only in the patch.
    pub(crate) name: Atom,
    /// The name as emitted (for clones made by the adoption agency).
    pub(crate) qual: std::borrow::Cow<'static, str>,
    /// Attributes (kept for formatting elements: clones and Noah's Ark).
    pub(crate) attrs: Vec<PatchAttr>,
    /// 13.2.6.1: an HTML integration point (SVG `foreignObject`/`desc`/`title`, or
    /// MathML `annotation-xml` with an HTML `encoding`).
    pub(crate) html_integration_point: bool,
    /// For an HTML `template`: its contents fragment.
    pub(crate) contents: Option<NodeId>,
}

/// One mirrored node with its links.
#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub(crate) kind: Kind,
    pub(crate) parent: Option<NodeId>,
    pub(crate) first_child: Option<NodeId>,
    pub(crate) last_child: Option<NodeId>,
    pub(crate) prev: Option<NodeId>,
    pub(crate) next: Option<NodeId>,
}

/// The arena.
#[derive(Debug)]
pub(crate) struct Mirror {
    nodes: Vec<Node>,
    key_base: u64,
}

impl Mirror {
    /// An empty arena whose first node gets key `key_base` (at least 1).
    pub(crate) fn new(key_base: u64) -> Mirror {
        Mirror {
            nodes: Vec::new(),
            key_base: key_base.max(1),
        }
    }

    /// Adds a parentless node.
    pub(crate) fn add(&mut self, kind: Kind) -> NodeId {
        self.nodes.push(Node {
            kind,
            parent: None,
            first_child: None,
            last_child: None,
            prev: None,
            next: None,
        });
        self.nodes.len() - 1
    }

    /// The key of `id` (non-zero by construction: `key_base >= 1`).
    pub(crate) fn key(&self, id: NodeId) -> PatchKey {
        let n = self.key_base.saturating_add(id as u64);
        PatchKey(NonZeroU64::new(n).unwrap_or(NonZeroU64::MAX))
    }

    /// The key the next node will get.
    pub(crate) fn next_key(&self) -> u64 {
        self.key_base.saturating_add(self.nodes.len() as u64)
    }

    pub(crate) fn get(&self, id: NodeId) -> Option<&Node> {
        self.nodes.get(id)
    }

    /// The element data of `id`, if it is an element.
    pub(crate) fn elem(&self, id: NodeId) -> Option<&ElemInfo> {
        match self.nodes.get(id).map(|n| &n.kind) {
            Some(Kind::Element(e)) => Some(e),
            _ => None,
        }
    }

    pub(crate) fn parent(&self, id: NodeId) -> Option<NodeId> {
        self.nodes.get(id).and_then(|n| n.parent)
    }

    pub(crate) fn is_text(&self, id: NodeId) -> bool {
        matches!(self.nodes.get(id).map(|n| &n.kind), Some(Kind::Text))
    }

    pub(crate) fn is_document(&self, id: NodeId) -> bool {
        matches!(self.nodes.get(id).map(|n| &n.kind), Some(Kind::Document))
    }

    /// Links `child` (parentless) as the last child of `parent`.
    pub(crate) fn append(&mut self, parent: NodeId, child: NodeId) {
        let last = self.nodes.get(parent).and_then(|p| p.last_child);
        if let Some(c) = self.nodes.get_mut(child) {
            c.parent = Some(parent);
            c.prev = last;
            c.next = None;
        }
        match last {
            Some(l) => {
                if let Some(l) = self.nodes.get_mut(l) {
                    l.next = Some(child);
                }
            }
            None => {
                if let Some(p) = self.nodes.get_mut(parent) {
                    p.first_child = Some(child);
                }
            }
        }
        if let Some(p) = self.nodes.get_mut(parent) {
            p.last_child = Some(child);
        }
    }

    /// Links `child` (parentless) into `parent` just before `before`.
    pub(crate) fn insert_before(&mut self, parent: NodeId, child: NodeId, before: NodeId) {
        let prev = self.nodes.get(before).and_then(|b| b.prev);
        if let Some(c) = self.nodes.get_mut(child) {
            c.parent = Some(parent);
            c.prev = prev;
            c.next = Some(before);
        }
        if let Some(b) = self.nodes.get_mut(before) {
            b.prev = Some(child);
        }
        match prev {
            Some(p) => {
                if let Some(p) = self.nodes.get_mut(p) {
                    p.next = Some(child);
                }
            }
            None => {
                if let Some(p) = self.nodes.get_mut(parent) {
                    p.first_child = Some(child);
                }
            }
        }
    }

    /// Unlinks `id` from its parent (no-op without one).
    pub(crate) fn detach(&mut self, id: NodeId) {
        let Some(node) = self.nodes.get(id) else {
            return;
        };
        let (parent, prev, next) = (node.parent, node.prev, node.next);
        let Some(parent) = parent else { return };
        match prev {
            Some(p) => {
                if let Some(p) = self.nodes.get_mut(p) {
                    p.next = next;
                }
            }
            None => {
                if let Some(p) = self.nodes.get_mut(parent) {
                    p.first_child = next;
                }
            }
        }
        match next {
            Some(n) => {
                if let Some(n) = self.nodes.get_mut(n) {
                    n.prev = prev;
                }
            }
            None => {
                if let Some(p) = self.nodes.get_mut(parent) {
                    p.last_child = prev;
                }
            }
        }
        if let Some(node) = self.nodes.get_mut(id) {
            node.parent = None;
            node.prev = None;
            node.next = None;
        }
    }
}

impl Mirror {
    /// Records the contents fragment of a template element.
    pub(crate) fn set_template_contents(&mut self, template: NodeId, contents: NodeId) {
        if let Some(Node {
            kind: Kind::Element(e),
            ..
        }) = self.nodes.get_mut(template)
        {
            e.contents = Some(contents);
        }
    }
}
