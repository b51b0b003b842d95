//! The flow runner: the ONE place that wires reader, skeleton store and writer for a
//! file (`run_job`, behind [`run_file_with_reader_writer`], after the seed's
//! `RunFileWithReaderWriter`, and [`merge_to_writer`]), and the entry points every
//! caller uses — the `tagloom l10n` CLI is a thin layer
//! over [`extract`], [`merge`] and [`pseudo`]. Each takes a file or a directory (then
//! the output names a directory; files are processed in parallel with a progress bar).
//!
//! Outputs are written to a temp file beside the destination and renamed into place
//! at the end ([`crate::output`]): a failure (bad input, mismatched translation ids,
//! a full disk) or an interruption leaves no partial file behind, a new output's mode
//! follows the umask and a replaced file keeps its mode. The skeleton's temp file has
//! no name (nor, on Linux, the output's until its last instant): nothing of it can
//! be left.
//!
//! A file merge or pseudo run reads and replays the page at once: the page reader on
//! a second thread writes the skeleton into a bounded in-memory channel that the
//! replay reads (`write_pipelined`, [`SkeletonStore`]'s pipeline: no temp file at
//! all). A temp directory or a skeleton limit asked for, or a rayon worker (a
//! directory run: one thread per file already), keeps the temp-file skeleton.
//!
//! When the skeleton store fails (it cannot be created or written: a bad temp
//! directory, a full disk), merge and pseudo fall back to the re-parse writer, then to
//! the block-only writer, never silently: [`FileReport::mode`] names the
//! [`WriterMode`] and [`FileReport::fallback_reason`] says why. [`Common::fallback`]
//! `= false` makes the skeleton's failure the error instead.
//!
//! ```no_run
//! use std::path::Path;
//! use tagloom_l10n::flow::{self, ExtractOptions, MergeOptions, PseudoOptions};
//!
//! // tagloom l10n extract site/ --source en --target fr -o xlf/
//! let report = flow::extract(Path::new("site"), Path::new("xlf"), &ExtractOptions::new("en", Some("fr"))?)?;
//! println!("{} files, {} blocks", report.files.len(), report.blocks());
//! // tagloom l10n merge site/ xlf/ -o site-fr/
//! let report = flow::merge(Path::new("site"), Path::new("xlf"), Path::new("site-fr"), &MergeOptions::default())?;
//! let report = report.into_result()?; // per-file failures as an error
//! for (file, issue) in report.issues() {
//!     eprintln!("{}: not applied: {issue}", file.display()); // stale, codes broken…
//! }
//! // tagloom l10n pseudo page.html --target fr -o page.pseudo.html
//! flow::pseudo(Path::new("page.html"), Path::new("page.pseudo.html"), &PseudoOptions::default())?;
//! # Ok::<(), tagloom_l10n::L10nError>(())
//! ```

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use encoding_rs::Encoding;
use rayon::prelude::*;

use crate::error::{IoContext, L10nError, Result};
use crate::lang::LanguageTag;
use crate::output::OutputFile;
pub use crate::output::OutputIo;
use crate::po::{PoHeader, PoTranslations, PoWriter};
use crate::pseudo::PseudoTranslations;
use crate::reader::handoff::{handoff, is_sink_stopped};
use crate::reader::{
    BlockSink, ReadOptions, ReadReport, read_file, read_file_for_writer, read_for_replay,
};
use crate::rules::Rules;
use crate::segment::Segmenter;
use crate::skeleton::SkeletonStore;
use crate::writer::{
    BlockOnlyFallback, EncodedOutput, Fallback, FallbackError, Issue, ReparseFallback,
    Translations, WRITING_OUTPUT, WriteReport, WriterMode, WriterOptions, write_counting,
};
use crate::xliff::{XliffTranslations, XliffWriter};

/// The interchange format of translation files.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Format {
    /// XLIFF 2.1 (`.xlf`, `.xliff`).
    Xliff,
    /// gettext PO (`.po`).
    Po,
}

impl Format {
    /// The format a file name implies.
    pub fn from_path(path: &Path) -> Option<Format> {
        match path.extension()?.to_str()?.to_ascii_lowercase().as_str() {
            "xlf" | "xliff" => Some(Format::Xliff),
            "po" | "pot" => Some(Format::Po),
            _ => None,
        }
    }

    /// The format of a translation file at `path`: `explicit` (`--format`) when
    /// given, which must agree with the extension when that names a format (`--format
    /// po -o x.xlf` is [`L10nError::Usage`]); else the extension's.
    pub fn resolve(explicit: Option<Format>, path: &Path) -> Result<Format> {
        match (explicit, Format::from_path(path)) {
            (Some(f), Some(by_name)) if f != by_name => Err(L10nError::Usage(format!(
                "--format {} disagrees with {} (a .{} file)",
                f.name(),
                path.display(),
                by_name.extension()
            ))),
            (Some(f), _) | (None, Some(f)) => Ok(f),
            (None, None) => Err(L10nError::Usage(format!(
                "{}: use a .xlf or .po file, or --format",
                path.display()
            ))),
        }
    }

