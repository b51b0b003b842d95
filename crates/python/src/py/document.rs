//! `tagloom.parse`, `tagloom.parse_fragment` and the `Document` they return: the
//! tree stays in Rust (a [`DomStore`]); nodes are light handles ([`Node`]).

use pyo3::prelude::*;
use pyo3::types::PyList;
use tagloom_html::dom::{self, DomStore, NodeRef};
use tagloom_html::dom_patch::PatchKey;
use tagloom_html::serializer::{FragmentOptions, children_to_string};

use super::input;
use super::node::Node;
use crate::parse::{self as engine, Options, Parsed};
use crate::text::{TextMode, text_of};

/// A parsed document (or fragment). Read-only; its nodes are handles into it.
#[pyclass(frozen, module = "tagloom")]
pub struct Document {
    pub(crate) store: DomStore,
    /// For a fragment, the `html` root whose children are the fragment's nodes.
    pub(crate) fragment_root: Option<PatchKey>,
    pub(crate) options: Options,
    pub(crate) encoding: &'static encoding_rs::Encoding,
    /// The input object (for `patches()`, which parses again).
    pub(crate) source: Py<PyAny>,
}

impl Document {
    pub(crate) fn new(parsed: Parsed, options: Options, source: Py<PyAny>) -> Document {
        Document {
            store: parsed.store,
            fragment_root: parsed.fragment_root,
            options,
            encoding: parsed.encoding,
            source,
        }
    }

    /// The node whose children are the document's (or the fragment's) top level.
    pub(crate) fn top(&self) -> Option<NodeRef<'_>> {
        match self.fragment_root {
            Some(key) => self.store.get(key),
            None => self.store.document(),
        }
    }

    pub(crate) fn serialize(&self, node: NodeRef<'_>) -> String {
        children_to_string(
            node,
            FragmentOptions {
                scripting: self.options.scripting,
            },
        )
    }

    /// The first HTML element named `name` in tree order.
    fn find(&self, name: &str) -> Option<PatchKey> {
        let html = self
            .store
            .document()?
            .children()
            .find(|n| n.as_element().is_some())?;
        if html.as_element().is_some_and(|e| e.is_html(name)) {
            return Some(html.key());
        }
        html.children()
            .find(|n| n.as_element().is_some_and(|e| e.is_html(name)))
            .map(|n| n.key())
    }
}

/// Options shared by `parse` and `parse_many`.
pub(crate) fn options(encoding: Option<&str>, scripting: bool, is_text: bool) -> PyResult<Options> {
    let transport = match (is_text, encoding) {
        // A `str` is already decoded: its UTF-8 is what the parser reads.
        (true, _) => Some(encoding_rs::UTF_8),
        (false, Some(label)) => Some(engine::encoding_for_label(label)?),
        (false, None) => None,
    };
    Ok(Options {
        transport,
        scripting,
        fragment: None,
    })
}

/// Parses a document. See `tagloom/__init__.pyi`.
#[pyfunction]
#[pyo3(signature = (data, *, encoding=None, scripting=true))]
pub(crate) fn parse(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    encoding: Option<&str>,
    scripting: bool,
) -> PyResult<Document> {
    let input = input::data(data)?;
    let options = options(encoding, scripting, input.is_text)?;
    let bytes = &*input.bytes;
    let parsed = input::detach_for(py, bytes.len(), || engine::parse(bytes, &options))?;
    Ok(Document::new(parsed, options, data.clone().unbind()))
}

/// Parses a fragment in a context element. See `tagloom/__init__.pyi`.
#[pyfunction]
#[pyo3(signature = (data, context="div", *, scripting=true))]
pub(crate) fn parse_fragment(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    context: &str,
    scripting: bool,
) -> PyResult<Document> {
    let text = input::text(data)?;
    let options = Options {
        transport: Some(encoding_rs::UTF_8),
        scripting,
        fragment: Some(engine::fragment_context(context)?),
    };
    let bytes = text.as_bytes();
    let parsed = input::detach_for(py, bytes.len(), || engine::parse(bytes, &options))?;
    Ok(Document::new(parsed, options, data.clone().unbind()))
}

