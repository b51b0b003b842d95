//! Applying a batch atomically (ADR 001, "Patch transaction semantics").
//!
//! Each patch is checked against the state left by the patches before it and
//! applied at once, recording how to undo it. If a later patch is invalid, the undo
//! log is replayed backwards and the batch is rejected: the store ends up exactly as
//! it was, and the cost of a valid batch is one log entry per mutation (the log's
//! buffer is reused across batches).

use crate::dom_patch::{DetachedText, DomPatch, Namespace, PatchKey, QuirksMode, TextCursor};
use crate::seg_vec::SegVec;
use crate::tree_builder::ElementAttrs;

use super::attr_arena::{AttrArena, AttrMark, AttrRange};
use super::direct::name_of;
use super::element::ElementRec;
use super::error::PatchError;
use super::node::{Doctype, ElementId, NONE, Node, NodeData, ProcessingInstruction, Slot};
use super::store::{DomStore, Lookup};
use super::text_arena::{ArenaMark, TextArena, TextRange};

/// How to revert one mutation. Created nodes need no entry: they are the tail of
/// the arena and are dropped by truncating it.
#[derive(Clone, Debug)]
pub(crate) enum Undo {
    /// A `Clear`: the whole previous arena, its text and its elements (boxed:
    /// rare, and the other entries, one per insertion, stay small).
    Cleared(Box<Cleared>),
    /// An insertion: unlink the child again.
    Linked { child: Slot },
    /// A removal: relink the child before `next` (or last) in `parent`.
    Unlinked {
        child: Slot,
        parent: Slot,
        next: Slot,
    },
    /// `AddAttributes`: the element's attribute range before.
    AttrsAdded { node: Slot, old: AttrRange },
    /// `AppendText`: the node's text range before.
    TextAppended { node: Slot, old: TextRange },
}

/// Whose batch is applied: anyone's (every invariant checked), or this crate's
/// tree builder's, whose structural guarantees (no cycles, the document's
/// children, template contents) are not walked again.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Trust {
    Checked,
    Builder,
}

/// What a `Clear` replaced.
#[derive(Clone, Debug)]
pub(crate) struct Cleared {
    nodes: SegVec<Node>,
    text: TextArena,
    elements: SegVec<ElementRec>,
    attrs: AttrArena,
    doctypes: Vec<Doctype>,
    pis: Vec<ProcessingInstruction>,
}

/// The scalar state saved at the start of a batch.
struct Saved {
    len: usize,
    elements: usize,
    text: ArenaMark,
    attrs: AttrMark,
    doctypes: usize,
    pis: usize,
    document: Slot,
    quirks_mode: QuirksMode,
    high_water: u64,
    cleared_through: u64,
}

impl DomStore {
    /// Applies the patches of `batch` whole, or rejects them and leaves the store
    /// unchanged, outside any versioned stream: for patches straight from one's own
    /// [`TreeBuilder`](crate::tree_builder::TreeBuilder) or written by hand. A
    /// session's [`PatchBatch`](crate::batch::PatchBatch)es go through
    /// [`apply`](Self::apply), which also checks their document and version.
    ///
    /// Checks every protocol invariant: keys strictly increasing and never reused
    /// (also across `Clear`), `Clear` only first, no references to unknown or
    /// cleared keys, at most one parent per node, `before` a child of `parent`, no
    /// cycles, text operations on text nodes, attributes on elements, children only
    /// under documents, elements and fragments, one document with at most one
    /// DOCTYPE and one element child.
    ///
    /// Cost: O(1) per patch except key lookups of sparse keys (O(log n)) and the
    /// cycle check of inserting a node that already has descendants (O(depth)).
    pub fn apply_patches(&mut self, batch: &[DomPatch]) -> Result<(), PatchError> {
        self.apply_iter(batch.iter().cloned(), Trust::Checked, None)
    }

