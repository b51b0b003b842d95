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
    /// Create a processing instruction node (only when the parse enables
    /// processing instructions; A.0 item 1, A.3).
    CreateProcessingInstruction {
        /// Its key.
        key: PatchKey,
        /// The target (`[A-Za-z_][A-Za-z0-9_-]*`, never `xml` or
        /// `xml-stylesheet`).
        target: String,
        /// The data.
        data: String,
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

/// The one-line JSON form of a patch (`tagloom parse --format patches`), from
/// [`DomPatch::json`]. Field names follow the variant's; `op` is the variant name;
/// namespaces are `"html"`, `"svg"`, `"mathml"`; attribute namespaces `null`,
/// `"xlink"`, `"xml"`, `"xmlns"`; quirks modes `"no-quirks"`, `"limited-quirks"`,
/// `"quirks"`; keys are numbers.
///
/// ```
/// use tagloom_html::dom_patch::{DomPatch, PatchAttr, PatchKey};
///
/// let key = PatchKey::new(7).unwrap();
/// let patch = DomPatch::CreateText { key, text: "a\"b\n".into() };
/// assert_eq!(
///     patch.json().to_string(),
///     r#"{"op":"CreateText","key":7,"text":"a\"b\n"}"#
/// );
/// ```
#[derive(Clone, Copy, Debug)]
pub struct PatchJson<'a>(&'a DomPatch);

impl DomPatch {
    /// The patch as one line of JSON (no trailing newline), see [`PatchJson`].
    pub fn json(&self) -> PatchJson<'_> {
        PatchJson(self)
    }
}

impl std::fmt::Display for PatchJson<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        use std::fmt::Write;
        let key = |f: &mut std::fmt::Formatter<'_>, name: &str, k: PatchKey| {
            write!(f, ",\"{name}\":{}", k.get())
        };
        let text = |f: &mut std::fmt::Formatter<'_>, name: &str, s: &str| {
            write!(f, ",\"{name}\":")?;
            write_json_string(f, s)
        };
        let op = match self.0 {
            DomPatch::Clear => "Clear",
            DomPatch::CreateDocument { .. } => "CreateDocument",
            DomPatch::SetQuirksMode { .. } => "SetQuirksMode",
            DomPatch::CreateDoctype { .. } => "CreateDoctype",
            DomPatch::CreateElement { .. } => "CreateElement",
            DomPatch::CreateText { .. } => "CreateText",
            DomPatch::CreateComment { .. } => "CreateComment",
            DomPatch::CreateProcessingInstruction { .. } => "CreateProcessingInstruction",
            DomPatch::AppendChild { .. } => "AppendChild",
            DomPatch::InsertBefore { .. } => "InsertBefore",
            DomPatch::Remove { .. } => "Remove",
            DomPatch::AddAttributes { .. } => "AddAttributes",
            DomPatch::AppendText { .. } => "AppendText",
        };
        write!(f, "{{\"op\":\"{op}\"")?;
        match self.0 {
            DomPatch::Clear => {}
            DomPatch::CreateDocument { key: k } => key(f, "key", *k)?,
            DomPatch::SetQuirksMode { mode } => {
                let mode = match mode {
                    QuirksMode::NoQuirks => "no-quirks",
                    QuirksMode::LimitedQuirks => "limited-quirks",
                    QuirksMode::Quirks => "quirks",
                };
                write!(f, ",\"mode\":\"{mode}\"")?;
            }
            DomPatch::CreateDoctype {
                key: k,
                name,
                public_id,
                system_id,
            } => {
                key(f, "key", *k)?;
                text(f, "name", name)?;
                text(f, "public_id", public_id)?;
                text(f, "system_id", system_id)?;
            }
            DomPatch::CreateElement {
                key: k,
                ns,
                name,
                attrs,
                contents,
            } => {
                key(f, "key", *k)?;
                let ns = match ns {
                    Namespace::Html => "html",
                    Namespace::Svg => "svg",
                    Namespace::MathMl => "mathml",
                };
                write!(f, ",\"ns\":\"{ns}\"")?;
                text(f, "name", name)?;
                write_json_attrs(f, attrs)?;
                match contents {
                    Some(c) => key(f, "contents", *c)?,
                    None => f.write_str(",\"contents\":null")?,
                }
            }
            DomPatch::CreateText { key: k, text: t }
            | DomPatch::CreateComment { key: k, text: t } => {
                key(f, "key", *k)?;
                text(f, "text", t)?;
            }
            DomPatch::CreateProcessingInstruction {
                key: k,
                target,
                data,
            } => {
                key(f, "key", *k)?;
                text(f, "target", target)?;
                text(f, "data", data)?;
            }
            DomPatch::AppendChild { parent, child } => {
                key(f, "parent", *parent)?;
                key(f, "child", *child)?;
            }
            DomPatch::InsertBefore {
                parent,
                child,
                before,
            } => {
                key(f, "parent", *parent)?;
                key(f, "child", *child)?;
                key(f, "before", *before)?;
            }
            DomPatch::Remove { node } => key(f, "node", *node)?,
            DomPatch::AddAttributes { node, attrs } => {
                key(f, "node", *node)?;
                write_json_attrs(f, attrs)?;
            }
            DomPatch::AppendText { node, text: t } => {
                key(f, "node", *node)?;
                text(f, "text", t)?;
            }
        }
        f.write_char('}')
    }
}

