//! The one-pass HTML reader: tokens in, skeleton entries and blocks out. No DOM.
//!
//! The reader walks the token stream once, keeping a stack of open block elements
//! (for structural paths and `translate` inheritance). It nests and closes them as
//! the tree builder would: each token carries the text-type simulator's verdict
//! (which open elements it closes, whether it opens one), and the depth is capped by
//! [`Rules::max_depth`] as in the tree builder — past it an element opens nothing,
//! so what would be its content reads as its following siblings. A frame holds only
//! its own name segment (its parent is the frame below it): a unit's id and path are
//! built when the unit is emitted, so memory is linear in the depth and ids are
//! bounded by the cap.
//!
//! Every byte of the source goes to the skeleton store exactly once — as Text, as the
//! original bytes of a block behind a Ref, or as a Lang value — so the skeleton tiles
//! the input and an untranslated replay is byte-identical.
//!
//! * A block element's start tag triggers the forward scan (`classify.rs`): a container
//!   has its tags written to the skeleton and its children read recursively; a leaf's
//!   content becomes one block (`build.rs`).
//! * Text or inline elements directly inside a container form an implicit block (the
//!   run up to the next block-level tag).
//! * Opaque elements (`script`, `style`, `svg`…) go to the skeleton whole.
//! * Translatable attributes are split at their value boundaries: Text, then Ref (an
//!   attribute block), then Text; language attributes likewise with a Lang entry.
//!
//! Memory: the source window (one chunk), the lookahead of one scan (bounded by the
//! rules' budgets), one block at a time. Nothing holds the document.

mod build;
mod classify;
pub(crate) mod handoff;
pub(crate) mod input;
mod tokens;

use crate::FastMap;
use std::io::Read;
use std::path::Path;

use encoding_rs::Encoding;
use tagloom_html::decoder::{Autodetect, DecoderConfig, EncodingSource, Sniffed};
use tagloom_html::sniff::{EncodingSniffer, sniff_encoding_with};

use crate::block::Block;
use crate::error::{IoContext, Result};
use crate::ids::{decimal, push_decimal, push_hex};
use crate::rules::Rules;
use crate::skeleton::{EntryType, SkeletonStore};
use build::{BuildCtx, Pool, Spare, build, collapse, is_conditional_comment, is_ws, translate_of};
pub(crate) use build::{
    collapse as collapse_ws, collapse_into as collapse_ws_into, is_ws as is_html_ws,
};
use classify::{Class, classify};
use input::{CHUNK, SourceWindow};
use tagloom_html::atom;
use tagloom_html::token::{Name, OwnedAttribute, TokenKind};
use tokens::{Tok, TokenStream, ValueRange};

/// Receives the blocks, in document order (parents before their sub-blocks).
pub trait BlockSink {
    /// One block.
    fn block(&mut self, block: &Block) -> Result<()>;
}

impl<F: FnMut(&Block) -> Result<()>> BlockSink for F {
    fn block(&mut self, block: &Block) -> Result<()> {
        self(block)
    }
}

/// What the reader found out.
#[derive(Clone, Debug)]
pub struct ReadReport {
    /// The encoding the document was decoded with (the output keeps it).
    pub encoding: &'static Encoding,
    /// What decided it; [`EncodingSource::Autodetected`] when it was a guess.
    pub encoding_source: EncodingSource,
    /// Blocks emitted (sub-blocks included).
    pub blocks: usize,
    /// Words in their text ([`crate::block::words`]).
    pub words: usize,
    /// Whether some bytes were invalid in that encoding (they are kept as they are).
    pub had_invalid_bytes: bool,
    /// Source size in bytes.
    pub bytes: u64,
}

/// The decoder settings of every read: `forced` as the transport encoding (only a
/// BOM overrides it), and a guess for documents that declare nothing.
fn decoder_config(forced: Option<&'static Encoding>) -> DecoderConfig {
    DecoderConfig {
        transport: forced,
        autodetect: Autodetect::Statistical,
        ..DecoderConfig::default()
    }
}

/// The encoding the reader uses for a document made of `bytes`, and its BOM length:
/// what the parser ends up using (`tagloom_html::sniff`, the one home of encoding
/// sniffing: BOM, `forced`, the `<meta>` pre-scan, a `<meta>` the tree builder
/// meets in the restart window, else a guess from the bytes, else windows-1252).
pub fn detect_encoding(
    bytes: &[u8],
    forced: Option<&'static Encoding>,
) -> (&'static Encoding, usize) {
    let sniffed = sniff_encoding_with(bytes, decoder_config(forced));
    (sniffed.encoding, sniffed.bom_len)
}

/// Reads `input` into the sniffer until its answer is final (at most about the
/// restart window, 1 MiB) or the input ends; returns the answer and the bytes read.
fn sniff_input<R: Read>(
    input: &mut R,
    path: &Path,
    forced: Option<&'static Encoding>,
) -> Result<(Sniffed, Vec<u8>)> {
    let mut sniffer = EncodingSniffer::new(decoder_config(forced));
    let mut prefix = Vec::new();
    let mut buf = vec![0u8; CHUNK];
    loop {
        let n = loop {
            match input.read(&mut buf) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e).ctx(|| format!("reading {}", path.display())),
            }
        };
        let Some(read) = buf.get(..n).filter(|r| !r.is_empty()) else {
            break;
        };
        prefix.extend_from_slice(read);
        if sniffer.push(read) {
            break;
        }
    }
    Ok((sniffer.finish(), prefix))
}

/// How the reader reads a document: the extraction rules and the input encoding.
#[derive(Clone, Copy, Debug)]
pub struct ReadOptions<'a> {
    /// Element and attribute rules (what is a block, what translates…).
    pub rules: &'a Rules,
    /// Force the input encoding (only a BOM overrides it); `None`: what the parser
    /// picks ([`detect_encoding`]).
    pub encoding: Option<&'static Encoding>,
}

impl<'a> ReadOptions<'a> {
    /// `rules`, the encoding sniffed.
    pub fn new(rules: &'a Rules) -> Self {
        ReadOptions {
            rules,
            encoding: None,
        }
    }
}

/// [`read_document`] on the file at `path`.
pub fn read_file(
    path: &Path,
    options: &ReadOptions<'_>,
    skeleton: Option<&mut SkeletonStore>,
    sink: Option<&mut dyn BlockSink>,
) -> Result<ReadReport> {
    let file = std::fs::File::open(path).ctx(|| format!("opening {}", path.display()))?;
    let input = std::io::BufReader::with_capacity(64 * 1024, file);
    read_document(input, path, options, skeleton, sink)
}

