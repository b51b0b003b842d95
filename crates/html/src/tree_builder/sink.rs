//! The emit side of the tree builder: where the nodes it creates and the links it
//! makes go ([`TreeSink`]).
//!
//! The builder decides, the sink records. Three sinks exist:
//!
//! - the patch sink (the default): every call becomes a [`DomPatch`] in the
//!   buffer [`TreeBuilder::take_patches`](super::TreeBuilder::take_patches)
//!   drains — what the serializer, the viewer, the browser harness, Python's
//!   `patches` and the sanitizer's walker consume;
//! - the store sink (`dom/direct.rs`): the driver's parse into a
//!   [`DomStore`](crate::dom::DomStore) creates the nodes straight in the store's
//!   arenas, with no patch value in between (see
//!   [`Driver::push_into`](crate::driver::Driver::push_into));
//! - any other [`TreeSink`] (a program's own), given to
//!   [`TreeBuilder::with_sink`](super::TreeBuilder::with_sink).
//!
//! Every call names nodes by the keys of the patch protocol (ADR 001): a sink sees
//! exactly what a patch stream says, in the same order, without the values.
//!
//! ```
//! use std::borrow::Cow;
//! use tagloom_html::dom_patch::{PatchKey, QuirksMode};
//! use tagloom_html::tree_builder::{NewElement, ElementAttrs, TreeBuilder, TreeBuilderConfig, TreeSink};
//! use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
//!
//! /// Counts elements and text bytes.
//! #[derive(Default)]
//! struct Count { elements: usize, text: usize }
//! impl TreeSink for Count {
//!     fn create_document(&mut self, _: PatchKey) {}
//!     fn set_quirks_mode(&mut self, _: QuirksMode) {}
//!     fn create_doctype(&mut self, _: PatchKey, _: &str, _: &str, _: &str) {}
//!     fn create_element(&mut self, _: PatchKey, _: NewElement<'_>) { self.elements += 1 }
//!     fn create_text(&mut self, _: PatchKey, text: &str) { self.text += text.len() }
//!     fn create_comment(&mut self, _: PatchKey, _: &str) {}
//!     fn create_processing_instruction(&mut self, _: PatchKey, _: &str, _: &str) {}
//!     fn append_child(&mut self, _: PatchKey, _: PatchKey) {}
//!     fn insert_before(&mut self, _: PatchKey, _: PatchKey, _: PatchKey) {}
//!     fn remove(&mut self, _: PatchKey) {}
//!     fn append_text(&mut self, _: PatchKey, text: &str) { self.text += text.len() }
//!     fn add_attributes(&mut self, _: PatchKey, _: ElementAttrs<'_>) {}
//! }
//!
//! let mut tok = Tokenizer::new(TokenizerConfig::default());
//! let mut tb = TreeBuilder::with_sink(TreeBuilderConfig::default(), Box::new(Count::default()));
//! tok.push_str("<p>Hi<b>there");
//! tok.finish();
//! while let Some(token) = tok.next_token().unwrap() {
//!     tb.process_token(token).unwrap();
//! }
//! assert!(tb.take_patches().is_empty());
//! ```

use std::borrow::Cow;

use crate::atom::{Atom, AtomTable};
use crate::dom_patch::{
    AttrNamespace, DetachedText, DomPatch, Namespace, PatchAttr, PatchKey, QuirksMode,
};
use crate::token::Attributes;

