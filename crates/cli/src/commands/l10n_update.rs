//! `tagloom l10n update` and `tagloom l10n count`: carrying translations over to a
//! changed page, and word counts (a thin layer over `tagloom_l10n::update` and
//! `tagloom_l10n::count`). Both print their summary on standard output (text, or
//! one JSON document with `--report json`); exit 0, or 2 on a failure.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::{Context, Result, bail};
use rayon::prelude::*;
use tagloom_l10n::count::{Counts, count_file};
use tagloom_l10n::flow::{Format, html_files};
use tagloom_l10n::update::{self, UpdateCounts, UpdateOptions};

use super::l10n::{CommonArgs, FormatArg, Stdio};
use crate::output;

/// How a summary is printed.
#[derive(Clone, Copy, Default, clap::ValueEnum)]
pub enum ReportArg {
    /// Lines of text.
    #[default]
    Text,
    /// One JSON document.
    Json,
}

/// `tagloom l10n update`.
#[derive(clap::Args)]
pub struct UpdateArgs {
    /// The changed HTML page (or a directory of pages; `-`: standard input).
    page: PathBuf,
    /// The old OLD.xlf or OLD.po (a directory of `<page>.xlf`/`.po` for a directory;
    /// `-`: standard input, when PAGE is not; its format from its first character).
    old: PathBuf,
    /// NEW.xlf or NEW.po (a directory for a directory; `-`: standard output, the
    /// summary then goes to standard error).
    #[arg(short, long, value_name = "NEW")]
    output: PathBuf,
    /// Output format (default: NEW's extension, which must agree, else OLD's format).
    #[arg(long, value_enum)]
    format: Option<FormatArg>,
    /// The least word similarity (0 to 1) of a near match, marked fuzzy.
    #[arg(long, value_name = "RATIO", default_value_t = 0.75, value_parser = parse_ratio)]
    fuzzy_threshold: f64,
    /// The most old units compared with one page unit when looking for a near match.
    #[arg(long, value_name = "N", default_value_t = 64)]
    max_candidates: usize,
    /// Summary format on standard output.
    #[arg(long, value_enum, default_value_t)]
    report: ReportArg,
    #[command(flatten)]
    common: CommonArgs,
}

/// `tagloom l10n count`.
#[derive(clap::Args)]
pub struct CountArgs {
    /// Pages (`.html`…), `.xlf` or `.po` files, or a directory of them (`-`: a page
    /// on standard input).
    input: PathBuf,
    /// An old translation file of the page: also count what is unchanged, fuzzy
    /// and new (as `update` would find it; `-`: standard input, when INPUT is not).
    #[arg(long, value_name = "OLD")]
    old: Option<PathBuf>,
    /// Summary format on standard output.
    #[arg(long, value_enum, default_value_t)]
    report: ReportArg,
    #[command(flatten)]
    common: CommonArgs,
}

fn parse_ratio(text: &str) -> std::result::Result<f64, String> {
    match text.trim().parse::<f64>() {
        Ok(r) if (0.0..=1.0).contains(&r) => Ok(r),
        _ => Err(format!("{text:?} is not a ratio between 0 and 1")),
    }
}

/// Runs `tagloom l10n update`.
pub fn update(args: &UpdateArgs) -> Result<ExitCode> {
    let options = UpdateOptions {
        threshold: args.fuzzy_threshold,
        max_candidates: args.max_candidates,
        format: args.format.map(|f| match f {
            FormatArg::Xliff => Format::Xliff,
            FormatArg::Po => Format::Po,
        }),
        common: args.common.common()?,
    };
    let mut stdio = Stdio::default();
    let (old, old_format) = stdio.translations(&args.old, &args.page, None)?;
    let page = stdio.input(&args.page, "-")?;
    let format = options
        .format
        .or(old_format)
        .or_else(|| Format::from_path(&old))
        .unwrap_or(Format::Xliff);
    let name = format!("stdout.{}", format.extension());
    let new = stdio.output(&args.output, &args.page, &name)?;
    let mut report = update::update(&page, &old, &new, &options)?;
    stdio.finish_paths(report.files.iter_mut().flat_map(|f| {
        [&mut f.input, &mut f.output]
            .into_iter()
            .chain(f.old.as_mut())
    }))?;
    // The summary goes to standard error when standard output has the new file.
    let mut out: Box<dyn Write> = if args.output.as_os_str() == "-" {
        Box::new(std::io::stderr().lock())
    } else {
        Box::new(output::stdout())
    };
    match args.report {
        ReportArg::Json => {
            let json = serde_json::json!({
                "files": report.files,
                "total": report.total(),
                "failures": report.failures.iter()
                    .map(|(p, e)| serde_json::json!({"file": p, "error": e.to_string()}))
                    .collect::<Vec<_>>(),
            });
            writeln!(out, "{json}")
        }
        ReportArg::Text => {
            let mut r = Ok(());
            for f in &report.files {
                let line = describe(&f.counts);
                r = r.and_then(|()| {
                    writeln!(
                        out,
                        "{} -> {}: {line}",
                        f.input.display(),
                        f.output.display()
                    )
                });
            }
            if report.files.len() > 1 {
                r = r.and_then(|()| writeln!(out, "total: {}", describe(&report.total())));
            }
            r
        }
    }
    .and_then(|()| out.flush())
    .context("cannot write the output")?;
    for (path, err) in &report.failures {
        eprintln!("{}: {err}", path.display());
    }
    if let Some((path, err)) = report.failures.first() {
        bail!(
            "{} file(s) failed; first: {}: {err}",
            report.failures.len(),
            path.display()
        );
    }
    Ok(ExitCode::SUCCESS)
}

