//! Standard output: the one way the binary writes its results.
//!
//! Every command writes through [`stdout`] and flushes before it returns. Rust ignores
//! `SIGPIPE`, so a reader that goes away (`tagloom tokens big.html | head -1`) shows up
//! as an `EPIPE` write error; [`is_broken_pipe`] recognizes it anywhere in an error's
//! chain, and `main` then ends the program quietly with exit status 0, as a filter in a
//! pipeline should. (`print!`/`println!` would panic instead: the binary never uses
//! them on standard output.)

use std::io::{BufWriter, StdoutLock};

/// Buffered, locked standard output. Flush it before returning: the flush is where a
/// closed pipe is reported (dropping a `BufWriter` swallows the error).
pub fn stdout() -> BufWriter<StdoutLock<'static>> {
    BufWriter::with_capacity(64 * 1024, std::io::stdout().lock())
}

/// Whether `err` (or one of its causes) is a write to a closed pipe.
pub fn is_broken_pipe(err: &anyhow::Error) -> bool {
    err.chain().any(|cause| {
        cause
            .downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;
    use std::io::{Error, ErrorKind};

    #[test]
    fn a_broken_pipe_is_found_under_context() {
        let err = Err::<(), _>(Error::from(ErrorKind::BrokenPipe))
            .context("cannot write the output")
            .context("tokens")
            .unwrap_err();
        assert!(is_broken_pipe(&err));
        let other = anyhow::Error::from(Error::from(ErrorKind::PermissionDenied));
        assert!(!is_broken_pipe(&other));
        assert!(!is_broken_pipe(&anyhow::anyhow!("broken pipe")));
    }
}
