//! Versioned patch batches: the runtime contract of ADR 001, "DOM handle +
//! versioning is monotonic (`from -> to`)".
//!
//! Every batch a [session](crate::session::Html5ParseSession) hands out names the
//! document it belongs to ([`DocHandle`]) and the version it takes that document
//! from and to. Versions count batches: a document starts at version 0, and each
//! batch goes from `n` to `n + 1`. A consumer that holds a document at version `n`
//! applies exactly the batch with `from == n`; anything else is rejected with a
//! typed [`VersionError`](crate::dom::VersionError) (see
//! [`DomStore::apply`](crate::dom::DomStore::apply)):
//!
//! | the batch | error |
//! |---|---|
//! | another document's | `CrossDocument` |
//! | the one just applied again (`to == n`) | `Duplicate` |
//! | an older one (`to < n`) | `Stale` |
//! | a later one (`from > n`), not starting with `Clear` | `Skipped` |
//! | `to != from + 1` | `NotOneStep` |
//!
//! Restarts stay on the same handle: "change the encoding" and the failure policy's
//! reset ([`DomStore::full_create_stream`](crate::dom::DomStore::full_create_stream))
//! are the next version step, a batch that starts with [`DomPatch::Clear`]. Such a
//! batch depends on nothing the consumer holds, so it is also accepted by a
//! consumer that lags behind (`from > n`): that is how a consumer that missed
//! batches is brought back. A new handle means a new document (a new session).
//!
//! The JSON form ([`PatchBatch::json`]) is what `tagloom view` streams to its page:
//!
//! ```
//! use tagloom_html::batch::{DocHandle, PatchBatch};
//! use tagloom_html::dom_patch::{DomPatch, PatchKey};
//!
//! let doc = DocHandle::new(3).unwrap();
//! let key = PatchKey::new(1).unwrap();
//! let batch = PatchBatch::new(doc, 0, vec![DomPatch::CreateDocument { key }]);
//! assert_eq!((batch.from, batch.to), (0, 1));
//! assert_eq!(
//!     batch.json().to_string(),
//!     r#"{"doc":3,"from":0,"to":1,"patches":[{"op":"CreateDocument","key":1}]}"#
//! );
//! ```

use std::num::NonZeroU64;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::dom_patch::DomPatch;

/// The identity of one document's patch stream. Handles from
/// [`fresh`](Self::fresh) are unique within the process.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct DocHandle(pub NonZeroU64);

/// The last handle given out by [`DocHandle::fresh`].
static LAST_HANDLE: AtomicU64 = AtomicU64::new(0);

impl DocHandle {
    /// The handle `n`, or `None` for 0.
    pub const fn new(n: u64) -> Option<DocHandle> {
        match NonZeroU64::new(n) {
            Some(n) => Some(DocHandle(n)),
            None => None,
        }
    }

    /// A handle no other call in this process returned (1, 2, 3… in call order).
    pub fn fresh() -> DocHandle {
        let n = LAST_HANDLE.fetch_add(1, Ordering::Relaxed).wrapping_add(1);
        DocHandle(NonZeroU64::new(n).unwrap_or(NonZeroU64::MIN))
    }

    /// The handle as a number.
    pub const fn get(self) -> u64 {
        self.0.get()
    }
}

impl std::fmt::Display for DocHandle {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "doc {}", self.0)
    }
}

/// One atomic step of a document: its patches, applied whole or not at all, taking
/// document `doc` from version `from` to version `to` (`from + 1`).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PatchBatch {
    /// The document.
    pub doc: DocHandle,
    /// The version a consumer must hold to apply this batch.
    pub from: u64,
    /// The version after it.
    pub to: u64,
    /// The patches, in order.
    pub patches: Vec<DomPatch>,
}

impl PatchBatch {
    /// The batch taking `doc` from `from` to `from + 1`.
    pub fn new(doc: DocHandle, from: u64, patches: Vec<DomPatch>) -> PatchBatch {
        PatchBatch {
            doc,
            from,
            to: from.saturating_add(1),
            patches,
        }
    }

    /// Number of patches.
    pub fn len(&self) -> usize {
        self.patches.len()
    }

    /// True when the batch has no patch (sessions never hand out such a batch).
    pub fn is_empty(&self) -> bool {
        self.patches.is_empty()
    }

    /// The patches, in order.
    pub fn iter(&self) -> std::slice::Iter<'_, DomPatch> {
        self.patches.iter()
    }

    /// Whether the batch starts a new baseline (its first patch is `Clear`).
    pub fn starts_with_clear(&self) -> bool {
        matches!(self.patches.first(), Some(DomPatch::Clear))
    }

    /// The batch as one line of JSON: `{"doc":…,"from":…,"to":…,"patches":[…]}`,
    /// each patch in the form of [`DomPatch::json`].
    pub fn json(&self) -> BatchJson<'_> {
        BatchJson(self)
    }
}

impl<'a> IntoIterator for &'a PatchBatch {
    type Item = &'a DomPatch;
    type IntoIter = std::slice::Iter<'a, DomPatch>;

    fn into_iter(self) -> Self::IntoIter {
        self.patches.iter()
    }
}

impl IntoIterator for PatchBatch {
    type Item = DomPatch;
    type IntoIter = std::vec::IntoIter<DomPatch>;

    fn into_iter(self) -> Self::IntoIter {
        self.patches.into_iter()
    }
}

/// The one-line JSON form of a batch, from [`PatchBatch::json`].
#[derive(Clone, Copy, Debug)]
pub struct BatchJson<'a>(&'a PatchBatch);

impl std::fmt::Display for BatchJson<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let batch = self.0;
        write!(
            f,
            "{{\"doc\":{},\"from\":{},\"to\":{},\"patches\":[",
            batch.doc.get(),
            batch.from,
            batch.to
        )?;
        for (i, patch) in batch.patches.iter().enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{}", patch.json())?;
        }
        f.write_str("]}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom_patch::PatchKey;

    #[test]
    fn fresh_handles_differ_and_json_is_valid() {
        let (a, b) = (DocHandle::fresh(), DocHandle::fresh());
        assert_ne!(a, b);
        let key = PatchKey::new(2).unwrap();
        let batch = PatchBatch::new(
            a,
            4,
            vec![
                DomPatch::Clear,
                DomPatch::CreateText {
                    key,
                    text: "x\"\n".into(),
                },
            ],
        );
        assert!(batch.starts_with_clear());
        let value: serde_json::Value = serde_json::from_str(&batch.json().to_string()).unwrap();
        assert_eq!(value["doc"], a.get());
        assert_eq!(
            (value["from"].as_u64(), value["to"].as_u64()),
            (Some(4), Some(5))
        );
        assert_eq!(value["patches"][1]["text"], "x\"\n");
        let empty = PatchBatch::new(b, 0, Vec::new());
        assert_eq!(
            empty.json().to_string(),
            format!("{{\"doc\":{},\"from\":0,\"to\":1,\"patches\":[]}}", b.get())
        );
    }
}
