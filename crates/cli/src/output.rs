//! Standard output: the one way the binary writes its results.
//!
//! Every command writes through [`stdout`] and flushes before it returns. Rust ignores
//! `SIGPIPE`, so a reader that goes away (`tagloom tokens big.html | head -1`) shows up
//! as an `EPIPE` write error; [`is_broken_pipe`] recognizes it anywhere in an error's
//! chain, and `main` then ends the program quietly with exit status 0, as a filter in a
//! pipeline should. (`print!`/`println!` would panic instead: the binary never uses
//! them on standard output.)

use std::io::{BufWriter, StdoutLock, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use anyhow::{Context, Result};

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

/// A private temp directory for commands that need a file path where the user gave
/// `-` (the l10n flow opens its input more than once and writes its output by
/// renaming a temp file): standard input spooled to a file, an output written to a
/// file and then copied to standard output. Created on first use; removed when
/// dropped, and by [`remove_staging_for_exit`] when a signal ends the program.
#[derive(Default)]
pub struct Staging {
    dir: Option<tempfile::TempDir>,
}

static STAGING: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn staging_dirs() -> MutexGuard<'static, Vec<PathBuf>> {
    STAGING
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Staging {
    /// A path named `name` in the staging directory.
    pub fn path(&mut self, name: &str) -> Result<PathBuf> {
        if self.dir.is_none() {
            let dir = tempfile::Builder::new()
                .prefix(".tagloom-stdio-")
                .tempdir()
                .context("cannot create a temp directory for standard input/output")?;
            staging_dirs().push(dir.path().to_path_buf());
            self.dir = Some(dir);
        }
        let dir = self.dir.as_ref().map(tempfile::TempDir::path);
        Ok(dir.unwrap_or(Path::new(".")).join(name))
    }
}

impl Drop for Staging {
    fn drop(&mut self) {
        if let Some(dir) = &self.dir {
            staging_dirs().retain(|d| d != dir.path());
        }
    }
}

/// Removes every staging directory (from a signal handler's thread, before exiting).
pub fn remove_staging_for_exit() {
    for dir in staging_dirs().drain(..) {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// Copies the file at `path` to standard output.
pub fn copy_to_stdout(path: &Path) -> Result<()> {
    let mut file =
        std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
    let mut out = stdout();
    std::io::copy(&mut file, &mut out)
        .and_then(|_| out.flush())
        .context("cannot write the output")?;
    Ok(())
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
