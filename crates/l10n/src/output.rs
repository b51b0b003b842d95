//! Output files: written to a temp file beside the destination and renamed onto it
//! at the end, so a failure never leaves a partial file and a reader of the
//! destination sees the old file or the new one, never a mix.
//!
//! * **Mode**: a new output gets `0666 & !umask`, like any file a program creates
//!   (the temp file is opened with mode `0666` and the kernel applies the umask); an
//!   output that replaces an existing file — an in-place `-o INPUT` included — keeps
//!   that file's mode.
//! * **Interruption**: on Linux the temp file is anonymous (`O_TMPFILE` in the
//!   destination's directory): it has no name while it is written, so nothing can be
//!   left behind, not even by `SIGKILL` or an abort. At the end it is linked under a
//!   `.tagloom-out-*` name and at once renamed onto the destination. Elsewhere (or
//!   where the file system has no `O_TMPFILE`) the temp file is a named one from the
//!   start. Every named temp file is in a registry: a signal handler (the `tagloom`
//!   binary installs one for `SIGINT` and `SIGTERM`) calls
//!   [`remove_temp_files_for_exit`], which deletes them and blocks every later
//!   creation or rename, so an interrupted run leaves neither a `.tagloom-out-*` file
//!   nor a half-written destination. Naming and renaming happen under the registry's
//!   lock, so no temp file can have a name and be unregistered. (The skeleton store
//!   needs none of this: its temp file never has a name, see [`crate::skeleton`].)
//!
//! ```no_run
//! // In a binary: on SIGINT/SIGTERM, remove the temp files, then exit.
//! tagloom_l10n::output::remove_temp_files_for_exit();
//! std::process::exit(130);
//! ```

use std::fs::File;
use std::io::{Seek, SeekFrom};
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

/// The temp file of an output.
enum Temp {
    /// No name until [`OutputFile::persist`] (Linux, `O_TMPFILE`).
    #[cfg_attr(not(target_os = "linux"), allow(dead_code))]
    Anonymous(File),
    /// A name from the start, registered.
    Named(tempfile::NamedTempFile),
}

/// A temp file beside `dest`, renamed onto `dest` by [`OutputFile::persist`] or
/// deleted when dropped.
pub struct OutputFile {
    temp: Option<Temp>,
    dir: PathBuf,
    dest: PathBuf,
}

fn builder() -> tempfile::Builder<'static, 'static> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(TEMP_PREFIX);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        // Passed to open(2): the umask applies, as for any new file.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder
}

/// A named temp file in `dir`, registered (created under the registry's lock).
fn named_in(dir: &Path) -> Result<tempfile::NamedTempFile> {
    let mut registry = live();
    let temp = builder()
        .tempfile_in(dir)
        .ctx(|| format!("creating a temp file in {}", dir.display()))?;
    registry.push(temp.path().to_path_buf());
    Ok(temp)
}

/// An anonymous file in `dir` (mode `0666 & !umask`), if the file system can.
#[cfg(target_os = "linux")]
fn anonymous_in(dir: &Path) -> Option<File> {
    use rustix::fs::{CWD, Mode, OFlags, openat};
    let flags = OFlags::TMPFILE | OFlags::RDWR | OFlags::CLOEXEC;
    openat(CWD, dir, flags, Mode::from_raw_mode(0o666))
        .ok()
        .map(File::from)
}

#[cfg(not(target_os = "linux"))]
fn anonymous_in(_dir: &Path) -> Option<File> {
    None
}

/// Gives the anonymous `file` a registered name in `dir` (`None` if the kernel
/// cannot: no `/proc`).
#[cfg(target_os = "linux")]
fn link_in(file: &File, dir: &Path) -> Option<tempfile::TempPath> {
    use rustix::fs::{AtFlags, CWD, linkat};
    use std::os::fd::AsRawFd;
    let proc = format!("/proc/self/fd/{}", file.as_raw_fd());
    let mut registry = live();
    let named = builder()
        .make_in(dir, |path| {
            linkat(CWD, proc.as_str(), CWD, path, AtFlags::SYMLINK_FOLLOW)
                .map_err(std::io::Error::from)
        })
        .ok()?;
    let path = named.into_temp_path();
    registry.push(path.to_path_buf());
    Some(path)
}

#[cfg(not(target_os = "linux"))]
fn link_in(_file: &File, _dir: &Path) -> Option<tempfile::TempPath> {
    None
}

