//! The tree builder's output built straight into a small linked arena whose
//! strings are moved, not copied, into the owned tree of the DOM passes
//! ([`PatchTree::into_body`]). The render gives the arena to the tree builder
//! as its [`TreeSink`] ([`SharedTree`]): no `DomPatch` values, no patch buffer,
//! names the tree builder knows kept as static text; [`PatchTree::apply`]
//! takes a patch stream to the same calls (the tests compare it with a
//! `DomStore`).
//!
//! Only what the passes read is kept: elements, text and comments. Keys are the
//! tree builder's (monotonic, from 1); a slot per key, links by slot index, so
//! appending, inserting and detaching (foster parenting, the adoption agency)
//! are O(1) however long a child list is.

use std::borrow::Cow;
use std::sync::{Arc, Mutex};

#[cfg(test)]
use tagloom_html::dom_patch::DomPatch;
use tagloom_html::dom_patch::{PatchKey, QuirksMode};
use tagloom_html::token::{OwnedAttribute, OwnedTag};
use tagloom_html::tree_builder::{ElementAttrs, NewElement, TreeSink};

use super::{Attr, Element, Marked, Node, is_private, is_private_atom};

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
    /// Nodes built without the tree builder in place of a stand-in comment
    /// ([`give_runs`](PatchTree::give_runs)).
    Run(Vec<Node>),
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
    /// The first call that named a key the tree builder never handed out (the
    /// sink's calls return nothing; [`take_error`](Self::take_error) tells).
    error: Option<PatchTreeError>,
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

    /// The slot of `key`, or `None` with the error kept.
    #[inline]
    fn slot_or_record(&mut self, key: PatchKey) -> Option<u32> {
        // The common case: a key the arena has a slot for (below the slot
        // count, so it fits a slot index and is not `NONE`).
        let index = key.get().wrapping_sub(self.base);
        if !self.slots.is_empty() && index < self.slots.len() as u64 {
            return u32::try_from(index).ok();
        }
        self.new_slot_or_record(key)
    }

    /// [`slot_or_record`](Self::slot_or_record) for a key past the slots (or
    /// an unknown one).
    #[cold]
    fn new_slot_or_record(&mut self, key: PatchKey) -> Option<u32> {
        match self.slot(key) {
            Ok(i) => Some(i),
            Err(e) => {
                self.error.get_or_insert(e);
                None
            }
        }
    }

    fn create_or_record(&mut self, key: PatchKey, data: Data) -> Option<u32> {
        // The common case: the key after the last slot's (the tree builder
        // names each node as it makes it), pushed as it comes.
        let next = self.base.checked_add(self.slots.len() as u64);
        if !self.slots.is_empty()
            && next == Some(key.get())
            && let Some(i) = u32::try_from(self.slots.len()).ok().filter(|&i| i != NONE)
        {
            self.slots.push(Slot {
                data,
                ..Slot::default()
            });
            return Some(i);
        }
        let i = self.slot_or_record(key)?;
        if let Some(s) = self.get(i) {
            s.data = data;
        }
        Some(i)
    }

    /// Creates an element (and its template contents, kept for links only).
    fn element(
        &mut self,
        key: PatchKey,
        name: Cow<'static, str>,
        attrs: ElementAttrs<'_>,
        contents: Option<PatchKey>,
    ) {
        let mut list = Vec::new();
        if !attrs.is_empty() {
            list.reserve_exact(attrs.len());
            list.extend(
                attrs
                    .iter()
                    .map(|a| (a.name.to_cow(), a.value.to_owned().into())),
            );
        }
        let element = Element {
            name,
            attrs: list,
            children: Vec::new(),
            // Made exact by `into_content`.
            marked: Marked::MAYBE,
        };
        self.create_or_record(key, Data::Element(element));
        if let Some(contents) = contents {
            self.create_or_record(contents, Data::Other);
        }
    }

    /// Gives each element its attributes moved from the token that created it
    /// ([`AttrHandoff`]), before any the tree builder added later.
    pub(crate) fn give_attrs(&mut self, moved: Vec<(PatchKey, Vec<Attr>)>) {
        for (key, mut attrs) in moved {
            let Some(i) = self.slot_or_record(key) else {
                continue;
            };
            if let Some(Slot {
                data: Data::Element(e),
                ..
            }) = self.get(i)
            {
                attrs.append(&mut e.attrs);
                e.attrs = attrs;
            }
        }
    }

    /// Puts each run of nodes built without the tree builder
    /// (`tagloom_html::tree_builder::AppendRun`) where the stand-in comment
    /// the builder was fed for it is.
    pub(crate) fn give_runs(&mut self, runs: Vec<(PatchKey, Vec<Node>)>) {
        for (key, nodes) in runs {
            let Some(i) = self.slot_or_record(key) else {
                continue;
            };
            if let Some(slot) = self.get(i)
                && matches!(slot.data, Data::Comment(_))
            {
                slot.data = Data::Run(nodes);
            }
        }
    }

    /// The first error met since the last call.
    pub(crate) fn take_error(&mut self) -> Result<(), PatchTreeError> {
        self.error.take().map_or(Ok(()), Err)
    }

    /// Applies a batch of the tree builder's patches (the calls a
    /// [`TreeSink`] gets for them).
    #[cfg(test)]
    pub(crate) fn apply(
        &mut self,
        patches: impl IntoIterator<Item = DomPatch>,
    ) -> Result<(), PatchTreeError> {
        for patch in patches {
            match patch {
                DomPatch::Clear => *self = PatchTree::default(),
                DomPatch::CreateDocument { key } => self.create_document(key),
                DomPatch::SetQuirksMode { mode } => self.set_quirks_mode(mode),
                DomPatch::CreateDoctype { key, .. }
                | DomPatch::CreateProcessingInstruction { key, .. } => {
                    self.create_or_record(key, Data::Other);
                }
                DomPatch::CreateElement {
                    key,
                    name,
                    attrs,
                    contents,
                    ..
                } => self.element(key, name, ElementAttrs::list(&attrs), contents),
                DomPatch::CreateText { key, text } => {
                    self.create_or_record(key, Data::Text(text));
                }
                DomPatch::CreateComment { key, text } => {
                    self.create_or_record(key, Data::Comment(text));
                }
                DomPatch::AppendChild { parent, child } => self.append_child(parent, child),
                DomPatch::InsertBefore {
                    parent,
                    child,
                    before,
                } => self.insert_before(parent, child, before),
                DomPatch::Remove { node } => self.remove(node),
                DomPatch::AddAttributes { node, attrs } => {
                    self.add_attributes(node, ElementAttrs::list(&attrs));
                }
                DomPatch::AppendText { node, text } => self.append_text(node, &text),
            }
        }
        self.take_error()
    }

    /// How many children `parent` has (a child list is made once, at its size).
    fn child_count(&self, parent: u32) -> usize {
        let mut n = 0;
        let mut c = self.slots.get(parent as usize).map_or(NONE, |s| s.first);
        while let Some(s) = self.slots.get(c as usize) {
            n += match &s.data {
                Data::Run(nodes) => nodes.len(),
                _ => 1,
            };
            c = s.next;
        }
        n
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
    #[cfg(test)]
    pub(crate) fn into_body(self) -> Vec<Node> {
        self.into_content(false)
    }

    /// The content as owned nodes, moved out of the arena (iterative: the tree
    /// may be deep): `<body>`'s children, or of a `fragment` the root's. Empty
    /// without a `<body>` (a root).
    pub(crate) fn into_content(mut self, fragment: bool) -> Vec<Node> {
        let html = self.document.and_then(|d| self.child_named(d, "html"));
        let root = if fragment {
            html
        } else {
            html.and_then(|h| self.child_named(h, "body"))
        };
        let Some(body) = root else {
            return Vec::new();
        };
        let mut roots: Vec<Node> = Vec::with_capacity(self.child_count(body));
        // Elements under construction with the slot of their next sibling
        // and whether a node made below them concerns the marker passes
        // (their exact `Marked`).
        let mut stack: Vec<(Element, u32, bool)> = Vec::new();
        let mut next = self.slots.get(body as usize).map_or(NONE, |s| s.first);
        loop {
            let made = match self.get(next) {
                Some(slot) => {
                    let sibling = slot.next;
                    let first = slot.first;
                    match std::mem::take(&mut slot.data) {
                        Data::Element(mut e) => {
                            e.children.reserve_exact(self.child_count(next));
                            stack.push((e, sibling, false));
                            next = first;
                            continue;
                        }
                        Data::Text(t) => {
                            next = sibling;
                            Some(Node::Text(t.into()))
                        }
                        Data::Comment(c) => {
                            next = sibling;
                            Some(Node::Comment(c))
                        }
                        Data::Run(nodes) => {
                            next = sibling;
                            // Their marks are exact (`dom::flat::build`).
                            let concerns = nodes.iter().any(|n| {
                                matches!(n, Node::Element(e)
                                    if e.marked_below() || Marked::concerns(e))
                            });
                            match stack.last_mut() {
                                Some((parent, _, below)) => {
                                    *below |= concerns;
                                    parent.children.extend(nodes);
                                }
                                None => roots.extend(nodes),
                            }
                            None
                        }
                        Data::Empty | Data::Other => {
                            next = sibling;
                            None
                        }
                    }
                }
                None => {
                    let Some((mut element, sibling, below)) = stack.pop() else {
                        break;
                    };
                    next = sibling;
                    element.marked = if below { Marked::MAYBE } else { Marked::NONE };
                    let concerns = below || Marked::concerns(&element);
                    if let Some((_, _, parent_below)) = stack.last_mut() {
                        *parent_below |= concerns;
                    }
                    Some(Node::Element(element))
                }
            };
            if let Some(n) = made {
                match stack.last_mut() {
                    Some((parent, _, _)) => parent.children.push(n),
                    None => roots.push(n),
                }
            }
        }
        roots
    }
}

