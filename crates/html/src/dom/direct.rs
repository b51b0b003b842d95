//! The store sink: the tree builder writes into a [`DomStore`] directly (the
//! driver's parse into a store, [`Driver::push_into`](crate::driver::Driver::push_into)).
//!
//! The calls are those of a patch stream (see
//! [`TreeSink`](crate::tree_builder::TreeSink)), applied at once: a node is
//! created in the store's arenas with its values copied once from the token (no
//! `DomPatch`, no undo log, no batch), and links are made by the store's own
//! O(1) link operations. What the tree builder guarantees by construction (a
//! parentless child, a parent that takes children, no cycles, the document's
//! children) is not checked again outside debug builds. What the store still
//! checks are the things a caller can break: keys must be new and increasing
//! (a store holding another parse's nodes), and every referenced key must be one
//! of the store's nodes. The first such error, or a limit (more than 4 Gi nodes,
//! a text over 4 GiB), is kept and reported when the store is handed back
//! ([`StoreSink::finish`]); the calls after it change nothing more. Patch
//! indexes in these errors are 0: there is no batch.

use crate::dom_patch::{PatchAttr, PatchKey, QuirksMode};
use crate::tree_builder::{ElementAttrs, NewElement, TreeSink};

use super::PatchError;
use super::element::ElementRec;
use super::node::{Doctype, ElementId, NONE, Node, NodeData, ProcessingInstruction, Slot};
use super::store::{DomStore, Lookup};

/// A store being built by a tree builder. See the [module docs](self).
#[derive(Debug, Default)]
pub(crate) struct StoreSink {
    /// Boxed: the builder's sink enum stays small.
    store: Box<DomStore>,
    error: Option<PatchError>,
    /// The slot of the node the last `create_*` call added ([`NONE`] when
    /// it added none); with a template, its contents fragment.
    last: Slot,
}

impl StoreSink {
    /// Takes over `store` (the tree so far of the same parse, or an empty one).
    pub(crate) fn new(store: DomStore) -> StoreSink {
        StoreSink {
            store: Box::new(store),
            error: None,
            last: NONE,
        }
    }

    /// The slot of the node the last `create_*` call added ([`NONE`] when it
    /// added none: an error, or a limit). The tree builder keeps it, so its
    /// links need no key lookup ([`link_slots`](Self::link_slots)).
    #[inline]
    pub(crate) fn last_slot(&self) -> Slot {
        self.last
    }

    /// `AppendChild` (`before` is [`NONE`]) or `InsertBefore` by slots the
    /// store handed out for nodes of this parse ([`last_slot`](Self::last_slot)).
    #[inline]
    pub(crate) fn link_slots(&mut self, parent: Slot, child: Slot, before: Slot) {
        if self.error.is_some() {
            return;
        }
        let len = self.store.nodes.len();
        // Slots from this store are in range; a check keeps a bug from
        // becoming a panic.
        if parent as usize >= len
            || child as usize >= len
            || (before != NONE && before as usize >= len)
        {
            self.fail(PatchError::TooManyNodes { index: 0 });
            return;
        }
        self.link(parent, child, before);
    }

    /// `CreateText` then `AppendChild` to `parent` (a slot as for
    /// [`link_slots`](Self::link_slots)): the new node's slot, [`NONE`] when
    /// none was made (an error recorded).
    #[inline]
    pub(crate) fn create_text_in(&mut self, key: PatchKey, text: &str, parent: Slot) -> Slot {
        self.last = NONE;
        if self.error.is_some() {
            return NONE;
        }
        match self.store.text.push(text) {
            Ok(range) => {
                self.push_at(key, NodeData::Text(range), parent);
            }
            Err(_) => self.fail(PatchError::TextTooLarge { index: 0 }),
        }
        self.last
    }

    /// `CreateElement` then `AppendChild` to `parent` (a slot as for
    /// [`link_slots`](Self::link_slots); not for a template, whose contents
    /// fragment is made with it): the new node's slot, [`NONE`] when none was
    /// made (an error recorded).
    #[inline]
    pub(crate) fn create_element_in(
        &mut self,
        key: PatchKey,
        element: NewElement<'_>,
        parent: Slot,
    ) -> Slot {
        debug_assert!(element.contents.is_none());
        self.create_element_at(key, element, parent);
        self.last
    }

