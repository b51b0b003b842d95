//! The html5lib tree-construction dump (`| <html>` lines), as specified by
//! html5lib-tests' `tree-construction/README.md`.
//!
//! One line per node, `"| "` then two spaces per ancestor below the root; elements
//! as `<name>` with a `svg `/`math ` namespace designator, their attributes on the
//! following lines (one level deeper, sorted by UTF-16 code units of
//! `[xlink |xml |xmlns ]name`), text as `"data"`, comments as `<!-- data -->`,
//! DOCTYPEs as `<!DOCTYPE name>` or `<!DOCTYPE name "public" "system">`, and a
//! template's contents under a `content` line. Newlines inside text are not escaped,
//! so a node can span several lines.
//!
//! The walk follows the store's sibling and parent links: no recursion (deep trees
//! cannot overflow the stack) and no allocation beyond the attribute sort buffer.

use std::cmp::Ordering;
use std::fmt::{self, Write};

use crate::dom_patch::{AttrNamespace, Namespace};

use super::element::{Attr, Element};
use super::node::{NONE, NodeData, Slot};
use super::store::{DomStore, NodeRef};

/// The dump of a whole document (its children at depth 0), as the `#document`
/// section of a non-fragment tree-construction test; empty without a document.
pub fn dump_document(store: &DomStore) -> String {
    let mut out = String::new();
    if let Some(document) = store.document() {
        // Writing into a String cannot fail.
        let _ = write_dump(document, &mut out);
    }
    out
}

/// The dump of `node`'s children at depth 0: for a fragment test
/// (`#document-fragment`), pass the context root `html` element.
pub fn dump_children(node: NodeRef<'_>) -> String {
    let mut out = String::new();
    let _ = write_dump(node, &mut out);
    out
}

/// Writes the dump of `root`'s children (each line ends with `\n`).
pub fn write_dump<W: Write>(root: NodeRef<'_>, out: &mut W) -> fmt::Result {
    let store = root.store();
    let root = root.slot();
    let mut order = Vec::new();
    let mut depth = 0usize;
    let mut cur = store.n(root).first_child;
    while cur != NONE {
        let node = store.n(cur);
        write_node(store, &node.data, depth, &mut order, out)?;
        // Template contents first, then the element's own children (a parser never
        // gives a template children of its own, but scripts could).
        if let Some(e) = store.element_at(cur)
            && e.contents() != NONE
        {
            start_line(out, depth + 1)?;
            out.write_str("content\n")?;
            let first = store.n(e.contents()).first_child;
            if first != NONE {
                cur = first;
                depth += 2;
                continue;
            }
        }
        if node.first_child != NONE {
            cur = node.first_child;
            depth += 1;
            continue;
        }
        cur = next_in_walk(store, root, cur, &mut depth);
    }
    Ok(())
}

/// The node after `cur`'s subtree in dump order, adjusting `depth`; [`NONE`] when
/// the walk of `root` is over.
fn next_in_walk(store: &DomStore, root: Slot, mut cur: Slot, depth: &mut usize) -> Slot {
    loop {
        let node = store.n(cur);
        if node.next_sibling != NONE {
            return node.next_sibling;
        }
        let parent = node.parent;
        if parent == NONE || parent == root {
            return NONE;
        }
        *depth = depth.saturating_sub(1);
        match store.n(parent).data {
            NodeData::Fragment { host } => {
                // Done with a template's contents: its own children follow, one
                // level below the template.
                let first = store.n(host).first_child;
                if first != NONE {
                    return first;
                }
                *depth = depth.saturating_sub(1);
                cur = host;
            }
            _ => cur = parent,
        }
    }
}

fn start_line<W: Write>(out: &mut W, depth: usize) -> fmt::Result {
    out.write_str("| ")?;
    for _ in 0..depth {
        out.write_str("  ")?;
    }
    Ok(())
}

fn write_node<W: Write>(
    store: &DomStore,
    data: &NodeData,
    depth: usize,
    order: &mut Vec<usize>,
    out: &mut W,
) -> fmt::Result {
    start_line(out, depth)?;
    match data {
        NodeData::Document => out.write_str("#document\n"),
        NodeData::Fragment { .. } => out.write_str("#document-fragment\n"),
        NodeData::Doctype(d) => {
            let d = store.doctype(*d);
            write!(out, "<!DOCTYPE {}", d.name)?;
            if !d.public_id.is_empty() || !d.system_id.is_empty() {
                write!(out, " \"{}\" \"{}\"", d.public_id, d.system_id)?;
            }
            out.write_str(">\n")
        }
        NodeData::Text(t) => writeln!(out, "\"{}\"", store.text(*t)),
        NodeData::Comment(c) => writeln!(out, "<!-- {} -->", store.text(*c)),
        NodeData::ProcessingInstruction(pi) => {
            let pi = store.pi(*pi);
            writeln!(out, "<?{} {}>", pi.target, pi.data)
        }
        NodeData::Element(e) => write_element(store.element(*e), depth, order, out),
    }
}

fn write_element<W: Write>(
    e: Element<'_>,
    depth: usize,
    order: &mut Vec<usize>,
    out: &mut W,
) -> fmt::Result {
    let designator = match e.ns() {
        Namespace::Html => "",
        Namespace::Svg => "svg ",
        Namespace::MathMl => "math ",
    };
    writeln!(out, "<{designator}{}>", e.local_name())?;
    let attrs = e.attrs();
    order.clear();
    order.extend(0..attrs.len());
    order.sort_by(|&a, &b| match (attrs.at(a), attrs.at(b)) {
        (Some(a), Some(b)) => compare_attr_names(a, b),
        _ => Ordering::Equal,
    });
    for attr in order.iter().filter_map(|&i| attrs.at(i)) {
        start_line(out, depth + 1)?;
        writeln!(
            out,
            "{}{}=\"{}\"",
            attr_designator(attr.ns),
            attr.name,
            attr.value
        )?;
    }
    Ok(())
}

/// The README's attribute-name designator (`xlink href`, not `xlink:href`).
fn attr_designator(ns: AttrNamespace) -> &'static str {
    match ns {
        AttrNamespace::None => "",
        AttrNamespace::XLink => "xlink ",
        AttrNamespace::Xml => "xml ",
        AttrNamespace::Xmlns => "xmlns ",
    }
}

/// Orders attribute name strings by UTF-16 code units, as the README requires
/// (this differs from `str` order only above U+FFFF).
fn compare_attr_names(a: Attr<'_>, b: Attr<'_>) -> Ordering {
    let a = attr_designator(a.ns)
        .encode_utf16()
        .chain(a.name.encode_utf16());
    let b = attr_designator(b.ns)
        .encode_utf16()
        .chain(b.name.encode_utf16());
    a.cmp(b)
}
