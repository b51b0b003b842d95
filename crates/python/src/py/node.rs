//! `Node`: a handle on one node of a [`Document`] (the document and a key); every
//! property reads the `DomStore` in Rust.

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use tagloom_html::dom::{NodeKind, NodeRef};
use tagloom_html::dom_patch::{AttrNamespace, Namespace, PatchKey};

use super::document::Document;
use crate::text::{TextMode, text_of};

/// One node of a parsed document: element, text, comment, doctype, document,
/// processing instruction or template contents. Read-only.
#[pyclass(frozen, module = "tagloom")]
pub struct Node {
    doc: Py<Document>,
    key: PatchKey,
}

impl Node {
    pub(crate) fn new(doc: Py<Document>, key: PatchKey) -> Node {
        Node { doc, key }
    }

    fn with<R>(&self, f: impl FnOnce(&Document, NodeRef<'_>) -> R) -> PyResult<R> {
        let doc = self.doc.get();
        let node = doc.store.get(self.key).ok_or_else(|| {
            PyRuntimeError::new_err("internal error: a node handle lost its node")
        })?;
        Ok(f(doc, node))
    }

    fn handle(&self, py: Python<'_>, node: NodeRef<'_>) -> Node {
        Node::new(self.doc.clone_ref(py), node.key())
    }
}

fn ns_name(ns: Namespace) -> &'static str {
    match ns {
        Namespace::Html => "html",
        Namespace::Svg => "svg",
        Namespace::MathMl => "math",
    }
}

fn attr_name(ns: AttrNamespace, name: &str) -> String {
    match ns {
        AttrNamespace::None => name.to_owned(),
        AttrNamespace::XLink => format!("xlink:{name}"),
        AttrNamespace::Xml => format!("xml:{name}"),
        AttrNamespace::Xmlns if name == "xmlns" => name.to_owned(),
        AttrNamespace::Xmlns => format!("xmlns:{name}"),
    }
}