/// [`read_file`] into `writer`, the page reader's end of a [`handoff`] to an
/// interchange file's writer on another thread, which names the units and counts
/// their words ([`handoff::BlockReceiver::drain`]; [`ReadReport::words`] is 0
/// here). The blocks keep no copy of their original bytes (the writers do not
/// read them).
pub(crate) fn read_file_for_writer(
    path: &Path,
    options: &ReadOptions<'_>,
    writer: &mut handoff::BlockSender,
) -> Result<ReadReport> {
    let file = std::fs::File::open(path).ctx(|| format!("opening {}", path.display()))?;
    let input = std::io::BufReader::with_capacity(64 * 1024, file);
    read(input, path, options, None, Some(Out::Writer(writer)), false)
}

/// The units of a document in document order: each block (with its sub-blocks),
/// then its attribute sub-blocks again on their own (what an extraction writes,
/// one unit each).
pub fn units<R: Read>(input: R, path: &Path, options: &ReadOptions<'_>) -> Result<Vec<Block>> {
    let mut units = Vec::new();
    let mut sink = |block: &Block| -> Result<()> {
        units.push(block.clone());
        units.extend(block.subs.iter().cloned());
        Ok(())
    };
    read_document(input, path, options, None, Some(&mut sink))?;
    Ok(units)
}

/// Reads a document: writes its skeleton to `skeleton` (when given) and its blocks
/// to `sink` (when given). `path` is only used in messages.
pub fn read_document<R: Read>(
    input: R,
    path: &Path,
    options: &ReadOptions<'_>,
    skeleton: Option<&mut SkeletonStore>,
    sink: Option<&mut dyn BlockSink>,
) -> Result<ReadReport> {
    read(input, path, options, skeleton, sink.map(Out::Sink), true)
}

/// [`read_document`] into `skeleton` alone, for a replay that counts the words
/// off this thread ([`crate::writer::WriteReport::words`]; [`ReadReport::words`]
/// is 0 here).
pub(crate) fn read_for_replay<R: Read>(
    input: R,
    path: &Path,
    options: &ReadOptions<'_>,
    skeleton: &mut SkeletonStore,
) -> Result<ReadReport> {
    read(input, path, options, Some(skeleton), None, false)
}

/// Where the reader's blocks go.
enum Out<'a, 's> {
    /// A sink on this thread: the reader names the units and counts their words.
    Sink(&'a mut (dyn BlockSink + 's)),
    /// A writer on another thread, which does both ([`read_file_for_writer`]).
    Writer(&'a mut handoff::BlockSender),
}

/// [`read_document`] into `out`.
fn read<R: Read>(
    mut input: R,
    path: &Path,
    options: &ReadOptions<'_>,
    skeleton: Option<&mut SkeletonStore>,
    out: Option<Out<'_, '_>>,
    count_words: bool,
) -> Result<ReadReport> {
    let for_writer = matches!(out, Some(Out::Writer(_)));
    let ReadOptions {
        rules,
        encoding: forced,
    } = *options;
    let (sniffed, prefix) = sniff_input(&mut input, path, forced)?;
    let (encoding, bom_len) = (sniffed.encoding, sniffed.bom_len);
    let bom = prefix[..bom_len.min(prefix.len())].to_vec();
    let window = SourceWindow::new(input, encoding, prefix, bom_len, tokens::tokenizer(rules));
    let ts = TokenStream::new(window, rules, path);
    // What only the interchange files need (a sink): paths, element names, and
    // the blocks' original bytes unless the skeleton copies them.
    let for_sink = out.is_some();
    let keep_original =
        for_sink && !for_writer || skeleton.as_ref().is_some_and(|s| !s.keeps_source_ranges());
    let mut reader = Reader {
        ts,
        rules,
        skel: skeleton,
        out,
        for_sink,
        keep_original,
        emitted: 0,
        stack: Vec::new(),
        root: Frame::root(),
        notes: Vec::new(),
        html_ids: crate::ids::Anchors::default(),
        ids: crate::ids::ContentIds::new(rules.ids),
        blocks: 0,
        words: 0,
        count_words,
        raw_until: 0,
        root_seen: false,
        buf: Vec::new(),
        seg_text: String::new(),
        finished: false,
        spare: Spare::default(),
        spare_counts: Vec::new(),
    };
    if let Some(s) = reader.skel.as_deref_mut() {
        s.set_encoding(encoding);
        s.write_source(0, &bom)?;
    }
    reader.run()?;
    let window = &reader.ts.window;
    Ok(ReadReport {
        encoding: window.encoding(),
        encoding_source: sniffed.source,
        blocks: reader.blocks,
        words: reader.words,
        had_invalid_bytes: window.had_invalid(),
        bytes: reader.bytes_total(),
    })
}

/// An open block element. Its id and path are not stored: they are its ancestors'
/// segments followed by its own, built by [`Reader::names`] when a unit needs them.
struct Frame {
    /// Whether a start tag may end it implicitly ([`NameClass::implied`]).
    implied: bool,
    /// Its index in the simulated stack of open elements.
    level: usize,
    translate: bool,
    preserve: bool,
    /// Its own key segment: `id.…` (keys below restart there) or `name-n`, and
    /// its element name (empty for the root frame).
    seg: Seg,
    /// Where the key of this frame's units restarts, and the FNV-1a states of its
    /// key (from there) and path through its own segment: what [`Reader::names`]
    /// folds, kept so that a unit costs a bounded walk however deep it is.
    digest: Digest,
    /// Its child elements so far, by name (their `name-n` numbers).
    counts: ChildCounts,
    /// Its implicit blocks so far (their `text-n` numbers).
    texts: u32,
    /// Its own key and path ([`Reader::names`] of it as the top frame), kept
    /// when neither is folded and they are short ([`MAX_KEPT_NAMES`]): a unit
    /// below it then costs one copy and its own segment, not a walk over every
    /// frame.
    names: Option<(String, String)>,
}

/// The words of `block` and its sub-blocks ([`ReadReport::words`]).
pub(crate) fn block_words(block: &Block) -> usize {
    std::iter::once(block)
        .chain(&block.subs)
        .map(|b| crate::block::words(&b.runs))
        .sum()
}

/// See [`Frame::digest`].
#[derive(Clone, Copy, Debug)]
struct Digest {
    /// The stack index of the last frame at or above this one with an `id` key
    /// (0 when none: the key starts at the bottom).
    restart: usize,
    key: u64,
    path: u64,
}

/// A key and path segment: the element name and its number among its parent's
/// children of that name, plus the `id.…` key its `id` attribute gave it.
/// Rendered only where a unit's key or path is written ([`push_key_seg`],
/// [`push_path`]): an element that names no unit costs no string.
#[derive(Clone, Debug)]
struct Seg {
    id_key: Option<String>,
    name: Name,
    n: u32,
}

impl Seg {
    /// At least the length of the key segment without an id (`name-n`: the
    /// portable name is no longer than the name).
    fn key_len(&self) -> usize {
        self.name.as_str().len() + 11
    }

