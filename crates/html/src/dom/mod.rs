//! `DomStore`: a document built by applying [`DomPatch`](crate::dom_patch::DomPatch)
//! batches, with every protocol invariant of ADR 001 checked, plus its html5lib
//! tree-construction dump.
//!
//! This is the reference consumer of the patch stream: the test suites, the CLI's
//! `parse` command and the serializer read documents from it. It is built for the
//! benchmark path too: one `Vec` arena, O(1) insertions and removals through
//! sibling links, no per-patch allocation beyond the node payloads themselves.
//!
//! ```
//! use std::num::NonZeroU64;
//! use tagloom_html::dom::{self, DomStore};
//! use tagloom_html::dom_patch::{DomPatch, Namespace, PatchKey};
//!
//! let key = |n| PatchKey(NonZeroU64::new(n).unwrap());
//! let element = |k, name: &'static str| DomPatch::CreateElement {
//!     key: key(k), ns: Namespace::Html, name: name.into(), attrs: vec![], contents: None,
//! };
//! let mut store = DomStore::new();
//! store.apply_patches(&[
//!     DomPatch::CreateDocument { key: key(1) },
//!     element(2, "html"),
//!     DomPatch::AppendChild { parent: key(1), child: key(2) },
//!     element(3, "head"),
//!     DomPatch::AppendChild { parent: key(2), child: key(3) },
//!     element(4, "body"),
//!     DomPatch::AppendChild { parent: key(2), child: key(4) },
//!     DomPatch::CreateText { key: key(5), text: "Hi".into() },
//!     DomPatch::AppendChild { parent: key(4), child: key(5) },
//! ]).unwrap();
//! assert_eq!(
//!     dom::dump_document(&store),
//!     "| <html>\n|   <head>\n|   <body>\n|     \"Hi\"\n",
//! );
//! ```

mod apply;
mod attr_arena;
mod direct;
mod dump;
mod element;
mod error;
mod node;
mod resync;
mod script_edit;
mod store;
mod text_arena;
mod version;

pub use dump::{dump_children, dump_document, write_dump};
pub use element::{Attr, Attrs, AttrsIter, Element};
pub use error::PatchError;
pub use node::{Doctype, NodeKind, ProcessingInstruction};
pub use store::{Children, DomStore, NodeRef};
pub use version::VersionError;

pub(crate) use direct::StoreSink;
pub(crate) use node::{NONE, NodeData, Slot};

#[cfg(test)]
mod tests;