    /// The format's name as `--format` takes it (`xliff`, `po`).
    pub fn name(self) -> &'static str {
        match self {
            Format::Xliff => "xliff",
            Format::Po => "po",
        }
    }

    /// The file extension written for the format (`xlf`, `po`).
    pub fn extension(self) -> &'static str {
        match self {
            Format::Xliff => "xlf",
            Format::Po => "po",
        }
    }
}

/// Settings shared by all flows.
#[derive(Clone, Debug)]
pub struct Common {
    /// Element and attribute rules.
    pub rules: Arc<Rules>,
    /// Force the input encoding (a WHATWG label; only a BOM overrides it); `None`:
    /// what the parser picks (`tagloom_html::sniff`), with a guess when nothing is
    /// declared ([`FileReport::encoding_guessed`]).
    pub encoding: Option<String>,
    /// Show a progress bar on directory runs (on standard error).
    pub progress: bool,
    /// Where the skeleton's temp file goes (`None`: the system temp dir).
    pub temp_dir: Option<PathBuf>,
    /// Cap on the skeleton temp file size (a quota; also how tests simulate a full disk).
    pub skeleton_limit: Option<u64>,
    /// When the skeleton store fails, write through the re-parse and block-only
    /// fallbacks (`true`, the default; the report names the mode), or fail with the
    /// skeleton's error, leaving no output (`false`: `--no-fallback`).
    pub fallback: bool,
    /// The largest input, in bytes, the re-parse fallback takes on (it holds about
    /// [`crate::writer::reparse::BYTES_PER_INPUT_BYTE`] bytes of memory per input
    /// byte); larger inputs go on to the block-only fallback. Default:
    /// [`crate::writer::reparse::DEFAULT_INPUT_LIMIT`].
    pub reparse_limit: u64,
    /// PO header fields set over [`crate::po::PoHeader::new`]'s defaults whenever a
    /// PO file is written (`--po-header 'Last-Translator: …'`), in order.
    pub po_header: Vec<(String, String)>,
    /// Count the words of a page ([`FileReport::words`]; `true`, the default). A
    /// caller that shows no word count (the CLI on a single file) turns it off:
    /// the count is a pass over every block's text, on the replay's thread of a
    /// merge or pseudo run and on the interchange writer's thread of an
    /// extraction. A page read on its own thread alone (a directory run's worker)
    /// is counted whatever this says.
    pub count_words: bool,
    /// How output files are written: through the page cache or, for a large
    /// output, past it ([`OutputIo`]; `Auto`, the default: direct from a 64 MiB
    /// input on; `--output-io`).
    pub output_io: OutputIo,
}

impl Default for Common {
    fn default() -> Self {
        Common {
            rules: Arc::new(Rules::default()),
            encoding: None,
            progress: false,
            temp_dir: None,
            skeleton_limit: None,
            fallback: true,
            reparse_limit: crate::writer::reparse::DEFAULT_INPUT_LIMIT,
            po_header: Vec::new(),
            count_words: true,
            output_io: OutputIo::Auto,
        }
    }
}

/// `tagloom l10n extract`.
#[derive(Clone, Debug)]
pub struct ExtractOptions {
    /// Source language (`en`).
    pub source_lang: LanguageTag,
    /// Target language (`fr`), written to the file's header.
    pub target_lang: Option<LanguageTag>,
    /// Output format; `None`: from the output's extension (directories: XLIFF).
    pub format: Option<Format>,
    /// Shared settings.
    pub common: Common,
}

impl ExtractOptions {
    /// Options with default rules; the languages must be well-formed BCP 47 tags
    /// ([`L10nError::Language`] otherwise).
    pub fn new(source_lang: &str, target_lang: Option<&str>) -> Result<Self> {
        Ok(ExtractOptions {
            source_lang: parse_lang("source language", source_lang)?,
            target_lang: target_lang
                .map(|t| parse_lang("target language", t))
                .transpose()?,
            format: None,
            common: Common::default(),
        })
    }
}

fn parse_lang(context: &str, value: &str) -> Result<LanguageTag> {
    LanguageTag::parse(value).map_err(|source| L10nError::Language {
        context: context.into(),
        source,
    })
}

