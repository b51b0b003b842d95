//! Documents from Python: `bytes`-like objects are read in place, `str` is
//! encoded to UTF-8 (and parsed as UTF-8: the text is already decoded).

use std::borrow::Cow;

use pyo3::exceptions::PyTypeError;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

/// A document's bytes, and whether they came from a `str`.
pub(crate) struct Data<'py> {
    /// The bytes (borrowed from a `bytes` object, or the UTF-8 of a `str`).
    pub bytes: Cow<'py, [u8]>,
    /// True for a `str`: the bytes are UTF-8 whatever they declare.
    pub is_text: bool,
}

/// Reads `obj`: `bytes`, `bytearray` (copied), `memoryview`-free, or `str`.
pub(crate) fn data<'py>(obj: &'py Bound<'py, PyAny>) -> PyResult<Data<'py>> {
    if let Ok(b) = obj.cast::<PyBytes>() {
        return Ok(Data {
            bytes: Cow::Borrowed(b.as_bytes()),
            is_text: false,
        });
    }
    if let Ok(s) = obj.cast::<PyString>() {
        let text = s.to_cow()?;
        return Ok(Data {
            bytes: Cow::Owned(text.into_owned().into_bytes()),
            is_text: true,
        });
    }
    if let Ok(b) = obj.cast::<PyByteArray>() {
        return Ok(Data {
            bytes: Cow::Owned(b.to_vec()),
            is_text: false,
        });
    }
    Err(PyTypeError::new_err(format!(
        "expected bytes or str, not {}",
        obj.get_type().name()?
    )))
}

/// Text from `obj` (`str`, or `bytes` read as UTF-8 with U+FFFD for malformed
/// bytes, as the CLI reads a sanitizer's or rewriter's input).
pub(crate) fn text<'py>(obj: &'py Bound<'py, PyAny>) -> PyResult<Cow<'py, str>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return s.to_cow();
    }
    let data = data(obj)?;
    Ok(Cow::Owned(
        encoding_rs::UTF_8.decode(&data.bytes).0.into_owned(),
    ))
}
