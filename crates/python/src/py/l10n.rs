//! `tagloom.l10n`: the Rust side, on paths (`tagloom/l10n.py` adds bytes in and
//! out through a temp directory). Every call runs `tagloom_l10n::flow`, the wiring
//! `tagloom l10n` runs, so the files are the CLI's byte for byte.

use std::path::PathBuf;
use std::sync::Arc;

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use tagloom_l10n::LanguageTag;
use tagloom_l10n::flow::{
    self, Common, ExtractOptions, FileReport, Format, MergeOptions, PartialMerge, PseudoOptions,
    Report,
};
use tagloom_l10n::rules::Rules;

use super::errors::L10nError;

fn err(e: impl std::fmt::Display) -> PyErr {
    L10nError::new_err(e.to_string())
}

fn lang(what: &str, value: &str) -> PyResult<LanguageTag> {
    LanguageTag::parse(value).map_err(|e| PyValueError::new_err(format!("{what} {value:?}: {e}")))
}

fn format(name: Option<&str>) -> PyResult<Option<Format>> {
    match name {
        None => Ok(None),
        Some("xliff" | "xlf") => Ok(Some(Format::Xliff)),
        Some("po") => Ok(Some(Format::Po)),
        Some(other) => Err(PyValueError::new_err(format!(
            "unknown format {other:?} (xliff, po)"
        ))),
    }
}

fn common(encoding: Option<String>, rules: Option<PathBuf>) -> PyResult<Common> {
    let rules = match rules {
        Some(path) => Rules::from_json_file(&path).map_err(err)?,
        None => Rules::default(),
    };
    Ok(Common {
        rules: Arc::new(rules),
        encoding,
        progress: false,
        ..Common::default()
    })
}

/// One file's report as a dict.
fn report<'py>(py: Python<'py>, report: Report) -> PyResult<Bound<'py, PyDict>> {
    let files: Vec<FileReport> = report.files;
    let d = PyDict::new(py);
    if let Some(f) = files.first() {
        d.set_item("encoding", &f.encoding)?;
        d.set_item("encoding_guessed", f.encoding_guessed)?;
        d.set_item("blocks", f.blocks)?;
        d.set_item("words", f.words)?;
        d.set_item("translated", f.translated)?;
        d.set_item("unconfirmed", f.unconfirmed)?;
        d.set_item("partial", f.partial)?;
        d.set_item(
            "issues",
            f.issues.iter().map(ToString::to_string).collect::<Vec<_>>(),
        )?;
        d.set_item("fallback", f.is_fallback())?;
    }
    Ok(d)
}

/// `tagloom l10n extract INPUT -o OUTPUT`.
#[pyfunction]
#[pyo3(signature = (input, output, *, source="en", target=None, format=None, encoding=None, rules=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn l10n_extract<'py>(
    py: Python<'py>,
    input: PathBuf,
    output: PathBuf,
    source: &str,
    target: Option<&str>,
    format: Option<&str>,
    encoding: Option<String>,
    rules: Option<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let options = ExtractOptions {
        source_lang: lang("source language", source)?,
        target_lang: target.map(|t| lang("target language", t)).transpose()?,
        format: self::format(format)?,
        common: common(encoding, rules)?,
    };
    let done = py
        .detach(|| flow::extract(&input, &output, &options))
        .map_err(err)?;
    report(py, done)
}

/// `tagloom l10n merge INPUT TRANSLATED -o OUTPUT`.
#[pyfunction]
#[pyo3(signature = (input, translated, output, *, source=None, target=None, format=None,
                    partial="report", include_fuzzy=false, encoding=None, rules=None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn l10n_merge<'py>(
    py: Python<'py>,
    input: PathBuf,
    translated: PathBuf,
    output: PathBuf,
    source: Option<&str>,
    target: Option<&str>,
    format: Option<&str>,
    partial: &str,
    include_fuzzy: bool,
    encoding: Option<String>,
    rules: Option<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let partial = match partial {
        "report" => PartialMerge::Report,
        "allow" => PartialMerge::Allow,
        "fail" => PartialMerge::Fail,
        other => {
            return Err(PyValueError::new_err(format!(
                "partial is \"report\", \"allow\" or \"fail\", not {other:?}"
            )));
        }
    };
    let options = MergeOptions {
        source_lang: source.map(|s| lang("source language", s)).transpose()?,
        target_lang: target.map(|t| lang("target language", t)).transpose()?,
        partial,
        format: self::format(format)?,
        include_fuzzy,
        common: common(encoding, rules)?,
    };
    let done = py
        .detach(|| flow::merge(&input, &translated, &output, &options))
        .map_err(err)?;
    report(py, done)
}

/// `tagloom l10n pseudo INPUT -o OUTPUT`.
#[pyfunction]
#[pyo3(signature = (input, output, *, source="en", target=None, encoding=None, rules=None))]
pub(crate) fn l10n_pseudo<'py>(
    py: Python<'py>,
    input: PathBuf,
    output: PathBuf,
    source: &str,
    target: Option<&str>,
    encoding: Option<String>,
    rules: Option<PathBuf>,
) -> PyResult<Bound<'py, PyDict>> {
    let options = PseudoOptions {
        source_lang: lang("source language", source)?,
        target_lang: target.map(|t| lang("target language", t)).transpose()?,
        common: common(encoding, rules)?,
    };
    let done = py
        .detach(|| flow::pseudo(&input, &output, &options))
        .map_err(err)?;
    report(py, done)
}
