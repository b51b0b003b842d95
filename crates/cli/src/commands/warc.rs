//! `tagloom warc JOB FILE|DIR... [-o OUT] [--format jsonl] [-j N]`: a job over
//! every HTML page of web archives (WARC or ARC, plain or gzip), one JSON object
//! per line (`tagloom_warc::Row`).
//!
//! Jobs: `text` (title and text), `links` (`a`/`area` hrefs resolved against the
//! base URL), `l10n-words` (units, words and characters as `l10n count` counts),
//! `sanitize` (the page sanitized as body content; `--policy`). A directory stands
//! for every `.warc`, `.warc.gz`, `.arc`, `.arc.gz` file below it (sorted); `-`
//! reads one archive from standard input (`zcat crawl.warc.gz | tagloom warc text -`,
//! or the gzip file itself: gzip is found by its first bytes). Records
//! run in parallel (`-j` threads) in a bounded pipeline; rows come out in file and
//! record order. A record that cannot be read is an error row
//! (`"error":{"kind","message"}`) and the run goes on; a summary line goes to
//! stderr. Exit status 0 when every file could be read (error rows included), 2 for
//! a file that cannot be opened or an output that cannot be written (nothing left
//! behind).

use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{Context, Result, bail};
use tagloom_warc::{ArchiveSource, Job, JobKind, Limits};

use crate::batch;
use crate::commands::l10n::parse_size;

/// The job to run.
#[derive(Clone, Copy, Debug, clap::ValueEnum)]
pub enum JobArg {
    /// Title and text of each page.
    Text,
    /// Links of each page, resolved.
    Links,
    /// Units, words and characters of each page (as `l10n count`).
    #[value(name = "l10n-words")]
    L10nWords,
    /// Each page sanitized as body content.
    Sanitize,
}

impl From<JobArg> for JobKind {
    fn from(job: JobArg) -> JobKind {
        match job {
            JobArg::Text => JobKind::Text,
            JobArg::Links => JobKind::Links,
            JobArg::L10nWords => JobKind::L10nWords,
            JobArg::Sanitize => JobKind::Sanitize,
        }
    }
}

/// The output format.
#[derive(Clone, Copy, Debug, Default, clap::ValueEnum)]
pub enum FormatArg {
    /// JSON Lines: one object per row.
    #[default]
    Jsonl,
}

/// Options of `tagloom warc`.
#[derive(clap::Args)]
pub struct Args {
    /// The job.
    job: JobArg,
    /// WARC/ARC files (plain or gzip) and directories of them; `-` for standard input.
    #[arg(required = true, value_name = "FILE|DIR")]
    inputs: Vec<PathBuf>,
    /// Write the rows here instead of standard output (`-`: standard output).
    #[arg(short = 'o', long = "output", value_name = "OUT")]
    output: Option<PathBuf>,
    /// Output format (JSON Lines; no Parquet writer is built in).
    #[arg(long, value_enum, default_value_t)]
    format: FormatArg,
    /// Threads (default: one per core).
    #[arg(short = 'j', long = "jobs", value_name = "N")]
    threads: Option<usize>,
    /// The sanitizer policy (JSON) of the `sanitize` job.
    #[arg(long, value_name = "FILE")]
    policy: Option<PathBuf>,
    /// The largest record block held in memory (bytes, or K/M/G); larger records
    /// are skipped with an error row.
    #[arg(long, value_name = "SIZE", value_parser = parse_size, default_value = "16M")]
    max_record: u64,
    /// No progress bar.
    #[arg(short, long)]
    quiet: bool,
}

/// Whether `path` names a web archive by its extension.
fn is_archive(path: &Path) -> bool {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    [".warc", ".warc.gz", ".arc", ".arc.gz"]
        .iter()
        .any(|ext| name.ends_with(ext))
}