/// What a merge does when some translations could not be applied: a unit whose
/// source is not the page block's any more, a translated unit the page does not
/// have, a page block the file has no unit for, a target with broken inline codes.
/// Each such block keeps its source text and is reported in
/// [`FileReport::issues`]. Untranslated units are never an issue.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum PartialMerge {
    /// Write the output and mark the file [partial](FileReport::partial)
    /// (`tagloom l10n merge` exits 1).
    #[default]
    Report,
    /// Write the output; a partial merge is accepted (`--allow-partial`, exit 0).
    Allow,
    /// Fail with [`L10nError::NotApplied`], no output written (`--strict`, exit 2).
    Fail,
}

/// `tagloom l10n merge`.
#[derive(Clone, Debug, Default)]
pub struct MergeOptions {
    /// Source language; `None`: from the translation file (else `en`).
    pub source_lang: Option<LanguageTag>,
    /// Target language; `None`: from the translation file.
    pub target_lang: Option<LanguageTag>,
    /// What to do when translations are not applied (stale, broken codes).
    pub partial: PartialMerge,
    /// The translation file's format; `None`: from its extension (it must agree
    /// when both are known, see [`Format::resolve`]).
    pub format: Option<Format>,
    /// Merge unconfirmed translations too (PO `#, fuzzy`, XLIFF `state="initial"`);
    /// by default they are skipped and counted in [`FileReport::unconfirmed`].
    pub include_fuzzy: bool,
    /// Shared settings.
    pub common: Common,
}

/// `tagloom l10n pseudo`.
#[derive(Clone, Debug)]
pub struct PseudoOptions {
    /// Source language (`en`).
    pub source_lang: LanguageTag,
    /// The locale `lang` values naming the source become.
    pub target_lang: Option<LanguageTag>,
    /// Shared settings.
    pub common: Common,
}

impl Default for PseudoOptions {
    fn default() -> Self {
        PseudoOptions {
            source_lang: LanguageTag::english(),
            target_lang: None,
            common: Common::default(),
        }
    }
}

/// What happened to one file.
#[derive(Clone, Debug, Default)]
pub struct FileReport {
    /// The input.
    pub input: PathBuf,
    /// The output written.
    pub output: PathBuf,
    /// The document's encoding (kept in the output).
    pub encoding: String,
    /// The document declared no encoding and [`encoding`](Self::encoding) was
    /// guessed from its bytes (the CLI warns).
    pub encoding_guessed: bool,
    /// Blocks (sub-blocks included).
    pub blocks: usize,
    /// Words in the blocks' source text ([`crate::block::words`]; 0 when a fallback
    /// writer wrote the file, or when [`Common::count_words`] was off).
    pub words: usize,
    /// Blocks written translated (merge, pseudo).
    pub translated: usize,
    /// Language values retargeted.
    pub lang_retargeted: usize,
    /// Translations not applied (stale source, unit not in the page, block not in
    /// the file, broken inline codes…): those blocks kept their source text.
    pub issues: Vec<Issue>,
    /// Unconfirmed translations (PO `#, fuzzy`, XLIFF `state="initial"`) skipped
    /// because [`MergeOptions::include_fuzzy`] was off: those blocks kept their
    /// source text; not issues.
    pub unconfirmed: usize,
    /// Some translations were not applied and [`PartialMerge::Report`] was asked:
    /// the output was written but is not the translation the file describes.
    pub partial: bool,
    /// Whether the input had invalid bytes (kept as they were).
    pub had_invalid_bytes: bool,
    /// Input size.
    pub bytes_in: u64,
    /// Output size.
    pub bytes_out: u64,
    /// Characters of the translations (of the whole document for the re-parse
    /// fallback) the document's encoding cannot represent, written as numeric
    /// character references (`&#x4E2D;`): browsers show them, but they are no
    /// longer text to search or edit (the CLI warns; declaring UTF-8 avoids them).
    pub char_references: u64,
    /// The writer that wrote the document (`None` for an extraction).
    pub mode: Option<WriterMode>,
    /// When a fallback wrote it: why the skeleton store (and any fallback tried
    /// before it) failed.
    pub fallback_reason: Option<String>,
}

impl FileReport {
    /// Whether a fallback writer wrote the output (re-serialized, not byte-identical).
    pub fn is_fallback(&self) -> bool {
        self.mode.is_some_and(WriterMode::is_fallback)
    }
}

/// What happened to a file or a directory.
#[derive(Debug, Default)]
pub struct Report {
    /// The files done.
    pub files: Vec<FileReport>,
    /// The files that failed (directory runs go on after a failure).
    pub failures: Vec<(PathBuf, L10nError)>,
}

