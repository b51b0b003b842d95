//! The arena's node records and the read-only views handed out to callers.
//!
//! Nodes live in one `Vec` in creation order (so in key order, which is what makes
//! key lookup cheap, see [`DomStore`](super::DomStore)). Tree links are slot
//! indices: parent, first/last child, previous/next sibling, so that every
//! insertion and removal the patch protocol allows is O(1).

use crate::dom_patch::PatchKey;

use super::element::Element;

use super::text_arena::TextRange;

/// Slot index of a node in the arena; [`NONE`] is "no node".
pub(crate) type Slot = u32;

/// The "no node" link value.
pub(crate) const NONE: Slot = Slot::MAX;

/// One node of the arena. It owns nothing (see [`NodeData`]): dropping the
/// arena frees its segments without visiting the nodes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Node {
    pub(crate) key: PatchKey,
    pub(crate) parent: Slot,
    pub(crate) first_child: Slot,
    pub(crate) last_child: Slot,
    pub(crate) prev_sibling: Slot,
    pub(crate) next_sibling: Slot,
    pub(crate) data: NodeData,
}

impl Node {
    pub(crate) fn new(key: PatchKey, data: NodeData) -> Node {
        Node {
            key,
            parent: NONE,
            first_child: NONE,
            last_child: NONE,
            prev_sibling: NONE,
            next_sibling: NONE,
            data,
        }
    }
}

/// Index of an element's [`Element`] record in the store's element table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ElementId(pub(crate) u32);

/// What a node is. Payloads live in the store's tables and arenas, to keep the
/// arena dense and its records free of anything to drop.
#[derive(Clone, Copy, Debug)]
pub(crate) enum NodeData {
    Document,
    /// Index into the store's DOCTYPE table.
    Doctype(u32),
    /// The element's data is in the store's element table (no allocation per
    /// element, and the node record stays small).
    Element(ElementId),
    // The data is in the store's text arena (no allocation per node).
    Text(TextRange),
    Comment(TextRange),
    /// Rare (only with processing instructions enabled): index into the
    /// store's table of them, like a DOCTYPE.
    ProcessingInstruction(u32),
    /// A `DocumentFragment`; in this store always the template contents of `host`.
    Fragment {
        host: Slot,
    },
}

impl NodeData {
    /// Whether the DOM lets this kind of node have children (DOM §4.2.3
    /// "pre-insert validity": only documents, fragments and elements are parents).
    pub(crate) fn can_have_children(&self) -> bool {
        matches!(
            self,
            NodeData::Document | NodeData::Element(_) | NodeData::Fragment { .. }
        )
    }
}

/// A DOCTYPE node's identifiers (missing ones are empty, as the spec's
/// "create a doctype" step of the "initial" insertion mode says).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Doctype {
    pub(crate) name: String,
    pub(crate) public_id: String,
    pub(crate) system_id: String,
}

impl Doctype {
    /// The DOCTYPE name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The public identifier (empty when missing).
    pub fn public_id(&self) -> &str {
        &self.public_id
    }

    /// The system identifier (empty when missing).
    pub fn system_id(&self) -> &str {
        &self.system_id
    }
}

/// A `ProcessingInstruction` node's target and data.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProcessingInstruction {
    pub(crate) target: String,
    pub(crate) data: String,
}

impl ProcessingInstruction {
    /// The target (`php` in `<?php echo 1?>`).
    pub fn target(&self) -> &str {
        &self.target
    }

    /// The data (`echo 1` in `<?php echo 1?>`).
    pub fn data(&self) -> &str {
        &self.data
    }
}

/// A node's kind and payload, as seen through a [`NodeRef`](super::NodeRef).
#[derive(Clone, Copy, Debug)]
pub enum NodeKind<'a> {
    /// The `Document` node.
    Document,
    /// A `DocumentType` node.
    Doctype(&'a Doctype),
    /// An `Element`.
    Element(Element<'a>),
    /// A `Text` node and its data.
    Text(&'a str),
    /// A `Comment` node and its data.
    Comment(&'a str),
    /// A `ProcessingInstruction` node.
    ProcessingInstruction(&'a ProcessingInstruction),
    /// A `DocumentFragment` (a template's contents).
    DocumentFragment,
}

#[cfg(test)]
mod size_tests {
    #[test]
    fn a_node_record_stays_small() {
        // One record per node of the document: every byte here is paid per node.
        assert!(std::mem::size_of::<super::Node>() <= 48);
        // Dropping a store frees the segments, never node by node.
        assert!(!std::mem::needs_drop::<super::Node>());
    }
}