fn write_json_attrs(f: &mut std::fmt::Formatter<'_>, attrs: &[PatchAttr]) -> std::fmt::Result {
    f.write_str(",\"attrs\":[")?;
    for (i, attr) in attrs.iter().enumerate() {
        if i > 0 {
            f.write_str(",")?;
        }
        let ns = match attr.ns {
            AttrNamespace::None => "null",
            AttrNamespace::XLink => "\"xlink\"",
            AttrNamespace::Xml => "\"xml\"",
            AttrNamespace::Xmlns => "\"xmlns\"",
        };
        write!(f, "{{\"ns\":{ns},\"name\":")?;
        write_json_string(f, &attr.name)?;
        f.write_str(",\"value\":")?;
        write_json_string(f, &attr.value)?;
        f.write_str("}")?;
    }
    f.write_str("]")
}

/// A JSON string literal (RFC 8259 §7): quote, backslash and C0 controls escaped.
fn write_json_string(f: &mut std::fmt::Formatter<'_>, s: &str) -> std::fmt::Result {
    use std::fmt::Write;
    f.write_char('"')?;
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let escape = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x00..=0x1F => "",
            _ => continue,
        };
        f.write_str(s.get(start..i).unwrap_or_default())?;
        if escape.is_empty() {
            write!(f, "\\u{b:04x}")?;
        } else {
            f.write_str(escape)?;
        }
        start = i + 1;
    }
    f.write_str(s.get(start..).unwrap_or_default())?;
    f.write_char('"')
}

#[cfg(test)]
mod json_tests {
    use super::*;

    #[test]
    fn every_variant_is_valid_json() {
        let k = |n| PatchKey::new(n).unwrap();
        let patches = [
            DomPatch::Clear,
            DomPatch::CreateDocument { key: k(1) },
            DomPatch::SetQuirksMode {
                mode: QuirksMode::LimitedQuirks,
            },
            DomPatch::CreateDoctype {
                key: k(2),
                name: "html".into(),
                public_id: String::new(),
                system_id: "s".into(),
            },
            DomPatch::CreateElement {
                key: k(3),
                ns: Namespace::Svg,
                name: "svg".into(),
                attrs: vec![
                    PatchAttr::new("a\\b", "\u{0}\u{1f}\t\"é"),
                    PatchAttr {
                        ns: AttrNamespace::XLink,
                        name: "href".into(),
                        value: "#x".into(),
                    },
                ],
                contents: None,
            },
            DomPatch::CreateComment {
                key: k(4),
                text: "c".into(),
            },
            DomPatch::CreateProcessingInstruction {
                key: k(6),
                target: "php".into(),
                data: "echo \"x\";".into(),
            },
            DomPatch::AppendChild {
                parent: k(1),
                child: k(3),
            },
            DomPatch::InsertBefore {
                parent: k(1),
                child: k(2),
                before: k(3),
            },
            DomPatch::Remove { node: k(2) },
            DomPatch::AddAttributes {
                node: k(3),
                attrs: vec![],
            },
            DomPatch::AppendText {
                node: k(5),
                text: "\r\n".into(),
            },
        ];
        for patch in &patches {
            let line = patch.json().to_string();
            let value: serde_json::Value = serde_json::from_str(&line).expect(&line);
            assert!(value["op"].is_string(), "{line}");
            assert!(!line.contains('\n'));
        }
        let element = patches[4].json().to_string();
        let value: serde_json::Value = serde_json::from_str(&element).unwrap();
        assert_eq!(value["attrs"][0]["value"], "\u{0}\u{1f}\t\"é");
        assert_eq!(value["attrs"][0]["name"], "a\\b");
        assert_eq!(value["attrs"][1]["ns"], "xlink");
        assert_eq!(value["contents"], serde_json::Value::Null);
        assert_eq!(value["key"], 3);
        let pi = patches[6].json().to_string();
        assert_eq!(
            pi,
            r#"{"op":"CreateProcessingInstruction","key":6,"target":"php","data":"echo \"x\";"}"#
        );
    }
}