impl TreeSink for PatchTree {
    fn create_document(&mut self, key: PatchKey) {
        if let Some(i) = self.create_or_record(key, Data::Other) {
            self.document = Some(i);
        }
    }

    fn set_quirks_mode(&mut self, _: QuirksMode) {}

    fn create_doctype(&mut self, key: PatchKey, _: &str, _: &str, _: &str) {
        self.create_or_record(key, Data::Other);
    }

    fn create_element(&mut self, key: PatchKey, element: NewElement<'_>) {
        self.element(key, element.name, element.attrs, element.contents);
    }

    fn create_text(&mut self, key: PatchKey, text: &str) {
        self.create_or_record(key, Data::Text(text.to_owned()));
    }

    fn create_comment(&mut self, key: PatchKey, text: &str) {
        self.create_or_record(key, Data::Comment(text.to_owned()));
    }

    fn create_processing_instruction(&mut self, key: PatchKey, _: &str, _: &str) {
        self.create_or_record(key, Data::Other);
    }

    fn append_child(&mut self, parent: PatchKey, child: PatchKey) {
        if let (Some(parent), Some(child)) =
            (self.slot_or_record(parent), self.slot_or_record(child))
        {
            self.insert(parent, child, None);
        }
    }

    fn insert_before(&mut self, parent: PatchKey, child: PatchKey, before: PatchKey) {
        if let (Some(parent), Some(child), Some(before)) = (
            self.slot_or_record(parent),
            self.slot_or_record(child),
            self.slot_or_record(before),
        ) {
            self.insert(parent, child, Some(before));
        }
    }

