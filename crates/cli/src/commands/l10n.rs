//! `tagloom l10n extract|merge|pseudo`: localization through the skeleton store.
//!
//! A thin layer over `tagloom_l10n::flow`, the one wiring point of reader, skeleton
//! store and writer; every subcommand takes a file or a directory (then `-o` names a
//! directory, and files are processed in parallel with a progress bar).
//!
//! Language options are parsed as BCP 47 tags by clap (a bad one is a usage error,
//! exit 2). `merge` exits 1 when it wrote its output but some translations were not
//! applied (each is reported on standard error), unless `--allow-partial`;
//! `--strict` makes that an error instead (exit 2, no output).
//!
//! Exit status 3 (over 1) when an output was written through a fallback
//! writer (re-serialized, not byte-identical: a one-line warning per file names
//! the mode); errors (2) are the caller's. SIGINT and SIGTERM remove the output
//! temp files before exiting with 130 and 143.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::{Context, Result};
use tagloom_l10n::LanguageTag;
use tagloom_l10n::flow::{
    self, Common, ExtractOptions, Format, MergeOptions, OutputIo, PartialMerge, PseudoOptions,
    Report,
};
use tagloom_l10n::po::PoHeader;
use tagloom_l10n::rules::Rules;
use tagloom_l10n::segment::Segmentation;
use tagloom_l10n::writer::WriterMode;

use crate::input;
use crate::output::{self, Staging};

/// Options every l10n subcommand takes.
#[derive(clap::Args)]
pub struct CommonArgs {
    /// Element and attribute rules as JSON (defaults built in; `tagloom l10n rules`
    /// prints them).
    #[arg(long, value_name = "FILE")]
    rules: Option<PathBuf>,
    /// The input's encoding (a WHATWG label), instead of `<meta>` / guess / default
    /// (only a BOM overrides it).
    #[arg(long, value_name = "LABEL")]
    encoding: Option<String>,
    /// Where the skeleton's temp files go (default: the system temp dir).
    #[arg(long, value_name = "DIR")]
    temp_dir: Option<PathBuf>,
    /// When the skeleton store cannot be created or written, fail (exit 2, no output)
    /// instead of writing through the re-parse or block-only fallback (exit 3).
    #[arg(long)]
    no_fallback: bool,
    /// The largest input the re-parse fallback takes on (it holds the page, its tree
    /// and a translated copy: about 36 times the input's size in memory); larger
    /// inputs go to the block-only fallback. Bytes, or with a K, M or G suffix.
    #[arg(long, value_name = "SIZE", value_parser = parse_size,
          default_value_t = tagloom_l10n::writer::reparse::DEFAULT_INPUT_LIMIT)]
    reparse_limit: u64,
    /// No progress bar on directory runs.
    #[arg(long)]
    quiet: bool,
    /// Cut units into sentences (`sentences`: XLIFF `<segment>`s, a PO entry per
    /// sentence; `update` matches and `count` counts sentences) or not (`none`, the
    /// default); overrides the rules file's `"segment"`.
    #[arg(long, value_name = "none|sentences")]
    segment: Option<Segmentation>,
    /// How output files are written: `buffered` (through the page cache), `direct`
    /// (past it, where the file system can: spares the kernel the copy and the
    /// writeback of a large output, leaves the file uncached) or `auto` (the
    /// default: direct from a 64 MiB input on).
    #[arg(long, value_name = "auto|buffered|direct", default_value_t = OutputIo::Auto)]
    output_io: OutputIo,
}

/// `Name: value`, checked as [`PoHeader::set`] checks it.
pub fn parse_po_header(text: &str) -> std::result::Result<(String, String), String> {
    let (name, value) = text
        .split_once(':')
        .ok_or_else(|| format!("{text:?}: expected `Name: value`"))?;
    let (name, value) = (name.trim(), value.trim());
    let lang = LanguageTag::parse("en").map_err(|e| e.to_string())?;
    PoHeader::new(&lang, None, "").set(name, value)?;
    Ok((name.to_owned(), value.to_owned()))
}

