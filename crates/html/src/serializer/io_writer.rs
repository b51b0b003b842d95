//! [`IoWriter`]: the `fmt::Write`-based serializers into an `io::Write`.

use std::fmt::{self, Write};
use std::io;

/// Lets the serializers (which write into a `fmt::Write`) write into an
/// `io::Write` (a file, a locked stdout): a failed write becomes `fmt::Error`
/// and the `io::Error` is kept for [`take_error`](Self::take_error).
///
/// ```
/// use tagloom_html::serializer::{IoWriter, TokenWriter};
/// use tagloom_html::token::OwnedToken;
///
/// let mut out = IoWriter::new(Vec::new());
/// let mut writer = TokenWriter::new();
/// writer.write(&OwnedToken::text("a<b"), &mut out).unwrap();
/// assert_eq!(out.into_inner(), b"a&lt;b");
/// ```
#[derive(Debug)]
pub struct IoWriter<W> {
    out: W,
    error: Option<io::Error>,
}

impl<W: io::Write> IoWriter<W> {
    /// A writer into `out` (wrap `out` in a `BufWriter` if it is unbuffered: the
    /// serializers write many small pieces).
    pub fn new(out: W) -> IoWriter<W> {
        IoWriter { out, error: None }
    }

    /// The error behind the last `fmt::Error`, if any.
    pub fn take_error(&mut self) -> Option<io::Error> {
        self.error.take()
    }

    /// Turns a serializer's result into an `io::Result` with the writer's own
    /// error.
    pub fn result(&mut self, result: fmt::Result) -> io::Result<()> {
        result.map_err(|fmt::Error| {
            self.take_error()
                .unwrap_or_else(|| io::Error::other("formatter error"))
        })
    }

    /// The inner writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: io::Write> Write for IoWriter<W> {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        self.out.write_all(s.as_bytes()).map_err(|e| {
            self.error = Some(e);
            fmt::Error
        })
    }
}