    fn remove(&mut self, node: PatchKey) {
        if let Some(node) = self.slot_or_record(node) {
            self.detach(node);
        }
    }

    fn append_text(&mut self, node: PatchKey, text: &str) {
        let Some(node) = self.slot_or_record(node) else {
            return;
        };
        if let Some(Slot {
            data: Data::Text(t),
            ..
        }) = self.get(node)
        {
            t.push_str(text);
        }
    }

    fn add_attributes(&mut self, node: PatchKey, attrs: ElementAttrs<'_>) {
        let Some(node) = self.slot_or_record(node) else {
            return;
        };
        if let Some(Slot {
            data: Data::Element(e),
            ..
        }) = self.get(node)
        {
            for a in attrs.iter() {
                if !e.attrs.iter().any(|(k, _)| *k == a.name.as_str()) {
                    e.attrs.push((a.name.to_cow(), a.value.to_owned().into()));
                }
            }
        }
    }
}

/// Where a [`SharedTree`] leaves its tree.
pub(crate) type TreeSlot = Arc<Mutex<Option<PatchTree>>>;

/// Whether `a`'s value owns an allocation: an address no other value has
/// while it lives.
fn owns_allocation(a: &OwnedAttribute) -> bool {
    !a.value.is_empty() && !a.value.is_static()
}

/// The [`AttrHandoff`] between a [`SharedTree`] and its feeder.
pub(crate) type SharedHandoff = Arc<Mutex<AttrHandoff>>;

/// A [`PatchTree`] as a tree builder's sink, handed back when the tree
/// builder is dropped (a sink given to a tree builder stays inside it): the
/// sink's `Drop` leaves the tree in the slot the render keeps.
pub(crate) struct SharedTree {
    tree: PatchTree,
    slot: TreeSlot,
    handoff: SharedHandoff,
}