impl CommonArgs {
    pub(crate) fn common(&self) -> Result<Common> {
        let mut rules = match &self.rules {
            Some(path) => Rules::from_json_file(path)
                .with_context(|| format!("cannot load rules {}", path.display()))?,
            None => Rules::default(),
        };
        if let Some(s) = self.segment {
            rules.segment = s;
        }
        Ok(Common {
            rules: Arc::new(rules),
            encoding: self.encoding.clone(),
            progress: !self.quiet,
            temp_dir: self.temp_dir.clone(),
            fallback: !self.no_fallback,
            reparse_limit: self.reparse_limit,
            output_io: self.output_io,
            ..Common::default()
        })
    }
}

/// A size: bytes, or with a `K`, `M` or `G` suffix (powers of 1024).
pub(crate) fn parse_size(text: &str) -> std::result::Result<u64, String> {
    let text = text.trim();
    let (digits, shift) = match text.char_indices().last() {
        Some((i, 'k' | 'K')) => (&text[..i], 10),
        Some((i, 'm' | 'M')) => (&text[..i], 20),
        Some((i, 'g' | 'G')) => (&text[..i], 30),
        _ => (text, 0),
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("{text:?} is not a size (bytes, or with a K, M or G suffix)"))?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("{text:?} is too large"))
}

/// The l10n subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Extract the translatable text of IN (a file or a directory) to XLIFF 2.1 or PO.
    Extract {
        /// The HTML file or directory (`-`: standard input).
        input: PathBuf,
        /// Source language (a BCP 47 tag).
        #[arg(long, value_name = "LANG", default_value = "en")]
        source: LanguageTag,
        /// Target language (a BCP 47 tag, written to the file header).
        #[arg(long, value_name = "LANG")]
        target: Option<LanguageTag>,
        /// OUT.xlf or OUT.po (a directory when IN is one; `-`: standard output).
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        /// The format (default: from OUT's extension, which must agree; XLIFF for a
        /// directory or standard output).
        #[arg(long, value_enum)]
        format: Option<FormatArg>,
        /// A PO header field over the defaults, as `Name: value` (repeatable), e.g.
        /// `--po-header 'Last-Translator: Jeanne <jeanne@example.org>'`.
        #[arg(long, value_name = "FIELD", value_parser = parse_po_header)]
        po_header: Vec<(String, String)>,
        #[command(flatten)]
        common: CommonArgs,
    },
    /// Write IN with the translations of TRANSLATED (XLIFF or PO) merged in.
    ///
    /// A translation is applied only where the page's block still has the unit's
    /// source (text and inline codes); every other one is listed on stderr (unit id
    /// and reason) and that block keeps its source text.
    #[command(after_help = "Exit status: 0 when every translation was applied (or \
        --allow-partial); 1 when the output was written but some translations were not \
        applied; 2 on bad usage or input, or with --strict when a translation could not \
        be applied (nothing written); 3 when the output was written through a fallback \
        writer (re-serialized, not byte-identical: the skeleton store failed); 130/143 \
        on SIGINT/SIGTERM (nothing written).")]
    Merge {
        /// The original HTML file or directory (`-`: standard input).
        input: PathBuf,
        /// The translated XLIFF/PO file (a directory when IN is one; `-`: standard
        /// input, when IN is not).
        translated: PathBuf,
        /// The translated HTML (a directory when IN is one; `-`: standard output).
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        /// The format of TRANSLATED (default: from its extension, which must agree;
        /// on standard input, from its first character).
        #[arg(long, value_enum)]
        format: Option<FormatArg>,
        /// Apply unconfirmed translations too: PO `#, fuzzy` entries and XLIFF
        /// segments with `state="initial"` (default: skipped and counted, as gettext
        /// does; their blocks keep the source text).
        #[arg(long)]
        include_fuzzy: bool,
        /// Source language (a BCP 47 tag; default: from the translation file).
        #[arg(long, value_name = "LANG")]
        source: Option<LanguageTag>,
        /// Target language (a BCP 47 tag; default: from the translation file).
        #[arg(long, value_name = "LANG")]
        target: Option<LanguageTag>,
        /// Fail (exit 2, no output) when a translation cannot be applied: stale
        /// source, unit not in the page, broken inline codes (default: keep that
        /// block's source text, report it, exit 1).
        #[arg(long, conflicts_with = "allow_partial")]
        strict: bool,
        /// Exit 0 even when some translations were not applied (they are still
        /// reported, and those blocks keep their source text).
        #[arg(long)]
        allow_partial: bool,
        #[command(flatten)]
        common: CommonArgs,
    },
    /// Write a pseudo-translation of IN (accents, expansion, brackets) for layout tests.
    #[command(
        after_help = "Exit status: 0 on success; 2 on bad usage or input (nothing \
        written); 3 when the output was written through a fallback writer (re-serialized, \
        not byte-identical: the skeleton store failed); 130/143 on SIGINT/SIGTERM."
    )]
    Pseudo {
        /// The HTML file or directory (`-`: standard input).
        input: PathBuf,
        /// Source language (a BCP 47 tag).
        #[arg(long, value_name = "LANG", default_value = "en")]
        source: LanguageTag,
        /// The locale (a BCP 47 tag) `lang` values naming the source become.
        #[arg(long, value_name = "LANG")]
        target: Option<LanguageTag>,
        /// The pseudo-translated HTML (a directory when IN is one; `-`: standard
        /// output).
        #[arg(short, long, value_name = "OUT")]
        output: PathBuf,
        #[command(flatten)]
        common: CommonArgs,
    },
    /// Re-extract a changed PAGE and carry over OLD's translations: unchanged units
    /// keep theirs, near matches are marked fuzzy (the old translation as a
    /// suggestion), the rest is new; prints what it found.
    Update(super::l10n_update::UpdateArgs),
    /// Count units, words and characters of pages or translation files (a
    /// directory: per file and total).
    Count(super::l10n_update::CountArgs),
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

