//! `tagloom.wikitext.render`.

use pyo3::prelude::*;
use tagloom_wikitext::{RenderOptions, render};

use super::errors::WikitextError;

/// A page's wikitext to the HTML of its `<body>` (Parsoid-style), without
/// templates (no page store).
#[pyfunction]
#[pyo3(signature = (wikitext, *, title="Main Page"))]
pub(crate) fn wikitext_render(py: Python<'_>, wikitext: &str, title: &str) -> PyResult<String> {
    let options = RenderOptions {
        title: title.to_owned(),
        ..RenderOptions::default()
    };
    py.detach(|| render(wikitext, &options))
        .map_err(|e| WikitextError::new_err(e.to_string()))
}