/// Attributes moved from the tokens into the tree instead of copied: the
/// feeder names the values of the start tag it is about to feed
/// ([`expect`](Self::expect)); the element the tree builder creates with
/// exactly those values (each the same allocation: a token's values are its
/// own, so no other element's can be) is created without attributes and
/// [`claimed`](Self::claimed); the feeder then moves the token's attributes to
/// it ([`PatchTree::give_attrs`]). Clones (reconstructed formatting elements,
/// foreign elements with adjusted names) have other values and are copied as
/// before.
#[derive(Default)]
pub(crate) struct AttrHandoff {
    /// What identifies the tag being fed (`None`: nothing expected).
    expect: Option<Expected>,
    /// The element created with them.
    claimed: Option<PatchKey>,
}

/// A tag's attributes as the handoff knows them: how many there are, and the
/// index, address and length of the first value that owns an allocation (no
/// other tag's value can have that address while the tag lives, so an element
/// whose attribute there has it was made from the tag's list).
#[derive(Clone, Copy)]
struct Expected {
    count: usize,
    index: usize,
    at: usize,
    len: usize,
}

impl AttrHandoff {
    /// Whether `tag`'s attributes are worth moving: not when there are none,
    /// or no value owns an allocation (empty values all share one address, and
    /// so do static ones with the same text, so they cannot tell the token's
    /// element from a clone).
    pub(crate) fn worth_moving(tag: &OwnedTag) -> bool {
        tag.attrs().iter().any(owns_allocation)
    }

    /// Expects `tag`'s attributes; `false` when they are not
    /// [worth moving](Self::worth_moving) (nothing is expected then).
    pub(crate) fn expect(&mut self, tag: &OwnedTag) -> bool {
        self.claimed = None;
        let attrs = tag.attrs();
        self.expect = attrs
            .iter()
            .enumerate()
            .find(|(_, a)| owns_allocation(a))
            .map(|(index, a)| Expected {
                count: attrs.len(),
                index,
                at: a.value.as_ptr() as usize,
                len: a.value.len(),
            });
        self.expect.is_some()
    }

    /// `attrs` as the tree keeps them (values and names moved).
    pub(crate) fn into_tree_attrs(attrs: Vec<OwnedAttribute>) -> Vec<Attr> {
        Self::into_tree_attrs_private(attrs).0
    }

    /// [`into_tree_attrs`](Self::into_tree_attrs), and whether one of them is
    /// private ([`is_private`]), found in the same walk (in place: the list
    /// keeps its allocation). A static name is private by its atom's index
    /// ([`is_private_atom`]: the tokenizer's `tl:` names are static atoms),
    /// only the other names' text is looked at.
    pub(crate) fn into_tree_attrs_private(attrs: Vec<OwnedAttribute>) -> (Vec<Attr>, bool) {
        let mut private = false;
        let attrs = attrs
            .into_iter()
            .map(|a| {
                match a.name.atom() {
                    Some(atom) => private |= is_private_atom(atom),
                    None => private |= is_private(a.name.as_str()),
                }
                (a.name.into_cow(), a.value)
            })
            .collect();
        (attrs, private)
    }

    /// The element that took the expected attributes, if one did; expects
    /// nothing more.
    pub(crate) fn claimed(&mut self) -> Option<PatchKey> {
        self.expect = None;
        self.claimed.take()
    }

    /// Whether `attrs` are the expected ones (the first such element claims them).
    fn claim(&mut self, key: PatchKey, attrs: &ElementAttrs<'_>) -> bool {
        let Some(e) = self.expect else { return false };
        if self.claimed.is_some() || attrs.len() != e.count {
            return false;
        }
        let same = attrs
            .value(e.index)
            .is_some_and(|v| v.as_ptr() as usize == e.at && v.len() == e.len);
        if same {
            self.claimed = Some(key);
        }
        same
    }
}

impl SharedTree {
    /// A sink over an empty tree with room for `nodes` nodes, the slot the
    /// tree lands in, and the handoff of attributes the feeder moves into the
    /// tree.
    pub(crate) fn new(nodes: usize) -> (SharedTree, TreeSlot, SharedHandoff) {
        let slot = Arc::new(Mutex::new(None));
        let handoff = Arc::new(Mutex::new(AttrHandoff::default()));
        let sink = SharedTree {
            tree: PatchTree {
                slots: Vec::with_capacity(nodes),
                ..PatchTree::default()
            },
            slot: Arc::clone(&slot),
            handoff: Arc::clone(&handoff),
        };
        (sink, slot, handoff)
    }
}

