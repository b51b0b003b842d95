//! The writer: replays the skeleton and substitutes blocks.
//!
//! * Text entries are written as they are (the original bytes).
//! * A Block entry announces the next Ref; at the Ref the block's translation is
//!   asked from [`Translations`]. A block that comes back unedited (no target, or a
//!   target equal to the source) is written with its exact original bytes; otherwise
//!   its target runs are rendered: text escaped for its context (element content, or
//!   an attribute value with its original quote), codes replaced by their original
//!   markup, translated attribute values of inline elements spliced into that markup.
//!   A target whose inline codes were lost, duplicated or reordered illegally is not
//!   merged: the source is kept and the problem reported.
//! * Lang entries are retargeted when they name the source language and the
//!   document is being translated. The target is a [`LanguageTag`] (well-formed
//!   BCP 47: checked where it entered) and is escaped for its attribute value all
//!   the same, with [`escape`], the one escape routine of the writer.
//! * Nothing else from a translation file reaches the output unescaped: target text
//!   is escaped, and a target's inline codes only *name* the page's codes — the
//!   markup written is always the page's own (a file's `<originalData>` or PO code
//!   comments are compared, never written).
//! * Unknown entry types are skipped (inert).
//!
//! Output keeps the input's encoding ([`EncodedOutput`]): characters the encoding
//! cannot hold become numeric character references, so a `<meta charset>` stays
//! truthful — the writer never changes the declared encoding.
//!
//! The fallbacks of the seed ([`Fallback`]): when the skeleton path fails (the store
//! cannot be created or written), the re-parse fallback ([`ReparseFallback`]: tree
//! builder + fragment serializer, see [`reparse`]) and then the block-only fallback
//! ([`BlockOnlyFallback`]) that writes the blocks' text only. Which one wrote a
//! document is a [`WriterMode`]; only [`WriterMode::Skeleton`] is byte-faithful.

use std::io::Write;

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};
use tagloom_html::serializer::{EscapeMode, write_escaped};

use crate::block::{Block, BlockKind, Run, check_codes, quote_ending, runs_text};
use crate::error::{IoContext, L10nError, Result};
use crate::lang::{LanguageTag, Retarget};
use crate::reader::ReadOptions;
use crate::skeleton::{EntryType, SkeletonStore};

pub mod reparse;

/// Kept here for the writers' callers; the one home is [`crate::lang`].
pub use crate::lang::names_language;

/// The context of the writers' output errors (the flow replaces it with the
/// output's path).
pub const WRITING_OUTPUT: &str = "writing the output";

/// Where translations come from, in document order.
pub trait Translations {
    /// Called by the writers before anything else: a source that works ahead
    /// (`XliffTranslations::open_read_ahead`) waits here for what it needs, and
    /// returns its errors. By default nothing to do.
    fn prepare(&mut self) -> Result<()> {
        Ok(())
    }
    /// The target runs of `block` (`None`: untranslated, or a translation that does
    /// not apply to this block — its unit's source is not the block's any more; such
    /// a one is returned by [`Translations::finish`]). Called once per block and per
    /// sub-block, in document order.
    fn target(&mut self, block: &Block) -> Result<Option<Vec<Run>>>;
    /// Called after the last block: the translations that were not applied because
    /// the file and the page disagree (stale source, units the page does not have,
    /// blocks the file has no unit for). Untranslated units are not issues.
    fn finish(&mut self) -> Result<Vec<Issue>> {
        Ok(Vec::new())
    }
    /// Whether any unit has a target (decides Lang retargeting).
    fn any_translated(&self) -> bool {
        true
    }
    /// How many translations were skipped because they are not confirmed (PO
    /// `#, fuzzy`, XLIFF `state="initial"`) and not asked for: not issues, untranslated.
    fn unconfirmed(&self) -> usize {
        0
    }
    /// Hands back runs [`Translations::target`] returned, once written or found not to
    /// apply (the same as the source, broken codes): a source
    /// may reuse their buffers (the XLIFF read ahead on another thread does).
    /// By default they are dropped.
    fn recycle(&mut self, runs: Vec<Run>) {
        drop(runs);
    }
}