/// Where a tree builder's output goes. See the [module docs](self).
///
/// The calls come in the order of the patch stream they stand for: a node is
/// created before it is linked, keys are strictly increasing and never reused.
pub trait TreeSink {
    /// `CreateDocument`: the document node (the first call).
    fn create_document(&mut self, key: PatchKey);
    /// `SetQuirksMode`.
    fn set_quirks_mode(&mut self, mode: QuirksMode);
    /// `CreateDoctype` (missing identifiers are empty).
    fn create_doctype(&mut self, key: PatchKey, name: &str, public_id: &str, system_id: &str);
    /// `CreateElement` (parentless).
    fn create_element(&mut self, key: PatchKey, element: NewElement<'_>);
    /// `CreateText` (parentless).
    fn create_text(&mut self, key: PatchKey, text: &str);
    /// `CreateComment` (parentless).
    fn create_comment(&mut self, key: PatchKey, text: &str);
    /// `CreateProcessingInstruction` (parentless).
    fn create_processing_instruction(&mut self, key: PatchKey, target: &str, data: &str);
    /// `AppendChild`: `child` (parentless) becomes the last child of `parent`.
    fn append_child(&mut self, parent: PatchKey, child: PatchKey);
    /// `InsertBefore`: `child` (parentless) goes into `parent` just before `before`.
    fn insert_before(&mut self, parent: PatchKey, child: PatchKey, before: PatchKey);
    /// `Remove`: `node` leaves its parent.
    fn remove(&mut self, node: PatchKey);
    /// `AppendText`: `text` is added to the text node `node`.
    fn append_text(&mut self, node: PatchKey, text: &str);
    /// `AddAttributes`: the `<html>`/`<body>` merge (attributes the element has
    /// already are skipped by the sink).
    fn add_attributes(&mut self, node: PatchKey, attrs: ElementAttrs<'_>);
}

/// An element being created (see [`TreeSink::create_element`]).
#[derive(Clone, Debug)]
pub struct NewElement<'a> {
    /// Its namespace.
    pub ns: Namespace,
    /// The token's tag name (ASCII-lowercased). A dynamic atom is only
    /// meaningful with the token's table: use `name` for the text.
    pub atom: Atom,
    /// The name as it goes into the DOM (SVG case fixes applied).
    pub name: Cow<'static, str>,
    /// Its attributes (foreign adjustments applied).
    pub attrs: ElementAttrs<'a>,
    /// For an HTML `template`: the key of its contents fragment, created with it.
    pub contents: Option<PatchKey>,
}

/// An attribute name: static text, or borrowed for the call.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttrName<'a> {
    /// A name of the static atom table (or a foreign adjustment's).
    Static(&'static str),
    /// Any other name.
    Borrowed(&'a str),
}

impl<'a> AttrName<'a> {
    /// The text.
    pub fn as_str(self) -> &'a str {
        match self {
            AttrName::Static(s) => s,
            AttrName::Borrowed(s) => s,
        }
    }

    /// An owned name (no allocation for a static one).
    pub fn to_cow(self) -> Cow<'static, str> {
        match self {
            AttrName::Static(s) => Cow::Borrowed(s),
            AttrName::Borrowed(s) => Cow::Owned(s.to_owned()),
        }
    }
}

/// One attribute, borrowed (see [`ElementAttrs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AttrRef<'a> {
    /// Namespace.
    pub ns: AttrNamespace,
    /// Local name.
    pub name: AttrName<'a>,
    /// Value.
    pub value: &'a str,
}

impl AttrRef<'_> {
    /// An owned copy.
    pub fn to_patch_attr(self) -> PatchAttr {
        PatchAttr {
            ns: self.ns,
            name: self.name.to_cow(),
            value: self.value.to_owned(),
        }
    }
}

/// The attributes of an element being created, borrowed from the token (HTML
/// elements) or from a list (foreign elements, clones).
#[derive(Clone, Copy, Debug)]
pub struct ElementAttrs<'a> {
    repr: Repr<'a>,
}

#[derive(Clone, Copy, Debug)]
enum Repr<'a> {
    Token {
        attrs: Attributes<'a>,
        atoms: &'a AtomTable,
    },
    List(&'a [PatchAttr]),
}

