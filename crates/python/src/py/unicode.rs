//! A Python `str` as UTF-8, faster than CPython's own encoder. An ASCII string is
//! its own UTF-8: borrowed in place. Any other is handed out by CPython as UCS-4
//! code points, whole or, past [`WHOLE`], a piece at a time (`PyUnicode_AsUCS4`: a
//! widening copy, about four times faster than its UTF-8 encoder) and encoded by
//! [`crate::ucs4`]. PyO3's
//! `to_cow` (what the bindings used before) asks CPython to encode a new `bytes`
//! object and copies that into a `String`; an `abi3-py39` build has nothing
//! better, as `PyUnicode_AsUTF8AndSize` is in the limited API from 3.10 on only
//! (and it keeps the UTF-8 with the string, doubling its memory). CPython's UTF-8
//! encoder was 11–17 % of a call on a fresh non-ASCII `str`; this reading is 6–10 %
//! (BENCHMARKS.md, "From Python", session 11).

use std::borrow::Cow;

use pyo3::exceptions::{PyUnicodeEncodeError, PyValueError};
use pyo3::ffi;
use pyo3::prelude::*;
use pyo3::types::PyString;

use crate::ucs4::push_utf8;

/// A string of up to this many code points is converted whole (a buffer of 4 MiB
/// at most). A longer one goes in pieces of [`PIECE`] code points, each copied out
/// as a substring first (which costs about as much again as the conversion), so
/// that the buffer stays small.
const WHOLE: usize = 1 << 20;

/// Code points converted at a time past [`WHOLE`]: 64 KiB of UCS-4, which stays in
/// the cache while it is encoded.
const PIECE: usize = 16 * 1024;

/// The UTF-8 of `s`: borrowed for an ASCII string, encoded otherwise. A string with
/// a lone surrogate raises `UnicodeEncodeError`, as CPython's encoder does.
pub(crate) fn utf8<'py>(s: &'py Bound<'py, PyString>) -> PyResult<Cow<'py, str>> {
    let py = s.py();
    if s.call_method0(pyo3::intern!(py, "isascii"))?.is_truthy()? {
        // An ASCII string's UTF-8 is its data: `to_str` returns it without copying
        // on 3.10+ builds; here `PyUnicode_AsUTF8AndSize` does the same.
        return ascii(s).map(Cow::Borrowed);
    }
    let len = length(s)?;
    let piece = if len <= WHOLE { len } else { PIECE };
    // Not zeroed: `code_points` fills what it hands out (a memset of the buffer
    // cost half as much as the conversion).
    let mut chars: Vec<u32> = Vec::with_capacity(piece);
    let mut out = Vec::with_capacity(len + len / 2);
    let mut start = 0;
    while start < len {
        let end = len.min(start + piece);
        let buf = if start == 0 && end == len {
            code_points(s, &mut chars, end - start)?
        } else {
            code_points(&substring(s, start, end)?, &mut chars, end - start)?
        };
        push_utf8(&mut out, buf).map_err(|i| surrogate(s, start + i))?;
        start = end;
    }
    // Every byte pushed came from `char::encode_utf8` or was an ASCII code point.
    String::from_utf8(out)
        .map(Cow::Owned)
        .map_err(|e| PyValueError::new_err(e.to_string()))
}

/// CPython's error for the lone surrogate at `position` of `s`.
fn surrogate(s: &Bound<'_, PyString>, position: usize) -> PyErr {
    let args = (
        "utf-8",
        s.clone().unbind(),
        position,
        position + 1,
        "surrogates not allowed",
    );
    PyUnicodeEncodeError::new_err(args)
}

/// `s[start:end]`, a new string.
#[allow(unsafe_code)]
fn substring<'py>(
    s: &Bound<'py, PyString>,
    start: usize,
    end: usize,
) -> PyResult<Bound<'py, PyAny>> {
    let (start, end) = (to_ssize(start)?, to_ssize(end)?);
    // SAFETY: `s` is a live `str` and we hold the GIL (`Bound<'py, _>`);
    // `PyUnicode_Substring` (stable ABI) returns a new reference or NULL with an
    // exception set, which `from_owned_ptr_or_err` takes over either way.
    unsafe {
        Bound::from_owned_ptr_or_err(s.py(), ffi::PyUnicode_Substring(s.as_ptr(), start, end))
    }
}