    /// `AppendText` to the text node at `slot` (as [`link_slots`](Self::link_slots)).
    #[inline]
    pub(crate) fn append_text_slot(&mut self, slot: Slot, key: PatchKey, text: &str) {
        if self.error.is_some() {
            return;
        }
        if slot as usize >= self.store.nodes.len() {
            self.fail(PatchError::UnknownKey { index: 0, key });
            return;
        }
        self.append_text_at(slot, key, text);
    }

    fn append_text_at(&mut self, n: Slot, node: PatchKey, text: &str) {
        let NodeData::Text(old) = self.store.n(n).data else {
            self.fail(PatchError::NotText { index: 0, node });
            return;
        };
        match self.store.text.append(old, text) {
            Ok(new) => self.store.n_mut(n).data = NodeData::Text(new),
            Err(_) => self.fail(PatchError::TextTooLarge { index: 0 }),
        }
    }

    /// The store, and the first error, if any.
    pub(crate) fn finish(self) -> (DomStore, Option<PatchError>) {
        (*self.store, self.error)
    }

    /// What a `Clear` patch does ("change the encoding" restarts the parse): no
    /// node is left, keys stay used.
    pub(crate) fn clear(&mut self) {
        let store = &mut self.store;
        store.nodes = Default::default();
        store.text = Default::default();
        store.elements = Default::default();
        store.attrs = Default::default();
        store.doctypes = Vec::new();
        store.pis = Vec::new();
        store.document = NONE;
        store.quirks_mode = QuirksMode::default();
        store.cleared_through = store.high_water;
    }

    /// The attributes of the element `key` (for the tree builder, which
    /// reads a formatting element's attributes back from here instead of
    /// keeping a copy: the store is the builder's alone while it is attached).
    pub(crate) fn element_attrs(&self, key: PatchKey) -> Option<Vec<PatchAttr>> {
        match self.store.lookup(key) {
            Lookup::Found(slot) => self.store.element_at(slot).map(|e| e.attrs().to_vec()),
            _ => None,
        }
    }

    #[cold]
    fn fail(&mut self, error: PatchError) {
        self.last = NONE;
        if self.error.is_none() {
            self.error = Some(error);
        }
    }

    /// The slot of `key`, or `None` (an error recorded).
    #[inline]
    fn slot(&mut self, key: PatchKey) -> Option<Slot> {
        if self.error.is_some() {
            return None;
        }
        match self.store.lookup(key) {
            Lookup::Found(slot) => Some(slot),
            Lookup::Stale => {
                self.fail(PatchError::StaleKey { index: 0, key });
                None
            }
            Lookup::Unknown => {
                self.fail(PatchError::UnknownKey { index: 0, key });
                None
            }
        }
    }

    /// Adds a parentless node; `None` (an error recorded) when the key is not
    /// new or the arena is full.
    #[inline]
    fn push(&mut self, key: PatchKey, data: NodeData) -> Option<Slot> {
        self.push_at(key, data, NONE)
    }

    /// Adds a node as the last child of `parent` (a slot of this store's
    /// nodes, or [`NONE`]: parentless), linked as it is written (the node is
    /// written once, and no separate link call looks the three nodes up
    /// again); `None` (an error recorded) when the key is not new, the arena
    /// is full or `parent` is out of range.
    #[inline(always)]
    fn push_at(&mut self, key: PatchKey, data: NodeData, parent: Slot) -> Option<Slot> {
        self.last = NONE;
        if self.error.is_some() {
            return None;
        }
        if let Some(last) = self.store.last_key()
            && key <= last
        {
            self.fail(PatchError::KeyNotIncreasing {
                index: 0,
                key,
                last,
            });
            return None;
        }
        let Some(slot) = Slot::try_from(self.store.nodes.len())
            .ok()
            .filter(|&s| s != NONE)
        else {
            self.fail(PatchError::TooManyNodes { index: 0 });
            return None;
        };
        let mut node = Node::new(key, data);
        if parent != NONE {
            // Slots from this store are in range; a check keeps a bug from
            // becoming a panic.
            let Some(p) = self.store.nodes.get_mut(parent as usize) else {
                self.fail(PatchError::TooManyNodes { index: 0 });
                return None;
            };
            debug_assert!(p.data.can_have_children());
            let prev = std::mem::replace(&mut p.last_child, slot);
            if prev == NONE {
                p.first_child = slot;
            } else {
                self.store.n_mut(prev).next_sibling = slot;
            }
            node.parent = parent;
            node.prev_sibling = prev;
        }
        self.store.nodes.push(node);
        self.store.high_water = key.0.get();
        self.last = slot;
        Some(slot)
    }

