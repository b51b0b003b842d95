//! The Python module `tagloom._tagloom`.

mod batch;
mod document;
mod errors;
mod input;
mod l10n;
mod node;
mod transform;
mod unicode;
mod warc;
mod wikitext;

use pyo3::prelude::*;

/// The extension module; `tagloom/__init__.py` re-exports what users call.
#[pymodule]
fn _tagloom(m: &Bound<'_, PyModule>) -> PyResult<()> {
    errors::register(m)?;
    m.add_class::<document::Document>()?;
    m.add_class::<node::Node>()?;
    m.add_function(wrap_pyfunction!(document::parse, m)?)?;
    m.add_function(wrap_pyfunction!(document::parse_fragment, m)?)?;
    m.add_function(wrap_pyfunction!(batch::parse_many, m)?)?;
    m.add_function(wrap_pyfunction!(batch::extract_text_many, m)?)?;
    m.add_class::<transform::Policy>()?;
    m.add_function(wrap_pyfunction!(transform::sanitize, m)?)?;
    m.add_function(wrap_pyfunction!(transform::sanitize_many, m)?)?;
    m.add_function(wrap_pyfunction!(transform::sniff, m)?)?;
    m.add_function(wrap_pyfunction!(transform::tokens, m)?)?;
    m.add_function(wrap_pyfunction!(transform::rewrite, m)?)?;
    m.add_function(wrap_pyfunction!(l10n::l10n_extract, m)?)?;
    m.add_function(wrap_pyfunction!(l10n::l10n_merge, m)?)?;
    m.add_function(wrap_pyfunction!(l10n::l10n_pseudo, m)?)?;
    m.add_function(wrap_pyfunction!(wikitext::wikitext_render, m)?)?;
    m.add_class::<wikitext::Wiki>()?;
    warc::register(m)?;
    Ok(())
}