    /// At least the length of the path segment (`/name[n]`).
    fn path_len(&self) -> usize {
        self.name.as_str().len() + 13
    }

    /// Appends `name-n` with the name made portable (a static name is
    /// portable already: `static_names_are_portable`).
    fn push_key_to(&self, out: &mut String) {
        if self.name.atom().is_some() {
            out.push_str(self.name.as_str());
        } else {
            push_portable(out, self.name.as_str());
        }
        out.push('-');
        push_decimal(out, self.n);
    }

    /// Appends `/name[n]`.
    fn push_path_to(&self, out: &mut String) {
        out.push('/');
        out.push_str(self.name.as_str());
        out.push('[');
        push_decimal(out, self.n);
        out.push(']');
    }

    /// Gives the id key's string back to `spare`.
    fn recycle(self, spare: &mut Spare) {
        if let Some(id_key) = self.id_key {
            spare.keep_in(Pool::Name, id_key);
        }
    }
}

impl Frame {
    fn root() -> Self {
        Frame {
            implied: false,
            level: usize::MAX,
            translate: true,
            preserve: false,
            seg: Seg {
                id_key: None,
                name: Name::new(""),
                n: 0,
            },
            digest: Digest {
                restart: 0,
                key: FNV_START,
                path: FNV_START,
            },
            counts: ChildCounts::default(),
            texts: 0,
            names: None,
        }
    }

    /// The element name (empty for the root frame).
    fn name(&self) -> &Name {
        &self.seg.name
    }

    /// Numbers a child element named `name`.
    fn bump(&mut self, name: &Name) -> u32 {
        self.counts.bump(name)
    }

    /// Numbers a child implicit block (`text-n`).
    fn bump_text(&mut self) -> u32 {
        self.texts += 1;
        self.texts
    }
}

/// A frame's child elements so far, by name: a short list first (a container
/// has a few child names: a look is a few compares of atoms, no hashing), a map
/// for the names past it.
#[derive(Default)]
struct ChildCounts {
    few: Vec<(Name, u32)>,
    many: FastMap<Name, u32>,
}

impl ChildCounts {
    /// The names the short list holds.
    const FEW: usize = 16;

    /// Numbers a child named `name` (1 for the first).
    fn bump(&mut self, name: &Name) -> u32 {
        if let Some((_, c)) = self.few.iter_mut().find(|(n, _)| n == name) {
            *c += 1;
            return *c;
        }
        // A name not in the list while it has room is new (the map takes names
        // only once the list is full).
        if self.few.len() < Self::FEW {
            self.few.push((name.clone(), 1));
            return 1;
        }
        let c = self.many.entry(name.clone()).or_insert(0);
        *c += 1;
        *c
    }

    /// Whether it is worth keeping for another frame: it grew, not large.
    fn reusable(&self) -> bool {
        self.few.capacity() > 0 && self.many.capacity() <= MAX_SPARE_COUNT_CAPACITY
    }

    fn clear(&mut self) {
        self.few.clear();
        self.many.clear();
    }
}

const MAX_HTML_IDS: usize = 65_536;
/// Child counts of closed frames kept for reuse ([`Reader::pop_frame`]): about
/// as many as a page nests, none that grew large.
const MAX_SPARE_COUNTS: usize = 64;
const MAX_SPARE_COUNT_CAPACITY: usize = 64;
const MAX_NOTES: usize = 8;
/// The most characters a note keeps.
const MAX_NOTE_CHARS: usize = 2000;

/// A comment's data as a translator's note: trimmed, whitespace runs collapsed,
/// at most [`MAX_NOTE_CHARS`] characters. Cut in place: a note of at most that
/// many bytes has at most that many characters, so most are not walked at all
/// (a copy character by character cost about 1 700 instructions a comment).
fn note_of(comment: &str) -> String {
    let mut note = collapse(comment.trim());
    if note.len() > MAX_NOTE_CHARS
        && let Some((cut, _)) = note.char_indices().nth(MAX_NOTE_CHARS)
    {
        note.truncate(cut);
    }
    note
}

struct Reader<'a, 's, R: Read> {
    ts: TokenStream<'a, R>,
    rules: &'a Rules,
    skel: Option<&'a mut SkeletonStore>,
    out: Option<Out<'a, 's>>,
    /// Whether there is a sink or writer: blocks then get their paths and
    /// element names.
    for_sink: bool,
    /// Whether blocks keep a copy of their original bytes (a sink, or a skeleton
    /// that copies them instead of keeping ranges of the source file).
    keep_original: bool,
    /// Decoded offset up to which the skeleton is written.
    emitted: u64,
    stack: Vec<Frame>,
    root: Frame,
    notes: Vec<String>,
    html_ids: crate::ids::Anchors,
    /// Names the units (`crate::ids`).
    ids: crate::ids::ContentIds,
    blocks: usize,
    words: usize,
    /// Whether `words` is counted.
    count_words: bool,
    /// Tokens starting before this offset were found to hold no text: read them raw.
    raw_until: u64,
    /// Whether the first `<html>` start tag was read (its mark is written).
    root_seen: bool,
    buf: Vec<u8>,
    /// A segment rendered for its digest ([`Reader::digest_for`]).
    seg_text: String,
    finished: bool,
    /// Buffers of emitted blocks and closed frames, for the next ones.
    spare: Spare,
    /// Child counts of closed frames, cleared, for the next ones.
    spare_counts: Vec<ChildCounts>,
}

/// [`push_portable`] into a new string.
#[cfg(test)]
fn sanitize(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    push_portable(&mut out, s);
    out
}

/// Appends `s` made a valid XLIFF `NMTOKEN` (unit ids) to `out`: each character
/// that is not a name character under both XML 1.0 name rules (the 4th
/// edition's, which libxml2 still checks, and the 5th's) becomes `_`.
fn push_portable(out: &mut String, s: &str) {
    if is_portable_ascii(s) {
        out.push_str(s);
        return;
    }
    out.extend(
        s.chars()
            .map(|c| if is_portable_name_char(c) { c } else { '_' }),
    );
}

/// Whether `s` is made of ASCII name characters only ([`push_portable`] copies
/// it as it is).
fn is_portable_ascii(s: &str) -> bool {
    s.bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b':'))
}

