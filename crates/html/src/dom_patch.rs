//! The patch protocol: how a parse describes the document it builds (ADR 001).
//!
//! A parse emits batches of [`DomPatch`]; a consumer (the [`DomStore`](crate::dom),
//! a serializer, a browser page) applies each batch as it arrives. Invariants:
//!
//! - keys are non-zero, strictly increasing in creation order, and never reused in
//!   one document, not even across a [`DomPatch::Clear`];
//! - `Clear` appears only as the first patch of a batch;
//! - a batch applies whole or not at all;
//! - a node has at most one parent: moving a node is `Remove` then an insertion;
//! - no cycles.

use std::borrow::Cow;
use std::num::NonZeroU64;

/// The identity of a node in a patch stream.
#[derive(Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Debug)]
pub struct PatchKey(pub NonZeroU64);

/// Element namespaces.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Namespace {
    /// `http://www.w3.org/1999/xhtml`
    Html,
    /// `http://www.w3.org/2000/svg`
    Svg,
    /// `http://www.w3.org/1998/Math/MathML`
    MathMl,
}

/// Attribute namespaces (after the spec's "adjust foreign attributes").
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AttrNamespace {
    /// No namespace (every HTML attribute).
    None,
    /// `http://www.w3.org/1999/xlink` (prefix `xlink`).
    XLink,
    /// `http://www.w3.org/XML/1998/namespace` (prefix `xml`).
    Xml,
    /// `http://www.w3.org/2000/xmlns/` (prefix `xmlns`, except `xmlns` itself).
    Xmlns,
}

/// The document's mode, set from the DOCTYPE (§13.2.6.4.1).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum QuirksMode {
    /// Standards mode.
    #[default]
    NoQuirks,
    /// Limited-quirks mode.
    LimitedQuirks,
    /// Quirks mode.
    Quirks,
}

/// An attribute in a patch.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PatchAttr {
    /// Namespace.
    pub ns: AttrNamespace,
    /// Local name (static names are borrowed, others owned).
    pub name: Cow<'static, str>,
    /// Value.
    pub value: String,
}

/// One operation on the document.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum DomPatch {
    /// Drop every node: a new baseline. Only ever first in a batch.
    Clear,
    /// Create the document node.
    CreateDocument {
        /// Its key.
        key: PatchKey,
    },
    /// Set the document's quirks mode.
    SetQuirksMode {
        /// The mode.
        mode: QuirksMode,
    },
    /// Create a DOCTYPE node.
    CreateDoctype {
        /// Its key.
        key: PatchKey,
        /// Name (empty when missing).
        name: String,
        /// Public identifier (empty when missing).
        public_id: String,
        /// System identifier (empty when missing).
        system_id: String,
    },
    /// Create an element (not yet in the tree).
    CreateElement {
        /// Its key.
        key: PatchKey,
        /// Namespace.
        ns: Namespace,
        /// Local name (after SVG case adjustment).
        name: Cow<'static, str>,
        /// Attributes in source order.
        attrs: Vec<PatchAttr>,
        /// For an HTML `<template>`: the key of its content `DocumentFragment`,
        /// created along with it.
        contents: Option<PatchKey>,
    },
    /// Create a text node.
    CreateText {
        /// Its key.
        key: PatchKey,
        /// The text.
        text: String,
    },
    /// Create a comment node.
    CreateComment {
        /// Its key.
        key: PatchKey,
        /// The data.
        text: String,
    },
    /// Append `child` (which has no parent) as the last child of `parent`.
    AppendChild {
        /// The new parent.
        parent: PatchKey,
        /// The node to insert.
        child: PatchKey,
    },
    /// Insert `child` (which has no parent) into `parent` just before `before`.
    InsertBefore {
        /// The new parent.
        parent: PatchKey,
        /// The node to insert.
        child: PatchKey,
        /// An existing child of `parent`.
        before: PatchKey,
    },
    /// Detach `node` from its parent (it stays alive and may be inserted again).
    Remove {
        /// The node.
        node: PatchKey,
    },
    /// Add the attributes `node` lacks (the `<html>`/`<body>` merge of §13.2.6.4.7).
    AddAttributes {
        /// The element.
        node: PatchKey,
        /// Attributes to add where absent.
        attrs: Vec<PatchAttr>,
    },
    /// Append text to an existing text node.
    AppendText {
        /// The text node.
        node: PatchKey,
        /// The text to append.
        text: String,
    },
}

impl PatchKey {
    /// The key `n`, or `None` for 0 (keys are non-zero).
    pub const fn new(n: u64) -> Option<PatchKey> {
        match NonZeroU64::new(n) {
            Some(n) => Some(PatchKey(n)),
            None => None,
        }
    }

    /// The key as a number.
    pub const fn get(self) -> u64 {
        self.0.get()
    }
}

impl std::fmt::Display for PatchKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "#{}", self.0)
    }
}

impl PatchAttr {
    /// A no-namespace attribute (every attribute of an HTML element).
    pub fn new(name: impl Into<Cow<'static, str>>, value: impl Into<String>) -> PatchAttr {
        PatchAttr {
            ns: AttrNamespace::None,
            name: name.into(),
            value: value.into(),
        }
    }
}

impl DomPatch {
    /// `CreateElement` for an HTML element without attributes; a `template` needs
    /// its contents key, so use the variant directly for it.
    pub fn html_element(key: PatchKey, name: impl Into<Cow<'static, str>>) -> DomPatch {
        DomPatch::CreateElement {
            key,
            ns: Namespace::Html,
            name: name.into(),
            attrs: Vec::new(),
            contents: None,
        }
    }
}