/// No translations at all (every block keeps its source).
#[derive(Default, Debug)]
pub struct NoTranslations;

impl Translations for NoTranslations {
    fn target(&mut self, _block: &Block) -> Result<Option<Vec<Run>>> {
        Ok(None)
    }
    fn any_translated(&self) -> bool {
        false
    }
}

/// Why a translation was not applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum IssueKind {
    /// The target's inline codes were lost, duplicated or misnested.
    Codes,
    /// The unit's source (text, inline codes and their original markup) is not the
    /// page block's source any more: the page changed since the file was extracted.
    SourceChanged,
    /// A translated unit whose id the page does not have.
    NotInPage,
    /// A block of the page the file has no unit for (reported when the file holds
    /// translations).
    NotInFile,
    /// The re-parse fallback did not find the block in the tree.
    NotInTree,
}

impl std::fmt::Display for IssueKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            IssueKind::Codes => "inline codes broken",
            IssueKind::SourceChanged => "source changed",
            IssueKind::NotInPage => "unit not in page",
            IssueKind::NotInFile => "block not in file",
            IssueKind::NotInTree => "block not in re-parsed tree",
        })
    }
}

/// A translation that was not applied (the block kept its source).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Issue {
    /// The unit (block) id.
    pub id: String,
    /// Why.
    pub kind: IssueKind,
    /// Details (may be empty).
    pub message: String,
}

impl Issue {
    /// An issue of `kind` for unit `id`.
    pub fn new(id: impl Into<String>, kind: IssueKind, message: impl Into<String>) -> Self {
        Issue {
            id: id.into(),
            kind,
            message: message.into(),
        }
    }
}

/// The import's own issues, then one [`IssueKind::NotInPage`] issue for each
/// translated unit the page did not have (sorted by id, so the report does not
/// depend on hash order). What every translation-file importer's `finish` returns.
pub(crate) fn with_units_not_in_page(
    mut issues: Vec<Issue>,
    ids: impl Iterator<Item = String>,
) -> Vec<Issue> {
    let mut left: Vec<String> = ids.collect();
    left.sort_unstable();
    issues.extend(
        left.into_iter()
            .map(|id| Issue::new(id, IssueKind::NotInPage, "")),
    );
    issues
}

/// `{id}: {kind} ({message})`. The id comes from a translation file: control
/// characters in it are shown escaped (`\u{1b}`), so a report printed on a terminal
/// cannot carry terminal escapes.
impl std::fmt::Display for Issue {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for c in self.id.chars() {
            if c.is_control() {
                write!(f, "{}", c.escape_default())?;
            } else {
                write!(f, "{c}")?;
            }
        }
        write!(f, ": {}", self.kind)?;
        if !self.message.is_empty() {
            write!(f, " ({})", self.message)?;
        }
        Ok(())
    }
}

/// What the writer did.
#[derive(Clone, Debug, Default)]
pub struct WriteReport {
    /// Blocks seen (sub-blocks included).
    pub blocks: usize,
    /// Blocks written from a translation.
    pub translated: usize,
    /// Language values retargeted.
    pub lang_retargeted: usize,
    /// Translations that were rejected (the source was kept).
    pub issues: Vec<Issue>,
    /// Bytes written.
    pub bytes_written: u64,
    /// Words in the source text of the blocks seen ([`crate::block::words`];
    /// counted by [`write_from_skeleton`], whose reader then need not; 0 when
    /// the flow was told not to count them, [`crate::flow::Common::count_words`]).
    pub words: usize,
    /// Characters the output's encoding cannot represent, written as numeric
    /// character references (`&#x4E2D;`) instead ([`encode_into`]).
    pub char_references: u64,
    /// The output's encoding, when the writer determined it (the re-parse fallback).
    pub encoding: Option<&'static Encoding>,
}

/// Settings of the writer.
#[derive(Clone, Debug)]
pub struct WriterOptions {
    /// The document's source language (`en`).
    pub source_lang: LanguageTag,
    /// The target language (`fr`); `None` keeps Lang values.
    pub target_lang: Option<LanguageTag>,
}