impl<'a> ElementAttrs<'a> {
    /// A token's attributes as they are (no namespace, names from `atoms`).
    pub(crate) fn token(attrs: Attributes<'a>, atoms: &'a AtomTable) -> ElementAttrs<'a> {
        ElementAttrs {
            repr: Repr::Token { attrs, atoms },
        }
    }

    /// The attributes of a list.
    pub fn list(attrs: &'a [PatchAttr]) -> ElementAttrs<'a> {
        ElementAttrs {
            repr: Repr::List(attrs),
        }
    }

    /// No attributes.
    pub fn none() -> ElementAttrs<'static> {
        ElementAttrs::list(&[])
    }

    /// A tokenizer's tag's attributes as they are: its slots, where their
    /// text is and the table of its names (the store's loop over them, with
    /// no [`AttrRef`] in between); `None` for a list or an owned tag.
    #[inline]
    pub(crate) fn token_slots(
        &self,
    ) -> Option<(
        &'a [crate::token::AttrSlot],
        crate::token::TextSource<'a>,
        &'a AtomTable,
    )> {
        match self.repr {
            Repr::Token { attrs, atoms } => {
                let (slots, source) = attrs.slots()?;
                Some((slots, source, atoms))
            }
            Repr::List(_) => None,
        }
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        match self.repr {
            Repr::Token { attrs, .. } => attrs.len(),
            Repr::List(list) => list.len(),
        }
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The value of the attribute at `index` (its name not looked up).
    #[inline]
    pub fn value(&self, index: usize) -> Option<&'a str> {
        match self.repr {
            Repr::Token { attrs, .. } => attrs.get(index).map(|a| a.value),
            Repr::List(list) => list.get(index).map(|a| a.value.as_str()),
        }
    }

    /// The attributes in order.
    pub fn iter(&self) -> AttrIter<'a> {
        AttrIter {
            attrs: *self,
            next: 0,
        }
    }

    /// The attribute at `index`.
    #[inline(always)]
    fn get(&self, index: usize) -> Option<AttrRef<'a>> {
        match self.repr {
            Repr::Token { attrs, atoms } => {
                let a = attrs.get(index)?;
                Some(AttrRef {
                    ns: AttrNamespace::None,
                    name: match a.name.static_name() {
                        Some(s) => AttrName::Static(s),
                        None => AttrName::Borrowed(atoms.name(a.name)),
                    },
                    value: a.value,
                })
            }
            Repr::List(list) => {
                let a = list.get(index)?;
                Some(AttrRef {
                    ns: a.ns,
                    name: match &a.name {
                        Cow::Borrowed(s) => AttrName::Static(s),
                        Cow::Owned(s) => AttrName::Borrowed(s),
                    },
                    value: &a.value,
                })
            }
        }
    }

    /// Owned copies (what a patch carries).
    pub fn to_vec(&self) -> Vec<PatchAttr> {
        if self.is_empty() {
            return Vec::new();
        }
        let mut out = Vec::with_capacity(self.len());
        out.extend(self.iter().map(AttrRef::to_patch_attr));
        out
    }
}

/// The iterator of [`ElementAttrs::iter`].
#[derive(Clone, Debug)]
pub struct AttrIter<'a> {
    attrs: ElementAttrs<'a>,
    next: usize,
}

impl<'a> Iterator for AttrIter<'a> {
    type Item = AttrRef<'a>;

    #[inline]
    fn next(&mut self) -> Option<AttrRef<'a>> {
        let attr = self.attrs.get(self.next)?;
        self.next += 1;
        Some(attr)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = self.attrs.len().saturating_sub(self.next);
        (left, Some(left))
    }
}

impl ExactSizeIterator for AttrIter<'_> {}

/// The default sink: patches in a buffer, the texts of text patches kept apart
/// when asked (see [`DetachedText`]).
#[derive(Debug, Default)]
pub(crate) struct PatchSink {
    pub(crate) patches: Vec<DomPatch>,
    /// The texts of the pending text patches, which then carry empty strings.
    pub(crate) detached: Option<DetachedText>,
}

impl PatchSink {
    /// The text of a new `CreateText`, `AppendText` or `CreateComment` patch: an
    /// owned copy, or in detached mode an empty string, the text going to the
    /// batch's [`DetachedText`] instead (no allocation per patch).
    fn text(&mut self, text: &str) -> String {
        match &mut self.detached {
            Some(detached) => {
                detached.push(text);
                String::new()
            }
            None => text.to_owned(),
        }
    }
}

impl TreeSink for PatchSink {
    fn create_document(&mut self, key: PatchKey) {
        self.patches.push(DomPatch::CreateDocument { key });
    }

    fn set_quirks_mode(&mut self, mode: QuirksMode) {
        self.patches.push(DomPatch::SetQuirksMode { mode });
    }