#[pymethods]
impl Node {
    /// `"element"`, `"text"`, `"comment"`, `"doctype"`, `"document"`,
    /// `"processing_instruction"` or `"document_fragment"`.
    #[getter]
    fn r#type(&self) -> PyResult<&'static str> {
        self.with(|_, n| match n.kind() {
            NodeKind::Document => "document",
            NodeKind::Doctype(_) => "doctype",
            NodeKind::Element(_) => "element",
            NodeKind::Text(_) => "text",
            NodeKind::Comment(_) => "comment",
            NodeKind::ProcessingInstruction(_) => "processing_instruction",
            NodeKind::DocumentFragment => "document_fragment",
        })
    }

    /// An element's local name (`"p"`, `"foreignObject"`); a doctype's name; else None.
    #[getter]
    fn tag(&self) -> PyResult<Option<String>> {
        self.with(|_, n| match n.kind() {
            NodeKind::Element(e) => Some(e.local_name().to_owned()),
            NodeKind::Doctype(d) => Some(d.name().to_owned()),
            _ => None,
        })
    }

    /// An element's namespace: `"html"`, `"svg"` or `"math"`; else None.
    #[getter]
    fn namespace(&self) -> PyResult<Option<&'static str>> {
        self.with(|_, n| n.as_element().map(|e| ns_name(e.ns())))
    }

    /// An element's attributes in source order (`xlink:href` for namespaced
    /// ones); an empty dict for other nodes.
    #[getter]
    fn attrs<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        self.with(|_, n| -> PyResult<()> {
            if let Some(e) = n.as_element() {
                for a in e.attrs() {
                    dict.set_item(attr_name(a.ns, a.name), a.value)?;
                }
            }
            Ok(())
        })??;
        Ok(dict)
    }

    /// An attribute's value (`default` when absent).
    #[pyo3(signature = (name, default=None))]
    fn get(&self, name: &str, default: Option<String>) -> PyResult<Option<String>> {
        self.with(|_, n| {
            n.as_element()
                .and_then(|e| e.attr(name))
                .map(str::to_owned)
                .or(default)
        })
    }

    /// The DOM's `textContent`: every descendant text node, in tree order.
    #[getter]
    fn text(&self) -> PyResult<String> {
        self.with(|_, n| text_of(n, TextMode::Content))
    }

    /// A text, comment or processing instruction node's data; else None.
    #[getter]
    fn data(&self) -> PyResult<Option<String>> {
        self.with(|_, n| match n.kind() {
            NodeKind::Text(t) | NodeKind::Comment(t) => Some(t.to_owned()),
            NodeKind::ProcessingInstruction(pi) => Some(pi.data().to_owned()),
            _ => None,
        })
    }

    /// The child nodes (a `template`'s are in `template_contents`).
    #[getter]
    fn children(&self, py: Python<'_>) -> PyResult<Vec<Node>> {
        self.with(|_, n| n.children().map(|c| self.handle(py, c)).collect())
    }

    /// The child elements.
    #[getter]
    fn elements(&self, py: Python<'_>) -> PyResult<Vec<Node>> {
        self.with(|_, n| {
            n.children()
                .filter(|c| c.as_element().is_some())
                .map(|c| self.handle(py, c))
                .collect()
        })
    }

    /// The parent node (None for the document node).
    #[getter]
    fn parent(&self, py: Python<'_>) -> PyResult<Option<Node>> {
        self.with(|_, n| n.parent().map(|p| self.handle(py, p)))
    }

    /// The next sibling node.
    #[getter]
    fn next(&self, py: Python<'_>) -> PyResult<Option<Node>> {
        self.with(|_, n| n.next_sibling().map(|p| self.handle(py, p)))
    }

    /// The previous sibling node.
    #[getter]
    fn prev(&self, py: Python<'_>) -> PyResult<Option<Node>> {
        self.with(|_, n| n.previous_sibling().map(|p| self.handle(py, p)))
    }

    /// A `template` element's contents (a document fragment node).
    #[getter]
    fn template_contents(&self, py: Python<'_>) -> PyResult<Option<Node>> {
        self.with(|_, n| n.template_contents().map(|c| self.handle(py, c)))
    }

    /// The node's descendants in tree order (not entering template contents),
    /// elements only unless `all`.
    #[pyo3(signature = (*, all=false))]
    fn descendants(&self, py: Python<'_>, all: bool) -> PyResult<Vec<Node>> {
        self.with(|_, root| {
            let mut out = Vec::new();
            let mut cur = root.first_child();
            while let Some(n) = cur {
                if all || n.as_element().is_some() {
                    out.push(self.handle(py, n));
                }
                cur = n.first_child().or_else(|| {
                    let mut up = n;
                    loop {
                        if up == root {
                            return None;
                        }
                        if let Some(next) = up.next_sibling() {
                            return Some(next);
                        }
                        up = up.parent()?;
                    }
                });
            }
            out
        })
    }

    /// The HTML of the node's children (the DOM's `innerHTML`).
    #[getter]
    fn inner_html(&self) -> PyResult<String> {
        self.with(|doc, n| doc.serialize(n))
    }

    /// The node's own HTML (the DOM's `outerHTML`; for the document node, the
    /// whole document).
    #[getter]
    fn html(&self) -> PyResult<String> {
        self.with(|doc, n| match n.kind() {
            NodeKind::Document | NodeKind::DocumentFragment => doc.serialize(n),
            _ => tagloom_html::serializer::node_to_string(
                n,
                tagloom_html::FragmentOptions {
                    scripting: doc.options.scripting,
                },
            ),
        })
    }

    fn __iter__(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let list = PyList::new(py, self.children(py)?)?;
        Ok(list.try_iter()?.into_any().unbind())
    }

    fn __len__(&self) -> PyResult<usize> {
        self.with(|_, n| n.children().count())
    }

    fn __bool__(&self) -> bool {
        true
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<Node>()
            .is_ok_and(|o| o.get().key == self.key && o.get().doc.is(&self.doc))
    }

    fn __hash__(&self) -> u64 {
        self.key.0.get() ^ (self.doc.as_ptr() as usize as u64).rotate_left(32)
    }

    fn __repr__(&self) -> PyResult<String> {
        self.with(|_, n| match n.kind() {
            NodeKind::Element(e) => format!("<tagloom.Node <{}>>", e.local_name()),
            NodeKind::Text(t) => {
                let short: String = t.chars().take(30).collect();
                format!("<tagloom.Node text {short:?}>")
            }
            NodeKind::Comment(_) => "<tagloom.Node comment>".to_owned(),
            NodeKind::Doctype(d) => format!("<tagloom.Node <!DOCTYPE {}>>", d.name()),
            NodeKind::Document => "<tagloom.Node document>".to_owned(),
            NodeKind::DocumentFragment => "<tagloom.Node document_fragment>".to_owned(),
            NodeKind::ProcessingInstruction(pi) => format!("<tagloom.Node <?{}>>", pi.target()),
        })
    }
}