/// A byte sink in the document's encoding.
pub struct EncodedOutput<W: Write> {
    out: W,
    encoding: &'static Encoding,
    written: u64,
    references: u64,
    buf: Vec<u8>,
}

impl<W: Write> EncodedOutput<W> {
    /// Output in `encoding`.
    pub fn new(out: W, encoding: &'static Encoding) -> Self {
        EncodedOutput {
            out,
            encoding,
            written: 0,
            references: 0,
            buf: Vec::new(),
        }
    }

    /// Writes raw bytes (already in the document's encoding).
    pub fn raw(&mut self, bytes: &[u8]) -> std::io::Result<()> {
        self.written += bytes.len() as u64;
        self.out.write_all(bytes)
    }

    /// Writes text, encoded; unmappable characters become `&#xHHHH;`.
    pub fn text(&mut self, text: &str) -> std::io::Result<()> {
        if self.encoding == UTF_8 {
            return self.raw(text.as_bytes()); // nothing to encode: no copy
        }
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        self.references += encode_into(self.encoding, text, &mut buf) as u64;
        let result = self.raw(&buf);
        self.buf = buf;
        result
    }

    /// Flushes and returns the inner writer.
    pub fn into_inner(mut self) -> std::io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }

    /// Bytes written so far.
    pub fn written(&self) -> u64 {
        self.written
    }

    /// Characters written as numeric character references so far (the encoding
    /// cannot represent them).
    pub fn references(&self) -> u64 {
        self.references
    }

    /// The output's encoding.
    pub fn encoding(&self) -> &'static Encoding {
        self.encoding
    }
}

/// Encodes `text` in `encoding`, with numeric character references for characters
/// it cannot represent; returns how many characters were written so.
pub fn encode_into(encoding: &'static Encoding, text: &str, out: &mut Vec<u8>) -> usize {
    let mut references = 0;
    if encoding == UTF_8 {
        out.extend_from_slice(text.as_bytes());
    } else if encoding == UTF_16LE || encoding == UTF_16BE {
        for unit in text.encode_utf16() {
            let bytes = if encoding == UTF_16LE {
                unit.to_le_bytes()
            } else {
                unit.to_be_bytes()
            };
            out.extend_from_slice(&bytes);
        }
    } else {
        let mut encoder = encoding.new_encoder();
        let mut rest = text;
        let mut chunk = vec![0u8; text.len() * 2 + 16];
        loop {
            let (result, read, written) =
                encoder.encode_from_utf8_without_replacement(rest, &mut chunk, true);
            out.extend_from_slice(&chunk[..written]);
            rest = &rest[read..];
            match result {
                encoding_rs::EncoderResult::InputEmpty => break,
                encoding_rs::EncoderResult::OutputFull => {
                    chunk.resize(chunk.len() * 2, 0);
                }
                encoding_rs::EncoderResult::Unmappable(c) => {
                    out.extend_from_slice(format!("&#x{:X};", c as u32).as_bytes());
                    references += 1;
                }
            }
        }
    }
    references
}

/// Escapes text for its context: element content, or an attribute value quoted with
/// `quote` (`"`, `'`, or 0 for a value that was unquoted: the caller adds double
/// quotes). The escaping itself is tagloom-html's ([`write_escaped`], the HTML
/// serialization's "escaping a string").
pub fn escape(text: &str, kind: BlockKind, out: &mut String) {
    let mode = match kind {
        BlockKind::Content => EscapeMode::Text,
        BlockKind::Attribute { quote: b'\'' } => EscapeMode::SingleQuoted,
        BlockKind::Attribute { .. } => EscapeMode::DoubleQuoted,
    };
    // Writing into a `String` cannot fail.
    let _ = write_escaped(out, text, mode);
}

/// A language tag written as an attribute value after `quote` (see [`quote_ending`]):
/// escaped like any attribute value (a well-formed tag never needs it), quoted when
/// the original value was not.
fn render_lang(tag: &LanguageTag, quote: u8) -> String {
    render_attr(tag.as_str(), BlockKind::Attribute { quote })
}