    /// Like [`apply_patches`](Self::apply_patches), with the same checks and the same all-or-nothing
    /// outcome, but takes the batch by value and moves its names, attribute lists
    /// and text into the store instead of copying them: the cheaper way for a
    /// consumer that does not need the patches afterwards (a parse straight into a
    /// store). The batch is consumed whether it applies or not.
    ///
    /// ```
    /// use tagloom_html::dom::{self, DomStore};
    /// use tagloom_html::driver::{ParseConfig, drive};
    ///
    /// let mut store = DomStore::new();
    /// drive(b"<p>Hi", &ParseConfig::default(), |batch| store.apply_patches_owned(batch.patches)).unwrap();
    /// assert_eq!(
    ///     dom::dump_document(&store),
    ///     "| <html>\n|   <head>\n|   <body>\n|     <p>\n|       \"Hi\"\n"
    /// );
    /// ```
    pub fn apply_patches_owned(&mut self, batch: Vec<DomPatch>) -> Result<(), PatchError> {
        self.apply_iter(batch.into_iter(), Trust::Checked, None)
    }

    /// Applies a batch of this crate's own tree builder (the driver's parse
    /// straight into a store), draining `batch` and keeping its capacity for the
    /// next one. All or nothing as [`apply_patches`](Self::apply_patches); what the tree builder
    /// guarantees by construction is not checked again (see [`Trust::Builder`]).
    /// `texts`: the batch's texts when the builder kept them apart (its text
    /// patches then carry empty strings).
    pub(crate) fn apply_trusted(
        &mut self,
        batch: &mut Vec<DomPatch>,
        texts: Option<&DetachedText>,
    ) -> Result<(), PatchError> {
        let mut cursor = texts.map(DetachedText::cursor);
        self.apply_iter(batch.drain(..), Trust::Builder, cursor.as_mut())
    }

    fn apply_iter(
        &mut self,
        batch: impl Iterator<Item = DomPatch>,
        trust: Trust,
        mut texts: Option<&mut TextCursor<'_>>,
    ) -> Result<(), PatchError> {
        let saved = Saved {
            len: self.nodes.len(),
            elements: self.elements.len(),
            text: self.text.mark(),
            attrs: self.attrs.mark(),
            doctypes: self.doctypes.len(),
            pis: self.pis.len(),
            document: self.document,
            quirks_mode: self.quirks_mode,
            high_water: self.high_water,
            cleared_through: self.cleared_through,
        };
        self.undo.clear();
        let mut result = Ok(());
        for (index, patch) in batch.enumerate() {
            if let Err(e) = self.apply_one(index, patch, trust, texts.as_deref_mut()) {
                result = Err(e);
                break;
            }
        }
        if result.is_err() {
            self.roll_back(saved);
        }
        // Drop what a successful Clear replaced (or what a rollback left over).
        self.undo.clear();
        result
    }

    fn roll_back(&mut self, saved: Saved) {
        while let Some(entry) = self.undo.pop() {
            match entry {
                Undo::Cleared(cleared) => {
                    let Cleared {
                        nodes,
                        text,
                        elements,
                        attrs,
                        doctypes,
                        pis,
                    } = *cleared;
                    self.doctypes = doctypes;
                    self.pis = pis;
                    self.nodes = nodes;
                    self.text = text;
                    self.elements = elements;
                    self.attrs = attrs;
                }
                Undo::Linked { child } => {
                    self.unlink(child);
                }
                Undo::Unlinked {
                    child,
                    parent,
                    next,
                } => self.link(parent, child, next),
                Undo::AttrsAdded { node, old } => {
                    if let NodeData::Element(e) = self.n(node).data {
                        self.rec_mut(e).attrs = old;
                    }
                }
                Undo::TextAppended { node, old } => {
                    if let NodeData::Text(t) = &mut self.n_mut(node).data {
                        *t = old;
                    }
                }
            }
        }
        self.nodes.truncate(saved.len);
        self.elements.truncate(saved.elements);
        self.text.truncate(saved.text);
        self.attrs.truncate(saved.attrs);
        self.doctypes.truncate(saved.doctypes);
        self.pis.truncate(saved.pis);
        self.document = saved.document;
        self.quirks_mode = saved.quirks_mode;
        self.high_water = saved.high_water;
        self.cleared_through = saved.cleared_through;
    }