    fn create_doctype(&mut self, key: PatchKey, name: &str, public_id: &str, system_id: &str) {
        self.patches.push(DomPatch::CreateDoctype {
            key,
            name: name.to_owned(),
            public_id: public_id.to_owned(),
            system_id: system_id.to_owned(),
        });
    }

    #[inline]
    fn create_element(&mut self, key: PatchKey, element: NewElement<'_>) {
        self.patches.push(DomPatch::CreateElement {
            key,
            ns: element.ns,
            name: element.name,
            attrs: element.attrs.to_vec(),
            contents: element.contents,
        });
    }

    #[inline]
    fn create_text(&mut self, key: PatchKey, text: &str) {
        let text = self.text(text);
        self.patches.push(DomPatch::CreateText { key, text });
    }

    fn create_comment(&mut self, key: PatchKey, text: &str) {
        let text = self.text(text);
        self.patches.push(DomPatch::CreateComment { key, text });
    }

    fn create_processing_instruction(&mut self, key: PatchKey, target: &str, data: &str) {
        self.patches.push(DomPatch::CreateProcessingInstruction {
            key,
            target: target.to_owned(),
            data: data.to_owned(),
        });
    }

    #[inline]
    fn append_child(&mut self, parent: PatchKey, child: PatchKey) {
        self.patches.push(DomPatch::AppendChild { parent, child });
    }

    fn insert_before(&mut self, parent: PatchKey, child: PatchKey, before: PatchKey) {
        self.patches.push(DomPatch::InsertBefore {
            parent,
            child,
            before,
        });
    }

    fn remove(&mut self, node: PatchKey) {
        self.patches.push(DomPatch::Remove { node });
    }

    #[inline]
    fn append_text(&mut self, node: PatchKey, text: &str) {
        let text = self.text(text);
        self.patches.push(DomPatch::AppendText { node, text });
    }

    fn add_attributes(&mut self, node: PatchKey, attrs: ElementAttrs<'_>) {
        self.patches.push(DomPatch::AddAttributes {
            node,
            attrs: attrs.to_vec(),
        });
    }
}

/// Which sink a tree builder writes to now.
pub(crate) enum Target {
    /// The patch buffer ([`Emitter::patches`]).
    Patches,
    /// A store, straight into its arenas (the driver's store path).
    Store(crate::dom::StoreSink),
    /// A program's own sink.
    Custom(Box<dyn TreeSink + Send>),
}

/// The tree builder's sink: the patch buffer, and what it writes to instead
/// when it does not write patches. One `match` per call (two arms static, the
/// custom one dynamic).
pub(crate) struct Emitter {
    pub(crate) patches: PatchSink,
    pub(crate) target: Target,
}

impl std::fmt::Debug for Emitter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let target = match self.target {
            Target::Patches => "patches",
            Target::Store(_) => "store",
            Target::Custom(_) => "custom",
        };
        f.debug_struct("Emitter")
            .field("pending", &self.patches.patches.len())
            .field("target", &target)
            .finish()
    }
}

impl Emitter {
    pub(crate) fn patches() -> Emitter {
        Emitter {
            patches: PatchSink::default(),
            target: Target::Patches,
        }
    }

    /// Whether the sink can answer [`element_attrs`](Self::element_attrs) for
    /// the elements created from now on (the store sink: the builder then
    /// keeps no copy of a formatting element's attributes).
    #[inline]
    pub(crate) fn reads_attrs(&self) -> bool {
        matches!(self.target, Target::Store(_))
    }

    /// On the store path, the store slot of the node the last `create_*` call
    /// added ([`u32::MAX`] when it added none, or on another path).
    #[inline]
    pub(crate) fn last_slot(&self) -> u32 {
        match &self.target {
            Target::Store(sink) => sink.last_slot(),
            _ => u32::MAX,
        }
    }

    /// Links by store slots (see [`last_slot`](Self::last_slot); `before` is
    /// [`u32::MAX`] to append); `false` (nothing done) when the target is not a
    /// store.
    #[inline]
    pub(crate) fn link_slots(&mut self, parent: u32, child: u32, before: u32) -> bool {
        match &mut self.target {
            Target::Store(sink) => {
                sink.link_slots(parent, child, before);
                true
            }
            _ => false,
        }
    }