/// Renders a translated attribute value (with quotes added when the original had none).
fn render_attr(text: &str, kind: BlockKind) -> String {
    let mut out = String::new();
    let unquoted = kind == BlockKind::Attribute { quote: 0 };
    if unquoted {
        out.push('"');
    }
    escape(text, kind, &mut out);
    if unquoted {
        out.push('"');
    }
    out
}

/// Same runs, comparing codes by kind and id only (a translation file's code data
/// may be written differently).
fn same_runs(a: &[Run], b: &[Run]) -> bool {
    a.len() == b.len()
        && a.iter().zip(b).all(|(x, y)| match (x, y) {
            (Run::Text(p), Run::Text(q)) => p == q,
            (Run::Open { id: p, .. }, Run::Open { id: q, .. })
            | (Run::Close { id: p, .. }, Run::Close { id: q, .. })
            | (Run::Placeholder { id: p, .. }, Run::Placeholder { id: q, .. }) => p == q,
            _ => false,
        })
}

/// Replays `store` into `out`, asking `translations` for every block.
pub fn write_from_skeleton<W: Write>(
    store: &mut SkeletonStore,
    translations: &mut dyn Translations,
    out: &mut EncodedOutput<W>,
    options: &WriterOptions,
) -> Result<WriteReport> {
    write_counting(store, translations, out, options, true)
}

/// [`write_from_skeleton`]; `count_words`: whether [`WriteReport::words`] is
/// counted (else 0: a caller that shows no word count saves the count's pass
/// over every block's text).
pub(crate) fn write_counting<W: Write>(
    store: &mut SkeletonStore,
    translations: &mut dyn Translations,
    out: &mut EncodedOutput<W>,
    options: &WriterOptions,
    count_words: bool,
) -> Result<WriteReport> {
    translations.prepare()?;
    let mut report = WriteReport::default();
    let mut replay = Replay {
        retarget: options
            .target_lang
            .as_ref()
            .filter(|_| translations.any_translated())
            .map(|target| Retarget {
                source: &options.source_lang,
                target,
                page: None,
            }),
        tail: [0; 2],
        held: Vec::new(),
    };
    let mut data = Vec::new();
    // Every block is decoded into this one, and rendered into `rendered`: their
    // buffers are reused.
    let mut block = crate::skeleton::empty_block();
    let mut rendered = String::new();
    while let Some(kind) = store.next_into(&mut data)? {
        match kind {
            EntryType::BLOCK => {
                store.read_block_into(&data, &mut block)?;
                if count_words {
                    report.words += crate::reader::block_words(&block);
                }
                let Resolved {
                    target,
                    subs: sub_targets,
                } = resolve_block(&block, translations, &mut report)?;
                // What was held for this block: its element's language values follow it.
                for (kind, data) in std::mem::take(&mut replay.held) {
                    replay.entry(kind, &data, out, &mut report, target.is_some())?;
                }
                let lang = replay.retarget.as_ref();
                let written = BlockOut {
                    target: target.as_deref(),
                    subs: &sub_targets,
                    lang,
                };
                written.write(&block, out, &mut report, &mut rendered)?;
                if let Some(target) = target {
                    translations.recycle(target);
                }
                replay.tail = [0; 2];
            }
            // Held until the block: only the rest of one start tag (the reader
            // writes a BlockLang only right before its block).
            EntryType::BLOCK_LANG => replay.held.push((kind, data.clone())),
            _ if !replay.held.is_empty() => replay.held.push((kind, data.clone())),
            _ => replay.entry(kind, &data, out, &mut report, false)?,
        }
    }
    for (kind, data) in std::mem::take(&mut replay.held) {
        replay.entry(kind, &data, out, &mut report, false)?;
    }
    report.issues.extend(translations.finish()?);
    report.bytes_written = out.written();
    report.char_references = out.references();
    Ok(report)
}

/// The skeleton entries around blocks: Text, Lang, BlockLang, Root, Dir.
struct Replay<'o> {
    /// How language values are retargeted (`None`: nothing is translated).
    retarget: Option<Retarget<'o>>,
    /// The last bytes of text written: the quote before a language value.
    tail: [u8; 2],
    /// Entries from a BlockLang on, held until its block is known to be translated.
    held: Vec<(EntryType, Vec<u8>)>,
}