impl From<FormatArg> for Format {
    fn from(f: FormatArg) -> Format {
        match f {
            FormatArg::Xliff => Format::Xliff,
            FormatArg::Po => Format::Po,
        }
    }
}

/// The files of one l10n run with `-` resolved, for every l10n subcommand: an input
/// `-` is standard input spooled to a temp file (the flow reads its inputs more than
/// once), an output `-` a temp file copied to standard output once the run succeeded
/// (nothing partial reaches it). Reports name them `-`.
#[derive(Default)]
pub struct Stdio {
    staging: Staging,
    stdin: Option<PathBuf>,
    stdout: Option<PathBuf>,
}

impl Stdio {
    /// The path to read for the input argument `path` (`name`: the spooled file's
    /// name, e.g. `-.po`, which the flow sees as its file name). Standard input can
    /// be only one of the inputs.
    pub fn input(&mut self, path: &Path, name: &str) -> Result<PathBuf> {
        if path.as_os_str() != "-" {
            return Ok(path.to_path_buf());
        }
        if self.stdin.is_some() {
            anyhow::bail!("only one input can be `-` (standard input)");
        }
        let spooled = input::spool(path, &mut self.staging, name)?;
        self.stdin = Some(spooled.clone());
        Ok(spooled)
    }

    /// The path to read for a translation file argument `path` read with `input`
    /// (`-`: standard input, for a file run), and its format: `format` when given,
    /// else for standard input sniffed ([`sniff_format`]), else `None` (the flow
    /// takes it from the extension).
    pub fn translations(
        &mut self,
        path: &Path,
        input: &Path,
        format: Option<Format>,
    ) -> Result<(PathBuf, Option<Format>)> {
        if path.as_os_str() != "-" {
            return Ok((path.to_path_buf(), format));
        }
        if input.is_dir() {
            anyhow::bail!(
                "{}: a directory run reads a directory of translation files, not standard input",
                input.display()
            );
        }
        let spooled = self.input(path, "-.translation")?;
        let format = match format {
            Some(f) => f,
            None => sniff_format(&spooled)?,
        };
        // Named by its format, for readers that take it from the extension.
        let named = spooled.with_extension(format.extension());
        std::fs::rename(&spooled, &named)
            .with_context(|| format!("cannot rename {}", spooled.display()))?;
        self.stdin = Some(named.clone());
        Ok((named, Some(format)))
    }