impl Report {
    /// Total blocks.
    pub fn blocks(&self) -> usize {
        self.files.iter().map(|f| f.blocks).sum()
    }
    /// Total translated blocks.
    pub fn translated(&self) -> usize {
        self.files.iter().map(|f| f.translated).sum()
    }
    /// Whether any file is [partial](FileReport::partial).
    pub fn partial(&self) -> bool {
        self.files.iter().any(|f| f.partial)
    }
    /// All translations not applied, with their file.
    pub fn issues(&self) -> impl Iterator<Item = (&Path, &Issue)> {
        self.files
            .iter()
            .flat_map(|f| f.issues.iter().map(move |i| (f.input.as_path(), i)))
    }
    /// The files written through a fallback writer.
    pub fn fallbacks(&self) -> impl Iterator<Item = &FileReport> {
        self.files.iter().filter(|f| f.is_fallback())
    }
    /// `Err` with the first failure, if any.
    pub fn into_result(mut self) -> Result<Report> {
        if self.failures.is_empty() {
            return Ok(self);
        }
        let (path, err) = self.failures.remove(0);
        Err(L10nError::Usage(format!(
            "{} file(s) failed; first: {}: {err}",
            self.failures.len() + 1,
            path.display()
        )))
    }
}

/// What a file run does with the reader's output.
pub enum Job<'a> {
    /// Blocks to an interchange file.
    Extract {
        /// Format.
        format: Format,
        /// Source language.
        source_lang: &'a LanguageTag,
        /// Target language.
        target_lang: Option<&'a LanguageTag>,
    },
    /// Skeleton + writer: the translated document.
    Write {
        /// Where translations come from.
        translations: &'a mut dyn Translations,
        /// Writer settings.
        options: WriterOptions,
        /// What translations not applied mean.
        partial: PartialMerge,
    },
}

impl Common {
    /// The reader's options: the rules and the forced encoding
    /// ([`L10nError::UnknownEncoding`] for a label that names none).
    pub fn read_options(&self) -> Result<ReadOptions<'_>> {
        let encoding = match &self.encoding {
            None => None,
            Some(label) => Some(
                Encoding::for_label(label.as_bytes())
                    .ok_or_else(|| L10nError::UnknownEncoding(label.clone()))?,
            ),
        };
        Ok(ReadOptions {
            rules: &self.rules,
            encoding,
        })
    }
}

/// Runs `job` on the file `input` into the file `output`: `run_job` into a temp
/// file beside `output`, renamed into place only when the job succeeded (a failure
/// leaves no output). Every file flow (extract, merge, pseudo, file or directory)
/// comes here.
pub fn run_file_with_reader_writer(
    input: &Path,
    output: &Path,
    job: Job<'_>,
    common: &Common,
) -> Result<FileReport> {
    let temp = OutputFile::create(output)?;
    let input_bytes = std::fs::metadata(input).map_or(0, |m| m.len());
    let mut out = temp.writer(common.output_io, input_bytes)?;
    let io_out = |e| L10nError::io(format!("writing {}", output.display()), e);
    let mut report = run_job(input, &mut out, job, common).map_err(|e| match e {
        L10nError::Io { context, source } if context == WRITING_OUTPUT => io_out(source),
        e => e,
    })?;
    out.finish().map_err(io_out)?;
    temp.persist()?;
    report.output = output.to_path_buf();
    if report.bytes_out == 0 {
        report.bytes_out = std::fs::metadata(output).map(|m| m.len()).unwrap_or(0);
    }
    Ok(report)
}

/// THE wiring point: reads `input` once and, depending on `job`, streams its
/// blocks to an interchange file or writes the skeleton and replays it through
/// the writer (or a fallback, see [`write_document`]) into `out`. Output errors
/// carry the context [`WRITING_OUTPUT`]. A [`PartialMerge::Fail`] job with issues
/// is [`L10nError::NotApplied`].
fn run_job(input: &Path, out: &mut dyn Write, job: Job<'_>, common: &Common) -> Result<FileReport> {
    let mut report = FileReport {
        input: input.to_path_buf(),
        ..FileReport::default()
    };
    match job {
        Job::Extract {
            format,
            source_lang,
            target_lang,
        } => {
            let read = extract_document(input, out, format, (source_lang, target_lang), common)?;
            report.read(&read);
        }
        Job::Write {
            translations,
            options,
            partial,
        } => {
            write_document(input, translations, &options, common, out, &mut report)?;
            report.unconfirmed = translations.unconfirmed();
            if let Some(first) = report.issues.first() {
                match partial {
                    PartialMerge::Fail => {
                        return Err(L10nError::NotApplied {
                            count: report.issues.len(),
                            first: first.to_string(),
                        });
                    }
                    PartialMerge::Report => report.partial = true,
                    PartialMerge::Allow => {}
                }
            }
        }
    }
    Ok(report)
}