    /// `CreateElement`, appended to `parent` unless that is [`NONE`].
    #[inline]
    fn create_element_at(&mut self, key: PatchKey, element: NewElement<'_>, parent: Slot) {
        let Ok(id) = u32::try_from(self.store.elements.len()).map(ElementId) else {
            self.fail(PatchError::TooManyNodes { index: 0 });
            return;
        };
        if self.error.is_some() {
            self.last = NONE;
            return;
        }
        // The record's data first: a node is never linked without its record.
        let arena = &mut self.store.attrs;
        let stored = arena.store_name(name_of(&element.name)).and_then(|name| {
            let attrs = match element.attrs.token_slots() {
                Some((slots, source, atoms)) => arena.push_slots(slots, source, atoms)?,
                None => arena.push_list(element.attrs.iter())?,
            };
            Ok((name, attrs))
        });
        let Ok((name, attrs)) = stored else {
            self.fail(PatchError::TextTooLarge { index: 0 });
            return;
        };
        let Some(slot) = self.push_at(key, NodeData::Element(id), parent) else {
            return;
        };
        self.store.elements.push(ElementRec {
            name,
            attrs,
            contents: NONE,
            ns: element.ns,
        });
        if let Some(contents) = element.contents
            && let Some(fragment) = self.push(contents, NodeData::Fragment { host: slot })
        {
            self.store.rec_mut(id).contents = fragment;
        }
    }

    /// Links `child` into `parent` (before `before`, or last when it is
    /// [`NONE`]).
    #[inline]
    fn link(&mut self, parent: Slot, child: Slot, before: Slot) {
        debug_assert!(self.store.n(parent).data.can_have_children());
        debug_assert_eq!(self.store.n(child).parent, NONE);
        debug_assert_ne!(parent, child);
        debug_assert!(before == NONE || self.store.n(before).parent == parent);
        self.store.link(parent, child, before);
    }
}

impl TreeSink for StoreSink {
    fn create_document(&mut self, key: PatchKey) {
        if let Some(existing) = self.store.document() {
            let existing = existing.key();
            self.fail(PatchError::SecondDocument {
                index: 0,
                key,
                existing,
            });
            return;
        }
        if let Some(slot) = self.push(key, NodeData::Document) {
            self.store.document = slot;
        }
    }

    fn set_quirks_mode(&mut self, mode: QuirksMode) {
        if self.error.is_none() {
            self.store.quirks_mode = mode;
        }
    }

    fn create_doctype(&mut self, key: PatchKey, name: &str, public_id: &str, system_id: &str) {
        let doctype = Doctype {
            name: name.to_owned(),
            public_id: public_id.to_owned(),
            system_id: system_id.to_owned(),
        };
        let Ok(index) = u32::try_from(self.store.doctypes.len()) else {
            self.fail(PatchError::TooManyNodes { index: 0 });
            return;
        };
        if self.push(key, NodeData::Doctype(index)).is_some() {
            self.store.doctypes.push(doctype);
        }
    }

    #[inline]
    fn create_element(&mut self, key: PatchKey, element: NewElement<'_>) {
        self.create_element_at(key, element, NONE);
    }

    #[inline]
    fn create_text(&mut self, key: PatchKey, text: &str) {
        match self.store.text.push(text) {
            Ok(range) => {
                self.push(key, NodeData::Text(range));
            }
            Err(_) => self.fail(PatchError::TextTooLarge { index: 0 }),
        }
    }