/// The text of a batch's `CreateText`, `AppendText` and `CreateComment` patches,
/// kept beside the batch instead of in a `String` per patch (the driver's own
/// store path, [`Driver::push_into`](crate::driver::Driver::push_into)): such a
/// batch's text patches carry empty strings, and their texts are here, one after
/// the other in patch order. [`fill`](Self::fill) turns a batch back into
/// ordinary patches for every other consumer.
#[derive(Clone, Debug, Default)]
pub(crate) struct DetachedText {
    text: String,
    /// Where each patch's text ends in `text`.
    ends: Vec<usize>,
}

impl DetachedText {
    /// Appends the next text patch's text.
    pub(crate) fn push(&mut self, text: &str) {
        self.text.push_str(text);
        self.ends.push(self.text.len());
    }

    /// Forgets every text, keeping the buffers.
    pub(crate) fn clear(&mut self) {
        self.text.clear();
        self.ends.clear();
    }

    /// A reader over the texts, in order.
    pub(crate) fn cursor(&self) -> TextCursor<'_> {
        TextCursor {
            texts: self,
            next: 0,
        }
    }

    /// Moves the texts into `batch`'s text patches.
    pub(crate) fn fill(&self, batch: &mut [DomPatch]) {
        let mut cursor = self.cursor();
        for patch in batch {
            if let DomPatch::CreateText { text, .. }
            | DomPatch::AppendText { text, .. }
            | DomPatch::CreateComment { text, .. } = patch
            {
                text.push_str(cursor.next_text());
            }
        }
    }
}

/// Reads a [`DetachedText`]'s texts in patch order.
#[derive(Debug)]
pub(crate) struct TextCursor<'a> {
    texts: &'a DetachedText,
    next: usize,
}

impl<'a> TextCursor<'a> {
    /// The next text patch's text (empty past the last: a batch never has more
    /// text patches than texts, as the tree builder records one per patch).
    pub(crate) fn next_text(&mut self) -> &'a str {
        let start = match self.next.checked_sub(1) {
            Some(i) => self.texts.ends.get(i).copied().unwrap_or(0),
            None => 0,
        };
        let end = self.texts.ends.get(self.next).copied().unwrap_or(start);
        self.next += 1;
        self.texts.text.get(start..end).unwrap_or_default()
    }
}

#[cfg(test)]
mod detached_text_tests {
    use super::*;

    #[test]
    fn texts_go_back_to_their_patches_in_order_empty_ones_included() {
        let k = |n| PatchKey::new(n).unwrap();
        let mut texts = DetachedText::default();
        for t in ["a", "", "bc", "é"] {
            texts.push(t);
        }
        let mut batch = vec![
            DomPatch::CreateText {
                key: k(1),
                text: String::new(),
            },
            DomPatch::AppendChild {
                parent: k(9),
                child: k(1),
            },
            DomPatch::CreateComment {
                key: k(2),
                text: String::new(),
            },
            DomPatch::AppendText {
                node: k(1),
                text: String::new(),
            },
            DomPatch::CreateComment {
                key: k(3),
                text: String::new(),
            },
        ];
        texts.fill(&mut batch);
        let got: Vec<&str> = batch
            .iter()
            .filter_map(|p| match p {
                DomPatch::CreateText { text, .. }
                | DomPatch::CreateComment { text, .. }
                | DomPatch::AppendText { text, .. } => Some(text.as_str()),
                _ => None,
            })
            .collect();
        assert_eq!(got, ["a", "", "bc", "é"]);
        // Past the last text, a cursor reads empty strings, never panics.
        let mut cursor = texts.cursor();
        for _ in 0..4 {
            cursor.next_text();
        }
        assert_eq!(cursor.next_text(), "");
        texts.clear();
        assert_eq!(texts.cursor().next_text(), "");
    }
}