/// The reader's blocks into an XLIFF or PO file written to `out`.
fn extract_document(
    input: &Path,
    out: &mut dyn Write,
    format: Format,
    (source_lang, target_lang): (&LanguageTag, Option<&LanguageTag>),
    common: &Common,
) -> Result<ReadReport> {
    let read_options = common.read_options()?;
    let io = |e| L10nError::io(WRITING_OUTPUT, e);
    let original = input
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    match format {
        Format::Xliff => {
            let mut sink = XliffWriter::new(out, source_lang, target_lang, &original)
                .map_err(io)?
                .segmented(Segmenter::for_rules(&common.rules, source_lang));
            let read = read_blocks(input, &read_options, &mut sink, common.count_words)?;
            sink.finish().map_err(io)?;
            Ok(read)
        }
        Format::Po => {
            let mut header = PoHeader::new(source_lang, target_lang, &original);
            for (name, value) in &common.po_header {
                header.set(name, value).map_err(L10nError::Usage)?;
            }
            let mut sink = PoWriter::with_header(out, &header, &original)
                .map_err(io)?
                .segmented(Segmenter::for_rules(&common.rules, source_lang));
            let read = read_blocks(input, &read_options, &mut sink, common.count_words)?;
            sink.finish().map_err(io)?;
            Ok(read)
        }
    }
}

/// The page's blocks into `sink` (an interchange file's writer): the page is read
/// on a second thread, its blocks handed over through a bounded channel
/// ([`handoff`]), while this thread writes them; read directly on a rayon worker
/// (a directory run has one thread per file already) or when no thread could be
/// started. The reader's error comes first, unless it only stopped because the
/// sink had failed.
fn read_blocks(
    input: &Path,
    read_options: &ReadOptions<'_>,
    sink: &mut dyn BlockSink,
    count_words: bool,
) -> Result<ReadReport> {
    if rayon::current_thread_index().is_some() {
        return read_file(input, read_options, None, Some(sink));
    }
    let (mut sender, receiver) = handoff();
    let done = std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("l10n-page-reader".into())
            .spawn_scoped(scope, move || {
                let read = read_file_for_writer(input, read_options, &mut sender)?;
                sender.finish()?;
                Ok(read)
            });
        let Ok(reader) = spawned else {
            return None;
        };
        let mut ids = crate::ids::ContentIds::new(read_options.rules.ids);
        let drained = receiver.drain(&mut *sink, &mut ids, count_words);
        let read: Result<ReadReport> = reader.join().unwrap_or_else(|_| {
            Err(L10nError::io(
                format!("reading {}", input.display()),
                std::io::Error::other("the page reader's thread stopped"),
            ))
        });
        Some((read, drained))
    });
    match done {
        None => read_file(input, read_options, None, Some(sink)),
        Some((Err(e), Err(sink_error))) if is_sink_stopped(&e) => Err(sink_error),
        Some((Err(e), _) | (Ok(_), Err(e))) => Err(e),
        Some((Ok(read), Ok(words))) => Ok(ReadReport { words, ..read }),
    }
}

impl FileReport {
    fn read(&mut self, read: &ReadReport) {
        self.encoding = read.encoding.name().into();
        self.encoding_guessed =
            read.encoding_source == tagloom_html::decoder::EncodingSource::Autodetected;
        self.blocks = read.blocks;
        self.words = read.words;
        self.had_invalid_bytes = read.had_invalid_bytes;
        self.bytes_in = read.bytes;
    }

    fn written(&mut self, written: WriteReport, mode: WriterMode) {
        if let Some(encoding) = written.encoding {
            self.encoding = encoding.name().into();
        }
        if mode.is_fallback() {
            self.blocks = written.blocks;
        } else {
            // The skeleton's reader left the words to the replay.
            self.words = written.words;
        }
        self.translated = written.translated;
        self.lang_retargeted = written.lang_retargeted;
        self.issues = written.issues;
        self.bytes_out = written.bytes_written;
        self.char_references = written.char_references;
        self.mode = Some(mode);
    }
}

/// The reader's pass into a new skeleton store (in `common.temp_dir`), which keeps
/// ranges of `input` instead of copies when it is a regular file.
fn read_into_skeleton(
    input: &Path,
    common: &Common,
    read_options: &ReadOptions<'_>,
) -> Result<(SkeletonStore, ReadReport)> {
    let dir = common.temp_dir.clone().unwrap_or_else(std::env::temp_dir);
    let mut store = SkeletonStore::new_in(&dir)?.with_limit(common.skeleton_limit);
    let file = std::fs::File::open(input).ctx(|| format!("opening {}", input.display()))?;
    // A regular file is read again by the replay: the skeleton keeps ranges of it.
    if file.metadata().is_ok_and(|m| m.is_file()) {
        let again = file
            .try_clone()
            .ctx(|| format!("opening {}", input.display()))?;
        store = store.with_source(again)?;
    }
    // On error, dropping `store` releases its temp file.
    let file = std::io::BufReader::with_capacity(64 * 1024, file);
    let read = read_for_replay(file, input, read_options, &mut store)?;
    store.flush()?;
    Ok((store, read))
}

