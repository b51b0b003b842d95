//! The HTML fragment serialization algorithm (A.8) over a [`DomStore`] node.
//!
//! It serializes the *children* of the node (so a `Document` gives the whole
//! document, an element its `innerHTML`). The walk follows the store's sibling and
//! parent links instead of recursing, so depth costs no stack, and it writes
//! straight into the caller's writer with no allocation.
//!
//! Not emitted because the store cannot hold them: shadow roots (step 4; this
//! parser does not attach declarative shadow roots, see A.5), processing
//! instructions and the `is` value. The current spec no longer re-emits a leading
//! newline in `pre`/`textarea`/`listing`, and neither does this.

use std::fmt::{self, Write};
use std::io;

use crate::dom::{DomStore, NONE, NodeData, NodeRef, Slot};

use super::attr_name::write_attr_name;
use super::elements::{is_raw_text_element, serializes_as_void};
use super::escape::{EscapeMode, write_escaped};
use super::io_writer::IoWriter;

/// Settings of the fragment serialization algorithm.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FragmentOptions {
    /// "Scripting is enabled for the node": `noscript` text is then written
    /// literally. The spec ties this to a browsing context, which a parsed
    /// document alone does not have, hence the default `false`.
    pub scripting: bool,
}

/// Serializes the children of `node` into `out`.
///
/// ```
/// use tagloom_html::dom::DomStore;
/// use tagloom_html::dom_patch::{DomPatch, PatchAttr, PatchKey};
/// use tagloom_html::serializer::{serialize_children, FragmentOptions};
///
/// let key = |n| PatchKey::new(n).unwrap();
/// let mut store = DomStore::new();
/// store.apply_patches(&[
///     DomPatch::CreateDocument { key: key(1) },
///     DomPatch::CreateElement {
///         key: key(2),
///         ns: tagloom_html::dom_patch::Namespace::Html,
///         name: "p".into(),
///         attrs: vec![PatchAttr::new("title", "a\"b")],
///         contents: None,
///     },
///     DomPatch::AppendChild { parent: key(1), child: key(2) },
///     DomPatch::CreateText { key: key(3), text: "1 < 2".into() },
///     DomPatch::AppendChild { parent: key(2), child: key(3) },
/// ]).unwrap();
/// let mut html = String::new();
/// serialize_children(store.document().unwrap(), FragmentOptions::default(), &mut html).unwrap();
/// assert_eq!(html, "<p title=\"a&quot;b\">1 &lt; 2</p>");
/// ```
pub fn serialize_children<W: Write + ?Sized>(
    node: NodeRef<'_>,
    options: FragmentOptions,
    out: &mut W,
) -> fmt::Result {
    let store = node.store();
    let mut root = node.slot();
    match store.element_at(root) {
        // Step 1.
        Some(e) if serializes_as_void(e.ns(), e.local_name()) => return Ok(()),
        // Step 3: a template serializes its contents.
        Some(e) if e.contents() != NONE => root = e.contents(),
        _ => {}
    }
    let mut cur = store.n(root).first_child;
    while cur != NONE {
        write_open(store, cur, options, out)?;
        if let Some(e) = store.element_at(cur)
            && !serializes_as_void(e.ns(), e.local_name())
        {
            let inner = if e.contents() != NONE {
                e.contents()
            } else {
                cur
            };
            let first = store.n(inner).first_child;
            if first != NONE {
                cur = first;
                continue;
            }
            write_end_tag(out, e.local_name())?;
        }
        cur = next_after_subtree(store, root, cur, out)?;
    }
    Ok(())
}