    /// The path to write for the output argument `path` (`name`: the staged file's
    /// name, whose extension the flow may check). `-` is for a file run only.
    pub fn output(&mut self, path: &Path, input: &Path, name: &str) -> Result<PathBuf> {
        if path.as_os_str() != "-" {
            return Ok(path.to_path_buf());
        }
        if input.is_dir() {
            anyhow::bail!(
                "{}: a directory run writes a directory, not standard output",
                input.display()
            );
        }
        let staged = self.staging.path(name)?;
        self.stdout = Some(staged.clone());
        Ok(staged)
    }

    /// After a run: names standard input and output `-` in `report`, and copies a
    /// staged output to standard output when it was written.
    pub fn finish(self, report: &mut Report) -> Result<()> {
        self.finish_paths(
            report
                .files
                .iter_mut()
                .flat_map(|f| [&mut f.input, &mut f.output]),
        )
    }

    /// [`Stdio::finish`] for any report: names standard input and output `-` among
    /// `paths` (the report's file names), and copies the staged output to standard
    /// output when it is one of them.
    pub fn finish_paths<'a>(self, paths: impl IntoIterator<Item = &'a mut PathBuf>) -> Result<()> {
        let mut written = false;
        for path in paths {
            if self.stdin.as_deref() == Some(path.as_path()) {
                *path = PathBuf::from("-");
            } else if self.stdout.as_deref() == Some(path.as_path()) {
                *path = PathBuf::from("-");
                written = true;
            }
        }
        match &self.stdout {
            Some(staged) if written => output::copy_to_stdout(staged),
            _ => Ok(()),
        }
    }
}

/// The format of a translation file on standard input: XLIFF when its first
/// character (after a BOM and white space) is `<`, else PO.
fn sniff_format(path: &Path) -> Result<Format> {
    use std::io::Read;
    let mut head = Vec::with_capacity(512);
    std::fs::File::open(path)
        .and_then(|f| f.take(512).read_to_end(&mut head))
        .with_context(|| format!("cannot read {}", path.display()))?;
    let text = head.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(&head);
    let first = text.iter().find(|b| !b.is_ascii_whitespace());
    Ok(if first == Some(&b'<') {
        Format::Xliff
    } else {
        Format::Po
    })
}

