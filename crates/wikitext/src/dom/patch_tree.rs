//! The tree builder's patches applied straight to a small linked arena whose
//! strings are moved, not copied, into the owned tree of the DOM passes
//! ([`PatchTree::into_body`]). This replaces a `DomStore` (checked patches with
//! an undo log) that the passes then copied node by node and dropped: the
//! element names, attributes and texts the tree builder made go to the owned
//! tree without a second allocation each.
//!
//! Only what the passes read is kept: elements, text and comments. Keys are the
//! tree builder's (monotonic, from 1); a slot per key, links by slot index, so
//! appending, inserting and detaching (foster parenting, the adoption agency)
//! are O(1) however long a child list is.

use tagloom_html::dom_patch::{DomPatch, PatchKey};

use super::{Element, Node};

/// No slot (a link's end).
const NONE: u32 = u32::MAX;

/// The most keys ahead of the arena a patch may name (the tree builder names
/// each key as it creates the node, so a larger gap is not from it).
const MAX_KEY_GAP: usize = 1 << 20;

/// Why patches could not be applied.
#[derive(Debug, thiserror::Error)]
pub(crate) enum PatchTreeError {
    /// A key outside the keys the tree builder has handed out.
    #[error("patch names an unknown node {0}")]
    UnknownKey(PatchKey),
    /// More nodes than a slot index holds.
    #[error("too many nodes for the patch tree")]
    TooManyNodes,
}

/// What a slot holds until the owned tree takes it.
#[derive(Default)]
enum Data {
    /// Not created (yet), or already moved out.
    #[default]
    Empty,
    Element(Element),
    Text(String),
    Comment(String),
    /// A document, doctype, template contents or processing instruction: kept
    /// for its links, never part of the owned tree.
    Other,
}

/// One node and its links (slot indexes or [`NONE`]).
struct Slot {
    data: Data,
    parent: u32,
    first: u32,
    last: u32,
    prev: u32,
    next: u32,
}

impl Default for Slot {
    fn default() -> Slot {
        Slot {
            data: Data::Empty,
            parent: NONE,
            first: NONE,
            last: NONE,
            prev: NONE,
            next: NONE,
        }
    }
}

/// The arena.
#[derive(Default)]
pub(crate) struct PatchTree {
    slots: Vec<Slot>,
    /// The first key (slot 0's).
    base: u64,
    document: Option<u32>,
}

impl PatchTree {
    /// The slot of `key`, created empty when it is the next keys'.
    fn slot(&mut self, key: PatchKey) -> Result<u32, PatchTreeError> {
        if self.slots.is_empty() && self.base == 0 {
            self.base = key.get();
        }
        let index = key
            .get()
            .checked_sub(self.base)
            .and_then(|i| usize::try_from(i).ok())
            .ok_or(PatchTreeError::UnknownKey(key))?;
        if index >= self.slots.len() {
            if index - self.slots.len() > MAX_KEY_GAP {
                return Err(PatchTreeError::UnknownKey(key));
            }
            self.slots.resize_with(index + 1, Slot::default);
        }
        u32::try_from(index)
            .ok()
            .filter(|&i| i != NONE)
            .ok_or(PatchTreeError::TooManyNodes)
    }

    fn get(&mut self, i: u32) -> Option<&mut Slot> {
        self.slots.get_mut(i as usize)
    }

    fn create(&mut self, key: PatchKey, data: Data) -> Result<u32, PatchTreeError> {
        let i = self.slot(key)?;
        if let Some(s) = self.get(i) {
            s.data = data;
        }
        Ok(i)
    }

    /// Detaches `node` from its parent, if it has one.
    fn detach(&mut self, node: u32) {
        let Some(s) = self.get(node) else { return };
        let (parent, prev, next) = (s.parent, s.prev, s.next);
        s.parent = NONE;
        s.prev = NONE;
        s.next = NONE;
        if parent == NONE {
            return;
        }
        match self.get(prev) {
            Some(p) => p.next = next,
            None => {
                if let Some(p) = self.get(parent) {
                    p.first = next;
                }
            }
        }
        match self.get(next) {
            Some(n) => n.prev = prev,
            None => {
                if let Some(p) = self.get(parent) {
                    p.last = prev;
                }
            }
        }
    }