#[pymethods]
impl Document {
    /// The document serialized (HTML fragment serialization of its children).
    #[getter]
    fn html(&self) -> String {
        self.top().map(|n| self.serialize(n)).unwrap_or_default()
    }

    /// The text a reader sees: every text node but those in `script`, `style`,
    /// `noscript` and `template`.
    #[getter]
    fn text(&self) -> String {
        self.top()
            .map(|n| text_of(n, TextMode::Visible))
            .unwrap_or_default()
    }

    /// The encoding the document was decoded with (its WHATWG name).
    #[getter]
    fn encoding(&self) -> &'static str {
        self.encoding.name()
    }

    /// True for a fragment (`parse_fragment`).
    #[getter]
    fn is_fragment(&self) -> bool {
        self.fragment_root.is_some()
    }

    /// The top-level node: the document node, or a fragment's `html` root.
    #[getter]
    fn root(slf: &Bound<'_, Self>) -> Option<Node> {
        let key = slf.get().top()?.key();
        Some(Node::new(slf.clone().unbind(), key))
    }

    /// The `html` element.
    #[getter]
    fn html_element(slf: &Bound<'_, Self>) -> Option<Node> {
        let key = slf.get().find("html")?;
        Some(Node::new(slf.clone().unbind(), key))
    }

    /// The `head` element.
    #[getter]
    fn head(slf: &Bound<'_, Self>) -> Option<Node> {
        let key = slf.get().find("head")?;
        Some(Node::new(slf.clone().unbind(), key))
    }

    /// The `body` element (or `frameset`).
    #[getter]
    fn body(slf: &Bound<'_, Self>) -> Option<Node> {
        let doc = slf.get();
        let key = doc.find("body").or_else(|| doc.find("frameset"))?;
        Some(Node::new(slf.clone().unbind(), key))
    }

    /// The top-level nodes.
    #[getter]
    fn children(slf: &Bound<'_, Self>) -> Vec<Node> {
        let doc = slf.get();
        doc.top()
            .map(|top| {
                top.children()
                    .map(|c| Node::new(slf.clone().unbind(), c.key()))
                    .collect()
            })
            .unwrap_or_default()
    }

    fn __iter__(slf: &Bound<'_, Self>) -> PyResult<Py<PyAny>> {
        let list = PyList::new(slf.py(), Self::children(slf))?;
        Ok(list.try_iter()?.into_any().unbind())
    }

    /// The html5lib tree-construction dump (what `tagloom parse --format html5lib`
    /// prints).
    fn dump(&self) -> String {
        match self.fragment_root {
            Some(_) => self.top().map(dom::dump_children).unwrap_or_default(),
            None => dom::dump_document(&self.store),
        }
    }

    /// The parser's versioned `DomPatch` batches for this input (parsed again), each a
    /// dict `{"doc", "from", "to", "patches"}` in the batch's JSON form.
    fn patches(&self, py: Python<'_>) -> PyResult<Py<PyAny>> {
        let source = self.source.bind(py);
        let data = match self.fragment_root {
            Some(_) => input::text(source)?.into_owned().into_bytes(),
            None => input::data(source)?.bytes.into_owned(),
        };
        let options = self.options.clone();
        let batches = py.detach(|| engine::patches(&data, &options))?;
        let loads = py.import("json")?.getattr("loads")?;
        let out = PyList::empty(py);
        for batch in batches {
            out.append(loads.call1((batch.json().to_string(),))?)?;
        }
        Ok(out.try_iter()?.into_any().unbind())
    }

    /// How many nodes the tree holds.
    fn __len__(&self) -> usize {
        self.store.len()
    }

    fn __repr__(&self) -> String {
        let kind = if self.is_fragment() {
            "fragment"
        } else {
            "document"
        };
        format!("<tagloom.Document {kind}, {} nodes>", self.store.len())
    }
}