/// Runs `command`: `Ok` with the exit status when the outputs were written (0; 1 when
/// a merge wrote its output with translations not applied; 3 when a fallback
/// writer wrote one, which wins over 1), `Err` for a failure (the caller exits 2).
pub fn run(command: &Command) -> Result<ExitCode> {
    if !matches!(command, Command::Rules | Command::Count(_)) {
        remove_temp_files_on_signals()?;
    }
    let started = std::time::Instant::now();
    let mut stdio = Stdio::default();
    let (report, dir_run) = match command {
        Command::Update(args) => return super::l10n_update::update(args),
        Command::Count(args) => return super::l10n_update::count(args),
        Command::Extract {
            input,
            source,
            target,
            output,
            format,
            po_header,
            common,
        } => {
            let format = format.map(Format::from);
            let name = format!("stdout.{}", format.unwrap_or(Format::Xliff).extension());
            let options = ExtractOptions {
                source_lang: source.clone(),
                target_lang: target.clone(),
                format: match (format, output.as_os_str() == "-") {
                    (None, true) => Some(Format::Xliff),
                    (f, _) => f,
                },
                common: Common {
                    po_header: po_header.clone(),
                    ..common.common()?
                },
            };
            let inp = stdio.input(input, "-")?;
            let options = ExtractOptions {
                common: counting_words(options.common, &inp),
                ..options
            };
            let out = stdio.output(output, input, &name)?;
            (flow::extract(&inp, &out, &options)?, inp.is_dir())
        }
        Command::Merge {
            input,
            translated,
            output,
            format,
            include_fuzzy,
            source,
            target,
            strict,
            allow_partial,
            common,
        } => {
            let (t, format) = stdio.translations(translated, input, format.map(Format::from))?;
            let settings = common.common()?;
            let inp = stdio.input(input, "-")?;
            let options = MergeOptions {
                source_lang: source.clone(),
                target_lang: target.clone(),
                partial: partial_merge(*strict, *allow_partial),
                format,
                include_fuzzy: *include_fuzzy,
                common: counting_words(settings, &inp),
            };
            let out = stdio.output(output, input, "stdout.html")?;
            (flow::merge(&inp, &t, &out, &options)?, inp.is_dir())
        }
        Command::Pseudo {
            input,
            source,
            target,
            output,
            common,
        } => {
            let settings = common.common()?;
            let inp = stdio.input(input, "-")?;
            let options = PseudoOptions {
                source_lang: source.clone(),
                target_lang: target.clone(),
                common: counting_words(settings, &inp),
            };
            let out = stdio.output(output, input, "stdout.html")?;
            (flow::pseudo(&inp, &out, &options)?, inp.is_dir())
        }
        Command::Rules => {
            let mut out = output::stdout();
            writeln!(out, "{}", Rules::default().to_json())
                .and_then(|()| out.flush())
                .context("cannot write the output")?;
            return Ok(ExitCode::SUCCESS);
        }
    };
    finish_run(report, stdio, dir_run, started)
}

/// The end of every l10n run: standard output written ([`Stdio::finish`]), one line
/// per file on standard error, the totals of a directory run, the exit status (3
/// when a fallback writer wrote a file, over 1 for a partial merge, else 0; `Err`
/// for failed files).
pub fn finish_run(
    mut report: Report,
    stdio: Stdio,
    dir_run: bool,
    started: std::time::Instant,
) -> Result<ExitCode> {
    stdio.finish(&mut report)?;
    summarize(&report);
    if dir_run {
        print_totals(&report, started.elapsed());
    }
    let fallback = report.fallbacks().next().is_some();
    let report = report.into_result().context("some files failed")?;
    Ok(if fallback {
        ExitCode::from(3)
    } else if report.partial() {
        ExitCode::from(1)
    } else {
        ExitCode::SUCCESS
    })
}

/// `common` counting words only for a directory run: an extract, merge or pseudo
/// run prints words in a directory run's totals only ([`print_totals`]).
fn counting_words(common: Common, input: &Path) -> Common {
    Common {
        count_words: input.is_dir(),
        ..common
    }
}

/// `--strict` / `--allow-partial` as a [`PartialMerge`].
fn partial_merge(strict: bool, allow_partial: bool) -> PartialMerge {
    match (strict, allow_partial) {
        (true, _) => PartialMerge::Fail,
        (false, true) => PartialMerge::Allow,
        (false, false) => PartialMerge::Report,
    }
}

/// On SIGINT or SIGTERM: remove the output temp files of the runs in progress
/// (the skeleton's have no name), then exit 130 or 143. A thread waits for the
/// signals; the removal blocks any later rename onto a destination.
fn remove_temp_files_on_signals() -> Result<()> {
    use signal_hook::consts::{SIGINT, SIGTERM};
    let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])
        .context("cannot install the signal handlers")?;
    std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || {
            if let Some(signal) = signals.forever().next() {
                tagloom_l10n::output::remove_temp_files_for_exit();
                output::remove_staging_for_exit();
                std::process::exit(128 + signal);
            }
        })
        .context("cannot start the signal thread")?;
    Ok(())
}