    /// Inserts `child` (detached first) under `parent`, before `before` (a
    /// child of `parent`) or last.
    fn insert(&mut self, parent: u32, child: u32, before: Option<u32>) {
        self.detach(child);
        let before = before.filter(|&b| {
            self.slots
                .get(b as usize)
                .is_some_and(|s| s.parent == parent)
        });
        let prev = match before {
            Some(b) => self.slots.get(b as usize).map_or(NONE, |s| s.prev),
            None => self.slots.get(parent as usize).map_or(NONE, |s| s.last),
        };
        let next = before.unwrap_or(NONE);
        if let Some(c) = self.get(child) {
            c.parent = parent;
            c.prev = prev;
            c.next = next;
        }
        match self.get(prev) {
            Some(p) => p.next = child,
            None => {
                if let Some(p) = self.get(parent) {
                    p.first = child;
                }
            }
        }
        match self.get(next) {
            Some(n) => n.prev = child,
            None => {
                if let Some(p) = self.get(parent) {
                    p.last = child;
                }
            }
        }
    }

    /// Applies a batch of the tree builder's patches.
    pub(crate) fn apply(
        &mut self,
        patches: impl IntoIterator<Item = DomPatch>,
    ) -> Result<(), PatchTreeError> {
        for patch in patches {
            match patch {
                DomPatch::Clear => *self = PatchTree::default(),
                DomPatch::CreateDocument { key } => {
                    self.document = Some(self.create(key, Data::Other)?);
                }
                DomPatch::SetQuirksMode { .. } => {}
                DomPatch::CreateDoctype { key, .. }
                | DomPatch::CreateProcessingInstruction { key, .. } => {
                    self.create(key, Data::Other)?;
                }
                DomPatch::CreateElement {
                    key,
                    name,
                    attrs,
                    contents,
                    ..
                } => {
                    let element = Element {
                        name,
                        attrs: attrs.into_iter().map(|a| (a.name, a.value)).collect(),
                        children: Vec::new(),
                    };
                    self.create(key, Data::Element(element))?;
                    if let Some(contents) = contents {
                        self.create(contents, Data::Other)?;
                    }
                }
                DomPatch::CreateText { key, text } => {
                    self.create(key, Data::Text(text))?;
                }
                DomPatch::CreateComment { key, text } => {
                    self.create(key, Data::Comment(text))?;
                }
                DomPatch::AppendChild { parent, child } => {
                    let (parent, child) = (self.slot(parent)?, self.slot(child)?);
                    self.insert(parent, child, None);
                }
                DomPatch::InsertBefore {
                    parent,
                    child,
                    before,
                } => {
                    let (parent, child) = (self.slot(parent)?, self.slot(child)?);
                    let before = self.slot(before)?;
                    self.insert(parent, child, Some(before));
                }
                DomPatch::Remove { node } => {
                    let node = self.slot(node)?;
                    self.detach(node);
                }
                DomPatch::AddAttributes { node, attrs } => {
                    let node = self.slot(node)?;
                    if let Some(Slot {
                        data: Data::Element(e),
                        ..
                    }) = self.get(node)
                    {
                        for a in attrs {
                            if !e.attrs.iter().any(|(k, _)| *k == a.name) {
                                e.attrs.push((a.name, a.value));
                            }
                        }
                    }
                }
                DomPatch::AppendText { node, text } => {
                    let node = self.slot(node)?;
                    if let Some(Slot {
                        data: Data::Text(t),
                        ..
                    }) = self.get(node)
                    {
                        t.push_str(&text);
                    }
                }
            }
        }
        Ok(())
    }

    /// The first child element of `parent` named `name`.
    fn child_named(&self, parent: u32, name: &str) -> Option<u32> {
        let mut c = self.slots.get(parent as usize)?.first;
        while let Some(s) = self.slots.get(c as usize) {
            if matches!(&s.data, Data::Element(e) if e.name == name) {
                return Some(c);
            }
            c = s.next;
        }
        None
    }

