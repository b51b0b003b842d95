//! Output files: written to a temp file beside the destination and renamed onto it
//! at the end, so a failure never leaves a partial file and a reader of the
//! destination sees the old file or the new one, never a mix.
//!
//! * **Mode**: a new output gets `0666 & !umask`, like any file a program creates
//!   (the temp file is opened with mode `0666` and the kernel applies the umask); an
//!   output that replaces an existing file — an in-place `-o INPUT` included — keeps
//!   that file's mode.
//! * **Interruption**: every live temp file is in a registry. A signal handler (the
//!   `tagloom` binary installs one for `SIGINT` and `SIGTERM`) calls
//!   [`remove_temp_files_for_exit`], which deletes them and blocks every later
//!   creation or rename, so an interrupted run leaves neither a `.tagloom-out-*` file
//!   nor a half-written destination. Creation and rename happen under the registry's
//!   lock, so no temp file can exist unregistered. (The skeleton store needs none of
//!   this: its temp file has no name at all, see [`crate::skeleton`].) A `SIGKILL` or
//!   an abort still leaves the temp file: no process can clean up after those.
//!
//! ```no_run
//! // In a binary: on SIGINT/SIGTERM, remove the temp files, then exit.
//! tagloom_l10n::output::remove_temp_files_for_exit();
//! std::process::exit(130);
//! ```

use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use crate::error::{IoContext, L10nError, Result};

/// The prefix of output temp files (hidden, beside the destination).
pub const TEMP_PREFIX: &str = ".tagloom-out-";

/// The paths of the live output temp files.
static LIVE: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn live() -> MutexGuard<'static, Vec<PathBuf>> {
    // A panic while the lock was held leaves the list intact: keep using it.
    LIVE.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// Deletes every output temp file still alive and keeps the registry locked for
/// the rest of the process: a run still going on in another thread can neither
/// create a temp file nor rename one onto its destination any more. Call it from a
/// signal-handling thread right before exiting the process (not from a signal
/// handler proper: it takes a lock and allocates).
pub fn remove_temp_files_for_exit() {
    let guard = live();
    for path in guard.iter() {
        // Already gone is fine: nothing else can be done at exit.
        let _ = std::fs::remove_file(path);
    }
    // Never released: the process is about to exit.
    std::mem::forget(guard);
}

/// A temp file beside `dest`, registered until it is renamed onto `dest` or
/// dropped (which deletes it).
pub(crate) struct OutputFile {
    temp: Option<tempfile::NamedTempFile>,
    dest: PathBuf,
}

impl OutputFile {
    /// Creates the temp file (and the destination's directory if needed).
    pub(crate) fn create(dest: &Path) -> Result<OutputFile> {
        let dir = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&dir).ctx(|| format!("creating {}", dir.display()))?;
        let mut builder = tempfile::Builder::new();
        builder.prefix(TEMP_PREFIX);
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            // Passed to open(2): the umask applies, as for any new file.
            builder.permissions(std::fs::Permissions::from_mode(0o666));
        }
        let mut registry = live();
        let temp = builder
            .tempfile_in(&dir)
            .ctx(|| format!("creating a temp file in {}", dir.display()))?;
        registry.push(temp.path().to_path_buf());
        drop(registry);
        let file = OutputFile {
            temp: Some(temp),
            dest: dest.to_path_buf(),
        };
        // Replacing a file: keep its mode (an in-place output stays readable by
        // whoever could read the input).
        if let Ok(meta) = std::fs::metadata(dest)
            && meta.is_file()
        {
            file.file()?
                .set_permissions(meta.permissions())
                .ctx(|| format!("setting the mode of {}", file.path().display()))?;
        }
        Ok(file)
    }

    /// The temp file's handle.
    pub(crate) fn file(&self) -> Result<&File> {
        self.temp
            .as_ref()
            .map(tempfile::NamedTempFile::as_file)
            .ok_or_else(|| L10nError::Usage("output file already persisted".into()))
    }

    /// The temp file's path.
    fn path(&self) -> &Path {
        self.temp
            .as_ref()
            .map_or(self.dest.as_path(), tempfile::NamedTempFile::path)
    }

    /// Renames the temp file onto the destination.
    pub(crate) fn persist(mut self) -> Result<()> {
        let Some(temp) = self.temp.take() else {
            return Ok(());
        };
        let mut registry = live();
        let path = temp.path().to_path_buf();
        let result = temp.persist(&self.dest);
        registry.retain(|p| *p != path);
        drop(registry);
        result.map_err(|e| {
            // `e.file` is dropped here: the temp file is deleted.
            L10nError::io(format!("renaming onto {}", self.dest.display()), e.error)
        })?;
        Ok(())
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if let Some(temp) = self.temp.take() {
            let mut registry = live();
            let path = temp.path().to_path_buf();
            // Deleted while the registry is locked: a signal handler sees either the
            // file registered or neither.
            drop(temp);
            registry.retain(|p| *p != path);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn names(dir: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn persist_renames_and_drop_deletes() {
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("sub/out.html");
        let out = OutputFile::create(&dest).unwrap();
        assert!(live().iter().any(|p| p.starts_with(dir.path())));
        out.file().unwrap().write_all(b"hello").unwrap();
        out.persist().unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"hello");
        assert!(!live().iter().any(|p| p.starts_with(dir.path())));
        let out = OutputFile::create(&dest).unwrap();
        out.file().unwrap().write_all(b"partial").unwrap();
        drop(out);
        assert_eq!(names(&dir.path().join("sub")), ["out.html"]);
        assert_eq!(std::fs::read(&dest).unwrap(), b"hello");
        assert!(!live().iter().any(|p| p.starts_with(dir.path())));
    }

    #[cfg(unix)]
    #[test]
    fn replacing_a_file_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let dest = dir.path().join("page.html");
        std::fs::write(&dest, b"old").unwrap();
        std::fs::set_permissions(&dest, std::fs::Permissions::from_mode(0o640)).unwrap();
        let out = OutputFile::create(&dest).unwrap();
        out.persist().unwrap();
        let mode = std::fs::metadata(&dest).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o640);
    }
}
