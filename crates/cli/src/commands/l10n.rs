//! `tagloom l10n extract|merge|pseudo`: localization through the skeleton store.
//!
//! A thin layer over `tagloom_l10n::flow`, the one wiring point of reader, skeleton
//! store and writer; every subcommand takes a file or a directory (then `-o` names a
//! directory, and files are processed in parallel with a progress bar).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result};
use tagloom_l10n::flow::{
    self, Common, ExtractOptions, Format, MergeOptions, PseudoOptions, Report,
};
use tagloom_l10n::rules::Rules;

use crate::output;

/// Options every l10n subcommand takes.
#[derive(clap::Args)]
pub struct CommonArgs {
    /// Element and attribute rules as JSON (defaults built in; `tagloom l10n rules`
    /// prints them).
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
    /// The input's encoding (a WHATWG label), instead of BOM / `<meta>` / default.
    #[arg(long, value_name = "LABEL")]
    encoding: Option<String>,
    /// Where the skeleton's temp files go (default: the system temp dir).
    #[arg(long, value_name = "DIR")]
    temp_dir: Option<PathBuf>,
    /// No progress bar on directory runs.
    #[arg(long)]
    quiet: bool,
}

impl CommonArgs {
    fn common(&self) -> Result<Common> {
        let rules = match &self.rules {
            Some(path) => Rules::from_json_file(path)
                .with_context(|| format!("cannot load rules {}", path.display()))?,
            None => Rules::default(),
        };
        Ok(Common {
            rules: Arc::new(rules),
            encoding: self.encoding.clone(),
            progress: !self.quiet,
            temp_dir: self.temp_dir.clone(),
            ..Common::default()
        })
    }
}

/// The l10n subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Extract the translatable text of IN (a file or a directory) to XLIFF 2.1 or PO.
    Extract {
        /// The HTML file or directory.
        input: PathBuf,
        /// Source language.
        #[arg(long, value_name = "LANG", default_value = "en")]
        source: String,
        /// Target language (written to the file header).
        #[arg(long, value_name = "LANG")]
        target: Option<String>,
        /// OUT.xlf or OUT.po (a directory when IN is one).
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        /// Format for directory outputs (files: from the extension).
        #[arg(long, value_enum)]
        format: Option<FormatArg>,
        #[command(flatten)]
        common: CommonArgs,
    },
    /// Write IN with the translations of TRANSLATED (XLIFF or PO) merged in.
    Merge {
        /// The original HTML file or directory.
        input: PathBuf,
        /// The translated XLIFF/PO file (a directory when IN is one).
        translated: PathBuf,
        /// The translated HTML (a directory when IN is one).
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        /// Source language (default: from the translation file).
        #[arg(long, value_name = "LANG")]
        source: Option<String>,
        /// Target language (default: from the translation file).
        #[arg(long, value_name = "LANG")]
        target: Option<String>,
        /// Fail on a translation whose inline codes were lost, duplicated or
        /// reordered (default: keep that block's source text and report it).
        #[arg(long)]
        strict: bool,
        #[command(flatten)]
        common: CommonArgs,
    },
    /// Write a pseudo-translation of IN (accents, expansion, brackets) for layout tests.
    Pseudo {
        /// The HTML file or directory.
        input: PathBuf,
        /// Source language.
        #[arg(long, value_name = "LANG", default_value = "en")]
        source: String,
        /// The locale `lang` values naming the source become.
        #[arg(long, value_name = "LANG")]
        target: Option<String>,
        /// The pseudo-translated HTML (a directory when IN is one).
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        #[command(flatten)]
        common: CommonArgs,
    },
    /// Print the built-in element and attribute rules as JSON (a starting point for
    /// `--rules`).
    Rules,
}

/// Interchange formats.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum FormatArg {
    /// XLIFF 2.1.
    Xliff,
    /// gettext PO.
    Po,
}

pub fn run(command: &Command) -> Result<()> {
    let report = match command {
        Command::Extract {
            input,
            source,
            target,
            output,
            format,
            common,
        } => {
            let options = ExtractOptions {
                source_lang: source.clone(),
                target_lang: target.clone(),
                format: format.map(|f| match f {
                    FormatArg::Xliff => Format::Xliff,
                    FormatArg::Po => Format::Po,
                }),
                common: common.common()?,
            };
            flow::extract(input, output, &options)?
        }
        Command::Merge {
            input,
            translated,
            output,
            source,
            target,
            strict,
            common,
        } => {
            let options = MergeOptions {
                source_lang: source.clone(),
                target_lang: target.clone(),
                strict: *strict,
                common: common.common()?,
            };
            flow::merge(input, translated, output, &options)?
        }
        Command::Pseudo {
            input,
            source,
            target,
            output,
            common,
        } => {
            let options = PseudoOptions {
                source_lang: source.clone(),
                target_lang: target.clone(),
                common: common.common()?,
            };
            flow::pseudo(input, output, &options)?
        }
        Command::Rules => {
            let mut out = output::stdout();
            writeln!(out, "{}", Rules::default().to_json())
                .and_then(|()| out.flush())
                .context("cannot write the output")?;
            return Ok(());
        }
    };
    summarize(&report);
    report
        .into_result()
        .map(|_| ())
        .context("some files failed")
}

/// One line per file on standard error, then the totals.
fn summarize(report: &Report) {
    for file in &report.files {
        eprintln!(
            "{} -> {}: {} blocks, {} translated, {} lang retargeted ({}, {}){}",
            file.input.display(),
            file.output.display(),
            file.blocks,
            file.translated,
            file.lang_retargeted,
            file.encoding,
            file.mode,
            if file.had_invalid_bytes {
                ", invalid bytes kept as they were"
            } else {
                ""
            },
        );
        for issue in &file.issues {
            eprintln!("  not merged: {}: {}", issue.id, issue.message);
        }
    }
    for (path, err) in &report.failures {
        eprintln!("{}: {err}", display(path));
    }
}

fn display(path: &Path) -> String {
    path.display().to_string()
}