    /// `<body>`'s children as owned nodes, moved out of the arena (iterative:
    /// the tree may be deep). Empty without a `<body>`.
    pub(crate) fn into_body(mut self) -> Vec<Node> {
        let Some(body) = self
            .document
            .and_then(|d| self.child_named(d, "html"))
            .and_then(|h| self.child_named(h, "body"))
        else {
            return Vec::new();
        };
        let mut roots: Vec<Node> = Vec::new();
        // Elements under construction with the slot of their next sibling.
        let mut stack: Vec<(Element, u32)> = Vec::new();
        let mut next = self.slots.get(body as usize).map_or(NONE, |s| s.first);
        loop {
            let made = match self.get(next) {
                Some(slot) => {
                    let sibling = slot.next;
                    let first = slot.first;
                    match std::mem::take(&mut slot.data) {
                        Data::Element(e) => {
                            stack.push((e, sibling));
                            next = first;
                            continue;
                        }
                        Data::Text(t) => {
                            next = sibling;
                            Some(Node::Text(t))
                        }
                        Data::Comment(c) => {
                            next = sibling;
                            Some(Node::Comment(c))
                        }
                        Data::Empty | Data::Other => {
                            next = sibling;
                            None
                        }
                    }
                }
                None => {
                    let Some((element, sibling)) = stack.pop() else {
                        break;
                    };
                    next = sibling;
                    Some(Node::Element(element))
                }
            };
            if let Some(n) = made {
                match stack.last_mut() {
                    Some((parent, _)) => parent.children.push(n),
                    None => roots.push(n),
                }
            }
        }
        roots
    }
}

#[cfg(test)]
mod tests {
    use tagloom_html::dom::{DomStore, NodeKind};
    use tagloom_html::token::OwnedToken;
    use tagloom_html::tree_builder::{TreeBuilder, TreeBuilderConfig};

    use super::*;
    use crate::dom::{children_of, serialize::serialize};

    /// `<body>`'s children for `tokens` through the patch tree and through a
    /// `DomStore` (which must agree), as HTML.
    fn body_html(tokens: &[OwnedToken]) -> String {
        let mut builder = TreeBuilder::new(TreeBuilderConfig::default());
        for t in std::iter::once(&OwnedToken::start("body")).chain(tokens) {
            assert!(builder.process_owned(t).is_ok());
        }
        assert!(builder.process_owned(&OwnedToken::Eof).is_ok());
        let patches = builder.take_patches();
        let mut store = DomStore::new();
        assert!(store.apply_patches(&patches).is_ok());
        let mut tree = PatchTree::default();
        assert!(tree.apply(patches).is_ok());
        let from_tree = tree.into_body();
        let from_store = store
            .document()
            .and_then(|d| {
                d.children()
                    .find(|n| matches!(n.kind(), NodeKind::Element(e) if e.local_name() == "html"))
            })
            .and_then(|h| {
                h.children()
                    .find(|n| matches!(n.kind(), NodeKind::Element(e) if e.local_name() == "body"))
            })
            .map(children_of)
            .unwrap_or_default();
        assert_eq!(from_tree, from_store);
        let mut out = String::new();
        serialize(&from_tree, &mut out);
        out
    }

    #[test]
    fn agrees_with_the_store_on_moves_and_foster_parenting() {
        let mut a = OwnedToken::start("a");
        if let OwnedToken::StartTag(t) = &mut a {
            *t = t.clone().with_attr("href", "x");
        }
        let html = body_html(&[
            OwnedToken::start("b"),
            OwnedToken::start("p"),
            OwnedToken::text("x"),
            OwnedToken::end("b"),
            OwnedToken::text("y"),
            OwnedToken::end("p"),
            OwnedToken::start("table"),
            OwnedToken::text("z"),
            OwnedToken::start("tr"),
            a,
            OwnedToken::text("w"),
            OwnedToken::end("table"),
            OwnedToken::comment("c"),
            OwnedToken::start("body"),
        ]);
        // The adoption agency moves `x` into a new <b> inside <p>; the table's
        // text and link are fostered before the table.
        assert_eq!(
            html,
            "<b></b><p><b>x</b>y</p>z<a href=\"x\">w</a><table><tbody><tr></tr></tbody></table><!--c-->"
        );
    }

    #[test]
    fn unknown_keys_are_errors() {
        let mut tree = PatchTree::default();
        let (Some(k1), Some(k5), Some(far)) = (
            PatchKey::new(1),
            PatchKey::new(5),
            PatchKey::new(5 + 2 * MAX_KEY_GAP as u64),
        ) else {
            panic!("keys are non-zero");
        };
        assert!(tree.apply([DomPatch::CreateDocument { key: k5 }]).is_ok());
        // Below the first key.
        assert!(
            tree.apply([DomPatch::AppendChild {
                parent: k1,
                child: k5
            }])
            .is_err()
        );
        // Far beyond any key handed out.
        assert!(tree.apply([DomPatch::Remove { node: far }]).is_err());
    }
}