    /// On the store path, `CreateText` and `AppendChild` to the node at store
    /// slot `parent` in one call: the text node's slot ([`u32::MAX`] when it
    /// could not be made); `None` (nothing done) when the target is not a store.
    #[inline]
    pub(crate) fn create_text_in(&mut self, key: PatchKey, text: &str, parent: u32) -> Option<u32> {
        match &mut self.target {
            Target::Store(sink) => Some(sink.create_text_in(key, text, parent)),
            _ => None,
        }
    }

    /// On the store path, `CreateElement` and `AppendChild` to the node at
    /// store slot `parent` in one call (not for a template): the element's
    /// slot ([`u32::MAX`] when it could not be made). On another path only
    /// the `CreateElement` is made, and `None` says the link is still to do.
    #[inline]
    pub(crate) fn create_element_in(
        &mut self,
        key: PatchKey,
        element: NewElement<'_>,
        parent: u32,
    ) -> Option<u32> {
        match &mut self.target {
            Target::Store(sink) => Some(sink.create_element_in(key, element, parent)),
            _ => {
                self.create_element(key, element);
                None
            }
        }
    }

    /// `AppendText` to the text node at store slot `slot` (key `key`); `false`
    /// (nothing done) when the target is not a store.
    #[inline]
    pub(crate) fn append_text_slot(&mut self, slot: u32, key: PatchKey, text: &str) -> bool {
        match &mut self.target {
            Target::Store(sink) => {
                sink.append_text_slot(slot, key, text);
                true
            }
            _ => false,
        }
    }

    /// The attributes of the element `key` as created, when the sink holds
    /// them (see [`reads_attrs`](Self::reads_attrs)).
    pub(crate) fn element_attrs(&self, key: PatchKey) -> Option<Vec<PatchAttr>> {
        match &self.target {
            Target::Store(sink) => sink.element_attrs(key),
            _ => None,
        }
    }
}

/// Runs `$body` with `$sink` bound to the current sink.
macro_rules! dispatch {
    ($self:ident, $sink:ident => $body:expr) => {
        match &mut $self.target {
            Target::Patches => {
                let $sink = &mut $self.patches;
                $body
            }
            Target::Store($sink) => $body,
            Target::Custom(custom) => {
                let $sink = &mut **custom;
                $body
            }
        }
    };
}

impl TreeSink for Emitter {
    fn create_document(&mut self, key: PatchKey) {
        dispatch!(self, s => s.create_document(key))
    }

    fn set_quirks_mode(&mut self, mode: QuirksMode) {
        dispatch!(self, s => s.set_quirks_mode(mode))
    }

    fn create_doctype(&mut self, key: PatchKey, name: &str, public_id: &str, system_id: &str) {
        dispatch!(self, s => s.create_doctype(key, name, public_id, system_id))
    }

    #[inline]
    fn create_element(&mut self, key: PatchKey, element: NewElement<'_>) {
        dispatch!(self, s => s.create_element(key, element))
    }

    #[inline]
    fn create_text(&mut self, key: PatchKey, text: &str) {
        dispatch!(self, s => s.create_text(key, text))
    }

    fn create_comment(&mut self, key: PatchKey, text: &str) {
        dispatch!(self, s => s.create_comment(key, text))
    }

    fn create_processing_instruction(&mut self, key: PatchKey, target: &str, data: &str) {
        dispatch!(self, s => s.create_processing_instruction(key, target, data))
    }

    #[inline]
    fn append_child(&mut self, parent: PatchKey, child: PatchKey) {
        dispatch!(self, s => s.append_child(parent, child))
    }

    fn insert_before(&mut self, parent: PatchKey, child: PatchKey, before: PatchKey) {
        dispatch!(self, s => s.insert_before(parent, child, before))
    }

    fn remove(&mut self, node: PatchKey) {
        dispatch!(self, s => s.remove(node))
    }

    #[inline]
    fn append_text(&mut self, node: PatchKey, text: &str) {
        dispatch!(self, s => s.append_text(node, text))
    }

    fn add_attributes(&mut self, node: PatchKey, attrs: ElementAttrs<'_>) {
        dispatch!(self, s => s.add_attributes(node, attrs))
    }
}