impl Replay<'_> {
    /// Writes one entry; `block_translated` decides BlockLang values.
    fn entry<W: Write>(
        &mut self,
        kind: EntryType,
        data: &[u8],
        out: &mut EncodedOutput<W>,
        report: &mut WriteReport,
        block_translated: bool,
    ) -> Result<()> {
        let io = |e| L10nError::io(WRITING_OUTPUT, e);
        match kind {
            EntryType::TEXT => {
                out.raw(data).map_err(io)?;
                match data {
                    [] => {}
                    [b] => self.tail = [self.tail[1], *b],
                    [.., a, b] => self.tail = [*a, *b],
                }
            }
            EntryType::LANG | EntryType::BLOCK_LANG => {
                let value = String::from_utf8_lossy(data);
                let wanted = kind == EntryType::LANG || block_translated;
                match &self.retarget {
                    Some(r) if wanted && r.applies(&value) => {
                        let quote = quote_ending(&self.tail, out.encoding());
                        out.text(&render_lang(r.target, quote)).map_err(io)?;
                        report.lang_retargeted += 1;
                    }
                    _ => out.raw(data).map_err(io)?,
                }
                self.tail = [0; 2];
            }
            EntryType::ROOT => {
                // No source bytes: the page's language, and where `dir` goes.
                let (has_dir, page) = data.split_first().unwrap_or((&1, &[]));
                if let Some(r) = self.retarget.as_mut() {
                    let page = String::from_utf8_lossy(page);
                    r.page = Some(page.into_owned()).filter(|p| !p.is_empty());
                    if let (0, Some(dir)) = (has_dir, r.dir(None)) {
                        out.text(&format!(" dir=\"{}\"", dir.as_str()))
                            .map_err(io)?;
                    }
                }
            }
            EntryType::DIR => {
                let value = String::from_utf8_lossy(data);
                match self.retarget.as_ref().and_then(|r| r.dir(Some(&value))) {
                    Some(dir) => {
                        let quote = quote_ending(&self.tail, out.encoding());
                        let kind = BlockKind::Attribute { quote };
                        out.text(&render_attr(dir.as_str(), kind)).map_err(io)?;
                    }
                    None => out.raw(data).map_err(io)?,
                }
                self.tail = [0; 2];
            }
            _ => {} // unknown entry types are inert
        }
        Ok(())
    }
}

/// A block's translation as every writer applies it (the skeleton writer and both
/// fallbacks).
pub(crate) struct Resolved {
    /// The target runs; `None`: written as the source (untranslated, a target equal
    /// to the source, or one whose inline codes are broken: reported).
    pub(crate) target: Option<Vec<Run>>,
    /// The sub-blocks' target texts (`None`: as the source), parallel to
    /// `block.subs`.
    pub(crate) subs: Vec<Option<String>>,
}

/// Asks `translations` for `block` and its sub-blocks (once each, in document
/// order) and checks the target's codes against the source; a broken target is
/// an [`IssueKind::Codes`] issue pushed to `issues`.
pub(crate) fn resolve(
    block: &Block,
    translations: &mut dyn Translations,
    issues: &mut Vec<Issue>,
) -> Result<Resolved> {
    // A target not used goes back to `translations` (its buffers are reused).
    let target = match translations.target(block)? {
        Some(t) if same_runs(&t, &block.runs) => {
            translations.recycle(t);
            None
        }
        Some(t) => match check_codes(&block.runs, &t) {
            Ok(()) => Some(t),
            Err(message) => {
                issues.push(Issue::new(&block.id, IssueKind::Codes, message));
                translations.recycle(t);
                None
            }
        },
        None => None,
    };
    let mut subs = Vec::with_capacity(block.subs.len());
    for sub in &block.subs {
        let t = translations.target(sub)?;
        subs.push(t.and_then(|t| {
            let text = (!same_runs(&t, &sub.runs)).then(|| runs_text(&t));
            translations.recycle(t);
            text
        }));
    }
    Ok(Resolved { target, subs })
}