/// Writes the translated document into `out`: the skeleton path first; if it fails
/// before the writer starts (nothing written, no translation consumed yet: the
/// store cannot be created or written, e.g. a full disk), the fallback chain of the
/// seed, re-parse then block-only, unless `common.fallback` is off. A fallback
/// that could not run hands over to the next; one that failed while writing is
/// the error. `report` gets the mode and, for a fallback, the reason.
fn write_document(
    input: &Path,
    translations: &mut dyn Translations,
    options: &WriterOptions,
    common: &Common,
    out: &mut dyn Write,
    report: &mut FileReport,
) -> Result<()> {
    let read_options = common.read_options()?;
    if let Some(file) = pipeline_input(input, common)?
        && write_pipelined(input, file, translations, options, common, out, report)?
    {
        return Ok(());
    }
    let skeleton_error = match read_into_skeleton(input, common, &read_options) {
        Ok((mut store, read)) => {
            report.read(&read);
            let mut enc = EncodedOutput::new(&mut *out, read.encoding);
            let written = write_counting(
                &mut store,
                translations,
                &mut enc,
                options,
                common.count_words,
            )?;
            enc.into_inner()
                .map_err(|e| L10nError::io(WRITING_OUTPUT, e))?;
            store.close()?;
            report.written(written, WriterMode::Skeleton);
            return Ok(());
        }
        // An unreadable input is no reason to try another writer.
        Err(e @ (L10nError::Tokenizer { .. } | L10nError::UnknownEncoding(_))) => return Err(e),
        Err(e) => e,
    };
    if !common.fallback {
        return Err(skeleton_error);
    }
    let mut reasons = skeleton_error.to_string();
    let mut reparse = ReparseFallback {
        read: read_options,
        options,
        limit: common.reparse_limit,
    };
    let mut block_only = BlockOnlyFallback { read: read_options };
    for fallback in [&mut reparse as &mut dyn Fallback, &mut block_only] {
        match fallback.write(input, translations, out) {
            Ok(written) => {
                out.flush().map_err(|e| L10nError::io(WRITING_OUTPUT, e))?;
                report.bytes_in = std::fs::metadata(input).map_or(0, |m| m.len());
                report.written(written, fallback.mode());
                report.fallback_reason = Some(reasons);
                return Ok(());
            }
            Err(FallbackError::Unavailable(e)) => {
                reasons.push_str(&format!("; {}: {e}", fallback.mode()));
            }
            Err(FallbackError::Failed(e)) => return Err(e),
        }
    }
    // Nothing could run: the skeleton's error says why.
    Err(skeleton_error)
}

/// The input opened for [`write_pipelined`] when a merge or pseudo run reads and
/// writes the page at once: a regular file, no temp directory or skeleton limit
/// asked for (the skeleton then lives in a temp file, with the fallbacks behind
/// it), and not on a rayon worker (a directory run has one thread per file
/// already: point 5's scaling).
fn pipeline_input(input: &Path, common: &Common) -> Result<Option<std::fs::File>> {
    if common.temp_dir.is_some()
        || common.skeleton_limit.is_some()
        || rayon::current_thread_index().is_some()
        || !SkeletonStore::PIPELINE
    {
        return Ok(None);
    }
    // By its path first: a pipe must not be opened twice.
    if !std::fs::metadata(input).is_ok_and(|m| m.is_file()) {
        return Ok(None);
    }
    let file = std::fs::File::open(input).ctx(|| format!("opening {}", input.display()))?;
    Ok(file.metadata().is_ok_and(|m| m.is_file()).then_some(file))
}

