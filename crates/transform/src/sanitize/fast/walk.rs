//! The append-only patch walker: reads a tree builder's [`DomPatch`]es (the
//! re-parse check's tree builder) or the calls of the fast path's sink (the
//! first parse's, as they come: `created_element`, `created_text`,
//! `append`, `append_text`) as a document-order stream of opens, texts and
//! closes, as long as every patch adds at the current end of the tree.
//!
//! It keeps only the path from the fragment root to the last node added. A node
//! appended to an element on that path closes every element below it (nothing
//! can be added to them afterwards without a patch this walker refuses). Any
//! other patch — `InsertBefore` (foster parenting), `Remove` (the adoption
//! agency, a `frameset`), `AddAttributes`, an append to a closed element or of
//! a node that already had a parent, template contents, comments — ends the
//! walk with [`Abandon::Patch`]: the caller takes the general path.

use std::borrow::Cow;
use std::ops::Range;

use tagloom_html::dom_patch::{DomPatch, Namespace, PatchAttr, PatchKey};

use super::Abandon;

/// What a walker reports, in document order.
pub(crate) trait RawSink {
    /// An element starts (its children follow until the matching `close`);
    /// `judged`: an HTML element whose name and attributes are those of the
    /// start tag the token filter judged (see `clean::Known::Judged`).
    fn open(
        &mut self,
        ns: Namespace,
        name: Cow<'static, str>,
        attrs: Vec<PatchAttr>,
        judged: bool,
    ) -> Result<(), Abandon>;
    /// Text in the current element (adjacent calls are one text node).
    fn text(&mut self, text: &str) -> Result<(), Abandon>;
    /// The current element ends.
    fn close(&mut self) -> Result<(), Abandon>;
}

/// A node created but not yet inserted.
enum Created {
    Element {
        key: PatchKey,
        ns: Namespace,
        name: Cow<'static, str>,
        attrs: Vec<PatchAttr>,
        judged: bool,
    },
    Text {
        key: PatchKey,
        text: Held,
    },
}

/// The text of a created text node: its own, or a range of the sink's text
/// buffer ([`sink::Fused::texts`](super::sink::Fused)).
enum Held {
    Owned(String),
    Range(Range<usize>),
}

impl Created {
    fn key(&self) -> PatchKey {
        match self {
            Created::Element { key, .. } | Created::Text { key, .. } => *key,
        }
    }
}

/// An element on the open path.
struct Open {
    key: PatchKey,
    /// Its last child, when that is a text node.
    last_text: Option<PatchKey>,
}

/// See the [module docs](self).
pub(crate) struct Walker {
    document: PatchKey,
    root: PatchKey,
    /// The open path; `path[0]` is the fragment root, never closed.
    path: Vec<Open>,
    created: Vec<Created>,
}

impl Walker {
    /// A walker over a fragment parse whose document is `document` and whose
    /// nodes go under the `html` element `root`.
    pub(crate) fn new(document: PatchKey, root: PatchKey) -> Walker {
        Walker {
            document,
            root,
            path: vec![Open {
                key: root,
                last_text: None,
            }],
            created: Vec::new(),
        }
    }

    /// Reads one patch.
    pub(crate) fn apply<S: RawSink>(
        &mut self,
        patch: DomPatch,
        sink: &mut S,
    ) -> Result<(), Abandon> {
        match patch {
            DomPatch::CreateDocument { key } if key == self.document => Ok(()),
            DomPatch::CreateElement { key, .. } if key == self.root => Ok(()),
            DomPatch::AppendChild { parent, child }
                if parent == self.document && child == self.root =>
            {
                Ok(())
            }
            DomPatch::CreateElement {
                key,
                ns,
                name,
                attrs,
                contents: None,
            } => {
                self.created.push(Created::Element {
                    key,
                    ns,
                    name,
                    attrs,
                    judged: false,
                });
                Ok(())
            }
            DomPatch::CreateText { key, text } => {
                self.created.push(Created::Text {
                    key,
                    text: Held::Owned(text),
                });
                Ok(())
            }
            DomPatch::AppendChild { parent, child } => self.append(parent, child, "", sink),
            DomPatch::AppendText { node, text } => match self.path.last() {
                Some(top) if top.last_text == Some(node) => sink.text(&text),
                _ => Err(Abandon::Patch),
            },
            _ => Err(Abandon::Patch),
        }
    }