/// [`resolve`], counted in `report` (blocks seen, sub-blocks translated).
fn resolve_block(
    block: &Block,
    translations: &mut dyn Translations,
    report: &mut WriteReport,
) -> Result<Resolved> {
    report.blocks += 1 + block.subs.len();
    let resolved = resolve(block, translations, &mut report.issues)?;
    report.translated += resolved.subs.iter().flatten().count();
    Ok(resolved)
}

/// A resolved block, as [`BlockOut::write`] writes it.
struct BlockOut<'a, 'o> {
    target: Option<&'a [Run]>,
    subs: &'a [Option<String>],
    lang: Option<&'a Retarget<'o>>,
}

impl BlockOut<'_, '_> {
    /// Writes `block` resolved: its original bytes when nothing in it is
    /// translated; else rendered into `rendered` (a buffer reused from block to
    /// block), then written.
    fn write<W: Write>(
        &self,
        block: &Block,
        out: &mut EncodedOutput<W>,
        report: &mut WriteReport,
        rendered: &mut String,
    ) -> Result<()> {
        let io = |e| L10nError::io(WRITING_OUTPUT, e);
        let sub_targets = self.subs;
        if self.target.is_none() && sub_targets.iter().all(Option::is_none) {
            return out.raw(&block.original).map_err(io);
        }
        let translated = self.target.is_some();
        let runs = self.target.unwrap_or(&block.runs);
        rendered.clear();
        match block.kind {
            BlockKind::Attribute { .. } => {
                rendered.push_str(&render_attr(&runs_text(runs), block.kind));
            }
            BlockKind::Content => {
                for run in runs {
                    match run {
                        Run::Text(t) => escape(t, BlockKind::Content, rendered),
                        code => {
                            let idx = source_code(&block.runs, code);
                            let Some(idx) = idx else { continue };
                            let data = match &block.runs[idx] {
                                Run::Open { data, .. }
                                | Run::Close { data, .. }
                                | Run::Placeholder { data, .. } => data.as_str(),
                                Run::Text(_) => "",
                            };
                            let lang = if translated { self.lang } else { None };
                            splice_subs(block, idx, data, sub_targets, lang, report, rendered);
                        }
                    }
                }
            }
        }
        if translated {
            report.translated += 1;
        }
        out.text(rendered).map_err(io)
    }
}

/// The index of the source run that `code` (a target code) stands for.
fn source_code(source: &[Run], code: &Run) -> Option<usize> {
    source.iter().position(|s| match (s, code) {
        (Run::Open { id: a, .. }, Run::Open { id: b, .. })
        | (Run::Close { id: a, .. }, Run::Close { id: b, .. })
        | (Run::Placeholder { id: a, .. }, Run::Placeholder { id: b, .. }) => a == b,
        _ => false,
    })
}

/// Code data with translated attribute values of sub-blocks spliced in, and (for a
/// translated block) `lang` values naming the source language retargeted, appended
/// to `out`.
fn splice_subs(
    block: &Block,
    run: usize,
    data: &str,
    targets: &[Option<String>],
    lang: Option<&Retarget<'_>>,
    report: &mut WriteReport,
    out: &mut String,
) {
    // (start, end, replacement)
    let mut edits: Vec<(usize, usize, String)> = Vec::new();
    for ((sub, pos), target) in block.subs.iter().zip(&block.sub_refs).zip(targets) {
        if let (true, Some(text)) = (pos.run == run, target) {
            edits.push((pos.start, pos.end, render_attr(text, sub.kind)));
        }
    }
    if let Some(r) = lang {
        for pos in block.lang_refs.iter().filter(|p| p.run == run) {
            if data.get(pos.start..pos.end).is_some_and(|v| r.applies(v)) {
                let before = data.get(..pos.start).unwrap_or("").as_bytes();
                let quote = quote_ending(before, UTF_8);
                edits.push((pos.start, pos.end, render_lang(r.target, quote)));
                report.lang_retargeted += 1;
            }
        }
    }
    if edits.is_empty() {
        out.push_str(data); // the usual case
        return;
    }
    edits.sort_by_key(|e| e.0);
    let mut at = 0;
    for (start, end, replacement) in edits {
        if start < at
            || end > data.len()
            || !data.is_char_boundary(start)
            || !data.is_char_boundary(end)
        {
            continue;
        }
        out.push_str(&data[at..start]);
        out.push_str(&replacement);
        at = end;
    }
    out.push_str(data.get(at..).unwrap_or(""));
}