impl Drop for SharedTree {
    fn drop(&mut self) {
        let tree = std::mem::take(&mut self.tree);
        // A poisoned slot still holds the data: nothing panics while it is held.
        let mut slot = self.slot.lock().unwrap_or_else(|e| e.into_inner());
        *slot = Some(tree);
    }
}

/// Every call goes to the tree.
impl TreeSink for SharedTree {
    fn create_document(&mut self, key: PatchKey) {
        self.tree.create_document(key);
    }
    fn set_quirks_mode(&mut self, mode: QuirksMode) {
        self.tree.set_quirks_mode(mode);
    }
    fn create_doctype(&mut self, key: PatchKey, name: &str, public_id: &str, system_id: &str) {
        self.tree.create_doctype(key, name, public_id, system_id);
    }
    fn create_element(&mut self, key: PatchKey, element: NewElement<'_>) {
        // An element without attributes has nothing to claim (no lock).
        // A poisoned handoff still holds the data: nothing panics while it is held.
        let claimed = !element.attrs.is_empty()
            && self
                .handoff
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .claim(key, &element.attrs);
        if claimed {
            let NewElement { name, contents, .. } = element;
            self.tree.element(key, name, ElementAttrs::none(), contents);
        } else {
            self.tree.create_element(key, element);
        }
    }
    fn create_text(&mut self, key: PatchKey, text: &str) {
        self.tree.create_text(key, text);
    }
    fn create_comment(&mut self, key: PatchKey, text: &str) {
        self.tree.create_comment(key, text);
    }
    fn create_processing_instruction(&mut self, key: PatchKey, target: &str, data: &str) {
        self.tree.create_processing_instruction(key, target, data);
    }
    fn append_child(&mut self, parent: PatchKey, child: PatchKey) {
        self.tree.append_child(parent, child);
    }
    fn insert_before(&mut self, parent: PatchKey, child: PatchKey, before: PatchKey) {
        self.tree.insert_before(parent, child, before);
    }
    fn remove(&mut self, node: PatchKey) {
        self.tree.remove(node);
    }
    fn append_text(&mut self, node: PatchKey, text: &str) {
        self.tree.append_text(node, text);
    }
    fn add_attributes(&mut self, node: PatchKey, attrs: ElementAttrs<'_>) {
        self.tree.add_attributes(node, attrs);
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

    /// Each element's [`Marked`] says exactly whether a `meta`, a table part
    /// or an element with a `tl:` attribute is below it.
    #[test]
    fn marks_say_what_is_below() {
        let mut tree = PatchTree::default();
        let mut builder = TreeBuilder::new(TreeBuilderConfig::default());
        let mut private = OwnedToken::start("span");
        if let OwnedToken::StartTag(t) = &mut private {
            *t = t.clone().with_attr("tl:call", "0");
        }
        let tokens = [
            OwnedToken::start("body"),
            OwnedToken::start("p"),
            OwnedToken::start("b"),
            OwnedToken::text("plain"),
            OwnedToken::end("b"),
            OwnedToken::end("p"),
            OwnedToken::start("div"),
            OwnedToken::start("i"),
            OwnedToken::start("meta"),
            OwnedToken::end("i"),
            OwnedToken::end("div"),
            OwnedToken::start("ul"),
            OwnedToken::start("li"),
            private,
            OwnedToken::end("span"),
            OwnedToken::end("ul"),
            OwnedToken::start("table"),
            OwnedToken::start("td"),
            OwnedToken::text("cell"),
            OwnedToken::end("table"),
            OwnedToken::Eof,
        ];
        for t in &tokens {
            assert!(builder.process_owned(t).is_ok());
        }
        assert!(tree.apply(builder.take_patches()).is_ok());
        let nodes = tree.into_body();
        // (name, marked) of every element, in document order.
        let mut seen = Vec::new();
        let mut stack: Vec<&Node> = nodes.iter().rev().collect();
        while let Some(n) = stack.pop() {
            if let Node::Element(e) = n {
                seen.push((e.name.to_string(), e.marked_below()));
                stack.extend(e.children.iter().rev());
            }
        }
        let expected = [
            ("p", false),
            ("b", false),
            ("div", true),
            ("i", true),
            ("meta", false),
            ("ul", true),
            ("li", true),
            ("span", false),
            ("table", true),
            ("tbody", true),
            ("tr", false),
            ("td", false),
        ];
        let expected: Vec<(String, bool)> =
            expected.iter().map(|&(n, m)| (n.to_owned(), m)).collect();
        assert_eq!(seen, expected);
        // Elements made later may hold anything.
        assert!(Element::new("p").marked_below());
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