    /// The sink's `create_element`.
    pub(crate) fn created_element(
        &mut self,
        key: PatchKey,
        ns: Namespace,
        name: Cow<'static, str>,
        attrs: Vec<PatchAttr>,
        judged: bool,
    ) {
        if key != self.root {
            self.created.push(Created::Element {
                key,
                ns,
                name,
                attrs,
                judged,
            });
        }
    }

    /// The sink's `create_text`: its text is `texts[text]` of the buffer
    /// passed to [`append`](Self::append).
    pub(crate) fn created_text(&mut self, key: PatchKey, text: Range<usize>) {
        self.created.push(Created::Text {
            key,
            text: Held::Range(text),
        });
    }

    /// The sink's `create_document`.
    pub(crate) fn created_document(&self, key: PatchKey) -> Result<(), Abandon> {
        if key == self.document {
            Ok(())
        } else {
            Err(Abandon::Patch)
        }
    }

    /// The sink's `append_child` (`texts`: the sink's text buffer).
    pub(crate) fn append_child<S: RawSink>(
        &mut self,
        parent: PatchKey,
        child: PatchKey,
        texts: &str,
        sink: &mut S,
    ) -> Result<(), Abandon> {
        if parent == self.document && child == self.root {
            return Ok(());
        }
        self.append(parent, child, texts, sink)
    }

    /// The sink's `append_text`.
    pub(crate) fn append_text<S: RawSink>(
        &mut self,
        node: PatchKey,
        text: &str,
        sink: &mut S,
    ) -> Result<(), Abandon> {
        match self.path.last() {
            Some(top) if top.last_text == Some(node) => sink.text(text),
            _ => Err(Abandon::Patch),
        }
    }

    /// Whether a node was created and not yet inserted (whose text may still
    /// be in the sink's buffer).
    pub(crate) fn holds_created(&self) -> bool {
        !self.created.is_empty()
    }

    fn append<S: RawSink>(
        &mut self,
        parent: PatchKey,
        child: PatchKey,
        texts: &str,
        sink: &mut S,
    ) -> Result<(), Abandon> {
        let at = self
            .path
            .iter()
            .rposition(|o| o.key == parent)
            .ok_or(Abandon::Patch)?;
        // Nearly always the node just created.
        let node = if self.created.last().is_some_and(|c| c.key() == child) {
            self.created.pop().ok_or(Abandon::Engine)?
        } else {
            let i = self
                .created
                .iter()
                .rposition(|c| c.key() == child)
                .ok_or(Abandon::Patch)?;
            self.created.remove(i)
        };
        while self.path.len() > at + 1 {
            self.path.pop();
            sink.close()?;
        }
        let top = self.path.last_mut().ok_or(Abandon::Patch)?;
        match node {
            Created::Element {
                key,
                ns,
                name,
                attrs,
                judged,
            } => {
                top.last_text = None;
                self.path.push(Open {
                    key,
                    last_text: None,
                });
                sink.open(ns, name, attrs, judged)
            }
            Created::Text { key, text } => {
                top.last_text = Some(key);
                match text {
                    Held::Owned(text) => sink.text(&text),
                    Held::Range(range) => sink.text(texts.get(range).ok_or(Abandon::Engine)?),
                }
            }
        }
    }

    /// Closes every open element (end of input).
    pub(crate) fn finish<S: RawSink>(&mut self, sink: &mut S) -> Result<(), Abandon> {
        while self.path.len() > 1 {
            self.path.pop();
            sink.close()?;
        }
        Ok(())
    }
}