    fn create_comment(&mut self, key: PatchKey, text: &str) {
        match self.store.text.push(text) {
            Ok(range) => {
                self.push(key, NodeData::Comment(range));
            }
            Err(_) => self.fail(PatchError::TextTooLarge { index: 0 }),
        }
    }

    fn create_processing_instruction(&mut self, key: PatchKey, target: &str, data: &str) {
        let pi = ProcessingInstruction {
            target: target.to_owned(),
            data: data.to_owned(),
        };
        let Ok(index) = u32::try_from(self.store.pis.len()) else {
            self.fail(PatchError::TooManyNodes { index: 0 });
            return;
        };
        if self
            .push(key, NodeData::ProcessingInstruction(index))
            .is_some()
        {
            self.store.pis.push(pi);
        }
    }

    #[inline]
    fn append_child(&mut self, parent: PatchKey, child: PatchKey) {
        if let (Some(p), Some(c)) = (self.slot(parent), self.slot(child)) {
            self.link(p, c, NONE);
        }
    }

    fn insert_before(&mut self, parent: PatchKey, child: PatchKey, before: PatchKey) {
        if let (Some(p), Some(c), Some(b)) =
            (self.slot(parent), self.slot(child), self.slot(before))
        {
            self.link(p, c, b);
        }
    }

    fn remove(&mut self, node: PatchKey) {
        if let Some(n) = self.slot(node) {
            self.store.unlink(n);
        }
    }

    #[inline]
    fn append_text(&mut self, node: PatchKey, text: &str) {
        let Some(n) = self.slot(node) else { return };
        self.append_text_at(n, node, text);
    }

    fn add_attributes(&mut self, node: PatchKey, attrs: ElementAttrs<'_>) {
        let Some(n) = self.slot(node) else { return };
        let NodeData::Element(id) = self.store.n(n).data else {
            self.fail(PatchError::NotElement { index: 0, node });
            return;
        };
        if self.store.add_attributes(id, attrs.iter()).is_err() {
            self.fail(PatchError::TextTooLarge { index: 0 });
        }
    }
}

