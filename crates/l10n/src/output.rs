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
//! * **Writes**: the flow puts a 64 KiB buffer in front of the temp
//!   file, or for a large output on Linux writes it past the page cache
//!   ([`OutputIo`], `direct`); the bytes are the same either way.
//!
//! ```no_run
//! // In a binary: on SIGINT/SIGTERM, remove the temp files, then exit.
//! tagloom_l10n::output::remove_temp_files_for_exit();
//! std::process::exit(130);
//! ```

use std::fs::File;
use std::io::{self, BufWriter, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

use crate::error::{IoContext, L10nError, Result};

#[cfg(target_os = "linux")]
mod direct;

/// How an output file is written: through the page cache (`buffered`) or past it
/// (`direct`: `O_DIRECT` writes of 4 MiB from an aligned buffer, Linux only).
///
/// Direct writes spare the kernel the copy into the page cache and the writeback
/// of the dirty pages, which on a large output is a good part of the run's system
/// time and varies from run to run; but each write waits for the disk, and the
/// file is not cached afterwards (a program reading it next reads the disk).
/// Where the file system refuses `O_DIRECT` (tmpfs, some network ones) or on
/// other systems, `direct` writes buffered, silently. The bytes written are the
/// same in every mode.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputIo {
    /// `direct` for an input of [`OutputIo::AUTO_DIRECT_INPUT`] bytes or more (its
    /// output is as large or larger), `buffered` otherwise. The default.
    #[default]
    Auto,
    /// Through the page cache, with a 64 KiB buffer.
    Buffered,
    /// Past the page cache where the file system can.
    Direct,
}

impl OutputIo {
    /// The input size from which [`OutputIo::Auto`] writes directly: 64 MiB.
    pub const AUTO_DIRECT_INPUT: u64 = 64 << 20;

    /// Whether the output of an input of `input_bytes` is written directly.
    pub fn is_direct_for(self, input_bytes: u64) -> bool {
        match self {
            OutputIo::Auto => input_bytes >= Self::AUTO_DIRECT_INPUT,
            OutputIo::Buffered => false,
            OutputIo::Direct => true,
        }
    }

    /// The mode's name as `--output-io` takes it.
    pub fn name(self) -> &'static str {
        match self {
            OutputIo::Auto => "auto",
            OutputIo::Buffered => "buffered",
            OutputIo::Direct => "direct",
        }
    }
}

impl std::str::FromStr for OutputIo {
    type Err = String;
    fn from_str(s: &str) -> std::result::Result<Self, String> {
        [OutputIo::Auto, OutputIo::Buffered, OutputIo::Direct]
            .into_iter()
            .find(|io| io.name() == s)
            .ok_or_else(|| format!("{s:?}: expected `auto`, `buffered` or `direct` output I/O"))
    }
}

impl std::fmt::Display for OutputIo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// The writer of an output's temp file ([`OutputFile::writer`]); call
/// [`OutputWriter::finish`] before [`OutputFile::persist`].
pub(crate) enum OutputWriter {
    Buffered(BufWriter<File>),
    #[cfg(target_os = "linux")]
    Direct(direct::DirectWriter),
}

impl OutputWriter {
    /// A writer of `file`: direct if asked and the file system takes it.
    fn new(file: File, direct: bool) -> OutputWriter {
        #[cfg(target_os = "linux")]
        let file = match direct {
            true => match direct::DirectWriter::new(file) {
                Ok(writer) => return OutputWriter::Direct(writer),
                Err(file) => file,
            },
            false => file,
        };
        #[cfg(not(target_os = "linux"))]
        let _ = direct;
        OutputWriter::Buffered(BufWriter::with_capacity(64 * 1024, file))
    }

    /// Writes what is still buffered.
    pub(crate) fn finish(self) -> io::Result<()> {
        match self {
            OutputWriter::Buffered(w) => w.into_inner().map(drop).map_err(|e| e.into_error()),
            #[cfg(target_os = "linux")]
            OutputWriter::Direct(w) => w.finish().map(drop),
        }
    }
}

impl Write for OutputWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        match self {
            OutputWriter::Buffered(w) => w.write(data),
            #[cfg(target_os = "linux")]
            OutputWriter::Direct(w) => w.write(data),
        }
    }

    fn write_all(&mut self, data: &[u8]) -> io::Result<()> {
        match self {
            OutputWriter::Buffered(w) => w.write_all(data),
            #[cfg(target_os = "linux")]
            OutputWriter::Direct(w) => w.write_all(data),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            OutputWriter::Buffered(w) => w.flush(),
            #[cfg(target_os = "linux")]
            OutputWriter::Direct(w) => w.flush(),
        }
    }
}

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

    /// A writer of the temp file (a second handle of it): `io` decides how, for an
    /// input of `input_bytes` ([`OutputIo::is_direct_for`]).
    pub(crate) fn writer(&self, io: OutputIo, input_bytes: u64) -> Result<OutputWriter> {
        let file = self
            .file()?
            .try_clone()
            .ctx(|| format!("opening a temp file for {}", self.dest.display()))?;
        Ok(OutputWriter::new(file, io.is_direct_for(input_bytes)))
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

    #[test]
    fn output_io_parses_its_names_and_auto_goes_direct_on_large_inputs() {
        for io in [OutputIo::Auto, OutputIo::Buffered, OutputIo::Direct] {
            assert_eq!(io.to_string().parse::<OutputIo>(), Ok(io));
        }
        assert!("fast".parse::<OutputIo>().is_err());
        assert_eq!(OutputIo::default(), OutputIo::Auto);
        let large = OutputIo::AUTO_DIRECT_INPUT;
        assert!(!OutputIo::Auto.is_direct_for(large - 1));
        assert!(OutputIo::Auto.is_direct_for(large));
        assert!(!OutputIo::Buffered.is_direct_for(large));
        assert!(OutputIo::Direct.is_direct_for(0));
    }

    #[test]
    fn both_writers_write_the_temp_file_that_persist_renames() {
        let dir = tempfile::tempdir_in(env!("CARGO_MANIFEST_DIR")).unwrap();
        let data: Vec<u8> = (0..300_007u32).map(|i| (i % 253) as u8).collect();
        for io in [OutputIo::Buffered, OutputIo::Direct] {
            let dest = dir.path().join(io.name());
            let out = OutputFile::create(&dest).unwrap();
            let mut writer = out.writer(io, 0).unwrap();
            writer.write_all(&data).unwrap();
            writer.flush().unwrap();
            writer.finish().unwrap();
            out.persist().unwrap();
            assert!(std::fs::read(&dest).unwrap() == data, "{io}");
        }
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