fn describe(c: &UpdateCounts) -> String {
    format!(
        "{} unchanged ({} words, {} translations carried over), {} fuzzy ({} words, {} \
         suggestions), {} new ({} words), {} removed ({} words)",
        c.unchanged.units,
        c.unchanged.words,
        c.carried,
        c.fuzzy.units,
        c.fuzzy.words,
        c.suggested,
        c.new.units,
        c.new.words,
        c.removed.units,
        c.removed.words
    )
}

/// The files `count` reads under a directory: pages, then `.xlf`/`.po` files.
fn count_inputs(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut files: Vec<PathBuf> = html_files(dir)?.into_iter().map(|r| dir.join(r)).collect();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for entry in
            std::fs::read_dir(&d).with_context(|| format!("cannot list {}", d.display()))?
        {
            let path = entry
                .with_context(|| format!("cannot list {}", d.display()))?
                .path();
            if path.is_dir() {
                todo.push(path);
            } else if Format::from_path(&path).is_some() {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// Runs `tagloom l10n count`.
pub fn count(args: &CountArgs) -> Result<ExitCode> {
    let common = args.common.common()?;
    let mut stdio = Stdio::default();
    let mut out = output::stdout();
    if let Some(old) = &args.old {
        if args.input.is_dir() {
            bail!("--old takes one page, not a directory");
        }
        let options = UpdateOptions {
            common,
            ..UpdateOptions::default()
        };
        let (old, _) = stdio.translations(old, &args.input, None)?;
        let page = stdio.input(&args.input, "-")?;
        let c = update::analyze(&page, &old, &options)?;
        match args.report {
            ReportArg::Json => writeln!(
                out,
                "{}",
                serde_json::json!({"file": args.input, "counts": c})
            ),
            ReportArg::Text => writeln!(out, "{}: {}", args.input.display(), describe(&c)),
        }
        .and_then(|()| out.flush())
        .context("cannot write the output")?;
        return Ok(ExitCode::SUCCESS);
    }
    // (name shown, path read): standard input is read from its spooled copy.
    let files: Vec<(PathBuf, PathBuf)> = if args.input.is_dir() {
        count_inputs(&args.input)?
            .into_iter()
            .map(|f| (f.clone(), f))
            .collect()
    } else {
        vec![(args.input.clone(), stdio.input(&args.input, "-")?)]
    };
    // Files in parallel, as the other l10n directory runs.
    let counted: Vec<tagloom_l10n::Result<Counts>> = files
        .par_iter()
        .map(|(_, file)| count_file(file, &common.rules))
        .collect();
    let mut rows = Vec::with_capacity(files.len());
    let mut total = Counts::default();
    for ((file, _), c) in files.iter().zip(counted) {
        let c = c?;
        total.add(c);
        rows.push((file, c));
    }
    match args.report {
        ReportArg::Json => {
            let files: Vec<_> = rows
                .iter()
                .map(|(f, c)| serde_json::json!({"file": f, "counts": c}))
                .collect();
            writeln!(
                out,
                "{}",
                serde_json::json!({"files": files, "total": total})
            )
        }
        ReportArg::Text => {
            let mut r = writeln!(out, "{:>8} {:>9} {:>10}  file", "units", "words", "chars");
            for (f, c) in &rows {
                r = r.and_then(|()| {
                    writeln!(
                        out,
                        "{:>8} {:>9} {:>10}  {}",
                        c.units,
                        c.words,
                        c.chars,
                        f.display()
                    )
                });
            }
            r.and_then(|()| {
                writeln!(
                    out,
                    "{:>8} {:>9} {:>10}  total",
                    total.units, total.words, total.chars
                )
            })
        }
    }
    .and_then(|()| out.flush())
    .context("cannot write the output")?;
    Ok(ExitCode::SUCCESS)
}