/// The archives of `inputs`: files as given, `-` as standard input (once),
/// directories expanded (sorted).
fn archive_files(inputs: &[PathBuf]) -> Result<Vec<ArchiveSource>> {
    let mut files = Vec::new();
    let mut stdin = false;
    for input in inputs {
        if input.as_os_str() == "-" {
            if stdin {
                bail!("standard input (`-`) can be read only once");
            }
            stdin = true;
            files.push(ArchiveSource::Stdin);
            continue;
        }
        if !input.is_dir() {
            files.push(ArchiveSource::File(input.clone()));
            continue;
        }
        let mut found = Vec::new();
        let mut dirs = vec![input.clone()];
        while let Some(dir) = dirs.pop() {
            let entries = std::fs::read_dir(&dir)
                .with_context(|| format!("cannot read {}", dir.display()))?;
            for entry in entries {
                let path = entry
                    .with_context(|| format!("cannot read {}", dir.display()))?
                    .path();
                if path.is_dir() {
                    dirs.push(path);
                } else if is_archive(&path) {
                    found.push(path);
                }
            }
        }
        found.sort();
        files.extend(found.into_iter().map(ArchiveSource::File));
    }
    Ok(files)
}

pub fn run(args: &Args) -> Result<()> {
    let FormatArg::Jsonl = args.format;
    let files = archive_files(&args.inputs)?;
    if files.is_empty() {
        bail!("no WARC or ARC files (.warc, .warc.gz, .arc, .arc.gz) in the inputs");
    }
    // Every input must open before any output is written.
    for file in &files {
        if let ArchiveSource::File(path) = file {
            std::fs::File::open(path).with_context(|| format!("cannot read {}", path.display()))?;
        }
    }
    let limits = Limits {
        max_body_bytes: args.max_record,
        ..Limits::default()
    };
    let mut job = Job::new(args.job.into()).with_limits(limits);
    if let Some(path) = &args.policy {
        job = job.with_policy(crate::commands::sanitize::load_policy(path)?);
    }
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(n) = args.threads {
        if n == 0 {
            bail!("-j needs at least 1 thread");
        }
        pool = pool.num_threads(n);
    }
    let pool = pool.build().context("cannot start the worker threads")?;
    let total: u64 = files
        .iter()
        .filter_map(|f| match f {
            ArchiveSource::File(path) => std::fs::metadata(path).ok(),
            ArchiveSource::Stdin => None,
        })
        .map(|m| m.len())
        .sum();
    let bar = if args.quiet || !std::io::stderr().is_terminal() {
        indicatif::ProgressBar::hidden()
    } else if files.contains(&ArchiveSource::Stdin) {
        // Standard input has no known length: a byte counter.
        indicatif::ProgressBar::no_length()
    } else {
        indicatif::ProgressBar::new(total)
    };
    let started = Instant::now();
    let mut summary = None;
    batch::write_to(args.output.as_deref(), |out| {
        let mut line = Vec::new();
        let result = tagloom_warc::run_sources(
            &files,
            &job,
            Some(&pool),
            |row| {
                line.clear();
                serde_json::to_writer(&mut line, row)?;
                line.push(b'\n');
                out.write_all(&line)
            },
            &|n| bar.inc(n),
        );
        summary = Some(result.context("cannot write the output")?);
        Ok(())
    })?;
    bar.finish_and_clear();
    if let Some(s) = summary {
        let secs = started.elapsed().as_secs_f64();
        let _ = writeln!(
            std::io::stderr().lock(),
            "tagloom warc {}: {} file(s), {} record(s), {} page(s), {} error(s), {} skipped (not HTML), {:.1} MB in {:.2} s ({:.1} MB/s)",
            JobKind::from(args.job).name(),
            s.files,
            s.records,
            s.pages,
            s.errors,
            s.skipped,
            s.bytes as f64 / 1e6,
            secs,
            s.bytes as f64 / 1e6 / secs.max(1e-9),
        );
    }
    Ok(())
}
