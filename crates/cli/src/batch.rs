//! What the HTML-to-HTML commands (`include`, `rewrite`, `sanitize`) share: writing a
//! result to standard output or to a file with nothing partial left behind, and
//! directory runs.
//!
//! A directory run finds every HTML file below the input directory
//! (`tagloom_l10n::flow::html_files`, the same rule as the `l10n` commands), runs the
//! command's job on each in parallel (rayon) into the same relative path under the
//! output directory, shows a progress bar when standard error is a terminal, reports
//! each failed file on one line and fails if any did.

use std::io::{BufWriter, IsTerminal, Write};
use std::path::Path;

use anyhow::{Context, Result, bail};
use rayon::prelude::*;
use tagloom_l10n::output::OutputFile;

use crate::output;

/// Whether `path` means standard input or output.
pub fn is_stdio(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// Runs `write` into `dest`: standard output for `None` or `-`, else a file written
/// beside `dest` and renamed into place only when `write` succeeded
/// ([`OutputFile`]: the umask's mode or the replaced file's; nothing left behind).
pub fn write_to(
    dest: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> Result<()>,
) -> Result<()> {
    match dest {
        Some(path) if !is_stdio(path) => {
            let file = OutputFile::create(path)?;
            {
                let mut out = BufWriter::with_capacity(64 * 1024, file.file()?);
                write(&mut out)?;
                out.flush()
                    .with_context(|| format!("cannot write {}", path.display()))?;
            }
            file.persist()?;
            Ok(())
        }
        _ => {
            let mut out = output::stdout();
            write(&mut out)?;
            out.flush().context("cannot write the output")
        }
    }
}

/// Writes `text` to `dest` as [`write_to`] does.
pub fn write_text(dest: Option<&Path>, text: &str) -> Result<()> {
    write_to(dest, |out| {
        out.write_all(text.as_bytes())
            .context("cannot write the output")
    })
}

/// Runs `job(input file, output file)` on every HTML file below `input`, writing to
/// the same relative path under `out_dir`. `quiet` hides the progress bar.
pub fn run_dir(
    input: &Path,
    out_dir: &Path,
    quiet: bool,
    job: impl Fn(&Path, &Path) -> Result<()> + Sync,
) -> Result<()> {
    let files = tagloom_l10n::flow::html_files(input)?;
    let bar = if quiet || !std::io::stderr().is_terminal() {
        indicatif::ProgressBar::hidden()
    } else {
        indicatif::ProgressBar::new(files.len() as u64)
    };
    let failures: Vec<String> = files
        .par_iter()
        .filter_map(|rel| {
            let (src, dest) = (input.join(rel), out_dir.join(rel));
            let result = dest
                .parent()
                .map_or(Ok(()), std::fs::create_dir_all)
                .with_context(|| format!("cannot create {}", out_dir.display()))
                .and_then(|()| job(&src, &dest));
            bar.inc(1);
            result.err().map(|e| format!("{}: {e:#}", src.display()))
        })
        .collect();
    bar.finish_and_clear();
    let mut stderr = std::io::stderr().lock();
    for failure in &failures {
        let _ = writeln!(stderr, "tagloom: error: {}", failure.replace('\n', " "));
    }
    if !failures.is_empty() {
        bail!("{} of {} files failed", failures.len(), files.len());
    }
    Ok(())
}
