//! Rebuilding a consumer from the last good tree: `Clear` + a full create stream.
//!
//! This is the recovery policy of ADR 001, option (b): when a parse fails with an
//! engine-invariant violation, the stream stops (the session emits nothing more) and
//! the runtime resets every other consumer of the same document handle — a browser
//! page, a mirror in another process — to the last tree that passed validation, by
//! sending them this one batch. Its keys are fresh (above every key the store has
//! seen), so the no-reuse invariant holds across the reset, and it is the next
//! version step of the same document handle (see [`crate::batch`]).

use std::collections::VecDeque;
use std::num::NonZeroU64;

use super::{DomStore, NodeKind, NodeRef};
use crate::batch::{DocHandle, PatchBatch};
use crate::dom_patch::{DomPatch, PatchKey};

impl DomStore {
    /// `Clear`, then `CreateDocument`, the quirks mode, and a create + append for
    /// every node, parents before children and siblings in order (template contents
    /// included), with keys from
    /// just above [`last_key`](DomStore::last_key), as the batch from this store's
    /// [`version`](DomStore::version) to the next one of its document (a fresh
    /// handle when no versioned batch was applied). Applying it to a store that
    /// holds the same document (or any earlier state of it) yields this store's tree.
    ///
    /// ```
    /// use tagloom_html::dom::{DomStore, dump_document};
    /// use tagloom_html::driver::{ParseConfig, drive};
    ///
    /// let page = b"<!DOCTYPE html><p class=x>a<template><b>t</b></template>";
    /// let (mut store, mut mirror) = (DomStore::new(), DomStore::new());
    /// drive(page, &ParseConfig::default(), |batch| {
    ///     store.apply(&batch)?;
    ///     mirror.apply_owned(batch)
    /// })
    /// .unwrap();
    /// let reset = store.full_create_stream();
    /// mirror.apply(&reset).unwrap();
    /// assert_eq!(dump_document(&mirror), dump_document(&store));
    /// ```
    pub fn full_create_stream(&self) -> PatchBatch {
        let doc = self.doc().unwrap_or_else(DocHandle::fresh);
        PatchBatch::new(doc, self.version(), self.create_patches())
    }

    /// The patches of [`full_create_stream`](Self::full_create_stream).
    fn create_patches(&self) -> Vec<DomPatch> {
        let mut next = self.last_key().map_or(1, |k| k.0.get() + 1);
        let mut fresh = || {
            let key = PatchKey(NonZeroU64::new(next).unwrap_or(NonZeroU64::MIN));
            next += 1;
            key
        };
        let mut out = vec![DomPatch::Clear];
        let Some(document) = self.document() else {
            return out;
        };
        let document_key = fresh();
        out.push(DomPatch::CreateDocument { key: document_key });
        out.push(DomPatch::SetQuirksMode {
            mode: self.quirks_mode(),
        });
        // Breadth of work is one queue entry per node: no recursion, any depth.
        let mut queue: VecDeque<(NodeRef<'_>, PatchKey)> =
            VecDeque::from([(document, document_key)]);
        while let Some((parent, parent_key)) = queue.pop_front() {
            for child in parent.children() {
                let key = fresh();
                match child.kind() {
                    NodeKind::Element(element) => {
                        let contents = child.template_contents().map(|c| (c, fresh()));
                        out.push(DomPatch::CreateElement {
                            key,
                            ns: element.ns(),
                            name: element.local_name().to_owned().into(),
                            attrs: element.attrs().to_vec(),
                            contents: contents.map(|(_, k)| k),
                        });
                        if let Some((node, contents_key)) = contents {
                            queue.push_back((node, contents_key));
                        }
                        queue.push_back((child, key));
                    }
                    NodeKind::Text(text) => out.push(DomPatch::CreateText {
                        key,
                        text: text.to_owned(),
                    }),
                    NodeKind::Comment(text) => out.push(DomPatch::CreateComment {
                        key,
                        text: text.to_owned(),
                    }),
                    NodeKind::ProcessingInstruction(pi) => {
                        out.push(DomPatch::CreateProcessingInstruction {
                            key,
                            target: pi.target().to_owned(),
                            data: pi.data().to_owned(),
                        })
                    }
                    NodeKind::Doctype(doctype) => out.push(DomPatch::CreateDoctype {
                        key,
                        name: doctype.name().to_owned(),
                        public_id: doctype.public_id().to_owned(),
                        system_id: doctype.system_id().to_owned(),
                    }),
                    // Documents and fragments are never children.
                    NodeKind::Document | NodeKind::DocumentFragment => continue,
                }
                out.push(DomPatch::AppendChild {
                    parent: parent_key,
                    child: key,
                });
            }
        }
        out
    }
}