/// ASCII letters and digits, `-._:`, and the letters of the main alphabets and
/// syllabaries (Latin-1 and Latin Extended-A, Greek, Cyrillic, Hebrew, Arabic,
/// kana, CJK, Hangul) within the ranges both XML 1.0 editions allow. Anything
/// else (`²`, `ª`, symbols, newer letters) is not portable.
fn is_portable_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric()
        || matches!(c, '-' | '.' | '_' | ':')
        || matches!(c,
            '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}' | '\u{F8}'..='\u{131}'
            | '\u{134}'..='\u{13E}' | '\u{141}'..='\u{148}' | '\u{14A}'..='\u{17E}'
            | '\u{388}'..='\u{38A}' | '\u{38C}' | '\u{38E}'..='\u{3A1}' | '\u{3A3}'..='\u{3CE}'
            | '\u{401}'..='\u{40C}' | '\u{40E}'..='\u{44F}' | '\u{451}'..='\u{45C}'
            | '\u{45E}'..='\u{481}' | '\u{5D0}'..='\u{5EA}' | '\u{621}'..='\u{63A}'
            | '\u{641}'..='\u{64A}' | '\u{3041}'..='\u{3094}' | '\u{30A1}'..='\u{30FA}'
            | '\u{4E00}'..='\u{9FA5}' | '\u{AC00}'..='\u{D7A3}')
}

impl<R: Read> Reader<'_, '_, R> {
    fn bytes_total(&self) -> u64 {
        self.ts.window.src_offset(self.ts.window.dec_end())
            + self.ts.window.source_tail(self.ts.window.dec_end()).len() as u64
    }

    fn top(&mut self) -> &mut Frame {
        match self.stack.last_mut() {
            Some(f) => f,
            None => &mut self.root,
        }
    }

    fn top_ref(&self) -> &Frame {
        self.stack.last().unwrap_or(&self.root)
    }

    /// Writes the source up to decoded offset `to` as skeleton text.
    fn skel_to(&mut self, to: u64) -> Result<()> {
        if to <= self.emitted {
            return Ok(());
        }
        // A store that keeps ranges of the source counts these bytes when the
        // next entry is written (`skel_at`): nothing to look up per tag.
        if let Some(s) = self.skel.as_deref_mut()
            && !s.keeps_source_ranges()
        {
            let window = &self.ts.window;
            s.write_source(
                window.src_offset(self.emitted),
                window.source(self.emitted, to),
            )?;
        }
        self.emitted = to;
        self.ts.window.release(to);
        Ok(())
    }

    /// [`Reader::skel_to`] before an entry written at `to`: the store has every
    /// source byte before it.
    fn skel_at(&mut self, to: u64) -> Result<()> {
        self.skel_to(to)?;
        if let Some(s) = self.skel.as_deref_mut()
            && s.keeps_source_ranges()
        {
            s.source_through(self.ts.window.src_offset(self.emitted))?;
        }
        Ok(())
    }

    fn flush_to_end(&mut self) -> Result<()> {
        if self.finished {
            return Ok(());
        }
        self.finished = true;
        let end = self.ts.window.dec_end();
        self.skel_at(end)?;
        if let Some(s) = self.skel.as_deref_mut() {
            let window = &self.ts.window;
            s.write_source(window.src_offset(end), window.source_tail(end))?;
        }
        Ok(())
    }

    /// Emits a block: skeleton up to its start, the block record and its Ref.
    fn emit_block(&mut self, mut block: Block, start: u64, end: u64) -> Result<()> {
        self.skel_at(start)?;
        // The replay of a pipeline names the blocks (off this thread).
        let unnamed = self.out.is_none()
            && self
                .skel
                .as_deref()
                .is_some_and(SkeletonStore::names_on_read);
        if !matches!(self.out, Some(Out::Writer(_))) && !unnamed {
            self.ids.assign(&mut block, &self.html_ids);
        }
        if block.notes.is_empty() {
            block.notes = std::mem::take(&mut self.notes);
        }
        if let Some(s) = self.skel.as_deref_mut() {
            let window = &self.ts.window;
            let len = if self.keep_original {
                block.original.len()
            } else {
                window.source(start, end).len()
            };
            let at = window.src_offset(start);
            if unnamed {
                // Given away whole (the replay names it): counted first.
                self.emitted = end.max(self.emitted);
                self.blocks += 1 + block.subs.len();
                if self.count_words {
                    self.words += block_words(&block);
                }
                let (ids, anchors, spare) = (&self.ids, &self.html_ids, &mut self.spare);
                let anchored = |b: &Block, to: &mut Vec<bool>| ids.anchored(b, anchors, to);
                return s.write_block_owned(block, at, len, anchored, &mut |b| spare.recycle(b));
            }
            s.write_block_sized(&block, at, len)?;
        }
        self.emitted = end.max(self.emitted);
        self.blocks += 1 + block.subs.len();
        if self.count_words {
            self.words += block_words(&block);
        }
        match &mut self.out {
            Some(Out::Sink(sink)) => {
                sink.block(&block)?;
                self.spare.recycle(block);
            }
            Some(Out::Writer(writer)) => {
                // The batch's bound: the block's own names and its span of the page
                // (its runs and sub-blocks are made of it).
                let span = usize::try_from(end.saturating_sub(start)).unwrap_or(usize::MAX);
                let bytes = (block.id.len() + block.path.len()).saturating_add(span);
                let (ids, anchors) = (&self.ids, &self.html_ids);
                writer.send_block(
                    block,
                    bytes,
                    |b, anchored| ids.anchored(b, anchors, anchored),
                    &mut self.spare,
                )?;
            }
            None => self.spare.recycle(block),
        }
        Ok(())
    }

    /// The segment of a new child element `tok` of the top frame (numbers it).
    fn child_seg(&mut self, tok: &Tok) -> Seg {
        let (name, n) = match tok.tag_name() {
            Some(tag_name) => (tag_name.clone(), self.top().bump(tag_name)),
            None => (Name::new(""), 1),
        };
        let mut id_key = None;
        if let Some(id) = tok
            .attr_atom(atom::ID)
            .map(str::trim)
            .filter(|v| !v.is_empty())
        {
            let mut key = self.spare.string_for(Pool::Name, id.len() + 3);
            key.push_str("id.");
            push_portable(&mut key, id);
            if self.html_ids.len() < MAX_HTML_IDS && self.html_ids.insert(&key) {
                id_key = Some(key);
            } else {
                self.spare.keep_in(Pool::Name, key);
            }
        }
        Seg { id_key, name, n }
    }

    /// The key and path of the top frame's child `seg` (`None`: the top frame's
    /// own). Both keep at most [`MAX_NAME_SEGMENTS`] segments: a deeper one folds
    /// its leading segments into one digest segment (the FNV-1a state the frames
    /// keep, see [`Frame::digest`]) and writes only its last
    /// [`KEPT_NAME_SEGMENTS`], so a unit costs a bounded walk however deep it is.
    fn names(&mut self, seg: Option<&Seg>) -> (String, String) {
        if let Some(kept) = self.names_from_top(seg) {
            // Tests and fuzzing (debug assertions) check every shortcut.
            debug_assert!(kept == self.names_walk(seg), "kept names differ");
            return kept;
        }
        self.names_walk(seg)
    }