    fn apply_one(
        &mut self,
        index: usize,
        patch: DomPatch,
        trust: Trust,
        texts: Option<&mut TextCursor<'_>>,
    ) -> Result<(), PatchError> {
        match patch {
            DomPatch::Clear => {
                if index != 0 {
                    return Err(PatchError::ClearNotFirst { index });
                }
                let nodes = std::mem::take(&mut self.nodes);
                let text = std::mem::take(&mut self.text);
                let elements = std::mem::take(&mut self.elements);
                let attrs = std::mem::take(&mut self.attrs);
                let doctypes = std::mem::take(&mut self.doctypes);
                let pis = std::mem::take(&mut self.pis);
                self.undo.push(Undo::Cleared(Box::new(Cleared {
                    nodes,
                    text,
                    elements,
                    attrs,
                    doctypes,
                    pis,
                })));
                self.document = NONE;
                self.quirks_mode = QuirksMode::default();
                self.cleared_through = self.high_water;
            }
            DomPatch::CreateDocument { key } => {
                self.check_new_key(index, key)?;
                if let Some(existing) = self.document() {
                    return Err(PatchError::SecondDocument {
                        index,
                        key,
                        existing: existing.key(),
                    });
                }
                self.document = self.push(index, key, NodeData::Document)?;
            }
            DomPatch::SetQuirksMode { mode } => {
                if self.document == NONE {
                    return Err(PatchError::NoDocument { index });
                }
                self.quirks_mode = mode;
            }
            DomPatch::CreateDoctype {
                key,
                name,
                public_id,
                system_id,
            } => {
                self.check_new_key(index, key)?;
                let doctype = Doctype {
                    name,
                    public_id,
                    system_id,
                };
                let id = u32::try_from(self.doctypes.len())
                    .map_err(|_| PatchError::TooManyNodes { index })?;
                // Pushed first: if the node cannot be, the rollback truncates both.
                self.doctypes.push(doctype);
                self.push(index, key, NodeData::Doctype(id))?;
            }
            DomPatch::CreateElement {
                key,
                ns,
                name,
                attrs,
                contents,
            } => {
                self.check_new_key(index, key)?;
                let is_template = ns == Namespace::Html && name == "template";
                if is_template != contents.is_some() {
                    return Err(PatchError::TemplateContentsMismatch { index, key });
                }
                let too_large = |_| PatchError::TextTooLarge { index };
                let element = ElementRec {
                    name: self.attrs.store_name(name_of(&name)).map_err(too_large)?,
                    attrs: self
                        .attrs
                        .push_list(ElementAttrs::list(&attrs).iter())
                        .map_err(too_large)?,
                    contents: NONE,
                    ns,
                };
                let id = u32::try_from(self.elements.len())
                    .map(ElementId)
                    .map_err(|_| PatchError::TooManyNodes { index })?;
                // Pushed first: if the node cannot be, the rollback truncates both.
                self.elements.push(element);
                let slot = self.push(index, key, NodeData::Element(id))?;
                if let Some(contents) = contents {
                    // The fragment is created right after its element, so its key
                    // must follow the element's.
                    self.check_new_key(index, contents)?;
                    let fragment = self.push(index, contents, NodeData::Fragment { host: slot })?;
                    self.rec_mut(id).contents = fragment;
                }
            }
            DomPatch::CreateText { key, text } => {
                self.check_new_key(index, key)?;
                let range = self.store_text(index, detached_or(&text, texts))?;
                self.push(index, key, NodeData::Text(range))?;
            }
            DomPatch::CreateComment { key, text } => {
                self.check_new_key(index, key)?;
                let range = self.store_text(index, detached_or(&text, texts))?;
                self.push(index, key, NodeData::Comment(range))?;
            }
            DomPatch::CreateProcessingInstruction { key, target, data } => {
                self.check_new_key(index, key)?;
                let pi = ProcessingInstruction { target, data };
                let id = u32::try_from(self.pis.len())
                    .map_err(|_| PatchError::TooManyNodes { index })?;
                self.pis.push(pi);
                self.push(index, key, NodeData::ProcessingInstruction(id))?;
            }
            DomPatch::AppendChild { parent, child } => {
                let p = self.find(index, parent)?;
                let c = self.find(index, child)?;
                self.check_insert(index, p, c, trust)?;
                self.link(p, c, NONE);
                self.undo.push(Undo::Linked { child: c });
            }
            DomPatch::InsertBefore {
                parent,
                child,
                before,
            } => {
                let p = self.find(index, parent)?;
                let c = self.find(index, child)?;
                let b = self.find(index, before)?;
                if self.n(b).parent != p {
                    return Err(PatchError::NotAChild {
                        index,
                        parent,
                        before,
                    });
                }
                self.check_insert(index, p, c, trust)?;
                self.link(p, c, b);
                self.undo.push(Undo::Linked { child: c });
            }
            DomPatch::Remove { node } => {
                let n = self.find(index, node)?;
                let (parent, next) = self.unlink(n);
                if parent == NONE {
                    return Err(PatchError::NoParent { index, node });
                }
                self.undo.push(Undo::Unlinked {
                    child: n,
                    parent,
                    next,
                });
            }
            DomPatch::AddAttributes { node, attrs } => {
                let n = self.find(index, node)?;
                let NodeData::Element(id) = self.n(n).data else {
                    return Err(PatchError::NotElement { index, node });
                };
                let old = self
                    .add_attributes(id, ElementAttrs::list(&attrs).iter())
                    .map_err(|_| PatchError::TextTooLarge { index })?;
                self.undo.push(Undo::AttrsAdded { node: n, old });
            }
            DomPatch::AppendText { node, text } => {
                let n = self.find(index, node)?;
                let NodeData::Text(old) = self.n(n).data else {
                    return Err(PatchError::NotText { index, node });
                };
                let new = self
                    .text
                    .append(old, detached_or(&text, texts))
                    .map_err(|_| PatchError::TextTooLarge { index })?;
                self.n_mut(n).data = NodeData::Text(new);
                self.undo.push(Undo::TextAppended { node: n, old });
            }
        }
        Ok(())
    }

