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

use crate::batch;
use crate::input::read_all;

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

/// Reads and checks a policy file (also `tagloom include --policy`).
pub(crate) fn load_policy(path: &Path) -> Result<Policy> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read policy {}", path.display()))?;
    Policy::from_json(&text).with_context(|| format!("bad policy {}", path.display()))
}

pub fn run(args: &Args) -> Result<()> {
    let policy = match &args.policy {
        Some(path) => load_policy(path)?,
        None => Policy::default(),
    };
    let sanitizer = Sanitizer::new(Arc::new(policy));
    if args.file.is_dir() {
        let Some(out) = args.output.as_deref().filter(|o| !batch::is_stdio(o)) else {
            anyhow::bail!("sanitizing a directory needs -o DIR");
        };
        return batch::run_dir(&args.file, out, false, |src, dest| {
            let html = sanitize_file(&sanitizer, src)?;
            batch::write_text(Some(dest), &html)
        });
    }
    let html = sanitize_file(&sanitizer, &args.file)?;
    batch::write_text(args.output.as_deref(), &html)
}

/// Reads `path` (`-`: standard input) and sanitizes it, warning on stderr when the
/// output fell back to text or to nothing.
fn sanitize_file(sanitizer: &Sanitizer, path: &Path) -> Result<String> {
    let bytes = read_all(path)?;
    let text = encoding_rs::UTF_8.decode(&bytes).0.into_owned();
    drop(bytes);
    let sanitized = sanitizer.sanitize(&text);
    let what = match sanitized.report.fallback {
        Some(Fallback::Text) => Some("its text"),
        Some(Fallback::Empty) => Some("empty"),
        None => None,
    };
    if let Some(what) = what {
        let _ = writeln!(
            std::io::stderr().lock(),
            "tagloom: warning: {}: the markup did not settle; output is {what}",
            path.display()
        );
    }
    Ok(sanitized.html)
}