/// The skeleton path on two threads: the page reader writes the skeleton into a
/// bounded in-memory channel on a second thread while this one replays it into
/// `out` ([`SkeletonStore::pipeline`]; no temp file, so no fallback is needed).
/// The reader's error comes first (a replay cut short by it fails too), unless
/// the reader only stopped because the replay had failed. `false`: no thread could
/// be started, nothing was read or written (the caller takes the temp-file path).
fn write_pipelined(
    input: &Path,
    file: std::fs::File,
    translations: &mut dyn Translations,
    options: &WriterOptions,
    common: &Common,
    out: &mut dyn Write,
    report: &mut FileReport,
) -> Result<bool> {
    let read_options = &common.read_options()?;
    let count_words = common.count_words;
    let again = file
        .try_clone()
        .ctx(|| format!("opening {}", input.display()))?;
    let (mut write_half, mut read_half) = SkeletonStore::pipeline(Some(again))?;
    let done = std::thread::scope(|scope| {
        let spawned = std::thread::Builder::new()
            .name("l10n-page-reader".into())
            .spawn_scoped(scope, move || {
                let file = std::io::BufReader::with_capacity(64 * 1024, file);
                let read = read_for_replay(file, input, read_options, &mut write_half)?;
                write_half.flush()?;
                Ok(read)
            });
        let Ok(reader) = spawned else {
            return None;
        };
        let written = replay_pipelined(&mut read_half, translations, options, out, count_words);
        // A reader waiting on a full channel sees the replay gone.
        drop(read_half);
        let read: Result<ReadReport> = reader.join().unwrap_or_else(|_| {
            Err(L10nError::io(
                format!("reading {}", input.display()),
                std::io::Error::other("the page reader's thread stopped"),
            ))
        });
        Some((read, written))
    });
    let Some((read, written)) = done else {
        return Ok(false);
    };
    let (read, written) = match (read, written) {
        (Ok(read), Ok(written)) => (read, written),
        (Err(L10nError::Io { source, .. }), Err(e))
            if source.kind() == std::io::ErrorKind::BrokenPipe =>
        {
            return Err(e);
        }
        (Err(e), _) | (Ok(_), Err(e)) => return Err(e),
    };
    report.read(&read);
    report.written(written, WriterMode::Skeleton);
    Ok(true)
}

/// The replay half of [`write_pipelined`].
fn replay_pipelined(
    store: &mut SkeletonStore,
    translations: &mut dyn Translations,
    options: &WriterOptions,
    out: &mut dyn Write,
    count_words: bool,
) -> Result<WriteReport> {
    // `None`: the reader stopped before it knew; its error says why.
    let encoding = store
        .encoding()
        .ok_or_else(|| L10nError::CorruptSkeleton("the page reader stopped".into()))?;
    let mut enc = EncodedOutput::new(&mut *out, encoding);
    let written = write_counting(store, translations, &mut enc, options, count_words)?;
    enc.into_inner()
        .map_err(|e| L10nError::io(WRITING_OUTPUT, e))?;
    Ok(written)
}

/// The HTML files under `dir`, sorted, as paths relative to it.
pub fn html_files(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut out = Vec::new();
    let mut todo = vec![PathBuf::new()];
    while let Some(rel) = todo.pop() {
        let full = dir.join(&rel);
        for entry in std::fs::read_dir(&full).ctx(|| format!("listing {}", full.display()))? {
            let entry = entry.ctx(|| format!("listing {}", full.display()))?;
            let name = rel.join(entry.file_name());
            let ft = entry
                .file_type()
                .ctx(|| format!("reading {}", name.display()))?;
            if ft.is_dir() {
                todo.push(name);
            } else if is_html(&name) {
                out.push(name);
            }
        }
    }
    out.sort();
    Ok(out)
}

fn is_html(path: &Path) -> bool {
    matches!(
        path.extension()
            .and_then(|e| e.to_str())
            .map(str::to_ascii_lowercase)
            .as_deref(),
        Some("html" | "htm" | "xhtml" | "phtml" | "shtml")
    )
}

pub(crate) fn with_ext(rel: &Path, ext: &str) -> PathBuf {
    let mut s = rel.as_os_str().to_owned();
    s.push(".");
    s.push(ext);
    PathBuf::from(s)
}

/// Runs `one` over every HTML file of `input` (a directory) in parallel.
pub(crate) fn run_dir<F>(input: &Path, common: &Common, one: F) -> Result<Report>
where
    F: Fn(&Path, &Path) -> Result<FileReport> + Sync,
{
    let (files, failures) = run_dir_with(input, common, one)?;
    Ok(Report { files, failures })
}

/// [`run_dir`] for any per-file result: the results done and the failures.
pub(crate) type DirResults<T> = (Vec<T>, Vec<(PathBuf, L10nError)>);