/// Renames the registered temp `path` onto `dest` and unregisters it, under the
/// registry's lock; on failure the temp file is deleted.
fn rename_onto(path: tempfile::TempPath, dest: &Path) -> Result<()> {
    let mut registry = live();
    let name = path.to_path_buf();
    let result = path.persist(dest);
    registry.retain(|p| *p != name);
    drop(registry);
    // On error, `e.path` is dropped here: the temp file is deleted.
    result.map_err(|e| L10nError::io(format!("renaming onto {}", dest.display()), e.error))
}

impl OutputFile {
    /// Creates the temp file (and the destination's directory if needed).
    pub fn create(dest: &Path) -> Result<OutputFile> {
        let dir = match dest.parent() {
            Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
            _ => PathBuf::from("."),
        };
        std::fs::create_dir_all(&dir).ctx(|| format!("creating {}", dir.display()))?;
        let temp = match anonymous_in(&dir) {
            Some(file) => Temp::Anonymous(file),
            None => Temp::Named(named_in(&dir)?),
        };
        let file = OutputFile {
            temp: Some(temp),
            dir,
            dest: dest.to_path_buf(),
        };
        // Replacing a file: keep its mode (an in-place output stays readable by
        // whoever could read the input).
        if let Ok(meta) = std::fs::metadata(dest)
            && meta.is_file()
        {
            file.file()?
                .set_permissions(meta.permissions())
                .ctx(|| format!("setting the mode of a temp file for {}", dest.display()))?;
        }
        Ok(file)
    }

    /// The temp file's handle.
    pub fn file(&self) -> Result<&File> {
        match &self.temp {
            Some(Temp::Anonymous(file)) => Ok(file),
            Some(Temp::Named(temp)) => Ok(temp.as_file()),
            None => Err(L10nError::Usage("output file already persisted".into())),
        }
    }

    /// Renames the temp file onto the destination.
    pub fn persist(mut self) -> Result<()> {
        match self.temp.take() {
            None => Ok(()),
            Some(Temp::Named(temp)) => rename_onto(temp.into_temp_path(), &self.dest),
            Some(Temp::Anonymous(mut file)) => {
                if let Some(path) = link_in(&file, &self.dir) {
                    return rename_onto(path, &self.dest);
                }
                // No way to name it: copy it into a named one.
                let mut named = named_in(&self.dir)?;
                let context = || format!("writing a temp file for {}", self.dest.display());
                named
                    .as_file()
                    .set_permissions(file.metadata().ctx(context)?.permissions())
                    .ctx(context)?;
                file.seek(SeekFrom::Start(0)).ctx(context)?;
                std::io::copy(&mut file, named.as_file_mut()).ctx(context)?;
                rename_onto(named.into_temp_path(), &self.dest)
            }
        }
    }
}

impl Drop for OutputFile {
    fn drop(&mut self) {
        if let Some(Temp::Named(temp)) = self.temp.take() {
            let mut registry = live();
            let path = temp.path().to_path_buf();
            // Deleted while the registry is locked: a signal handler sees either the
            // file registered or neither.
            drop(temp);
            registry.retain(|p| *p != path);
        }
        // An anonymous file just goes away with its handle.
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
        if cfg!(target_os = "linux") {
            // Anonymous: no name while it is written.
            assert!(names(&dir.path().join("sub")).is_empty());
        }
        out.file().unwrap().write_all(b"hello").unwrap();
        out.persist().unwrap();
        assert_eq!(std::fs::read(&dest).unwrap(), b"hello");
        assert!(!live().iter().any(|p| p.starts_with(dir.path())));
        let out = OutputFile::create(&dest).unwrap();
        out.file().unwrap().write_all(b"partial").unwrap();
        if cfg!(target_os = "linux") {
            assert_eq!(names(&dir.path().join("sub")), ["out.html"]);
        }
        drop(out);
        assert_eq!(names(&dir.path().join("sub")), ["out.html"]);
        assert_eq!(std::fs::read(&dest).unwrap(), b"hello");
        assert!(!live().iter().any(|p| p.starts_with(dir.path())));
    }

    #[test]
    fn named_temp_files_are_registered_and_removed() {
        let dir = tempfile::tempdir().unwrap();
        let temp = named_in(dir.path()).unwrap();
        let path = temp.path().to_path_buf();
        assert!(live().contains(&path));
        rename_onto(temp.into_temp_path(), &dir.path().join("x")).unwrap();
        assert!(!live().contains(&path));
        assert_eq!(names(dir.path()), ["x"]);
        let out = OutputFile {
            temp: Some(Temp::Named(named_in(dir.path()).unwrap())),
            dir: dir.path().to_path_buf(),
            dest: dir.path().join("y"),
        };
        assert_eq!(names(dir.path()).len(), 2);
        drop(out);
        assert_eq!(names(dir.path()), ["x"]);
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
