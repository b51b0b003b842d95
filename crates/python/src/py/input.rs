//! Documents from Python: `bytes` objects and `str` are read in place (a `str`
//! through its UTF-8, which CPython makes once and keeps with the string, and
//! parsed as UTF-8: the text is already decoded); `bytearray` is copied.

use std::borrow::Cow;

use pyo3::exceptions::PyTypeError;
use pyo3::marker::Ungil;
use pyo3::prelude::*;
use pyo3::types::{PyByteArray, PyBytes, PyString};

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
            bytes: Cow::Borrowed(utf8(s)?.as_bytes()),
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
/// for a `str` and for well-formed `bytes` without a BOM.
pub(crate) fn text<'py>(obj: &'py Bound<'py, PyAny>) -> PyResult<Cow<'py, str>> {
    if let Ok(s) = obj.cast::<PyString>() {
        return utf8(s).map(Cow::Borrowed);
    }
    Ok(match data(obj)?.bytes {
        Cow::Borrowed(bytes) => encoding_rs::UTF_8.decode(bytes).0,
        Cow::Owned(bytes) => Cow::Owned(encoding_rs::UTF_8.decode(&bytes).0.into_owned()),
    })
}

/// The UTF-8 of a `str`, borrowed from it: CPython encodes a string once and keeps
/// the result with it (a compact ASCII string is its own UTF-8), so this neither
/// copies nor allocates after the first call on a string. PyO3's `to_cow` cannot do
/// that in an `abi3-py39` build: it encodes into a new `bytes` object and copies that
/// into a `String`, every call (BENCHMARKS.md, "From Python", session 11).
/// A string with a lone surrogate raises `UnicodeEncodeError`, as `to_cow` did.
#[allow(unsafe_code)]
fn utf8<'py>(s: &'py Bound<'py, PyString>) -> PyResult<&'py str> {
    // `PyUnicode_AsUTF8AndSize` is in the stable ABI from 3.10 on, and a public
    // function that CPython's library exports in every version since 3.3, with the
    // same signature; pyo3-ffi declares it only when the build targets 3.10+, so
    // the module declares it here for its 3.9 floor.
    unsafe extern "C" {
        fn PyUnicode_AsUTF8AndSize(
            unicode: *mut pyo3::ffi::PyObject,
            size: *mut pyo3::ffi::Py_ssize_t,
        ) -> *const std::ffi::c_char;
    }
    let mut size: pyo3::ffi::Py_ssize_t = 0;
    // SAFETY: `s` is a live `str` (the cast checked its type) and we hold the GIL
    // (`Bound<'py, _>`); `size` is a valid place for the length.
    let ptr = unsafe { PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
    if ptr.is_null() {
        return Err(PyErr::fetch(s.py()));
    }
    let len = usize::try_from(size).unwrap_or(0);
    // SAFETY: on success CPython returns its UTF-8 buffer of the string, `size`
    // bytes of valid UTF-8 (it raised above for a lone surrogate), owned by the
    // string and never changed or freed before the string is: `s` is borrowed for
    // 'py, so the slice cannot outlive it. Tests: `test_str_input_*` in
    // tests/test_more.py (ASCII, non-ASCII, astral, lone surrogates, empty).
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) };
    // SAFETY: as above, CPython's UTF-8 of a string is well-formed UTF-8.
    Ok(unsafe { std::str::from_utf8_unchecked(bytes) })
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
