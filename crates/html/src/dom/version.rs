//! Versioned application: the [`PatchBatch`] entry points of [`DomStore`] and their
//! one check per batch (the rules are in [`crate::batch`]).
//!
//! A store starts unbound at version 0; its first versioned batch binds it to that
//! batch's document handle. The check runs before any patch and the version moves
//! only when the whole batch applied, so a rejected batch (for its version or for
//! a patch) leaves the store exactly as it was.

use crate::batch::{DocHandle, PatchBatch};
use crate::dom_patch::DetachedText;

use super::error::PatchError;
use super::store::DomStore;

/// Why a batch does not fit the store's document and version.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum VersionError {
    /// The batch belongs to another document.
    #[error("batch of {got} sent to the store of {expected}")]
    CrossDocument {
        /// The store's document.
        expected: DocHandle,
        /// The batch's document.
        got: DocHandle,
    },
    /// The batch is the one the store applied last.
    #[error("duplicate batch {from} -> {to} (the store is at version {to})")]
    Duplicate {
        /// The batch's `from`.
        from: u64,
        /// The batch's `to`, the store's version.
        to: u64,
    },
    /// The batch is older than the store's version.
    #[error("stale batch {from} -> {to} (the store is at version {version})")]
    Stale {
        /// The batch's `from`.
        from: u64,
        /// The batch's `to`.
        to: u64,
        /// The store's version.
        version: u64,
    },
    /// The batch starts past the store's version (a batch was skipped or is out
    /// of order) and does not start with `Clear`.
    #[error("batch {from} -> {to} skips ahead of version {version}")]
    Skipped {
        /// The batch's `from`.
        from: u64,
        /// The batch's `to`.
        to: u64,
        /// The store's version.
        version: u64,
    },
    /// `to` is not `from + 1`.
    #[error("batch {from} -> {to} is not one version step")]
    NotOneStep {
        /// The batch's `from`.
        from: u64,
        /// The batch's `to`.
        to: u64,
    },
}

impl DomStore {
    /// The document handle of the versioned batches applied so far (`None` before
    /// the first).
    pub fn doc(&self) -> Option<DocHandle> {
        self.doc
    }

    /// The version of the document: the `to` of the last batch applied (0 before
    /// the first).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// Whether `batch` is the next step of this store's document (see
    /// [`crate::batch`]): one comparison of handles and versions, no patch read
    /// but the first.
    pub fn check_version(&self, batch: &PatchBatch) -> Result<(), VersionError> {
        let (from, to) = (batch.from, batch.to);
        if let Some(expected) = self.doc
            && expected != batch.doc
        {
            return Err(VersionError::CrossDocument {
                expected,
                got: batch.doc,
            });
        }
        if from.checked_add(1) != Some(to) {
            return Err(VersionError::NotOneStep { from, to });
        }
        let version = self.version;
        if to == version {
            Err(VersionError::Duplicate { from, to })
        } else if to < version {
            Err(VersionError::Stale { from, to, version })
        } else if from > version && !batch.starts_with_clear() {
            Err(VersionError::Skipped { from, to, version })
        } else {
            Ok(())
        }
    }

    /// Applies the next batch of the store's document whole, or rejects it and
    /// leaves the store unchanged: first its version ([`PatchError::Version`], see
    /// [`check_version`](Self::check_version)), then every patch as
    /// [`apply_patches`](Self::apply_patches) does.
    ///
    /// ```
    /// use tagloom_html::dom::{DomStore, PatchError, VersionError};
    /// use tagloom_html::driver::{ParseConfig, drive};
    ///
    /// let mut batches = Vec::new();
    /// drive(b"<p>a", &ParseConfig::default(), |batch| {
    ///     batches.push(batch);
    ///     Ok::<(), std::convert::Infallible>(())
    /// })
    /// .unwrap();
    /// let mut store = DomStore::new();
    /// store.apply(&batches[0]).unwrap();
    /// assert!(matches!(
    ///     store.apply(&batches[0]),
    ///     Err(PatchError::Version(VersionError::Duplicate { from: 0, to: 1 }))
    /// ));
    /// ```
    pub fn apply(&mut self, batch: &PatchBatch) -> Result<(), PatchError> {
        self.check_version(batch)?;
        self.apply_patches(&batch.patches)?;
        self.advance(batch);
        Ok(())
    }