/// Writes what stands for the node at `slot` before its children: an element's
/// start tag, a text's escaped (or, in a raw text element, literal) data, a
/// comment, a processing instruction, a DOCTYPE.
fn write_open<W: Write + ?Sized>(
    store: &DomStore,
    slot: Slot,
    options: FragmentOptions,
    out: &mut W,
) -> fmt::Result {
    let node = store.n(slot);
    match &node.data {
        NodeData::Element(e) => {
            let e = store.element(*e);
            out.write_char('<')?;
            out.write_str(e.local_name())?;
            for attr in e.attrs() {
                out.write_char(' ')?;
                write_attr_name(out, attr.ns, attr.name)?;
                out.write_str("=\"")?;
                write_escaped(out, attr.value, EscapeMode::DoubleQuoted)?;
                out.write_char('"')?;
            }
            out.write_char('>')?;
        }
        NodeData::Text(text) => {
            let text = store.text(*text);
            let literal = store
                .element_at(node.parent)
                .is_some_and(|p| is_raw_text_element(p.ns(), p.local_name(), options.scripting));
            if literal {
                out.write_str(text)?;
            } else {
                write_escaped(out, text, EscapeMode::Text)?;
            }
        }
        NodeData::Comment(data) => {
            out.write_str("<!--")?;
            out.write_str(store.text(*data))?;
            out.write_str("-->")?;
        }
        NodeData::ProcessingInstruction(pi) => {
            let pi = store.pi(*pi);
            // A.8: "<?", the target, a space, the data, "?>".
            out.write_str("<?")?;
            out.write_str(&pi.target)?;
            out.write_char(' ')?;
            out.write_str(&pi.data)?;
            out.write_str("?>")?;
        }
        NodeData::Doctype(d) => {
            let d = store.doctype(*d);
            out.write_str("<!DOCTYPE ")?;
            out.write_str(&d.name)?;
            out.write_char('>')?;
        }
        // Never children (the store rejects such insertions).
        NodeData::Document | NodeData::Fragment { .. } => {}
    }
    Ok(())
}

/// The node itself serialized, as the DOM's `outerHTML` gives it: an element's
/// tags around [`serialize_children`]; a text, comment, processing instruction or
/// DOCTYPE as it appears among its parent's children; a document or template
/// contents fragment, its children.
///
/// ```
/// use tagloom_html::dom::NodeKind;
/// use tagloom_html::serializer::{FragmentOptions, node_to_string};
/// use tagloom_html::{ParseConfig, parse_document};
///
/// let store = parse_document(b"<p class=a>1<br>2</p>", &ParseConfig::default())?;
/// let doc = store.document().unwrap();
/// let body = doc.first_child().unwrap().last_child().unwrap();
/// let p = body.first_child().unwrap();
/// assert!(matches!(p.kind(), NodeKind::Element(_)));
/// assert_eq!(node_to_string(p, FragmentOptions::default()), "<p class=\"a\">1<br>2</p>");
/// # Ok::<(), tagloom_html::ParseFailure>(())
/// ```
pub fn node_to_string(node: NodeRef<'_>, options: FragmentOptions) -> String {
    let mut out = String::new();
    let store = node.store();
    let slot = node.slot();
    // Writing into a String cannot fail.
    let _ = write_open(store, slot, options, &mut out);
    let _ = serialize_children(node, options, &mut out);
    if let Some(e) = store.element_at(slot)
        && !serializes_as_void(e.ns(), e.local_name())
    {
        let _ = write_end_tag(&mut out, e.local_name());
    }
    out
}

/// Moves past `cur`'s finished subtree, closing every element it climbs out of;
/// [`NONE`] once back at `root`.
fn next_after_subtree<W: Write + ?Sized>(
    store: &DomStore,
    root: Slot,
    mut cur: Slot,
    out: &mut W,
) -> Result<Slot, fmt::Error> {
    loop {
        let node = store.n(cur);
        if node.next_sibling != NONE {
            return Ok(node.next_sibling);
        }
        let parent = node.parent;
        if parent == NONE || parent == root {
            return Ok(NONE);
        }
        // A template's contents end where the template does.
        let element = match store.n(parent).data {
            NodeData::Fragment { host } => host,
            _ => parent,
        };
        if let Some(e) = store.element_at(element) {
            write_end_tag(out, e.local_name())?;
        }
        cur = element;
    }
}

fn write_end_tag<W: Write + ?Sized>(out: &mut W, name: &str) -> fmt::Result {
    out.write_str("</")?;
    out.write_str(name)?;
    out.write_char('>')
}

/// [`serialize_children`] into a new `String`.
pub fn children_to_string(node: NodeRef<'_>, options: FragmentOptions) -> String {
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = serialize_children(node, options, &mut out);
    out
}

/// [`serialize_children`] into an `io::Write` (e.g. a locked stdout), reporting
/// the writer's own error.
pub fn serialize_children_io<W: io::Write>(
    node: NodeRef<'_>,
    options: FragmentOptions,
    out: W,
) -> io::Result<()> {
    let mut adapter = IoWriter::new(out);
    let result = serialize_children(node, options, &mut adapter);
    adapter.result(result)
}
