//! `tagloom.sanitize`, `sanitize_many`, `Policy`, `sniff` and `tokens`.

use std::sync::{Arc, OnceLock};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};
use tagloom_transform::rewrite::{Rules, Settings, rewrite_str};
use tagloom_transform::sanitize::{Policy as RustPolicy, Sanitizer};

use super::errors::{PolicyError, RewriteError, TokenizerError};
use super::input;
use crate::parse;
use crate::pool;
use crate::tokens::{self as lexer, Tok};

/// A compiled sanitizer policy (build it once, use it for many documents).
#[pyclass(frozen, module = "tagloom", name = "Policy")]
pub struct Policy {
    sanitizer: Arc<Sanitizer>,
}

fn default_sanitizer() -> Arc<Sanitizer> {
    static DEFAULT: OnceLock<Arc<Sanitizer>> = OnceLock::new();
    DEFAULT
        .get_or_init(|| Arc::new(Sanitizer::new(Arc::new(RustPolicy::default()))))
        .clone()
}

fn compile(py: Python<'_>, spec: &Bound<'_, PyAny>) -> PyResult<Arc<Sanitizer>> {
    let json: String = if let Ok(s) = spec.cast::<PyString>() {
        s.to_cow()?.into_owned()
    } else if spec.cast::<PyDict>().is_ok() {
        py.import("json")?
            .getattr("dumps")?
            .call1((spec,))?
            .extract()?
    } else {
        return Err(pyo3::exceptions::PyTypeError::new_err(
            "a policy is a tagloom.Policy, a JSON string or a dict",
        ));
    };
    let policy = RustPolicy::from_json(&json).map_err(|e| PolicyError::new_err(e.to_string()))?;
    Ok(Arc::new(Sanitizer::new(Arc::new(policy))))
}

/// The sanitizer for a `policy=` argument: None, a `Policy`, a JSON string or a dict.
fn sanitizer(py: Python<'_>, policy: Option<&Bound<'_, PyAny>>) -> PyResult<Arc<Sanitizer>> {
    match policy {
        None => Ok(default_sanitizer()),
        Some(p) if p.is_none() => Ok(default_sanitizer()),
        Some(p) => match p.cast::<Policy>() {
            Ok(compiled) => Ok(compiled.get().sanitizer.clone()),
            Err(_) => compile(py, p),
        },
    }
}

#[pymethods]
impl Policy {
    /// A policy from JSON text or a dict with the fields of the sanitizer's
    /// policy (missing ones keep their defaults); no argument: the default.
    #[new]
    #[pyo3(signature = (spec=None))]
    fn new(py: Python<'_>, spec: Option<&Bound<'_, PyAny>>) -> PyResult<Policy> {
        Ok(Policy {
            sanitizer: sanitizer(py, spec)?,
        })
    }

    /// Sanitizes one document with this policy.
    fn sanitize(&self, py: Python<'_>, html: &Bound<'_, PyAny>) -> PyResult<String> {
        let text = input::text(html)?;
        let sanitizer = &*self.sanitizer;
        let text = &*text;
        Ok(input::detach_for(py, text.len(), || {
            sanitizer.sanitize(text).html
        }))
    }

    fn __repr__(&self) -> &'static str {
        "<tagloom.Policy>"
    }
}

/// Sanitizes HTML body content. See `tagloom/__init__.pyi`.
#[pyfunction]
#[pyo3(signature = (html, policy=None))]
pub(crate) fn sanitize(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    policy: Option<&Bound<'_, PyAny>>,
) -> PyResult<String> {
    let sanitizer = sanitizer(py, policy)?;
    let text = input::text(html)?;
    let text = &*text;
    Ok(input::detach_for(py, text.len(), || {
        sanitizer.sanitize(text).html
    }))
}

/// Sanitizes every document of `docs` on `threads` threads, the GIL released.
#[pyfunction]
#[pyo3(signature = (docs, policy=None, *, threads=0))]
pub(crate) fn sanitize_many(
    py: Python<'_>,
    docs: &Bound<'_, PyAny>,
    policy: Option<&Bound<'_, PyAny>>,
    threads: usize,
) -> PyResult<Vec<String>> {
    let sanitizer = sanitizer(py, policy)?;
    let objects: Vec<Bound<'_, PyAny>> = docs.try_iter()?.collect::<PyResult<_>>()?;
    let texts = objects
        .iter()
        .map(input::text)
        .collect::<PyResult<Vec<_>>>()?;
    Ok(py.detach(|| {
        pool::map_largest_first(&texts, threads, |t| t.len(), |t| sanitizer.sanitize(t).html)
    })?)
}