    /// [`Reader::names`] by a walk over the frames' segments.
    fn names_walk(&mut self, seg: Option<&Seg>) -> (String, String) {
        let mut path = String::new();
        let depth = self.stack.len();
        let len = depth + usize::from(seg.is_some());
        // The segment at index `i` of the frames plus the child.
        let at = |i: usize| -> Option<&Seg> {
            if i < depth {
                self.stack.get(i).map(|f| &f.seg)
            } else {
                seg
            }
        };
        let digest_at = |i: usize| self.stack.get(i).map(|f| f.digest);

        // Paths are for interchange files: a read without a sink (the skeleton
        // alone, for a merge) leaves them empty.
        // Both strings are sized once (their segments are rendered already), with
        // room for what the callers append (`/text()[n]`, `:attr`, `/@attr`).
        if self.for_sink {
            let path_from = len.saturating_sub(KEPT_NAME_SEGMENTS);
            let path_from = if len > MAX_NAME_SEGMENTS {
                path_from
            } else {
                0
            };
            let size: usize = (path_from..len).filter_map(at).map(Seg::path_len).sum();
            path =
                (self.spare).string_for(Pool::Key, size + 20 + if path_from > 0 { 18 } else { 0 });
            if path_from > 0 {
                let state = digest_at(path_from - 1).map_or(FNV_START, |d| d.path);
                push_digest(&mut path, "/~", state);
            }
            for s in (path_from..len).filter_map(at) {
                push_path(&mut path, s);
            }
        }

        // The key restarts at the last segment with an id.
        let from = match seg {
            Some(s) if s.id_key.is_some() => depth,
            _ => self.stack.last().map_or(0, |f| f.digest.restart),
        };
        let folded = len - from > MAX_NAME_SEGMENTS;
        let key_from = if folded {
            len - KEPT_NAME_SEGMENTS
        } else {
            from
        };
        let size: usize = (key_from..len)
            .filter_map(at)
            .map(|s| 1 + s.id_key.as_ref().map_or(0, String::len).max(s.key_len()))
            .sum();
        let mut key = (self.spare).string_for(Pool::Key, size + 20 + if folded { 17 } else { 0 });
        if folded {
            let state = digest_at(key_from - 1).map_or(FNV_START, |d| d.key);
            push_digest(&mut key, "~", state);
        }
        for s in (key_from..len).filter_map(at) {
            push_key_seg(&mut key, s);
        }
        (key, path)
    }

    /// [`Reader::names`] from the top frame's kept key and path, when it has
    /// them and the result is not folded (at most [`MAX_NAME_SEGMENTS`]
    /// segments: then neither was the top frame's).
    fn names_from_top(&mut self, seg: Option<&Seg>) -> Option<(String, String)> {
        let depth = self.stack.len();
        if depth + usize::from(seg.is_some()) > MAX_NAME_SEGMENTS {
            return None;
        }
        let (top_key, top_path) = self.stack.last()?.names.as_ref()?;
        let (seg_key, seg_path) = seg.map_or((0, 0), |s| {
            let key = s.id_key.as_ref().map_or(0, String::len).max(s.key_len());
            (key, s.path_len())
        });
        // Room for what the callers append, as in `names`.
        let mut path = String::new();
        if self.for_sink {
            path = (self.spare).string_for(Pool::Key, top_path.len() + seg_path + 20);
            path.push_str(top_path);
            if let Some(s) = seg {
                push_path(&mut path, s);
            }
        }
        let mut key = (self.spare).string_for(Pool::Key, top_key.len() + 1 + seg_key + 20);
        match seg {
            // The key restarts at a segment with an id.
            Some(s) if s.id_key.is_some() => push_key_seg(&mut key, s),
            Some(s) => {
                key.push_str(top_key);
                push_key_seg(&mut key, s);
            }
            None => key.push_str(top_key),
        }
        Some((key, path))
    }

    /// The digest of a new frame `seg` on top of the open frames (paths only
    /// with a sink: without one the path state stays the start state). The
    /// segments are digested piece by piece (FNV-1a runs on: the same state as
    /// over their text), not rendered.
    fn digest_for(&mut self, seg: &Seg) -> Digest {
        let depth = self.stack.len();
        let parent = self.stack.last().map(|f| f.digest);
        let name = seg.name.as_str();
        let mut digits = [0u8; 10];
        let n = decimal(seg.n, &mut digits);
        let mut path = parent.map_or(FNV_START, |d| d.path);
        if self.for_sink {
            // `/name[n]`
            for piece in [&b"/"[..], name.as_bytes(), b"[", n, b"]"] {
                path = fnv1a(path, piece);
            }
        }
        // The key restarts here (an `id`, or the bottom frame), or goes on from the
        // parent's with a `.` before this segment.
        let (restart, state) = match (&seg.id_key, parent) {
            (Some(_), _) | (None, None) => (depth, FNV_START),
            (None, Some(d)) => (d.restart, fnv1a(d.key, b".")),
        };
        let key = match &seg.id_key {
            Some(id) => fnv1a(state, id.as_bytes()),
            // `name-n`, the name portable as it is.
            None if is_portable_ascii(name) => [name.as_bytes(), b"-", n]
                .iter()
                .fold(state, |h, p| fnv1a(h, p)),
            None => {
                let mut rendered = std::mem::take(&mut self.seg_text);
                rendered.clear();
                seg.push_key_to(&mut rendered);
                let key = fnv1a(state, rendered.as_bytes());
                self.seg_text = rendered;
                key
            }
        };
        Digest { restart, key, path }
    }

    /// Closes the frames a token closed (its simulated `kept` level).
    fn close_to(&mut self, kept: usize) {
        while self.stack.last().is_some_and(|f| f.level >= kept) {
            self.pop_frame();
        }
    }

    /// Closes the top frame; its buffers are kept for the next frames.
    fn pop_frame(&mut self) {
        let Some(frame) = self.stack.pop() else {
            return;
        };
        frame.seg.recycle(&mut self.spare);
        if let Some((key, path)) = frame.names {
            self.spare.keep_in(Pool::Key, key);
            self.spare.keep_in(Pool::Key, path);
        }
        let mut counts = frame.counts;
        if counts.reusable() && self.spare_counts.len() < MAX_SPARE_COUNTS {
            counts.clear();
            self.spare_counts.push(counts);
        }
    }

    /// Consumes the next token, closing what it closes.
    fn next_tok(&mut self) -> Result<Option<Tok>> {
        let tok = self.ts.next()?;
        if let Some(t) = &tok {
            self.close_to(t.kept);
        }
        Ok(tok)
    }

    /// Drops the next `n` buffered tokens, closing what they close.
    fn skip_toks(&mut self, n: usize) {
        if let Some(kept) = self.ts.skip(n) {
            self.close_to(kept);
        }
    }