    /// [`apply`](Self::apply), moving the batch's names, attributes and texts into
    /// the store instead of copying them. The batch is consumed either way.
    pub fn apply_owned(&mut self, batch: PatchBatch) -> Result<(), PatchError> {
        self.check_version(&batch)?;
        let (doc, to) = (batch.doc, batch.to);
        self.apply_patches_owned(batch.patches)?;
        self.doc = Some(doc);
        self.version = to;
        Ok(())
    }

    /// [`apply`](Self::apply) for a batch of this crate's own session (the driver's
    /// store path, see `apply.rs`'s `apply_trusted`), draining its patches.
    pub(crate) fn apply_trusted_batch(
        &mut self,
        batch: &mut PatchBatch,
        texts: Option<&DetachedText>,
    ) -> Result<(), PatchError> {
        self.check_version(batch)?;
        self.apply_trusted(&mut batch.patches, texts)?;
        self.advance(batch);
        Ok(())
    }

    fn advance(&mut self, batch: &PatchBatch) {
        self.doc = Some(batch.doc);
        self.version = batch.to;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::dump_document;
    use crate::dom_patch::{DomPatch, PatchKey};
    use crate::driver::{ParseConfig, drive};
    use crate::session::BatchPolicy;

    /// The batches of a parse in small batches (several per document).
    fn batches(page: &[u8]) -> Vec<PatchBatch> {
        let mut config = ParseConfig::default();
        config.session.batching = BatchPolicy::Bounded(3);
        let mut out = Vec::new();
        drive(page, &config, |batch| {
            out.push(batch);
            Ok::<(), std::convert::Infallible>(())
        })
        .unwrap();
        out
    }

    fn version_error(store: &mut DomStore, batch: &PatchBatch) -> VersionError {
        let before = dump_document(store);
        let version = store.version();
        let err = match store.apply(batch) {
            Err(PatchError::Version(e)) => e,
            other => panic!("expected a version error, got {other:?}"),
        };
        assert_eq!((dump_document(store), store.version()), (before, version));
        err
    }

    #[test]
    fn batches_chain_from_zero_and_bind_the_store_to_their_document() {
        let all = batches(b"<ul><li>a<li>b<li>c</ul>");
        assert!(all.len() > 2);
        for (i, batch) in all.iter().enumerate() {
            assert_eq!((batch.from, batch.to), (i as u64, i as u64 + 1));
            assert_eq!(batch.doc, all[0].doc);
        }
        let mut store = DomStore::new();
        assert_eq!((store.doc(), store.version()), (None, 0));
        for batch in &all {
            store.apply(batch).unwrap();
        }
        assert_eq!(store.doc(), Some(all[0].doc));
        assert_eq!(store.version(), all.len() as u64);
    }

    #[test]
    fn stale_batch_is_rejected() {
        let all = batches(b"<ul><li>a<li>b<li>c</ul>");
        let mut store = DomStore::new();
        for batch in &all[..3] {
            store.apply(batch).unwrap();
        }
        assert_eq!(
            version_error(&mut store, &all[0]),
            VersionError::Stale {
                from: 0,
                to: 1,
                version: 3
            }
        );
    }

    #[test]
    fn duplicate_batch_is_rejected() {
        let all = batches(b"<ul><li>a<li>b<li>c</ul>");
        let mut store = DomStore::new();
        store.apply(&all[0]).unwrap();
        store.apply(&all[1]).unwrap();
        assert_eq!(
            version_error(&mut store, &all[1]),
            VersionError::Duplicate { from: 1, to: 2 }
        );
    }

    #[test]
    fn skipped_batch_is_rejected() {
        let all = batches(b"<ul><li>a<li>b<li>c</ul>");
        let mut store = DomStore::new();
        store.apply(&all[0]).unwrap();
        assert_eq!(
            version_error(&mut store, &all[2]),
            VersionError::Skipped {
                from: 2,
                to: 3,
                version: 1
            }
        );
        // Out of order: the skipped one comes later; the store still takes 1 -> 2.
        store.apply(&all[1]).unwrap();
        store.apply(&all[2]).unwrap();
    }

    #[test]
    fn cross_document_batch_is_rejected() {
        let (a, b) = (batches(b"<p>a"), batches(b"<p>b"));
        assert_ne!(a[0].doc, b[0].doc);
        let mut store = DomStore::new();
        store.apply(&a[0]).unwrap();
        assert_eq!(
            version_error(&mut store, &b[1]),
            VersionError::CrossDocument {
                expected: a[0].doc,
                got: b[0].doc
            }
        );
    }

    #[test]
    fn a_batch_of_more_than_one_step_is_rejected() {
        let all = batches(b"<p>a");
        let mut bad = all[0].clone();
        bad.to = 2;
        assert_eq!(
            version_error(&mut DomStore::new(), &bad),
            VersionError::NotOneStep { from: 0, to: 2 }
        );
    }

    #[test]
    fn a_batch_rejected_for_a_patch_does_not_move_the_version() {
        let all = batches(b"<p>a");
        let mut store = DomStore::new();
        store.apply(&all[0]).unwrap();
        let key = PatchKey::new(999).unwrap();
        let bad = PatchBatch::new(all[1].doc, 1, vec![DomPatch::Remove { node: key }]);
        assert!(matches!(
            store.apply(&bad),
            Err(PatchError::UnknownKey { .. })
        ));
        assert_eq!(store.version(), 1);
        store.apply(&all[1]).unwrap();
    }

    /// The happy path across restarts: an encoding restart and the failure
    /// policy's reset are the next version step on the same handle, each starting
    /// with `Clear`; a mirror that missed batches catches up on the reset.
    #[test]
    fn restarts_and_resets_are_version_steps_on_the_same_handle() {
        let mut page = b"<title>".to_vec();
        page.resize(2000, b'x');
        page.extend_from_slice(b"</title><meta charset=iso-8859-2><p>\xe9<p>tail");
        let mut config = ParseConfig {
            chunk_size: 100,
            ..ParseConfig::default()
        };
        config.session.batching = BatchPolicy::Bounded(4);
        let mut all = Vec::new();
        let session = drive(&page, &config, |batch| {
            all.push(batch);
            Ok::<(), std::convert::Infallible>(())
        })
        .unwrap();
        assert_eq!(session.restarts(), 1);
        let restart = all
            .iter()
            .position(PatchBatch::starts_with_clear)
            .expect("the restart opens a batch with Clear");
        assert!(restart > 0);
        let (mut store, mut lagging) = (DomStore::new(), DomStore::new());
        for (i, batch) in all.iter().enumerate() {
            assert_eq!(batch.doc, all[0].doc);
            store.apply(batch).unwrap();
            if i < restart.saturating_sub(1) {
                lagging.apply(batch).unwrap();
            }
        }
        // The lagging mirror missed batches: an ordinary one is refused...
        assert!(matches!(
            lagging.apply(all.last().unwrap()),
            Err(PatchError::Version(VersionError::Skipped { .. }))
        ));
        // ...the reset (Clear + the whole tree, the next step) brings it back.
        let reset = store.full_create_stream();
        assert_eq!(
            (reset.doc, reset.from, reset.to),
            (all[0].doc, store.version(), store.version() + 1)
        );
        lagging.apply(&reset).unwrap();
        assert_eq!(dump_document(&lagging), dump_document(&store));
        assert_eq!(lagging.version(), store.version() + 1);
        // The restart's own Clear batch also resyncs a store that joins late.
        let mut late = DomStore::new();
        for batch in &all[restart..] {
            late.apply(batch).unwrap();
        }
        assert_eq!(dump_document(&late), dump_document(&store));
    }
}