/// The encoding the parser decodes `data` with (its WHATWG name).
#[pyfunction]
#[pyo3(signature = (data, *, transport=None))]
pub(crate) fn sniff(
    py: Python<'_>,
    data: &Bound<'_, PyAny>,
    transport: Option<&str>,
) -> PyResult<&'static str> {
    let data = input::data(data)?;
    let transport = transport.map(parse::encoding_for_label).transpose()?;
    let bytes = &*data.bytes;
    Ok(input::detach_for(py, bytes.len(), || {
        parse::sniff(bytes, transport).name()
    }))
}

/// The tokenizer's tokens in html5lib-tests' form. See `tagloom/__init__.pyi`.
#[pyfunction]
#[pyo3(signature = (html, *, state="data", last_start_tag=None))]
pub(crate) fn tokens<'py>(
    py: Python<'py>,
    html: &Bound<'py, PyAny>,
    state: &str,
    last_start_tag: Option<String>,
) -> PyResult<Bound<'py, PyList>> {
    let text = input::text(html)?;
    let state = lexer::state(state).ok_or_else(|| {
        PyValueError::new_err(format!(
            "unknown tokenizer state {state:?} (data, rcdata, rawtext, script, plaintext, cdata)"
        ))
    })?;
    let text = &*text;
    let toks = py
        .detach(|| lexer::tokenize(text, state, last_start_tag))
        .map_err(|e| TokenizerError::new_err(e.to_string()))?;
    let out = PyList::empty(py);
    for tok in toks {
        let item: Bound<'py, PyAny> = match tok {
            Tok::Doctype {
                name,
                public_id,
                system_id,
                correct,
            } => PyList::new(
                py,
                [
                    "DOCTYPE".into_pyobject(py)?.into_any(),
                    name.into_pyobject(py)?.into_any(),
                    public_id.into_pyobject(py)?.into_any(),
                    system_id.into_pyobject(py)?.into_any(),
                    pyo3::types::PyBool::new(py, correct).to_owned().into_any(),
                ],
            )?
            .into_any(),
            Tok::StartTag {
                name,
                attrs,
                self_closing,
            } => {
                let dict = PyDict::new(py);
                for (k, v) in attrs {
                    dict.set_item(k, v)?;
                }
                let list = PyList::new(
                    py,
                    [
                        "StartTag".into_pyobject(py)?.into_any(),
                        name.into_pyobject(py)?.into_any(),
                        dict.into_any(),
                    ],
                )?;
                if self_closing {
                    list.append(true)?;
                }
                list.into_any()
            }
            Tok::EndTag(name) => PyList::new(py, ["EndTag", name.as_str()])?.into_any(),
            Tok::Comment(data) => PyList::new(py, ["Comment", data.as_str()])?.into_any(),
            Tok::Characters(data) => PyList::new(py, ["Character", data.as_str()])?.into_any(),
            Tok::ProcessingInstruction { target, data } => PyList::new(
                py,
                ["ProcessingInstruction", target.as_str(), data.as_str()],
            )?
            .into_any(),
        };
        out.append(item)?;
    }
    Ok(out)
}

/// Rewrites HTML with rules (the `tagloom rewrite --rules` format: a JSON list, or
/// the same as Python lists and dicts). See `tagloom/__init__.pyi`.
#[pyfunction]
pub(crate) fn rewrite(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    rules: &Bound<'_, PyAny>,
) -> PyResult<String> {
    let json: String = match rules.cast::<PyString>() {
        Ok(s) => s.to_cow()?.into_owned(),
        Err(_) => py
            .import("json")?
            .getattr("dumps")?
            .call1((rules,))?
            .extract()?,
    };
    let rules = Rules::from_json(&json).map_err(|e| RewriteError::new_err(e.to_string()))?;
    let text = input::text(html)?;
    let text = &*text;
    input::detach_for(py, text.len(), || {
        let handlers = rules.handlers().map_err(|e| e.to_string())?;
        rewrite_str(text, handlers, Settings::default()).map_err(|e| e.to_string())
    })
    .map_err(RewriteError::new_err)
}