    /// Writes a start tag to the skeleton, splitting translatable and language
    /// attribute values out of it.
    ///
    /// `with_block`: the element's content is the next block. Its language values
    /// are then BlockLang entries (retargeted only when that block is translated),
    /// unless the tag also has attribute blocks (they would come between).
    fn emit_tag(
        &mut self,
        tok: &Tok,
        seg: Option<&Seg>,
        translate: bool,
        with_block: bool,
    ) -> Result<()> {
        let mut names: Option<(String, String)> = None;
        // Names compared by atom (a tag's name is one string compare otherwise).
        let root = !self.root_seen && tok.tag_name().is_some_and(|n| n.is(atom::HTML));
        let meta = tok.tag_name().is_some_and(|n| n.is(atom::META));
        if root {
            self.root_seen = true;
            self.emit_root_mark(tok)?;
        }
        // Language values of language switchers (`<a hreflang>`) and of elements
        // that do not translate (their text keeps its language) are no Lang entry.
        let keep_lang = !translate || tok.attr_atom(atom::HREFLANG).is_some();
        let lang_kind = if with_block
            && !tok
                .attrs()
                .iter()
                .any(|a| self.is_attr_block(tok, a, translate))
        {
            EntryType::BLOCK_LANG
        } else {
            EntryType::LANG
        };
        for attr in tok.attrs() {
            if !attr.has_value {
                continue;
            }
            if root && attr.name == "dir" {
                self.skel_at(attr.value_start())?;
                if let Some(s) = self.skel.as_deref_mut() {
                    let window = &self.ts.window;
                    let at = window.src_offset(attr.value_start());
                    let value = window.source(attr.value_start(), attr.value_end());
                    s.write_source_entry(EntryType::DIR, at, value)?;
                }
                self.emitted = attr.value_end();
                continue;
            }
            let class = self.rules.attr_class(&attr.name);
            if class.lang()
                || meta
                    && self
                        .rules
                        .is_content_language_meta(tok.name(), attr.name.as_str(), |a| tok.attr(a))
            {
                if attr.value.trim().is_empty() || keep_lang {
                    continue;
                }
                self.skel_at(attr.value_start())?;
                if let Some(s) = self.skel.as_deref_mut() {
                    let window = &self.ts.window;
                    let at = window.src_offset(attr.value_start());
                    let value = window.source(attr.value_start(), attr.value_end());
                    s.write_source_entry(lang_kind, at, value)?;
                }
                self.emitted = attr.value_end();
                continue;
            }
            if !self.is_attr_block(tok, attr, translate) {
                continue;
            }
            let quote = crate::block::quote_ending(
                self.ts
                    .window
                    .text(tok.start(), attr.value_start())
                    .as_bytes(),
                encoding_rs::UTF_8,
            );
            let (key, path) = names.get_or_insert_with(|| self.names(seg));
            let original = if self.keep_original {
                let window = &self.ts.window;
                window.source(attr.value_start(), attr.value_end()).to_vec()
            } else {
                Vec::new()
            };
            let mut id = self
                .spare
                .string_for(Pool::Key, key.len() + 1 + attr.name.as_str().len());
            id.push_str(key);
            id.push(':');
            push_portable(&mut id, attr.name.as_str());
            let mut attr_path = self.spare.string_for(
                Pool::Key,
                if self.for_sink {
                    path.len() + 2 + attr.name.as_str().len()
                } else {
                    0
                },
            );
            if self.for_sink {
                attr_path.push_str(path);
                attr_path.push_str("/@");
                attr_path.push_str(attr.name.as_str());
            }
            let element = if self.for_sink { tok.name() } else { "" };
            let buffers = self.spare.buffers(element, attr.value.len());
            let block = Block::attribute_in(buffers, id, attr_path, quote, &attr.value, original);
            self.emit_block(block, attr.value_start(), attr.value_end())?;
        }
        self.skel_to(tok.end())
    }

    /// Whether `attr` of start tag `tok` is an attribute block (a language value
    /// is not one).
    fn is_attr_block(&self, tok: &Tok, attr: &OwnedAttribute, translate: bool) -> bool {
        // The cheap questions first (one table load says most attributes are
        // no candidates), the value's letters last.
        let class = self.rules.attr_class(&attr.name);
        translate
            && attr.has_value
            && class.named()
            && !class.lang()
            && self
                .rules
                .attr_rule_matches(tok.name(), attr.name.as_str(), |a| tok.attr(a))
            && self.rules.is_translatable_text(&attr.value)
    }

    /// The Root mark of the first `<html>` start tag, right after its name: where
    /// the writer puts `dir` for a right-to-left target, and the page's language.
    fn emit_root_mark(&mut self, tok: &Tok) -> Result<()> {
        let after_name = tok.start() + "<html".len() as u64;
        if after_name > tok.end()
            || !self
                .ts
                .window
                .text(tok.start(), after_name)
                .eq_ignore_ascii_case("<html")
        {
            return Ok(());
        }
        self.skel_at(after_name)?;
        let page_lang = tok
            .attr("lang")
            .or_else(|| tok.attr("xml:lang"))
            .map(str::trim)
            .unwrap_or("");
        if let Some(s) = self.skel.as_deref_mut() {
            self.buf.clear();
            self.buf.push(u8::from(tok.attr("dir").is_some()));
            self.buf.extend_from_slice(page_lang.as_bytes());
            s.write_entry(EntryType::ROOT, &self.buf)?;
        }
        Ok(())
    }

