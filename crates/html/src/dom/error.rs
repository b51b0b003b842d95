//! Why a patch batch was rejected: one variant per protocol invariant (ADR 001,
//! "Invariants" and "Patch transaction semantics").
//!
//! Every variant carries `index`, the position of the offending patch in its batch,
//! and the keys involved. A rejected batch leaves the store exactly as it was.

use super::version::VersionError;
use crate::dom_patch::PatchKey;

/// A patch-protocol violation found while applying a batch.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PatchError {
    /// `Clear` somewhere other than first in its batch.
    #[error("patch {index}: Clear is only allowed as the first patch of a batch")]
    ClearNotFirst {
        /// Position of the `Clear` in the batch.
        index: usize,
    },
    /// A created key is not greater than every key created before it in this
    /// document (keys are strictly increasing and never reused, also across `Clear`).
    #[error("patch {index}: key {key} is not greater than the last created key {last}")]
    KeyNotIncreasing {
        /// Position of the patch.
        index: usize,
        /// The offending key.
        key: PatchKey,
        /// The highest key created so far.
        last: PatchKey,
    },
    /// A reference to a key that was never created.
    #[error("patch {index}: unknown key {key}")]
    UnknownKey {
        /// Position of the patch.
        index: usize,
        /// The key.
        key: PatchKey,
    },
    /// A reference to a key whose node was dropped by an earlier `Clear`.
    #[error("patch {index}: key {key} was dropped by a Clear")]
    StaleKey {
        /// Position of the patch.
        index: usize,
        /// The key.
        key: PatchKey,
    },
    /// `CreateDocument` while a document node exists.
    #[error("patch {index}: document {key} created while document {existing} exists")]
    SecondDocument {
        /// Position of the patch.
        index: usize,
        /// The new document's key.
        key: PatchKey,
        /// The existing document's key.
        existing: PatchKey,
    },
    /// `SetQuirksMode` with no document node.
    #[error("patch {index}: SetQuirksMode without a document")]
    NoDocument {
        /// Position of the patch.
        index: usize,
    },
    /// `contents` on something other than an HTML `template`, or an HTML
    /// `template` without `contents`.
    #[error(
        "patch {index}: element {key}: template contents must be given exactly for HTML template elements"
    )]
    TemplateContentsMismatch {
        /// Position of the patch.
        index: usize,
        /// The element's key.
        key: PatchKey,
    },
    /// An insertion of a node that already has a parent (move = `Remove` first).
    #[error("patch {index}: {child} already has parent {parent}")]
    AlreadyHasParent {
        /// Position of the patch.
        index: usize,
        /// The node being inserted.
        child: PatchKey,
        /// Its current parent.
        parent: PatchKey,
    },
    /// `InsertBefore` whose reference node is not a child of `parent`.
    #[error("patch {index}: {before} is not a child of {parent}")]
    NotAChild {
        /// Position of the patch.
        index: usize,
        /// The intended parent.
        parent: PatchKey,
        /// The reference node.
        before: PatchKey,
    },
    /// An insertion that would make a node its own ancestor (also through a
    /// template's contents).
    #[error("patch {index}: inserting {child} into {parent} would create a cycle")]
    Cycle {
        /// Position of the patch.
        index: usize,
        /// The intended parent.
        parent: PatchKey,
        /// The node being inserted (the parent itself or one of its ancestors).
        child: PatchKey,
    },
    /// An insertion under a text, comment or DOCTYPE node.
    #[error("patch {index}: {parent} cannot have children")]
    CannotHaveChildren {
        /// Position of the patch.
        index: usize,
        /// The intended parent.
        parent: PatchKey,
    },
    /// An insertion of a document or of a template contents fragment.
    #[error("patch {index}: {child} cannot be inserted anywhere")]
    CannotBeChild {
        /// Position of the patch.
        index: usize,
        /// The node.
        child: PatchKey,
    },
    /// A child the DOM does not allow at that place: text under the document,
    /// a DOCTYPE outside it, a second element or DOCTYPE child of the document.
    #[error("patch {index}: {child} is not allowed as a child of {parent}")]
    HierarchyRequest {
        /// Position of the patch.
        index: usize,
        /// The intended parent.
        parent: PatchKey,
        /// The node being inserted.
        child: PatchKey,
    },
    /// `Remove` of a node that has no parent.
    #[error("patch {index}: {node} has no parent to be removed from")]
    NoParent {
        /// Position of the patch.
        index: usize,
        /// The node.
        node: PatchKey,
    },
    /// `AppendText` on something other than a text node.
    #[error("patch {index}: {node} is not a text node")]
    NotText {
        /// Position of the patch.
        index: usize,
        /// The node.
        node: PatchKey,
    },
    /// `AddAttributes` on something other than an element.
    #[error("patch {index}: {node} is not an element")]
    NotElement {
        /// Position of the patch.
        index: usize,
        /// The node.
        node: PatchKey,
    },
    /// The arena is full (more than `u32::MAX - 1` live nodes).
    #[error("patch {index}: too many nodes")]
    TooManyNodes {
        /// Position of the patch.
        index: usize,
    },
    /// A text or comment node's data would exceed 4 GiB.
    #[error("patch {index}: text data too large (over 4 GiB in one node)")]
    TextTooLarge {
        /// Position of the patch.
        index: usize,
    },
    /// The batch as a whole does not fit the store's document and version
    /// (checked before any patch; its index is 0).
    #[error(transparent)]
    Version(#[from] VersionError),
}

impl PatchError {
    /// Position of the offending patch in its batch.
    pub fn index(&self) -> usize {
        match *self {
            PatchError::ClearNotFirst { index }
            | PatchError::KeyNotIncreasing { index, .. }
            | PatchError::UnknownKey { index, .. }
            | PatchError::StaleKey { index, .. }
            | PatchError::SecondDocument { index, .. }
            | PatchError::NoDocument { index }
            | PatchError::TemplateContentsMismatch { index, .. }
            | PatchError::AlreadyHasParent { index, .. }
            | PatchError::NotAChild { index, .. }
            | PatchError::Cycle { index, .. }
            | PatchError::CannotHaveChildren { index, .. }
            | PatchError::CannotBeChild { index, .. }
            | PatchError::HierarchyRequest { index, .. }
            | PatchError::NoParent { index, .. }
            | PatchError::NotText { index, .. }
            | PatchError::NotElement { index, .. }
            | PatchError::TooManyNodes { index }
            | PatchError::TextTooLarge { index } => index,
            PatchError::Version(_) => 0,
        }
    }
}
