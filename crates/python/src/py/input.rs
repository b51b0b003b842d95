//! Documents from Python: `bytes` objects are read in place, `bytearray` is
//! copied, a `str` is read as UTF-8 (in place when it is ASCII; see
//! [`unicode::utf8`]) and parsed as UTF-8: the text is already decoded.

use std::borrow::Cow;

use pyo3::exceptions::PyTypeError;
use pyo3::marker::Ungil;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

use super::unicode;

/// A document's bytes, and whether they came from a `str`.
pub(crate) struct Data<'py> {
    /// The bytes (borrowed from a `bytes` object or from a `str`'s UTF-8).
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
        return Ok(Data {
            bytes: match unicode::utf8(s)? {
                Cow::Borrowed(text) => Cow::Borrowed(text.as_bytes()),
                Cow::Owned(text) => Cow::Owned(text.into_bytes()),
            },
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
/// bytes, as the CLI reads a sanitizer's or rewriter's input). Borrowed from `obj`
/// for an ASCII `str` and for well-formed `bytes` without a BOM.
pub(crate) fn text<'py>(obj: &'py Bound<'py, PyAny>) -> PyResult<Cow<'py, str>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return unicode::utf8(s);
    }
    Ok(match data(obj)?.bytes {
        Cow::Borrowed(bytes) => encoding_rs::UTF_8.decode(bytes).0,
        Cow::Owned(bytes) => Cow::Owned(encoding_rs::UTF_8.decode(&bytes).0.into_owned()),
    })
}

/// Inputs shorter than this are worked on with the GIL held. Releasing and taking
/// it back costs about 900 instructions and two mutex round trips a call (callgrind,
/// BENCHMARKS.md "From Python", session 11): 2 % of parsing a 100-byte snippet, and
/// more in wall clock when other Python threads wait for it. A document this size
/// parses or sanitizes in tens of microseconds, far under the interpreter's switch
/// interval (5 ms), so holding the GIL that long keeps other threads waiting no
/// longer than ordinary Python code would.
pub(crate) const KEEP_GIL_BELOW: usize = 8 * 1024;

/// Runs `work` on an input of `len` bytes: with the GIL released, unless the input
/// is shorter than [`KEEP_GIL_BELOW`].
pub(crate) fn detach_for<T: Ungil>(
    py: Python<'_>,
    len: usize,
    work: impl Ungil + FnOnce() -> T,
) -> T {
    if len < KEEP_GIL_BELOW {
        work()
    } else {
        py.detach(work)
    }
}