/// Which writer wrote a document.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum WriterMode {
    /// The skeleton store replayed: every untranslated byte as it was.
    Skeleton,
    /// The re-parse fallback: the tree re-serialized (not byte-identical).
    Reparse,
    /// The block-only fallback: the blocks' text, one per line, no markup.
    BlockOnly,
}

impl WriterMode {
    /// The mode's name, as reports print it (`skeleton`, `reparse`, `block-only`).
    pub fn name(self) -> &'static str {
        match self {
            WriterMode::Skeleton => "skeleton",
            WriterMode::Reparse => "reparse",
            WriterMode::BlockOnly => "block-only",
        }
    }

    /// Whether the output came from a fallback (and so is not byte-faithful).
    pub fn is_fallback(self) -> bool {
        self != WriterMode::Skeleton
    }
}

impl std::fmt::Display for WriterMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a fallback did not write the document.
#[derive(Debug)]
pub enum FallbackError {
    /// It could not run (over its limit, the tree builder failed…) and stopped
    /// before asking any translation or writing any byte: the next one may run.
    Unavailable(L10nError),
    /// It failed after it started writing or consuming translations (the output
    /// could not be written…): fatal, no other writer may run after it.
    Failed(L10nError),
}

impl FallbackError {
    /// The underlying error.
    pub fn into_inner(self) -> L10nError {
        match self {
            FallbackError::Unavailable(e) | FallbackError::Failed(e) => e,
        }
    }
}

/// A way to write the document when the skeleton store is not available.
pub trait Fallback {
    /// Its mode.
    fn mode(&self) -> WriterMode;
    /// Writes the translated document from `input` (the original bytes).
    fn write(
        &mut self,
        input: &std::path::Path,
        translations: &mut dyn Translations,
        out: &mut dyn Write,
    ) -> Result<WriteReport, FallbackError>;
}

/// The re-parse fallback of the seed: parse the original with the tree builder,
/// patch the translations into the tree, serialize with the HTML fragment
/// serialization algorithm (`tagloom_html::serializer`) and encode in the input's
/// encoding. How blocks are found in the tree, and the limits: [`reparse`].
///
/// It holds the whole document in memory, about [`reparse::BYTES_PER_INPUT_BYTE`]
/// times the input's size, so it refuses inputs larger than `limit` bytes
/// ([`FallbackError::Unavailable`], before reading anything).
#[derive(Debug)]
pub struct ReparseFallback<'a> {
    /// The reader's options (blocks are identified exactly as it does, the input
    /// decoded as it decodes it).
    pub read: ReadOptions<'a>,
    /// Languages (for `lang` retargeting).
    pub options: &'a WriterOptions,
    /// The largest input it takes on, in bytes
    /// ([`reparse::DEFAULT_INPUT_LIMIT`] by default in [`crate::flow::Common`]).
    pub limit: u64,
}

impl Fallback for ReparseFallback<'_> {
    fn mode(&self) -> WriterMode {
        WriterMode::Reparse
    }

    fn write(
        &mut self,
        input: &std::path::Path,
        translations: &mut dyn Translations,
        out: &mut dyn Write,
    ) -> Result<WriteReport, FallbackError> {
        translations.prepare().map_err(FallbackError::Failed)?;
        reparse::write_reparsed(
            input,
            &reparse::Settings {
                read: self.read,
                options: self.options,
                limit: self.limit,
            },
            translations,
            out,
        )
    }
}

/// The last resort: the text of every block (translated where possible), one per
/// line, no markup.
pub struct BlockOnlyFallback<'a> {
    /// The reader's options.
    pub read: ReadOptions<'a>,
}