/// The code points of `s` (exactly `n` of them), written into `buf`'s storage
/// (its old contents are dropped).
#[allow(unsafe_code)]
fn code_points<'b>(s: &Bound<'_, PyAny>, buf: &'b mut Vec<u32>, n: usize) -> PyResult<&'b [u32]> {
    buf.clear();
    buf.reserve(n);
    let size = to_ssize(n)?;
    // SAFETY: `s` is a live `str` (the caller's string or a substring of it) and we
    // hold the GIL; `buf` has room for `n` = `size` UCS-4 units (reserved above),
    // and `PyUnicode_AsUCS4` (stable ABI) writes at most `size` of them (it fails
    // with SystemError when the string is longer; no NUL is added, `copy_null` is 0).
    let done = unsafe { ffi::PyUnicode_AsUCS4(s.as_ptr(), buf.as_mut_ptr(), size, 0) };
    if done.is_null() {
        return Err(PyErr::fetch(s.py()));
    }
    // SAFETY: on success `PyUnicode_AsUCS4` wrote all the string's code points, and
    // the string has `n` of them (`s.len()`, or the substring's `end - start`), so
    // the first `n` units are initialized; `n` is within the capacity reserved.
    // Tests: tests/test_input.py (whole strings and pieces, astral characters).
    unsafe { buf.set_len(n) };
    Ok(buf)
}

/// The data of an ASCII string (its UTF-8).
#[allow(unsafe_code)]
fn ascii<'py>(s: &'py Bound<'py, PyString>) -> PyResult<&'py str> {
    // Declared here: pyo3-ffi declares it only for 3.10+ builds (the stable ABI has
    // it from 3.10 on), but CPython's library exports it, with this signature, in
    // every version since 3.3, and this module's floor is 3.9.
    unsafe extern "C" {
        fn PyUnicode_AsUTF8AndSize(
            unicode: *mut ffi::PyObject,
            size: *mut ffi::Py_ssize_t,
        ) -> *const std::ffi::c_char;
    }
    let mut size: ffi::Py_ssize_t = 0;
    // SAFETY: `s` is a live `str` and we hold the GIL; `size` is a valid place.
    let ptr = unsafe { PyUnicode_AsUTF8AndSize(s.as_ptr(), &mut size) };
    if ptr.is_null() {
        return Err(PyErr::fetch(s.py()));
    }
    let len = usize::try_from(size).unwrap_or(0);
    // SAFETY: on success the pointer is `size` bytes of UTF-8 owned by the string
    // (for an ASCII string, the string's own data, no copy), valid and unchanged as
    // long as the string lives; `s` is borrowed for 'py, so the slice cannot outlive
    // it. Tests: tests/test_input.py (ASCII, empty, subclasses, threads).
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) };
    std::str::from_utf8(bytes).map_err(|e| PyValueError::new_err(e.to_string()))
}

/// How many code points `s` holds: the string's own count, which a subclass's
/// `__len__` cannot change (`code_points` relies on it).
#[allow(unsafe_code)]
fn length(s: &Bound<'_, PyString>) -> PyResult<usize> {
    // SAFETY: `s` is a live `str` and we hold the GIL; `PyUnicode_GetLength`
    // (stable ABI) returns the length or -1 with an exception set.
    let n = unsafe { ffi::PyUnicode_GetLength(s.as_ptr()) };
    usize::try_from(n).map_err(|_| PyErr::fetch(s.py()))
}

fn to_ssize(n: usize) -> PyResult<ffi::Py_ssize_t> {
    ffi::Py_ssize_t::try_from(n)
        .map_err(|_| pyo3::exceptions::PyOverflowError::new_err("string too long"))
}