    fn store_text(&mut self, index: usize, text: &str) -> Result<TextRange, PatchError> {
        self.text
            .push(text)
            .map_err(|_| PatchError::TextTooLarge { index })
    }

    /// A created key must exceed every key created before (high-water mark).
    fn check_new_key(&self, index: usize, key: PatchKey) -> Result<(), PatchError> {
        match self.last_key() {
            Some(last) if key <= last => Err(PatchError::KeyNotIncreasing { index, key, last }),
            _ => Ok(()),
        }
    }

    fn push(&mut self, index: usize, key: PatchKey, data: NodeData) -> Result<Slot, PatchError> {
        let slot = Slot::try_from(self.nodes.len())
            .ok()
            .filter(|&s| s != NONE)
            .ok_or(PatchError::TooManyNodes { index })?;
        self.nodes.push(Node::new(key, data));
        self.high_water = key.0.get();
        Ok(slot)
    }

    fn find(&self, index: usize, key: PatchKey) -> Result<Slot, PatchError> {
        match self.lookup(key) {
            Lookup::Found(slot) => Ok(slot),
            Lookup::Stale => Err(PatchError::StaleKey { index, key }),
            Lookup::Unknown => Err(PatchError::UnknownKey { index, key }),
        }
    }

    /// The DOM's pre-insert validity checks (DOM §4.2.3) that a parser's output
    /// can violate, plus the protocol's single-parent rule. For the tree builder's
    /// own batches only the O(1) checks that keep the links sound run (the parent
    /// takes children, the child has no parent, the child is not the parent):
    /// the cycle walk and the document's hierarchy rules are the builder's own
    /// (13.2.6.1 and A.3 drop what the document cannot take).
    fn check_insert(&self, index: usize, p: Slot, c: Slot, trust: Trust) -> Result<(), PatchError> {
        let (parent, child) = (self.n(p), self.n(c));
        if trust == Trust::Builder {
            return if !parent.data.can_have_children() {
                Err(PatchError::CannotHaveChildren {
                    index,
                    parent: parent.key,
                })
            } else if child.parent != NONE {
                Err(PatchError::AlreadyHasParent {
                    index,
                    child: child.key,
                    parent: self.n(child.parent).key,
                })
            } else if p == c {
                Err(PatchError::Cycle {
                    index,
                    parent: parent.key,
                    child: child.key,
                })
            } else {
                Ok(())
            };
        }
        if !parent.data.can_have_children() {
            return Err(PatchError::CannotHaveChildren {
                index,
                parent: parent.key,
            });
        }
        if matches!(child.data, NodeData::Document | NodeData::Fragment { .. }) {
            return Err(PatchError::CannotBeChild {
                index,
                child: child.key,
            });
        }
        if child.parent != NONE {
            return Err(PatchError::AlreadyHasParent {
                index,
                child: child.key,
                parent: self.n(child.parent).key,
            });
        }
        if self.is_host_including_inclusive_ancestor(c, p) {
            return Err(PatchError::Cycle {
                index,
                parent: parent.key,
                child: child.key,
            });
        }
        let hierarchy_error = PatchError::HierarchyRequest {
            index,
            parent: parent.key,
            child: child.key,
        };
        match (&parent.data, &child.data) {
            (NodeData::Document, NodeData::Text(_)) => return Err(hierarchy_error),
            (NodeData::Document, NodeData::Element(_) | NodeData::Doctype(_)) => {
                let same_kind = |n: &Node| {
                    std::mem::discriminant(&n.data) == std::mem::discriminant(&child.data)
                };
                let mut s = parent.first_child;
                while s != NONE {
                    let sibling = self.n(s);
                    if same_kind(sibling) {
                        return Err(hierarchy_error);
                    }
                    s = sibling.next_sibling;
                }
            }
            (_, NodeData::Doctype(_)) => return Err(hierarchy_error),
            _ => {}
        }
        Ok(())
    }