    fn run(&mut self) -> Result<()> {
        loop {
            let Some(tok) = self.ts.peek(0)? else {
                return self.flush_to_end();
            };
            let kind = tok.kind();
            let is_ws_text = tok.is_blank();
            let tok_start = tok.start();
            let kept = tok.kept;
            match kind {
                TokenKind::Eof => {
                    self.next_tok()?;
                    return self.flush_to_end();
                }
                TokenKind::Doctype | TokenKind::Comment | TokenKind::ProcessingInstruction => {
                    let tok = self.next_tok()?.unwrap_or_else(unreachable_tok);
                    self.skel_to(tok.end())?;
                    let text = tok.text(&self.ts.window);
                    if kind == TokenKind::Comment
                        && !is_conditional_comment(text)
                        && self.notes.len() < MAX_NOTES
                    {
                        let note = note_of(text);
                        if !note.is_empty() {
                            self.notes.push(note);
                        }
                    }
                }
                TokenKind::Characters
                    if is_ws_text || !self.top_ref().translate || tok_start < self.raw_until =>
                {
                    let tok = self.next_tok()?.unwrap_or_else(unreachable_tok);
                    if !is_ws_text {
                        self.notes.clear();
                    }
                    self.skel_to(tok.end())?;
                }
                TokenKind::Characters => self.implicit_block()?,
                TokenKind::EndTag => {
                    let tok = self.next_tok()?.unwrap_or_else(unreachable_tok);
                    self.skel_to(tok.end())?;
                    self.ts.recycle(tok);
                }
                TokenKind::StartTag => {
                    // What the tree builder closes, then what the rules' implied
                    // ends close (a rules file may add some).
                    self.close_to(kept);
                    // The token is still the next buffered one: its name is read
                    // from there, not copied (the fields are borrowed apart).
                    let rules = self.rules;
                    let next = self.ts.buffered_token(0);
                    let name = next.map_or("", Tok::name);
                    let class = next.map(|t| t.class).unwrap_or_default();
                    // A tag that ends no element skips the walk.
                    let implied = if class.ends() {
                        self.stack
                            .iter()
                            .rev()
                            .take_while(|f| f.implied && rules.implies_end(f.name().as_str(), name))
                            .count()
                    } else {
                        0
                    };
                    for _ in 0..implied {
                        self.pop_frame();
                    }
                    let (opaque, block) = (class.opaque(), class.block());
                    let translate = self.top_ref().translate;
                    if opaque {
                        self.opaque_element()?;
                    } else if block {
                        self.block_element()?;
                    } else if translate && tok_start >= self.raw_until {
                        self.implicit_block()?;
                    } else {
                        let tok = self.next_tok()?.unwrap_or_else(unreachable_tok);
                        let seg = self.child_seg(&tok);
                        let own = translate_of(self.rules, &tok, translate);
                        self.emit_tag(&tok, Some(&seg), own, false)?;
                        seg.recycle(&mut self.spare);
                        let opened_at = tok.opened_at;
                        self.ts.recycle(tok);
                        if let (true, false, Some(level)) = (translate, own, opened_at) {
                            self.skip_subtree(level)?;
                        }
                    }
                }
            }
        }
    }

    /// The content of an inline element that does not translate (`<code>`,
    /// `class="notranslate"`…) read raw, outside a block: to the skeleton up to the
    /// token that closes it, so no attribute inside it is extracted either.
    fn skip_subtree(&mut self, level: usize) -> Result<()> {
        while let Some(t) = self.ts.peek(0)? {
            if t.kept <= level || t.kind() == TokenKind::Eof {
                break;
            }
            let t = self.next_tok()?.unwrap_or_else(unreachable_tok);
            self.skel_to(t.end())?;
            self.ts.recycle(t);
        }
        Ok(())
    }

    /// `script`, `style`… : the whole element to the skeleton.
    fn opaque_element(&mut self) -> Result<()> {
        let Some(tok) = self.next_tok()? else {
            return Ok(());
        };
        let seg = self.child_seg(&tok);
        let translate = translate_of(self.rules, &tok, self.top_ref().translate);
        self.emit_tag(&tok, Some(&seg), translate, false)?;
        seg.recycle(&mut self.spare);
        if tok.self_closing() && tok.name() != "script" && tok.name() != "style" || tok.class.void()
        {
            self.ts.recycle(tok);
            return Ok(());
        }
        let mut depth = 1usize;
        while let Some(t) = self.next_tok()? {
            match t.kind() {
                TokenKind::Eof => return self.flush_to_end(),
                TokenKind::StartTag if t.same_name(&tok) && !t.self_closing() => depth += 1,
                TokenKind::EndTag if t.same_name(&tok) => depth -= 1,
                _ => {}
            }
            self.skel_to(t.end())?;
            self.ts.recycle(t);
            if depth == 0 {
                break;
            }
        }
        self.ts.recycle(tok);
        Ok(())
    }

    fn block_element(&mut self) -> Result<()> {
        let Some(tok) = self.next_tok()? else {
            return Ok(());
        };
        let seg = self.child_seg(&tok);
        let parent = self.top_ref();
        let translate = translate_of(self.rules, &tok, parent.translate);
        let preserve = parent.preserve || tok.class.preserve();
        // Void, ignored by the tree builder, or past the depth limit: no content.
        let Some(level) = tok.opened_at.filter(|_| !tok.class.void()) else {
            self.emit_tag(&tok, Some(&seg), translate, false)?;
            seg.recycle(&mut self.spare);
            self.ts.recycle(tok);
            return Ok(());
        };
        // Classified (and built) before the tag is written: a leaf's own language
        // values go with its block.
        let class = classify(&mut self.ts, self.rules, tok.name(), tok.end(), level)?;
        if let Class::Leaf { len, end_tag } = class {
            if translate && len > 0 {
                let (key, path) = self.names(Some(&seg));
                let mut ctx = BuildCtx {
                    rules: self.rules,
                    key,
                    path,
                    element: if self.for_sink {
                        self.spare.copy_in(Pool::Name, tok.name())
                    } else {
                        String::new()
                    },
                    preserve,
                    translate,
                    for_sink: self.for_sink,
                    keep_original: self.keep_original,
                };
                if let Some(built) = build(&mut self.ts, len, &mut ctx, &mut self.spare) {
                    self.emit_tag(&tok, Some(&seg), translate, true)?;
                    self.emit_block(built.block, built.start, built.end)?;
                    let last_end = self.ts.buffered_token(len - 1).map_or(0, |t| t.end());
                    self.skip_toks(len);
                    self.skel_to(last_end)?;
                    if end_tag && let Some(end) = self.next_tok()? {
                        self.skel_to(end.end())?;
                        self.ts.recycle(end);
                    }
                    seg.recycle(&mut self.spare);
                    self.ts.recycle(tok);
                    return Ok(());
                }
            }
            // No text: read the content raw (its attributes may still translate).
            self.emit_tag(&tok, Some(&seg), translate, false)?;
            let last_end = if len > 0 {
                self.ts.buffered_token(len - 1).map_or(0, |t| t.end())
            } else {
                0
            };
            self.raw_until = self.raw_until.max(last_end);
        } else {
            self.emit_tag(&tok, Some(&seg), translate, false)?;
        }
        let digest = self.digest_for(&seg);
        // Kept only unfolded: a frame at most MAX_NAME_SEGMENTS deep.
        let names = if self.stack.len() < MAX_NAME_SEGMENTS {
            let (key, path) = self.names(Some(&seg));
            if key.len() + path.len() <= MAX_KEPT_NAMES {
                Some((key, path))
            } else {
                self.spare.keep_in(Pool::Key, key);
                self.spare.keep_in(Pool::Key, path);
                None
            }
        } else {
            None
        };
        self.stack.push(Frame {
            implied: tok.class.implied(),
            level,
            translate,
            preserve,
            seg,
            digest,
            counts: self.spare_counts.pop().unwrap_or_default(),
            texts: 0,
            names,
        });
        self.ts.recycle(tok);
        Ok(())
    }