/// One line per file on standard error, then the totals; a warning line per file
/// written through a fallback.
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
            file.mode.map_or("extract", WriterMode::name),
            if file.had_invalid_bytes {
                ", invalid bytes kept as they were"
            } else {
                ""
            },
        );
        for issue in &file.issues {
            eprintln!("  not applied: {issue}");
        }
        if file.unconfirmed > 0 {
            eprintln!(
                "  {} unconfirmed translation(s) skipped (fuzzy, or state=\"initial\"): those \
                 blocks kept their source text (--include-fuzzy applies them)",
                file.unconfirmed
            );
        }
        if file.partial {
            eprintln!(
                "  {} translation(s) not applied: those blocks kept their source text \
                 (--allow-partial accepts this)",
                file.issues.len()
            );
        }
    }
    for file in report.fallbacks() {
        let what = match file.mode {
            Some(WriterMode::BlockOnly) => "the blocks' text only, no markup",
            _ => "re-serialized, not byte-identical",
        };
        eprintln!(
            "tagloom: warning: {}: written in {} mode ({what}): {}",
            file.output.display(),
            file.mode.map_or("extract", WriterMode::name),
            file.fallback_reason
                .as_deref()
                .unwrap_or("the skeleton store failed")
                .replace('\n', " "),
        );
    }
    for file in report.files.iter().filter(|f| f.encoding_guessed) {
        let name = file.input.display().to_string();
        eprintln!("{}", crate::input::guessed_warning(&name, &file.encoding));
    }
    for file in report.files.iter().filter(|f| f.char_references > 0) {
        eprintln!("{}", lossy_encoding_warning(file));
    }
    for (path, err) in &report.failures {
        eprintln!("{}: {err}", display(path));
    }
}

/// The warning for a file whose encoding could not hold some translated
/// characters (written as numeric character references).
fn lossy_encoding_warning(file: &tagloom_l10n::flow::FileReport) -> String {
    format!(
        "tagloom: warning: {}: {} character(s) the page's encoding ({}) cannot represent \
         were written as numeric character references (&#x…;): browsers show them, but \
         they are no longer plain text; declare UTF-8 in the page (<meta charset=\"utf-8\">, \
         saved as UTF-8) to keep them as text",
        display(&file.output),
        file.char_references,
        file.encoding
    )
}

/// The totals of a directory run, one line on standard error.
fn print_totals(report: &Report, elapsed: std::time::Duration) {
    let sum = |f: fn(&tagloom_l10n::flow::FileReport) -> usize| -> usize {
        report.files.iter().map(f).sum()
    };
    let issues = sum(|f| f.issues.len());
    let unconfirmed = sum(|f| f.unconfirmed);
    eprintln!(
        "total: {} file(s), {} unit(s), {} word(s), {} translated, {} issue(s){}{}, {:.2} s",
        report.files.len(),
        report.blocks(),
        sum(|f| f.words),
        report.translated(),
        issues,
        if unconfirmed > 0 {
            format!(", {unconfirmed} unconfirmed skipped")
        } else {
            String::new()
        },
        if report.failures.is_empty() {
            String::new()
        } else {
            format!(", {} failed", report.failures.len())
        },
        elapsed.as_secs_f64(),
    );
}

fn display(path: &Path) -> String {
    path.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes() {
        assert_eq!(parse_size("1000"), Ok(1000));
        assert_eq!(parse_size("32M"), Ok(32 << 20));
        assert_eq!(parse_size("2k"), Ok(2048));
        assert_eq!(parse_size("1G"), Ok(1 << 30));
        assert!(parse_size("M").is_err());
        assert!(parse_size("1.5M").is_err());
        assert!(parse_size("-1").is_err());
        assert!(parse_size("99999999999999G").is_err());
    }
}