/// Runs `one` over every HTML file of `input` (a directory) in parallel, with the
/// progress bar `common` asks for.
pub(crate) fn run_dir_with<T: Send, F>(
    input: &Path,
    common: &Common,
    one: F,
) -> Result<DirResults<T>>
where
    F: Fn(&Path, &Path) -> Result<T> + Sync,
{
    let files = html_files(input)?;
    let bar = if common.progress {
        indicatif::ProgressBar::new(files.len() as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let results: Vec<(PathBuf, Result<T>)> = files
        .par_iter()
        .map(|rel| {
            let r = one(&input.join(rel), rel);
            bar.inc(1);
            (input.join(rel), r)
        })
        .collect();
    bar.finish_and_clear();
    let (mut done, mut failures) = (Vec::new(), Vec::new());
    for (path, r) in results {
        match r {
            Ok(f) => done.push(f),
            Err(e) => failures.push((path, e)),
        }
    }
    Ok((done, failures))
}

/// Extracts `input` (a file or a directory) to `output` (an `.xlf`/`.po` file, or a
/// directory receiving `<relative path>.xlf`/`.po` per page).
pub fn extract(input: &Path, output: &Path, options: &ExtractOptions) -> Result<Report> {
    let one = |inp: &Path, out: &Path, format: Format| {
        run_file_with_reader_writer(
            inp,
            out,
            Job::Extract {
                format,
                source_lang: &options.source_lang,
                target_lang: options.target_lang.as_ref(),
            },
            &options.common,
        )
    };
    if input.is_dir() {
        let format = options.format.unwrap_or(Format::Xliff);
        return run_dir(input, &options.common, |inp, rel| {
            one(inp, &output.join(with_ext(rel, format.extension())), format)
        });
    }
    let format = Format::resolve(options.format, output)?;
    Ok(Report {
        files: vec![one(input, output, format)?],
        failures: vec![],
    })
}

fn merge_file(
    input: &Path,
    translated: &Path,
    output: &Path,
    options: &MergeOptions,
) -> Result<FileReport> {
    let format = Format::resolve(options.format, translated)?;
    let (mut xliff, mut po);
    type Langs = (Option<LanguageTag>, Option<LanguageTag>);
    let (translations, (src, trg)): (&mut dyn Translations, Langs) = match format {
        Format::Xliff => {
            // The XLIFF is read on a second thread while the page is read and written
            // (one thread per file in a directory run: see `open_read_ahead`).
            xliff = XliffTranslations::open_read_ahead(translated)?
                .include_unconfirmed(options.include_fuzzy);
            let h = xliff.header().cloned().unwrap_or_default();
            (&mut xliff, (h.source_lang, h.target_lang))
        }
        Format::Po => {
            po = PoTranslations::open(translated)?.include_fuzzy(options.include_fuzzy);
            let langs = (po.source_language.clone(), po.language.clone());
            (&mut po, langs)
        }
    };
    let options_w = WriterOptions {
        source_lang: options
            .source_lang
            .clone()
            .or(src)
            .unwrap_or_else(LanguageTag::english),
        target_lang: options.target_lang.clone().or(trg),
    };
    run_file_with_reader_writer(
        input,
        output,
        Job::Write {
            translations,
            options: options_w,
            partial: options.partial,
        },
        &options.common,
    )
}

/// Merges translations into `input`: `translated` is the `.xlf`/`.po` file (for a
/// directory: a directory holding `<relative path>.xlf` or `.po` per page) and
/// `output` the translated page (or directory).
pub fn merge(
    input: &Path,
    translated: &Path,
    output: &Path,
    options: &MergeOptions,
) -> Result<Report> {
    if input.is_dir() {
        return run_dir(input, &options.common, |inp, rel| {
            let xlf = translated.join(with_ext(rel, "xlf"));
            let t = match options.format {
                Some(format) => translated.join(with_ext(rel, format.extension())),
                None if xlf.exists() => xlf,
                None => translated.join(with_ext(rel, "po")),
            };
            merge_file(inp, &t, &output.join(rel), options)
        });
    }
    Ok(Report {
        files: vec![merge_file(input, translated, output, options)?],
        failures: vec![],
    })
}

/// Pseudo-translates `input` (a file or a directory) into `output`.
pub fn pseudo(input: &Path, output: &Path, options: &PseudoOptions) -> Result<Report> {
    let one = |inp: &Path, out: &Path| {
        let mut t = PseudoTranslations;
        run_file_with_reader_writer(
            inp,
            out,
            Job::Write {
                translations: &mut t,
                options: WriterOptions {
                    source_lang: options.source_lang.clone(),
                    target_lang: options.target_lang.clone(),
                },
                partial: PartialMerge::Allow,
            },
            &options.common,
        )
    };
    if input.is_dir() {
        return run_dir(input, &options.common, |inp, rel| {
            one(inp, &output.join(rel))
        });
    }
    Ok(Report {
        files: vec![one(input, output)?],
        failures: vec![],
    })
}

/// Merges into any writer instead of a file, through the same wiring as
/// [`merge`] (`run_job`: skeleton, then the fallbacks `common` allows; issues
/// mark the report [partial](FileReport::partial)). The output is NOT protected by
/// a temp file: the caller owns it. Used by tests to inject failing writers.
pub fn merge_to_writer(
    input: &Path,
    translations: &mut dyn Translations,
    out: &mut dyn Write,
    options: &WriterOptions,
    common: &Common,
) -> Result<FileReport> {
    let job = Job::Write {
        translations,
        options: options.clone(),
        partial: PartialMerge::Report,
    };
    run_job(input, out, job, common)
}