    /// How many buffered tokens from the next one (starting at decoded offset
    /// `start`) an implicit block spans: up to the next block-level tag or the
    /// first token that closes the container, bounded by the scan budget, without
    /// trailing comments and whitespace.
    fn implicit_extent(&mut self, start: u64) -> Result<usize> {
        let rules = self.rules;
        let container = self.stack.last().map(|f| f.level);
        // Open inline elements: the indexes of their start tags among the buffered
        // tokens (see `classify`).
        let mut open = self.ts.take_scratch();
        let mut j = 0usize;
        while self.ts.peek(j)?.is_some() {
            let Some(t) = self.ts.buffered_token(j) else {
                break;
            };
            let over = j >= rules.scan_token_budget
                || t.end().saturating_sub(start) > rules.scan_byte_budget as u64;
            // Past the budget, stop at the next point outside inline elements (the
            // hard cap: four times the budget; unclosed codes become placeholders).
            if over && open.is_empty() || j >= rules.scan_token_budget * 4 {
                break;
            }
            if j > 0 && container.is_some_and(|level| t.kept <= level) {
                break;
            }
            match t.kind() {
                TokenKind::Eof | TokenKind::Doctype => break,
                TokenKind::StartTag if open.is_empty() && t.class.block() => break,
                TokenKind::StartTag if t.class.void() || t.self_closing() && !t.class.opaque() => {}
                TokenKind::StartTag => open.push(j),
                TokenKind::EndTag => match open
                    .iter()
                    .rposition(|&o| self.ts.buffered_token(o).is_some_and(|s| s.same_name(t)))
                {
                    Some(pos) => open.truncate(pos),
                    None if t.class.block()
                        || self.stack.iter().any(|f| Some(f.name()) == t.tag_name()) =>
                    {
                        break;
                    }
                    None => {}
                },
                TokenKind::Characters | TokenKind::Comment | TokenKind::ProcessingInstruction => {}
            }
            j += 1;
        }
        // Trailing comments and whitespace stay in the skeleton (comments become notes).
        while j > 0 {
            let t = self.ts.buffered_token(j - 1);
            let trailing = t.is_some_and(|t| {
                matches!(
                    t.kind(),
                    TokenKind::Comment | TokenKind::ProcessingInstruction
                ) || t.is_blank()
            });
            if !trailing {
                break;
            }
            j -= 1;
        }
        self.ts.put_scratch(open);
        Ok(j)
    }

    /// Text or inline elements directly in a container: one block up to the next
    /// block-level tag or the first token that closes the container (bounded by the
    /// scan budget).
    fn implicit_block(&mut self) -> Result<()> {
        let rules = self.rules;
        let start = self.ts.peek(0)?.map_or(0, |t| t.start());
        let j = self.implicit_extent(start)?;
        let n = self.top().bump_text();
        let (parent_key, parent_path) = if self.stack.is_empty() {
            (String::new(), String::new())
        } else {
            self.names(None)
        };
        let mut key = parent_key;
        push_key(&mut key, "text", n);
        let element = if self.for_sink {
            let name = self.stack.last().map_or("", |f| f.name().as_str());
            let name = if name.is_empty() { "#document" } else { name };
            self.spare.copy_in(Pool::Name, name)
        } else {
            String::new()
        };
        let parent = self.top_ref();
        let mut ctx = BuildCtx {
            rules,
            key,
            path: {
                let mut path = parent_path;
                if self.for_sink {
                    path.push_str("/text()[");
                    push_decimal(&mut path, n);
                    path.push(']');
                }
                path
            },
            element,
            preserve: parent.preserve,
            translate: parent.translate,
            for_sink: self.for_sink,
            keep_original: self.keep_original,
        };
        if j > 0
            && let Some(built) = build(&mut self.ts, j, &mut ctx, &mut self.spare)
        {
            self.emit_block(built.block, built.start, built.end)?;
            let last_end = self.ts.buffered_token(j - 1).map_or(0, |t| t.end());
            self.skip_toks(j);
            return self.skel_to(last_end);
        }
        // No text: read these tokens raw.
        let last_end = self
            .ts
            .buffered_token(j.max(1) - 1)
            .map_or(start, |t| t.end());
        self.raw_until = self.raw_until.max(last_end.max(start + 1));
        Ok(())
    }
}

/// The most segments a unit's key or path has. A deeper unit (only hostile or
/// broken pages nest blocks this deep: the simulator caps nesting at 512) gets
/// its leading segments folded into one digest segment (`~` and 16 hex digits,
/// FNV-1a of their text) followed by its last [`KEPT_NAME_SEGMENTS`], so ids stay
/// unique and stable while every unit's size stays bounded: 16 000 nested
/// `<div>x` made units of 512 segments, an XLIFF 1 000 times the page.
const MAX_NAME_SEGMENTS: usize = 64;
/// The trailing segments a folded key or path keeps as they are.
const KEPT_NAME_SEGMENTS: usize = 32;
/// The longest key and path (bytes together) a frame keeps ([`Frame::names`]):
/// at most [`MAX_NAME_SEGMENTS`] frames keep theirs, so they hold at most
/// 64 × 4 KiB however long the names are.
const MAX_KEPT_NAMES: usize = 4096;

/// The FNV-1a offset basis: the state before any byte.
pub(crate) const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// 64-bit FNV-1a from `state` over `bytes`: a digest that is the same on every run
/// and platform (ids in a translation file must match the page's at merge time),
/// and that can be carried on from frame to frame.
pub(crate) fn fnv1a(state: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(state, |h, &b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Appends a folded-segments digest: `prefix` and 16 hex digits.
fn push_digest(out: &mut String, prefix: &str, state: u64) {
    out.push_str(prefix);
    push_hex(out, state, 16);
}

/// Appends one key segment: the `id.…` key where the key restarts (the key is
/// still empty), else `name-n`.
fn push_key_seg(key: &mut String, seg: &Seg) {
    match &seg.id_key {
        Some(id) if key.is_empty() => key.push_str(id),
        _ => {
            if !key.is_empty() {
                key.push('.');
            }
            seg.push_key_to(key);
        }
    }
}

/// Appends a key segment: `name-n`, after a `.` unless the key is empty.
fn push_key(key: &mut String, name: &str, n: u32) {
    if !key.is_empty() {
        key.push('.');
    }
    key.push_str(name);
    key.push('-');
    push_decimal(key, n);
}

/// Appends a path segment: `/name[n]`.
fn push_path(path: &mut String, seg: &Seg) {
    seg.push_path_to(path);
}

fn unreachable_tok() -> Tok {
    Tok {
        token: tokens::Payload::Eof,
        kept: usize::MAX,
        opened_at: None,
        blank: false,
        class: Default::default(),
    }
}

#[cfg(test)]
mod tests;
