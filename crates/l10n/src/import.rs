//! What the XLIFF and PO importers ([`crate::xliff::XliffTranslations`],
//! [`crate::po::PoTranslations`]) share: streaming a file's entries and finding the
//! one of each page block.
//!
//! An entry is looked up by its unit id first (entries read past while looking are
//! kept until asked for); a block whose id the file does not have is matched by its
//! source among the entries left once the whole file is read (files made before
//! content ids, [`crate::matching::SourceIndex`]). Unconfirmed translations (PO
//! `#, fuzzy`, XLIFF `state="initial"`) count as untranslated unless asked for, and
//! are counted. `finish` reports the translated entries the page had no block for.

use std::collections::BTreeSet;

use crate::FastMap;

use crate::block::Block;
use crate::error::Result;
use crate::matching::SourceIndex;
use crate::writer::{Issue, IssueKind, with_units_not_in_page};

/// One translation entry of a file (an XLIFF unit, a PO entry).
pub(crate) trait Entry {
    /// Its unit id (XLIFF `id`, PO `msgctxt`).
    fn key(&self) -> &str;
    /// It has a translation.
    fn has_target(&self) -> bool;
    /// Its translation is not confirmed.
    fn unconfirmed(&self) -> bool;
    /// The [`crate::matching`] key of its source.
    fn source_key(&self) -> u64;
    /// Its source is exactly the block's (the merge's check).
    fn same_source(&self, block: &Block) -> bool;
}

/// A streaming reader of a file's entries (the PO header left out).
pub(crate) trait EntryReader {
    /// The entries read.
    type Entry: Entry;
    /// The next entry; `None` at the end.
    fn next(&mut self) -> Result<Option<Self::Entry>>;
}

/// Whether a file has any confirmed translation, and any unconfirmed one.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct AnyTarget {
    pub(crate) confirmed: bool,
    pub(crate) unconfirmed: bool,
}

impl AnyTarget {
    /// Counts `e` in.
    pub(crate) fn add(&mut self, e: &impl Entry) {
        let has = e.has_target();
        self.confirmed |= has && !e.unconfirmed();
        self.unconfirmed |= has && e.unconfirmed();
    }
}

/// The entries of one file, matched to the page's blocks.
pub(crate) struct Importer<R: EntryReader> {
    reader: R,
    /// Entries read past, by key.
    pending: FastMap<String, R::Entry>,
    /// The entries left once the whole file is read, by source.
    by_source: Option<SourceIndex>,
    done: bool,
    pub(crate) any: AnyTarget,
    /// Unconfirmed translations are merged too.
    pub(crate) include_unconfirmed: bool,
    /// Unconfirmed translations skipped.
    pub(crate) skipped: usize,
    /// Blocks the file had no entry for.
    pub(crate) missing: usize,
    /// Translations not applied so far.
    pub(crate) issues: Vec<Issue>,
}

impl<R: EntryReader> Importer<R> {
    /// Streams `reader`; `any` is what a first pass over the file found.
    pub(crate) fn new(reader: R, any: AnyTarget) -> Self {
        Importer {
            reader,
            pending: FastMap::default(),
            by_source: None,
            done: false,
            any,
            include_unconfirmed: false,
            skipped: 0,
            missing: 0,
            issues: Vec::new(),
        }
    }

    /// The reader (to hand back spent buffers).
    pub(crate) fn reader_mut(&mut self) -> &mut R {
        &mut self.reader
    }

    /// `e`'s translation is merged: present, and confirmed or asked for.
    pub(crate) fn usable(&self, e: &R::Entry) -> bool {
        e.has_target() && (self.include_unconfirmed || !e.unconfirmed())
    }

    /// Whether `e`'s translation is merged; an unconfirmed one not asked for is
    /// counted as skipped.
    pub(crate) fn accept(&mut self, e: &R::Entry) -> bool {
        let usable = self.usable(e);
        if !usable {
            self.skipped += usize::from(e.has_target());
        }
        usable
    }

    /// Whether any entry has a translation the merge would apply (decides `lang`
    /// retargeting and whether blocks missing from the file are issues).
    pub(crate) fn any_translated(&self) -> bool {
        self.any.confirmed || (self.include_unconfirmed && self.any.unconfirmed)
    }

    /// The entry keyed by one of `keys` (already read), else the next one read
    /// whose key `wanted` accepts; the others read past are kept.
    pub(crate) fn take(
        &mut self,
        keys: &[&str],
        wanted: impl Fn(&str) -> bool,
    ) -> Result<Option<R::Entry>> {
        for key in keys {
            if let Some(e) = self.pending.remove(*key) {
                return Ok(Some(e));
            }
        }
        while !self.done {
            match self.reader.next()? {
                Some(e) if wanted(e.key()) => return Ok(Some(e)),
                Some(e) => {
                    self.pending.insert(e.key().to_string(), e);
                }
                None => self.done = true,
            }
        }
        Ok(None)
    }

    /// An entry left unclaimed with exactly the block's source (called once the
    /// whole file is read: an id the page does not have).
    fn take_by_source(&mut self, block: &Block) -> Option<R::Entry> {
        let pending = &mut self.pending;
        let index = self.by_source.get_or_insert_with(|| {
            SourceIndex::new(pending.iter().map(|(id, e)| (id, e.source_key())))
        });
        let key = crate::matching::runs_key(&block.runs);
        let id = index
            .ids(key)
            .iter()
            .find(|id| pending.get(*id).is_some_and(|e| e.same_source(block)))?;
        pending.remove(id)
    }

    /// The entry of `block` ([`Importer::take`] by id, else by source); none: the
    /// block is counted missing, and is an issue in a translated file.
    pub(crate) fn find(
        &mut self,
        block: &Block,
        keys: &[&str],
        wanted: impl Fn(&str) -> bool,
    ) -> Result<Option<R::Entry>> {
        let found = match self.take(keys, wanted)? {
            Some(e) => Some(e),
            None => self.take_by_source(block),
        };
        if found.is_none() {
            self.missing += 1;
            if self.any_translated() {
                self.issues
                    .push(Issue::new(&block.id, IssueKind::NotInFile, ""));
            }
        }
        Ok(found)
    }

    /// Reads the rest of the file; the issues, with a "not in the page" one per
    /// unit (`unit_of` its entry's key) left with a translation the merge would
    /// have applied.
    pub(crate) fn finish(&mut self, unit_of: impl Fn(&str) -> &str) -> Result<Vec<Issue>> {
        while !self.done {
            match self.reader.next()? {
                Some(e) => {
                    self.pending.insert(e.key().to_string(), e);
                }
                None => self.done = true,
            }
        }
        let pending = std::mem::take(&mut self.pending);
        let left: BTreeSet<String> = pending
            .iter()
            .filter(|(_, e)| self.usable(e))
            .map(|(key, _)| unit_of(key).to_string())
            .collect();
        Ok(with_units_not_in_page(
            std::mem::take(&mut self.issues),
            left.into_iter(),
        ))
    }
}
