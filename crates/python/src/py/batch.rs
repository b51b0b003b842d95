//! The batch calls: one Rust call for a whole list of documents, the GIL released
//! while `threads` threads parse (see [`crate::pool`]).

use pyo3::prelude::*;
use pyo3::types::PyList;

use super::document::{Document, options};
use super::input;
use crate::parse::{self, Options, ParseError, Parsed};
use crate::pool;
use crate::text::{TextMode, text_of};

/// The documents of `docs` with the options each parses with.
fn inputs<'py>(
    docs: &'py [Bound<'py, PyAny>],
    encoding: Option<&str>,
    scripting: bool,
) -> PyResult<Vec<(input::Data<'py>, Options)>> {
    docs.iter()
        .map(|d| {
            let data = input::data(d)?;
            let opts = options(encoding, scripting, data.is_text)?;
            Ok((data, opts))
        })
        .collect()
}

fn items<'py>(docs: &Bound<'py, PyAny>) -> PyResult<Vec<Bound<'py, PyAny>>> {
    docs.try_iter()?.collect()
}

/// Parses every document of `docs`. See `tagloom/__init__.pyi`.
#[pyfunction]
#[pyo3(signature = (docs, *, threads=0, encoding=None, scripting=true))]
pub(crate) fn parse_many(
    py: Python<'_>,
    docs: &Bound<'_, PyAny>,
    threads: usize,
    encoding: Option<&str>,
    scripting: bool,
) -> PyResult<Py<PyList>> {
    let objects = items(docs)?;
    let work = inputs(&objects, encoding, scripting)?;
    let parsed: Vec<Result<Parsed, ParseError>> = py.detach(|| {
        pool::map_largest_first(
            &work,
            threads,
            |(data, _)| data.bytes.len(),
            |(data, options)| parse::parse(&data.bytes, options),
        )
    })?;
    let out = PyList::empty(py);
    for ((parsed, (_, options)), object) in parsed.into_iter().zip(work).zip(&objects) {
        let doc = Document::new(parsed?, options, object.clone().unbind());
        out.append(Py::new(py, doc)?)?;
    }
    Ok(out.unbind())
}

/// The text of every document of `docs` (what `parse(d).text` gives), no tree
/// kept. See `tagloom/__init__.pyi`.
#[pyfunction]
#[pyo3(signature = (docs, *, threads=0, encoding=None, scripting=true))]
pub(crate) fn extract_text_many(
    py: Python<'_>,
    docs: &Bound<'_, PyAny>,
    threads: usize,
    encoding: Option<&str>,
    scripting: bool,
) -> PyResult<Vec<String>> {
    let objects = items(docs)?;
    let work = inputs(&objects, encoding, scripting)?;
    let texts: Vec<Result<String, ParseError>> = py.detach(|| {
        pool::map_largest_first(
            &work,
            threads,
            |(data, _)| data.bytes.len(),
            |(data, options)| {
                let parsed = parse::parse(&data.bytes, options)?;
                Ok(parsed
                    .store
                    .document()
                    .map(|d| text_of(d, TextMode::Visible))
                    .unwrap_or_default())
            },
        )
    })?;
    texts.into_iter().map(|t| t.map_err(PyErr::from)).collect()
}