/// An element name as the attribute arena stores it (static names not copied).
#[allow(clippy::ptr_arg)] // The `Cow`'s variant is the point: borrowed names are static.
pub(crate) fn name_of<'a>(
    name: &'a std::borrow::Cow<'static, str>,
) -> crate::tree_builder::AttrName<'a> {
    match name {
        std::borrow::Cow::Borrowed(s) => crate::tree_builder::AttrName::Static(s),
        std::borrow::Cow::Owned(s) => crate::tree_builder::AttrName::Borrowed(s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::dump_document;
    use crate::dom_patch::Namespace;
    use crate::driver::{DriveError, Driver, ParseConfig};

    fn key(n: u64) -> PatchKey {
        PatchKey::new(n).unwrap()
    }

    fn element(sink: &mut StoreSink, k: u64, name: &'static str) {
        sink.create_element(
            key(k),
            NewElement {
                ns: Namespace::Html,
                atom: crate::atom::HTML,
                name: name.into(),
                attrs: ElementAttrs::none(),
                contents: None,
            },
        );
    }

    #[test]
    fn an_unknown_key_is_reported_and_nothing_changes_after_it() {
        let mut sink = StoreSink::new(DomStore::new());
        sink.create_document(key(1));
        element(&mut sink, 2, "html");
        sink.append_child(key(1), key(2));
        let before = dump_document(&sink.store);
        sink.append_child(key(2), key(9));
        element(&mut sink, 3, "body");
        sink.append_child(key(2), key(3));
        sink.set_quirks_mode(QuirksMode::Quirks);
        let (store, error) = sink.finish();
        assert_eq!(
            error,
            Some(PatchError::UnknownKey {
                index: 0,
                key: key(9)
            })
        );
        assert_eq!(dump_document(&store), before);
        assert_eq!(
            (store.len(), store.quirks_mode()),
            (2, QuirksMode::NoQuirks)
        );
    }

    #[test]
    fn created_nodes_report_their_slots_and_a_bad_slot_is_an_error_not_a_panic() {
        let mut sink = StoreSink::new(DomStore::new());
        sink.create_document(key(1));
        assert_eq!(sink.last_slot(), 0);
        element(&mut sink, 2, "html");
        assert_eq!(sink.last_slot(), 1);
        sink.link_slots(0, 1, NONE);
        let before = dump_document(&sink.store);
        // A key that is not new adds nothing: no slot to record.
        element(&mut sink, 2, "body");
        assert_eq!(sink.last_slot(), NONE);
        let (store, error) = sink.finish();
        assert!(matches!(error, Some(PatchError::KeyNotIncreasing { .. })));
        assert_eq!(dump_document(&store), before);

        let mut sink = StoreSink::new(DomStore::new());
        sink.create_document(key(1));
        element(&mut sink, 2, "html");
        sink.link_slots(0, 7, NONE);
        let (store, error) = sink.finish();
        assert!(error.is_some());
        assert_eq!(dump_document(&store), "");
    }

    #[test]
    fn nodes_created_in_a_parent_link_as_create_then_append() {
        let new = |name: &'static str| NewElement {
            ns: Namespace::Html,
            atom: crate::atom::HTML,
            name: name.into(),
            attrs: ElementAttrs::none(),
            contents: None,
        };
        let mut fused = StoreSink::new(DomStore::new());
        fused.create_document(key(1));
        element(&mut fused, 2, "html");
        fused.link_slots(0, 1, NONE);
        assert_eq!(fused.create_element_in(key(3), new("body"), 1), 2);
        assert_eq!(fused.create_text_in(key(4), "a", 2), 3);
        assert_eq!(fused.create_element_in(key(5), new("p"), 2), 4);
        assert_eq!(fused.create_text_in(key(6), "b", 4), 5);
        let mut split = StoreSink::new(DomStore::new());
        split.create_document(key(1));
        element(&mut split, 2, "html");
        split.append_child(key(1), key(2));
        element(&mut split, 3, "body");
        split.append_child(key(2), key(3));
        split.create_text(key(4), "a");
        split.append_child(key(3), key(4));
        element(&mut split, 5, "p");
        split.append_child(key(3), key(5));
        split.create_text(key(6), "b");
        split.append_child(key(5), key(6));
        let ((a, ea), (b, eb)) = (fused.finish(), split.finish());
        assert_eq!((ea, eb), (None, None));
        assert_eq!(dump_document(&a), dump_document(&b));

        // A parent slot out of range is an error, not a panic, and adds nothing.
        let mut sink = StoreSink::new(DomStore::new());
        sink.create_document(key(1));
        assert_eq!(sink.create_element_in(key(2), new("html"), 9), NONE);
        assert_eq!(sink.create_text_in(key(3), "x", 0), NONE);
        let (store, error) = sink.finish();
        assert!(error.is_some());
        assert_eq!(store.len(), 1);
    }

    #[test]
    fn keys_must_be_new_and_a_clear_keeps_them_used() {
        let mut sink = StoreSink::new(DomStore::new());
        sink.create_document(key(1));
        element(&mut sink, 2, "html");
        sink.clear();
        assert!(sink.store.is_empty());
        assert_eq!(sink.store.last_key(), Some(key(2)));
        sink.create_document(key(2));
        let (store, error) = sink.finish();
        assert_eq!(
            error,
            Some(PatchError::KeyNotIncreasing {
                index: 0,
                key: key(2),
                last: key(2)
            })
        );
        assert!(store.document().is_none());
    }

    #[test]
    fn a_store_holding_another_parse_is_refused() {
        let mut store = DomStore::new();
        let mut first = Driver::new(&ParseConfig::default());
        first.push_into(b"<p>one", &mut store).unwrap();
        first.finish_into(&mut store).unwrap();
        let before = dump_document(&store);
        let mut second = Driver::new(&ParseConfig::default());
        let err = second.push_into(b"<p>two", &mut store).unwrap_err();
        // Refused by its document handle (the first driver bound the store).
        assert!(matches!(err, DriveError::Sink(_)), "{err}");
        assert_eq!(dump_document(&store), before);
    }
}
