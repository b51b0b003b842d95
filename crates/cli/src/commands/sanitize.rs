//! `tagloom sanitize FILE [--policy POLICY.json] [-o OUT]`: the sanitized HTML of
//! FILE (HTML body content), the serialization of the sanitized fragment.
//!
//! FILE may be a directory: then every HTML file under it (`.html`, `.htm`,
//! `.xhtml`, `.phtml`, `.shtml`, as `l10n` finds them) is sanitized in parallel
//! into the same relative path under `-o DIR` (required), with a progress bar on a
//! terminal.
//!
//! The input is read as UTF-8 (a byte order mark selects UTF-16; malformed bytes
//! become U+FFFD); the output is UTF-8. Exit status 0 whenever the input could be
//! read, whatever it contains; 2 for an unreadable input, a bad policy file or an
//! output that cannot be written (one line on stderr, no output file left behind).
//! An output that fell back to text (or to nothing) because the markup did not
//! settle is reported on stderr as a warning, still with status 0.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use tagloom_transform::sanitize::{Fallback, Policy, Sanitizer};

use crate::input::read_all;
use crate::output;

/// Options of `tagloom sanitize`.
#[derive(clap::Args)]
pub struct Args {
    /// The HTML to sanitize (`-` for standard input).
    file: PathBuf,
    /// A JSON policy file (fields of the sanitizer's `Policy`; missing ones keep
    /// their defaults).
    #[arg(long, value_name = "FILE")]
    policy: Option<PathBuf>,
    /// Write the output here instead of standard output (`-`: standard output).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: Option<PathBuf>,
}

/// Reads and checks a policy file.
fn load_policy(path: &Path) -> Result<Policy> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read policy {}", path.display()))?;
    Policy::from_json(&text).with_context(|| format!("bad policy {}", path.display()))
}

pub fn run(args: &Args) -> Result<()> {
    let policy = match &args.policy {
        Some(path) => load_policy(path)?,
        None => Policy::default(),
    };
    if args.file.is_dir() {
        let Some(out) = args.output.as_deref().filter(|o| o.as_os_str() != "-") else {
            anyhow::bail!("sanitizing a directory needs -o DIR");
        };
        return run_dir(&args.file, out, Sanitizer::new(Arc::new(policy)));
    }
    let bytes = read_all(&args.file)?;
    let text = encoding_rs::UTF_8.decode(&bytes).0.into_owned();
    drop(bytes);
    let sanitized = Sanitizer::new(Arc::new(policy)).sanitize(&text);
    let name = args.file.display();
    match sanitized.report.fallback {
        Some(Fallback::Text) => {
            eprintln!("tagloom: warning: {name}: the markup did not settle; output is its text")
        }
        Some(Fallback::Empty) => {
            eprintln!("tagloom: warning: {name}: the markup did not settle; output is empty")
        }
        None => {}
    }
    match args.output.as_deref() {
        None => write_stdout(&sanitized.html),
        Some(p) if p.as_os_str() == "-" => write_stdout(&sanitized.html),
        Some(path) => write_file(path, &sanitized.html),
    }
}

/// Sanitizes every HTML file under `input` into `output`, in parallel.
fn run_dir(input: &Path, output: &Path, sanitizer: Sanitizer) -> Result<()> {
    use rayon::prelude::*;
    let files = tagloom_l10n::flow::html_files(input)?;
    let bar = indicatif::ProgressBar::new(files.len() as u64);
    let failures: Vec<anyhow::Error> = files
        .par_iter()
        .filter_map(|rel| {
            let result = (|| -> Result<()> {
                let bytes = std::fs::read(input.join(rel))
                    .with_context(|| format!("cannot read {}", input.join(rel).display()))?;
                let text = encoding_rs::UTF_8.decode(&bytes).0.into_owned();
                drop(bytes);
                let sanitized = sanitizer.sanitize(&text);
                if sanitized.report.fallback.is_some() {
                    bar.suspend(|| {
                        eprintln!(
                            "tagloom: warning: {}: the markup did not settle; output is its text or empty",
                            rel.display()
                        )
                    });
                }
                let dest = output.join(rel);
                if let Some(parent) = dest.parent() {
                    std::fs::create_dir_all(parent)
                        .with_context(|| format!("cannot create {}", parent.display()))?;
                }
                write_file(&dest, &sanitized.html)
            })();
            bar.inc(1);
            result.err()
        })
        .collect();
    bar.finish_and_clear();
    match failures.into_iter().next() {
        None => Ok(()),
        Some(first) => Err(first.context("not every file was sanitized")),
    }
}

fn write_stdout(html: &str) -> Result<()> {
    let mut out = output::stdout();
    out.write_all(html.as_bytes())
        .context("cannot write the output")?;
    out.flush().context("cannot write the output")?;
    Ok(())
}

/// Writes beside `path` and renames, so a failure leaves no partial file.
fn write_file(path: &Path, html: &str) -> Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tagloom-{}.tmp", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let result = std::fs::write(&tmp, html.as_bytes()).and_then(|()| std::fs::rename(&tmp, path));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.with_context(|| format!("cannot write {}", path.display()))
}