    /// Whether `a` is `b` or an ancestor of `b`, following template contents to
    /// their host (DOM's "host-including inclusive ancestor").
    fn is_host_including_inclusive_ancestor(&self, a: Slot, b: Slot) -> bool {
        if a == b {
            return true;
        }
        // Fast path: a node without children, and without template contents or
        // with empty ones (other than `b` itself), is nobody's ancestor: the
        // case for every freshly created node, `template` included.
        let node = self.n(a);
        let contents = self.element_at(a).map_or(NONE, |e| e.contents());
        if node.first_child == NONE
            && (contents == NONE || (contents != b && self.n(contents).first_child == NONE))
        {
            return false;
        }
        let mut s = b;
        while s != NONE {
            if s == a {
                return true;
            }
            let n = self.n(s);
            s = match n.data {
                NodeData::Fragment { host } if n.parent == NONE => host,
                _ => n.parent,
            };
        }
        false
    }
}

/// A text patch's text: the next of the batch's detached texts, if it has them,
/// else the patch's own.
fn detached_or<'a, 'b: 'a>(own: &'a str, texts: Option<&mut TextCursor<'b>>) -> &'a str {
    match texts {
        Some(cursor) => cursor.next_text(),
        None => own,
    }
}

#[cfg(test)]
mod size_tests {
    #[test]
    fn an_undo_entry_stays_small() {
        // One entry per insertion of every batch.
        assert!(std::mem::size_of::<super::Undo>() <= 24);
    }
}