impl Fallback for BlockOnlyFallback<'_> {
    fn mode(&self) -> WriterMode {
        WriterMode::BlockOnly
    }

    fn write(
        &mut self,
        input: &std::path::Path,
        translations: &mut dyn Translations,
        out: &mut dyn Write,
    ) -> Result<WriteReport, FallbackError> {
        translations.prepare().map_err(FallbackError::Failed)?;
        let file = std::fs::File::open(input)
            .ctx(|| format!("opening {}", input.display()))
            .map_err(FallbackError::Unavailable)?;
        self.write_blocks(std::io::BufReader::new(file), input, translations, out)
            .map_err(FallbackError::Failed)
    }
}

impl BlockOnlyFallback<'_> {
    fn write_blocks(
        &mut self,
        file: impl std::io::Read,
        input: &std::path::Path,
        translations: &mut dyn Translations,
        out: &mut dyn Write,
    ) -> Result<WriteReport> {
        let mut report = WriteReport {
            encoding: Some(UTF_8),
            ..WriteReport::default()
        };
        let mut sink = |block: &Block| -> Result<()> {
            let Resolved { target, subs } = resolve_block(block, translations, &mut report)?;
            report.translated += usize::from(target.is_some());
            let mut lines = vec![runs_text(target.as_deref().unwrap_or(&block.runs))];
            for (sub, t) in block.subs.iter().zip(subs) {
                lines.push(t.unwrap_or_else(|| sub.plain_text()));
            }
            for line in lines {
                let line = line + "\n";
                out.write_all(line.as_bytes())
                    .map_err(|e| L10nError::io(WRITING_OUTPUT, e))?;
                report.bytes_written += line.len() as u64;
            }
            Ok(())
        };
        crate::reader::read_document(file, input, &self.read, None, Some(&mut sink))?;
        report.issues.extend(translations.finish()?);
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn issues_show_control_characters_escaped() {
        let issue = Issue::new("a\u{1b}[2Jb\n", IssueKind::NotInPage, "");
        assert_eq!(issue.to_string(), "a\\u{1b}[2Jb\\n: unit not in page");
        let issue = Issue::new("p-1", IssueKind::Codes, "code 2 is missing");
        assert_eq!(
            issue.to_string(),
            "p-1: inline codes broken (code 2 is missing)"
        );
    }

    #[test]
    fn language_values_are_escaped_for_their_quote() {
        assert_eq!(quote_ending(b"<html lang=\"", UTF_8), b'"');
        assert_eq!(quote_ending(b"<html lang='", UTF_8), b'\'');
        assert_eq!(quote_ending(b"<html lang=", UTF_8), 0);
        assert_eq!(quote_ending(b"=\0\"\0", UTF_16LE), b'"');
        assert_eq!(quote_ending(b"\0=\0'", UTF_16BE), b'\'');
        assert_eq!(quote_ending(b"\"", UTF_16LE), 0);
        let fr = LanguageTag::parse("fr-CA").unwrap();
        assert_eq!(render_lang(&fr, b'"'), "fr-CA");
        assert_eq!(render_lang(&fr, 0), "\"fr-CA\"");
    }

    #[test]
    fn encoding_with_character_references() {
        let mut out = Vec::new();
        assert_eq!(encode_into(encoding_rs::WINDOWS_1252, "é€ 中", &mut out), 1);
        assert_eq!(out, b"\xe9\x80 &#x4E2D;");
        out.clear();
        encode_into(UTF_16LE, "a", &mut out);
        assert_eq!(out, b"a\x00");
    }

    #[test]
    fn escaping() {
        let mut s = String::new();
        escape("a<b>&\"'\u{a0}", BlockKind::Content, &mut s);
        assert_eq!(s, "a&lt;b&gt;&amp;\"'&nbsp;");
        assert_eq!(
            render_attr("a\"'", BlockKind::Attribute { quote: b'"' }),
            "a&quot;'"
        );
        assert_eq!(
            render_attr("a\"'", BlockKind::Attribute { quote: b'\'' }),
            "a\"&#39;"
        );
        assert_eq!(
            render_attr("a b", BlockKind::Attribute { quote: 0 }),
            "\"a b\""
        );
    }
}
