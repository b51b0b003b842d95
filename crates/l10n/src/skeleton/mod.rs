//! The skeleton store: a temp file of `[type:1][len:LEB128][data]` entries.
//!
//! The reader appends entries while it tokenizes the document; the writer reads them
//! back in order after [`SkeletonStore::flush`]. Everything that is not translatable
//! goes here as source bytes, so replaying the skeleton with every block left
//! untranslated gives back the input byte for byte.
//!
//! **Ranges of the source.** The source bytes the reader hands over tile the input
//! in order ([`SkeletonStore::write_source`], each with its offset, which is
//! checked). When the input is a regular file ([`SkeletonStore::with_source`]) the
//! store keeps only their lengths and the replay copies them from the file, so the
//! temp file holds little more than the blocks' runs: about 1× the input on pages
//! dense in units, far less on most pages (four to five times the input when every
//! byte was copied, as for a pipe, and the element, path and notes of every block
//! with it). A replay checks it ended at the end of the file and that the file did
//! not change meanwhile (its length and modification time).
//!
//! **In memory, two threads.** A merge reads and replays the page at once: the
//! pipeline's two halves (`SkeletonStore::pipeline`, crate-internal) carry the same
//! entries through a bounded channel (`pipe.rs`) instead of a temp file, the page
//! reader writing one half on its thread while the replay reads the other; the
//! replay reads source ranges by positional reads (`source.rs`), leaving the file
//! offset the page reader's handle shares alone.
//!
//! Entry types:
//!
//! | type | name  | data |
//! |------|-------|------|
//! | 0    | Text  | raw source bytes |
//! | 2    | Lang  | raw source bytes of a `lang`/`xml:lang`/content-language value |
//! | 3    | Block | a block, replaced by its translation (`skeleton/codec.rs`: id, runs, sub-blocks; its original bytes or, in the source, their length) |
//! | 4    | Root  | a mark right after `<html`: one byte (1 when the element has a `dir` attribute), then its `lang` (else `xml:lang`) value as UTF-8; no source bytes |
//! | 5    | Dir   | raw source bytes of the `<html>` element's `dir` value |
//! | 6    | BlockLang | raw source bytes of a language value on the start tag of the element whose content is the next block: retargeted only when that block is translated |
//! | 7    | Source | (internal) the length of the next source bytes, in the file: read back as Text |
//!
//! A type byte with its high bit set (`0x80 | type`) marks an entry whose bytes are
//! also the next bytes of the source file (a Lang value): the replay skips them
//! there. A writer that does not know a type skips it (unknown types are inert).
//! Adjacent Text entries are coalesced (up to 64 KiB), adjacent ranges without bound.
//!
//! The temp file is anonymous: it is unlinked as soon as it is created (`O_TMPFILE`
//! on Linux, create-then-unlink elsewhere), so it has no name in the temp directory
//! and nothing can be left behind, not even by `SIGKILL`, an abort or a power cut;
//! its space is returned when the store is closed or dropped.
//!
//! ```
//! use tagloom_l10n::skeleton::{SkeletonStore, EntryType};
//! let mut store = SkeletonStore::new()?;
//! store.write_source(0, b"<p>")?;
//! store.write_entry(EntryType::ROOT, b"\x00en")?;
//! store.write_source(3, b"")?; // skipped
//! store.write_source(3, b"</p>")?;
//! store.flush()?;
//! let mut data = Vec::new();
//! assert_eq!(store.next_into(&mut data)?, Some(EntryType::TEXT));
//! assert_eq!(data, b"<p>");
//! assert_eq!(store.next_into(&mut data)?, Some(EntryType::ROOT));
//! assert_eq!(store.next_into(&mut data)?, Some(EntryType::TEXT));
//! assert_eq!(store.next_into(&mut data)?, None);
//! store.close()?;
//! # Ok::<(), tagloom_l10n::L10nError>(())
//! ```

mod codec;
mod pipe;
mod source;

pub(crate) use codec::empty_block;

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::SystemTime;

use encoding_rs::Encoding;

use crate::block::Block;
use crate::error::{IoContext, L10nError, Result};
use codec::{Original, put_varint, varint_array};

/// The type byte of an entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EntryType(pub u8);

impl EntryType {
    /// Non-translatable raw bytes.
    pub const TEXT: EntryType = EntryType(0);
    /// A language attribute value, retargeted when it names the source language.
    pub const LANG: EntryType = EntryType(2);
    /// A block ([`SkeletonStore::read_block`]): the writer substitutes it.
    pub const BLOCK: EntryType = EntryType(3);
    /// The `<html>` element's mark (where `dir` goes, the page language).
    pub const ROOT: EntryType = EntryType(4);
    /// The `<html>` element's `dir` value, set for the target's direction.
    pub const DIR: EntryType = EntryType(5);
    /// A language value of the element around the next block (Lang, retargeted
    /// only when that block is translated).
    pub const BLOCK_LANG: EntryType = EntryType(6);
    /// Internal: the length of the next bytes of the source file.
    const SOURCE: EntryType = EntryType(7);
}

/// Type-byte flag: the entry's bytes are also the next bytes of the source file.
const IN_SOURCE: u8 = 0x80;

const COALESCE_LIMIT: usize = 64 * 1024;
/// Largest entry accepted when reading back (a corrupt length must not allocate GBs).
const MAX_ENTRY: u64 = 1 << 30;

/// The source file the replay copies ranges from.
struct Source {
    file: BufReader<source::SourceFile>,
    /// Length and modification time when the store was made (checked at the end).
    len: u64,
    modified: Option<SystemTime>,
}

/// Where entries are written: the temp file, or the pipe to the replay's thread.
enum Sink {
    File(BufWriter<File>),
    Pipe(pipe::PipeWriter),
}

impl Sink {
    /// Writes an entry: its `header` (type byte and length), then its `data`.
    fn put(&mut self, header: &[u8], data: &[u8]) -> std::io::Result<()> {
        match self {
            Sink::File(w) => w.write_all(header).and_then(|_| w.write_all(data)),
            Sink::Pipe(w) => w.put(header, data),
        }
    }
}

/// Where entries are read back from.
enum Back {
    File(BufReader<File>),
    Pipe(pipe::PipeReader),
}

impl Read for Back {
    fn read(&mut self, out: &mut [u8]) -> std::io::Result<usize> {
        match self {
            Back::File(r) => r.read(out),
            Back::Pipe(r) => r.read(out),
        }
    }
}

impl BufRead for Back {
    fn fill_buf(&mut self) -> std::io::Result<&[u8]> {
        match self {
            Back::File(r) => r.fill_buf(),
            Back::Pipe(r) => r.fill_buf(),
        }
    }
    fn consume(&mut self, n: usize) {
        match self {
            Back::File(r) => r.consume(n),
            Back::Pipe(r) => r.consume(n),
        }
    }
}

/// A temp-file-backed, append-then-read store of skeleton entries (or one half of
/// an in-memory pipeline between the page reader's thread and the replay's).
pub struct SkeletonStore {
    writer: Option<Sink>,
    reader: Option<Back>,
    pending_text: Vec<u8>,
    /// Source bytes not yet written as a Source entry (source mode).
    pending_range: u64,
    /// The source offset the next source bytes must start at.
    src_pos: u64,
    source: Option<Source>,
    written: u64,
    limit: Option<u64>,
    /// The directory the anonymous file lives in (for messages).
    dir: PathBuf,
    buf: Vec<u8>,
    /// The id of the last block written (then read): ids are prefix-coded.
    last_id: String,
    /// Run strings of blocks read, for the next ones (`codec::decode_block_into`).
    spare_runs: Vec<String>,
    /// Writing half of a pipeline: the replay names the page reader's blocks
    /// ([`SkeletonStore::names_on_read`]).
    names_on_read: bool,
    /// Reading: names the blocks written to be named on decode.
    names: crate::ids::ContentIds,
    /// Whether each of the block being written and its sub-blocks keeps its key.
    anchored: Vec<bool>,
}

impl SkeletonStore {
    /// A store in the system temp directory.
    pub fn new() -> Result<Self> {
        Self::new_in(std::env::temp_dir())
    }

    /// A store whose (anonymous, already unlinked) temp file lives in `dir`.
    pub fn new_in(dir: impl AsRef<Path>) -> Result<Self> {
        let dir = dir.as_ref();
        let file = tempfile::tempfile_in(dir)
            .ctx(|| format!("creating the skeleton store in {}", dir.display()))?;
        let sink = Sink::File(BufWriter::with_capacity(64 * 1024, file));
        Ok(Self::fresh(Some(sink), None, dir.to_path_buf()))
    }

    /// A store with nothing written or read yet, on these ends.
    fn fresh(writer: Option<Sink>, reader: Option<Back>, dir: PathBuf) -> SkeletonStore {
        SkeletonStore {
            writer,
            reader,
            pending_text: Vec::new(),
            pending_range: 0,
            src_pos: 0,
            source: None,
            written: 0,
            limit: None,
            dir,
            buf: Vec::new(),
            last_id: String::new(),
            spare_runs: Vec::new(),
            names_on_read: false,
            names: crate::ids::ContentIds::new(crate::rules::IdScheme::Content),
            anchored: Vec::new(),
        }
    }

    /// Whether [`SkeletonStore::pipeline`] can read the source while the page
    /// reader reads it (positional reads).
    pub(crate) const PIPELINE: bool = source::POSITIONAL;

    /// A store without a temp file, in two halves for two threads: the first is
    /// written (by the page reader) and [flushed](SkeletonStore::flush), the second
    /// is read (by the replay) at the same time, its entries arriving through a
    /// bounded channel (`skeleton/pipe.rs`: about 1 MiB at most). `source`: the
    /// document being read, a regular file, from its start; the entries keep ranges
    /// of it as [`SkeletonStore::with_source`]. When the reading half is dropped,
    /// the writing half's writes fail ([`std::io::ErrorKind::BrokenPipe`]); when
    /// the writing half is dropped, the entries end.
    pub(crate) fn pipeline(source: Option<File>) -> Result<(SkeletonStore, SkeletonStore)> {
        let (w, r) = pipe::pipe();
        let half = |sink, back| Self::fresh(sink, back, PathBuf::from("(memory)"));
        let mut write = half(Some(Sink::Pipe(w)), None);
        write.names_on_read = true;
        let mut read = half(None, Some(Back::Pipe(r)));
        if let Some(file) = source {
            let again = file.try_clone().ctx(|| "opening the input again".into())?;
            // The writing half only needs to know the ranges are kept.
            write = write.with_source_buffered(again, 0)?;
            read = read.with_source(file)?;
        }
        Ok((write, read))
    }

    /// Tells the reading half of a [pipeline](SkeletonStore::pipeline) the
    /// document's encoding (the reader calls it once it is known; nothing for a
    /// temp file).
    pub(crate) fn set_encoding(&mut self, encoding: &'static Encoding) {
        if let Some(Sink::Pipe(w)) = self.writer.as_mut() {
            w.set_encoding(encoding);
        }
    }

    /// The document's encoding, for the reading half of a
    /// [pipeline](SkeletonStore::pipeline): waits until the reader knows it;
    /// `None` when it stopped before (or for a temp file).
    pub(crate) fn encoding(&self) -> Option<&'static Encoding> {
        match self.reader.as_ref() {
            Some(Back::Pipe(r)) => r.encoding(),
            _ => None,
        }
    }

    /// Caps the bytes written to the temp file: past `limit`, writes fail with
    /// [`std::io::ErrorKind::StorageFull`], as on a full disk (a quota, and the way
    /// tests simulate a full disk).
    pub fn with_limit(mut self, limit: Option<u64>) -> Self {
        self.limit = limit;
        self
    }

    /// Keeps the source's bytes as ranges of `file` (the document being read, a
    /// regular file, from its start) instead of copies; the replay reads them from
    /// it. Call before writing anything.
    pub fn with_source(self, file: File) -> Result<Self> {
        self.with_source_buffered(file, 64 * 1024)
    }

    fn with_source_buffered(mut self, file: File, capacity: usize) -> Result<Self> {
        let meta = file
            .metadata()
            .ctx(|| "reading the input's metadata".into())?;
        self.source = Some(Source {
            file: BufReader::with_capacity(capacity, source::SourceFile::new(file)),
            len: meta.len(),
            modified: meta.modified().ok(),
        });
        Ok(self)
    }

    /// The directory of the temp file (which has no name of its own).
    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Bytes written so far.
    pub fn len(&self) -> u64 {
        self.written + self.pending_text.len() as u64
    }

    /// Whether nothing was written.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Appends raw bytes that are not from the source (skipped when empty;
    /// adjacent texts are coalesced).
    pub fn write_text(&mut self, data: &[u8]) -> Result<()> {
        if data.is_empty() {
            return Ok(());
        }
        self.flush_range()?;
        if self.pending_text.len() + data.len() > COALESCE_LIMIT {
            self.flush_text()?;
            if data.len() > COALESCE_LIMIT {
                return self.write_raw(EntryType::TEXT.0, data);
            }
        }
        self.pending_text.extend_from_slice(data);
        Ok(())
    }

    /// Appends the source's bytes `data`, which start at source offset `at`: the
    /// next bytes of the source (anything else is [`L10nError::CorruptSkeleton`]).
    /// Kept as a range when the store reads from the source, else as Text.
    pub fn write_source(&mut self, at: u64, data: &[u8]) -> Result<()> {
        self.advance(at, data.len())?;
        if self.source.is_none() {
            return self.write_text(data);
        }
        if !data.is_empty() {
            self.flush_text()?;
            self.pending_range += data.len() as u64;
        }
        Ok(())
    }

    /// Counts the source's bytes up to source offset `at` as written, as
    /// [`SkeletonStore::write_source`] of them would, when the store keeps source
    /// ranges (else nothing: the bytes must be written). A reader that keeps
    /// ranges calls it before each entry instead of writing the bytes between
    /// entries piece by piece; `at` before the bytes already written is
    /// [`L10nError::CorruptSkeleton`].
    pub(crate) fn source_through(&mut self, at: u64) -> Result<()> {
        if self.source.is_none() || at == self.src_pos {
            return Ok(());
        }
        let Some(len) = at.checked_sub(self.src_pos) else {
            return Err(L10nError::CorruptSkeleton(format!(
                "source bytes up to {at} where {} were written",
                self.src_pos
            )));
        };
        self.flush_text()?;
        self.pending_range += len;
        self.src_pos = at;
        Ok(())
    }

    /// Appends an entry of type `kind` whose data `data` is the source's bytes at
    /// `at` (a Lang, Dir or BlockLang value).
    pub fn write_source_entry(&mut self, kind: EntryType, at: u64, data: &[u8]) -> Result<()> {
        self.advance(at, data.len())?;
        let flag = if self.source.is_some() { IN_SOURCE } else { 0 };
        self.write_tagged(kind.0 | flag, data)
    }

    /// Appends a block whose original bytes are the source's at `at`.
    pub fn write_block(&mut self, block: &Block, at: u64) -> Result<()> {
        self.write_block_sized(block, at, block.original.len())
    }

    /// Whether the store keeps ranges of the source file instead of copies of its
    /// bytes: then a block's `original` is not read, only its length.
    pub(crate) fn keeps_source_ranges(&self) -> bool {
        self.source.is_some()
    }

    /// [`SkeletonStore::write_block`] for a block whose original bytes are the
    /// `len` source bytes at `at`; `block.original` is read only when the store
    /// does not [keep source ranges](SkeletonStore::keeps_source_ranges).
    pub(crate) fn write_block_sized(&mut self, block: &Block, at: u64, len: usize) -> Result<()> {
        self.advance(at, len)?;
        let original = if self.source.is_some() {
            Original::InSource { len }
        } else {
            Original::Inline
        };
        if self.limit.is_none() && matches!(self.writer, Some(Sink::Pipe(_))) {
            // Encoded straight into the pipe's piece, after the source range
            // before it (as `flush_range` writes it).
            self.flush_text()?;
            if let Some(Sink::Pipe(pipe)) = self.writer.as_mut() {
                let (anchored, last, dir) = (&self.anchored, &mut self.last_id, &self.dir);
                let context = || format!("writing the skeleton store in {}", dir.display());
                let range = std::mem::take(&mut self.pending_range);
                if range != 0 {
                    self.written += pipe
                        .put_encoded(EntryType::SOURCE.0, |out| put_varint(out, range))
                        .ctx(context)?;
                }
                self.written += pipe
                    .put_encoded(EntryType::BLOCK.0, |out| {
                        codec::encode_block(block, original, anchored, last, out);
                    })
                    .ctx(context)?;
            }
            return Ok(());
        }
        let mut buf = std::mem::take(&mut self.buf);
        buf.clear();
        codec::encode_block(block, original, &self.anchored, &mut self.last_id, &mut buf);
        let result = self.write_tagged(EntryType::BLOCK.0, &buf);
        self.buf = buf;
        result
    }

    /// [`SkeletonStore::write_block_unnamed`] of a block given away: the
    /// writing half of a [pipeline](SkeletonStore::pipeline) hands it to the
    /// replay whole (not encoded, `skeleton/pipe.rs`); the blocks the replay is
    /// done with, and this one when it is encoded instead, go to `recycle`.
    pub(crate) fn write_block_owned(
        &mut self,
        block: Block,
        at: u64,
        len: usize,
        anchored: impl FnOnce(&Block, &mut Vec<bool>),
        recycle: &mut dyn FnMut(Block),
    ) -> Result<()> {
        if self.limit.is_some() || !matches!(self.writer, Some(Sink::Pipe(_))) {
            let result = self.write_block_unnamed(&block, at, len, anchored);
            recycle(block);
            return result;
        }
        self.advance(at, len)?;
        let original = if self.source.is_some() {
            Original::InSource { len }
        } else {
            Original::Inline
        };
        self.flush_text()?;
        let range = std::mem::take(&mut self.pending_range);
        self.anchored.clear();
        anchored(&block, &mut self.anchored);
        let named = !self.anchored.is_empty();
        let (mark, n) = codec::encode_mark(EntryType::BLOCK.0, original, named);
        let mark = mark.get(..n).unwrap_or_default();
        let (dir, flags) = (&self.dir, &self.anchored);
        let context = || format!("writing the skeleton store in {}", dir.display());
        if let Some(Sink::Pipe(pipe)) = self.writer.as_mut() {
            if range != 0 {
                self.written += pipe
                    .put_encoded(EntryType::SOURCE.0, |out| put_varint(out, range))
                    .ctx(context)?;
            }
            self.written += mark.len() as u64;
            pipe.put_block(mark, block, len, flags, recycle)
                .ctx(context)?;
        }
        Ok(())
    }

    /// Whether the blocks written are best left to the replay to name: the
    /// writing half of a [pipeline](SkeletonStore::pipeline), whose replay
    /// decodes every block in order (the page reader's thread is the busy one).
    pub(crate) fn names_on_read(&self) -> bool {
        self.names_on_read
    }

    /// [`SkeletonStore::write_block_sized`] for a block that still has its
    /// structural keys: `anchored` pushes, for it and then each sub-block,
    /// whether it keeps its key ([`crate::ids::ContentIds::anchored`]); the others
    /// are named by content when read back, as the page reader would have.
    pub(crate) fn write_block_unnamed(
        &mut self,
        block: &Block,
        at: u64,
        len: usize,
        anchored: impl FnOnce(&Block, &mut Vec<bool>),
    ) -> Result<()> {
        self.anchored.clear();
        anchored(block, &mut self.anchored);
        let result = self.write_block_sized(block, at, len);
        self.anchored.clear();
        result
    }

    /// Appends an entry of any type that holds no source bytes.
    pub fn write_entry(&mut self, kind: EntryType, data: &[u8]) -> Result<()> {
        if kind == EntryType::TEXT {
            return self.write_text(data);
        }
        self.write_tagged(kind.0 & !IN_SOURCE, data)
    }

    /// Checks that `len` source bytes at `at` are the next ones, and moves past them.
    fn advance(&mut self, at: u64, len: usize) -> Result<()> {
        if at != self.src_pos {
            return Err(L10nError::CorruptSkeleton(format!(
                "source bytes at {at} where {} was expected",
                self.src_pos
            )));
        }
        self.src_pos += len as u64;
        Ok(())
    }

    fn write_tagged(&mut self, tag: u8, data: &[u8]) -> Result<()> {
        self.flush_text()?;
        self.flush_range()?;
        self.write_raw(tag, data)
    }

    fn flush_text(&mut self) -> Result<()> {
        if self.pending_text.is_empty() {
            return Ok(());
        }
        let text = std::mem::take(&mut self.pending_text);
        let result = self.write_raw(EntryType::TEXT.0, &text);
        self.pending_text = text;
        self.pending_text.clear();
        result
    }

    fn flush_range(&mut self) -> Result<()> {
        if self.pending_range == 0 {
            return Ok(());
        }
        let (len, n) = varint_array(self.pending_range);
        self.pending_range = 0;
        self.write_raw(EntryType::SOURCE.0, len.get(..n).unwrap_or_default())
    }

    fn write_raw(&mut self, tag: u8, data: &[u8]) -> Result<()> {
        let (len, n) = varint_array(data.len() as u64);
        let mut header = [0u8; 11];
        header[0] = tag;
        if let Some(to) = header.get_mut(1..=n) {
            to.copy_from_slice(len.get(..n).unwrap_or_default());
        }
        let header = header.get(..=n).unwrap_or_default();
        let total = (header.len() + data.len()) as u64;
        if let Some(limit) = self.limit
            && self.written + total > limit
        {
            return Err(L10nError::io(
                format!("writing the skeleton store in {}", self.dir.display()),
                std::io::Error::new(
                    std::io::ErrorKind::StorageFull,
                    "no space left on device (skeleton store limit reached)",
                ),
            ));
        }
        let dir = &self.dir;
        let writer = self
            .writer
            .as_mut()
            .ok_or_else(|| L10nError::CorruptSkeleton("write after flush".into()))?;
        writer
            .put(header, data)
            .ctx(|| format!("writing the skeleton store in {}", dir.display()))?;
        self.written += total;
        Ok(())
    }

    /// Ends writing: flushes the buffer and rewinds for [`SkeletonStore::next_into`].
    pub fn flush(&mut self) -> Result<()> {
        self.flush_text()?;
        self.flush_range()?;
        let context = format!("flushing the skeleton store in {}", self.dir.display());
        let writer = self
            .writer
            .take()
            .ok_or_else(|| L10nError::CorruptSkeleton("flushed twice".into()))?;
        let mut file = match writer {
            Sink::File(writer) => writer
                .into_inner()
                .map_err(|e| L10nError::io(context.clone(), e.into_error()))?,
            // The end of a pipeline's entries: what is left goes, then the
            // channel closes (the reading half was made with its reader).
            Sink::Pipe(mut writer) => {
                return writer.flush().ctx(|| context);
            }
        };
        file.seek(SeekFrom::Start(0)).ctx(|| context)?;
        self.reader = Some(Back::File(BufReader::with_capacity(64 * 1024, file)));
        if let Some(source) = self.source.as_mut() {
            source
                .file
                .seek(SeekFrom::Start(0))
                .ctx(|| "rewinding the input".into())?;
        }
        self.src_pos = 0;
        self.last_id.clear();
        Ok(())
    }

    /// Reads the next entry into `data`; `None` at the end. A range of the source
    /// comes back as Text with its bytes.
    pub fn next_into(&mut self, data: &mut Vec<u8>) -> Result<Option<EntryType>> {
        let Some(tag) = self.next_raw(data)? else {
            self.check_source_end()?;
            return Ok(None);
        };
        let kind = EntryType(tag & !IN_SOURCE);
        if tag & IN_SOURCE != 0 {
            self.skip_source(data.len() as u64)?;
        }
        if kind == EntryType::SOURCE {
            let len = codec::Cursor { data, pos: 0 }
                .varint()
                .filter(|&n| n <= MAX_ENTRY)
                .ok_or_else(|| L10nError::CorruptSkeleton("bad source range".into()))?;
            self.read_source(len, data)?;
            return Ok(Some(EntryType::TEXT));
        }
        Ok(Some(kind))
    }

    /// The block of a Block entry's `data` (the entry just read: its original
    /// bytes are the next bytes of the source when they were kept there).
    pub fn read_block(&mut self, data: &[u8]) -> Result<Block> {
        let mut block = codec::empty_block();
        self.read_block_into(data, &mut block)?;
        Ok(block)
    }

    /// [`SkeletonStore::read_block`] into `block`, reusing its buffers (a replay
    /// reads every block into the same one).
    pub fn read_block_into(&mut self, data: &[u8], block: &mut Block) -> Result<()> {
        if let Some((named, in_source)) = codec::decode_mark(data) {
            return self.take_block(named, in_source, block);
        }
        let in_source = codec::decode_block_into(
            data,
            &mut self.last_id,
            block,
            &mut self.spare_runs,
            &mut self.names,
        )
        .ok_or_else(|| L10nError::CorruptSkeleton("undecodable block entry".into()))?;
        if let Some(len) = in_source {
            if len > MAX_ENTRY {
                return Err(L10nError::CorruptSkeleton(format!("block of {len} bytes")));
            }
            self.read_source(len, &mut block.original)?;
        }
        Ok(())
    }

    /// The block of a mark ([`codec::decode_mark`]), which came whole through
    /// the pipe, into `block` (whose buffers go back to the page reader): named
    /// when `named`, its original bytes read from the source when they are there.
    fn take_block(&mut self, named: bool, in_source: Option<u64>, block: &mut Block) -> Result<()> {
        let missing = || L10nError::CorruptSkeleton("a block mark without its block".into());
        let Some(Back::Pipe(pipe)) = self.reader.as_mut() else {
            return Err(missing());
        };
        let flags = pipe
            .take_block(block, named, in_source.is_some())
            .ok_or_else(missing)?;
        if named {
            let mut flags = flags;
            self.names.assign_anchored(block, &mut flags);
        }
        if let Some(len) = in_source {
            if len > MAX_ENTRY {
                return Err(L10nError::CorruptSkeleton(format!("block of {len} bytes")));
            }
            self.read_source(len, &mut block.original)?;
        }
        Ok(())
    }

    fn next_raw(&mut self, data: &mut Vec<u8>) -> Result<Option<u8>> {
        let dir = &self.dir;
        let reader = self
            .reader
            .as_mut()
            .ok_or_else(|| L10nError::CorruptSkeleton("read before flush".into()))?;
        let io = |e: std::io::Error| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                L10nError::CorruptSkeleton("truncated entry".into())
            } else {
                L10nError::io(
                    format!("reading the skeleton store in {}", dir.display()),
                    e,
                )
            }
        };
        // The common case: the whole entry is in the buffer (no read per byte).
        let buffered = loop {
            match reader.fill_buf() {
                Ok(buf) => break buf,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(io(e)),
            }
        };
        if buffered.is_empty() {
            return Ok(None);
        }
        if let Some((tag, len, at)) = header(buffered) {
            if len > MAX_ENTRY {
                return Err(L10nError::CorruptSkeleton(format!("entry of {len} bytes")));
            }
            data.clear();
            // `len` is at most MAX_ENTRY: it fits.
            let end = at.saturating_add(len as usize);
            if let Some(entry) = buffered.get(at..end) {
                data.extend_from_slice(entry);
                reader.consume(end);
                return Ok(Some(tag));
            }
            reader.consume(at);
            data.resize(len as usize, 0);
            reader.read_exact(data).map_err(io)?;
            return Ok(Some(tag));
        }
        let mut byte = [0u8; 1];
        loop {
            match reader.read(&mut byte) {
                Ok(0) => return Ok(None),
                Ok(_) => break,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => return Err(io(e)),
            }
        }
        let tag = byte[0];
        let mut len = 0u64;
        for shift in (0..64).step_by(7) {
            reader.read_exact(&mut byte).map_err(io)?;
            len |= u64::from(byte[0] & 0x7F) << shift;
            if byte[0] & 0x80 == 0 {
                break;
            }
        }
        if len > MAX_ENTRY {
            return Err(L10nError::CorruptSkeleton(format!("entry of {len} bytes")));
        }
        data.clear();
        data.resize(len as usize, 0);
        reader.read_exact(data).map_err(io)?;
        Ok(Some(tag))
    }

    fn source_mut(&mut self) -> Result<&mut Source> {
        self.source
            .as_mut()
            .ok_or_else(|| L10nError::CorruptSkeleton("a range without its source".into()))
    }

    /// Reads the next `len` bytes of the source into `data`.
    fn read_source(&mut self, len: u64, data: &mut Vec<u8>) -> Result<()> {
        let source = self.source_mut()?;
        data.clear();
        data.resize(len as usize, 0);
        source.file.read_exact(data).map_err(changed_or_io)?;
        self.src_pos += len;
        Ok(())
    }

    /// Moves past the next `len` bytes of the source.
    fn skip_source(&mut self, len: u64) -> Result<()> {
        let source = self.source_mut()?;
        let by = i64::try_from(len)
            .map_err(|_| L10nError::CorruptSkeleton("bad source range".into()))?;
        source
            .file
            .seek_relative(by)
            .ctx(|| "re-reading the input".into())?;
        self.src_pos += len;
        Ok(())
    }

    /// At the end of a replay from the source: all of it was read, and it did not
    /// change since the store was made.
    fn check_source_end(&mut self) -> Result<()> {
        let pos = self.src_pos;
        let Some(source) = self.source.as_mut() else {
            return Ok(());
        };
        let meta = source
            .file
            .get_ref()
            .get_ref()
            .metadata()
            .ctx(|| "re-reading the input".into())?;
        if meta.len() != source.len || meta.modified().ok() != source.modified {
            return Err(changed());
        }
        if pos != source.len {
            return Err(L10nError::CorruptSkeleton(format!(
                "the skeleton covers {pos} of the input's {} bytes",
                source.len
            )));
        }
        Ok(())
    }

    /// Releases the temp file (it has no name: closing it frees its space).
    pub fn close(self) -> Result<()> {
        drop(self);
        Ok(())
    }

    /// The file being read, for tests that corrupt it.
    #[cfg(test)]
    fn reader_file(&self) -> Option<&File> {
        match self.reader.as_ref() {
            Some(Back::File(r)) => Some(r.get_ref()),
            _ => None,
        }
    }
}

/// An entry's type byte and length at the start of `buf`, and where its data
/// starts, read as [`SkeletonStore::next_into`] reads them; `None` when `buf` ends
/// inside them.
fn header(buf: &[u8]) -> Option<(u8, u64, usize)> {
    let (&tag, rest) = buf.split_first()?;
    let mut len = 0u64;
    for (i, shift) in (0..64).step_by(7).enumerate() {
        let byte = *rest.get(i)?;
        len |= u64::from(byte & 0x7F) << shift;
        if byte & 0x80 == 0 || shift == 63 {
            return Some((tag, len, i + 2));
        }
    }
    None
}

/// The input changed (was truncated or rewritten) between the read and the replay.
fn changed() -> L10nError {
    L10nError::io(
        "re-reading the input",
        std::io::Error::other("it changed while it was being merged"),
    )
}

fn changed_or_io(e: std::io::Error) -> L10nError {
    if e.kind() == std::io::ErrorKind::UnexpectedEof {
        changed()
    } else {
        L10nError::io("re-reading the input", e)
    }
}

impl std::fmt::Debug for SkeletonStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SkeletonStore")
            .field("dir", &self.dir)
            .field("written", &self.written)
            .finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::{BlockKind, Run};

    fn read_all(store: &mut SkeletonStore) -> Vec<(u8, Vec<u8>)> {
        let mut out = Vec::new();
        let mut data = Vec::new();
        while let Some(kind) = store.next_into(&mut data).unwrap() {
            out.push((kind.0, data.clone()));
        }
        out
    }

    fn paragraph(text: &str, original: &[u8]) -> Block {
        let mut block = Block::paragraph("c.0123456789ab", text);
        block.original = original.to_vec();
        block
    }

    /// A source file holding `bytes`.
    fn source(bytes: &[u8]) -> File {
        let mut file = tempfile::tempfile().unwrap();
        file.write_all(bytes).unwrap();
        file
    }

    #[test]
    fn round_trip_and_coalescing() {
        let mut store = SkeletonStore::new().unwrap();
        store.write_source(0, b"<html lang=\"").unwrap();
        store
            .write_source_entry(EntryType::LANG, 12, b"en")
            .unwrap();
        store.write_source(14, b"\">").unwrap();
        store.write_source(16, b"<p>").unwrap();
        store.write_entry(EntryType(9), b"future").unwrap();
        store.flush().unwrap();
        let entries = read_all(&mut store);
        assert_eq!(
            entries,
            vec![
                (0, b"<html lang=\"".to_vec()),
                (2, b"en".to_vec()),
                (0, b"\"><p>".to_vec()),
                (9, b"future".to_vec()),
            ]
        );
        store.close().unwrap();
    }

    #[test]
    fn ranges_of_the_source_come_back_as_its_bytes() {
        let mut store = written_page();
        // Lengths only: far smaller than the page.
        assert!(store.len() < 40, "{}", store.len());
        store.flush().unwrap();
        let mut data = Vec::new();
        let mut got = Vec::new();
        while let Some(kind) = store.next_into(&mut data).unwrap() {
            if kind == EntryType::BLOCK {
                let block = store.read_block(&data).unwrap();
                assert_eq!(block.runs, vec![Run::Text("Hello".into())]);
                assert_eq!(block.kind, BlockKind::Content);
                got.push((kind.0, block.original));
            } else {
                got.push((kind.0, data.clone()));
            }
        }
        assert_eq!(
            got,
            vec![
                (0, b"<html lang=\"".to_vec()),
                (2, b"en".to_vec()),
                (0, b"\"><p>".to_vec()),
                (3, b"Hello".to_vec()),
                (0, b"</p>".to_vec()),
            ]
        );
    }

    /// `<html lang="en"><p>Hello</p>` written to a store over that page: the
    /// language and the paragraph as entries, the rest as source ranges.
    fn written_page() -> SkeletonStore {
        let page = b"<html lang=\"en\"><p>Hello</p>";
        let mut store = SkeletonStore::new()
            .unwrap()
            .with_source(source(page))
            .unwrap();
        store.write_source(0, b"<html lang=\"").unwrap();
        store
            .write_source_entry(EntryType::LANG, 12, b"en")
            .unwrap();
        store.write_source(14, b"\">").unwrap();
        store.write_source(16, b"<p>").unwrap();
        store
            .write_block(&paragraph("Hello", b"Hello"), 19)
            .unwrap();
        store.write_source(24, b"</p>").unwrap();
        store
    }

    /// Every entry, a block's as its original bytes (read from the source).
    fn read_with_blocks(store: &mut SkeletonStore) -> Vec<(u8, Vec<u8>)> {
        let mut out = Vec::new();
        let mut data = Vec::new();
        while let Some(kind) = store.next_into(&mut data).unwrap() {
            if kind == EntryType::BLOCK {
                let block = store.read_block(&data).unwrap();
                out.push((kind.0, block.original));
            } else {
                out.push((kind.0, data.clone()));
            }
        }
        out
    }

    #[test]
    fn blocks_given_to_a_pipeline_arrive_whole_and_named() {
        let page = b"<p>Hello</p><p>Hello</p><p>Hi</p>";
        let (mut write, mut read) = SkeletonStore::pipeline(Some(source(page))).unwrap();
        let mut recycle = drop::<Block>;
        let keyed = |key: &str| {
            let mut block = paragraph("Hello", b"");
            block.id = key.into();
            block
        };
        write.write_source(0, b"<p>").unwrap();
        let unanchored = |_: &Block, to: &mut Vec<bool>| to.push(false);
        let first = keyed("p-1");
        write
            .write_block_owned(first, 3, 5, unanchored, &mut recycle)
            .unwrap();
        write.write_source(8, b"</p><p>").unwrap();
        let anchored = |_: &Block, to: &mut Vec<bool>| to.push(true);
        write
            .write_block_owned(keyed("id.x"), 15, 5, anchored, &mut recycle)
            .unwrap();
        write.write_source(20, b"</p><p>").unwrap();
        // Structural ids: nothing pushed, the key stays.
        let mut hi = keyed("p-3");
        hi.runs = vec![Run::Text("Hi".into())];
        write
            .write_block_owned(hi, 27, 2, |_, _| {}, &mut recycle)
            .unwrap();
        write.write_source(29, b"</p>").unwrap();
        write.flush().unwrap();
        drop(write);
        let mut data = Vec::new();
        let mut block = codec::empty_block();
        let mut got = Vec::new();
        while let Some(kind) = read.next_into(&mut data).unwrap() {
            if kind == EntryType::BLOCK {
                read.read_block_into(&data, &mut block).unwrap();
                got.push((block.id.clone(), block.original.clone()));
            }
        }
        let digest = crate::ids::source_digest(BlockKind::Content, &block_runs("Hello"));
        let named = format!("c.{:012x}", digest >> 16);
        assert_eq!(
            got,
            vec![
                (named, b"Hello".to_vec()),
                ("id.x".into(), b"Hello".to_vec()),
                ("p-3".into(), b"Hi".to_vec()),
            ]
        );
    }

    fn block_runs(text: &str) -> Vec<Run> {
        vec![Run::Text(text.into())]
    }

    #[test]
    fn a_block_mark_without_its_block_is_an_error() {
        let mut store = SkeletonStore::new().unwrap();
        let (mark, n) = codec::encode_mark(EntryType::BLOCK.0, codec::Original::Inline, false);
        store.write_entry(EntryType::BLOCK, &mark[2..n]).unwrap();
        store.flush().unwrap();
        let mut data = Vec::new();
        assert_eq!(store.next_into(&mut data).unwrap(), Some(EntryType::BLOCK));
        let err = store.read_block(&data).unwrap_err();
        assert!(matches!(err, L10nError::CorruptSkeleton(_)), "{err}");
    }

    #[test]
    fn source_counted_through_an_offset_is_the_bytes_written() {
        let page = b"<html lang=\"en\"><p>Hello</p>";
        let eager = {
            let mut store = written_page();
            store.flush().unwrap();
            read_with_blocks(&mut store)
        };
        let mut store = SkeletonStore::new()
            .unwrap()
            .with_source(source(page))
            .unwrap();
        store.source_through(0).unwrap();
        store.source_through(12).unwrap();
        store
            .write_source_entry(EntryType::LANG, 12, b"en")
            .unwrap();
        store.source_through(19).unwrap();
        store.source_through(19).unwrap();
        store
            .write_block(&paragraph("Hello", b"Hello"), 19)
            .unwrap();
        assert!(matches!(
            store.source_through(20),
            Err(L10nError::CorruptSkeleton(_))
        ));
        store.source_through(28).unwrap();
        store.flush().unwrap();
        assert_eq!(read_with_blocks(&mut store), eager);
        // Without the source the bytes must be written: nothing is counted.
        let mut store = SkeletonStore::new().unwrap();
        store.source_through(5).unwrap();
        store.write_source(0, b"<p>").unwrap();
    }

    #[test]
    fn entry_headers_read_from_the_buffer_as_byte_by_byte() {
        assert_eq!(header(&[3, 5, 9]), Some((3, 5, 2)));
        assert_eq!(header(&[3, 0x80 | 0x2C, 0x02]), Some((3, 300, 3)));
        assert_eq!(header(&[3, 0x80]), None);
        assert_eq!(header(&[]), None);
        // Ten length bytes at most, as the reader's loop.
        let mut long = vec![7u8];
        long.extend_from_slice(&[0xFF; 12]);
        assert_eq!(header(&long).map(|(t, _, at)| (t, at)), Some((7, 11)));
    }

    #[test]
    fn source_bytes_out_of_order_are_an_error() {
        let mut store = SkeletonStore::new().unwrap();
        store.write_source(0, b"<p>").unwrap();
        assert!(matches!(
            store.write_source(4, b"x"),
            Err(L10nError::CorruptSkeleton(_))
        ));
        let mut store = SkeletonStore::new()
            .unwrap()
            .with_source(source(b"<p>"))
            .unwrap();
        assert!(matches!(
            store.write_block(&paragraph("p", b"p"), 1),
            Err(L10nError::CorruptSkeleton(_))
        ));
    }

    #[cfg(unix)]
    #[test]
    fn a_source_that_changed_is_an_error() {
        let file = source(b"<p>Hello</p>");
        let mut store = SkeletonStore::new()
            .unwrap()
            .with_source(file.try_clone().unwrap())
            .unwrap();
        store.write_source(0, b"<p>Hello</p>").unwrap();
        store.flush().unwrap();
        file.set_len(5).unwrap();
        let mut data = Vec::new();
        let err = store.next_into(&mut data).unwrap_err();
        assert!(err.to_string().contains("changed"), "{err}");

        // Same length, rewritten: caught at the end by its modification time.
        let file = source(b"<p>Hello</p>");
        let mut store = SkeletonStore::new()
            .unwrap()
            .with_source(file.try_clone().unwrap())
            .unwrap();
        store.write_source(0, b"<p>Hello</p>").unwrap();
        store.flush().unwrap();
        let later = SystemTime::now() + std::time::Duration::from_secs(5);
        std::os::unix::fs::FileExt::write_all_at(&file, b"<p>Howdy</p>", 0).unwrap();
        file.set_modified(later).unwrap();
        assert_eq!(store.next_into(&mut data).unwrap(), Some(EntryType::TEXT));
        let err = store.next_into(&mut data).unwrap_err();
        assert!(err.to_string().contains("changed"), "{err}");
    }

    #[test]
    fn a_skeleton_short_of_the_source_is_an_error() {
        let mut store = SkeletonStore::new()
            .unwrap()
            .with_source(source(b"<p>Hello</p>"))
            .unwrap();
        store.write_source(0, b"<p>Hello").unwrap();
        store.flush().unwrap();
        let mut data = Vec::new();
        assert_eq!(store.next_into(&mut data).unwrap(), Some(EntryType::TEXT));
        assert!(matches!(
            store.next_into(&mut data),
            Err(L10nError::CorruptSkeleton(_))
        ));
    }

    #[test]
    fn large_entries_and_binary_format() {
        let mut store = SkeletonStore::new().unwrap();
        let big = vec![b'x'; 200_000];
        store.write_text(&big).unwrap();
        store.write_entry(EntryType::ROOT, b"r").unwrap();
        store.flush().unwrap();
        let mut bytes = Vec::new();
        let mut file = store.reader_file().unwrap();
        file.read_to_end(&mut bytes).unwrap();
        file.seek(SeekFrom::Start(0)).unwrap();
        assert_eq!(bytes[0], 0);
        // 200 000 as LEB128.
        assert_eq!(&bytes[1..4], &[0xC0, 0x9A, 0x0C]);
        assert_eq!(&bytes[200_004..], &[4, 1, b'r']);
        assert_eq!(read_all(&mut store)[0].1.len(), 200_000);
    }

    #[test]
    fn limit_simulates_full_disk() {
        let mut store = SkeletonStore::new().unwrap().with_limit(Some(100));
        let err = store
            .write_entry(EntryType::ROOT, &[b'a'; 200])
            .unwrap_err();
        assert!(err.to_string().contains("no space left"), "{err}");
    }

    #[test]
    fn the_temp_file_has_no_name() {
        let dir = tempfile::tempdir().unwrap();
        let mut store = SkeletonStore::new_in(dir.path()).unwrap();
        store.write_text(&[b'x'; 100_000]).unwrap();
        store.flush().unwrap();
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        assert_eq!(read_all(&mut store)[0].1.len(), 100_000);
    }

    #[test]
    fn a_missing_directory_is_an_error() {
        let err = SkeletonStore::new_in("/nonexistent/tagloom").unwrap_err();
        assert!(err.to_string().contains("/nonexistent/tagloom"), "{err}");
    }

    #[test]
    fn corrupt_file_is_an_error() {
        let mut store = SkeletonStore::new().unwrap();
        store.write_entry(EntryType::ROOT, b"abc").unwrap();
        store.flush().unwrap();
        store.reader_file().unwrap().set_len(3).unwrap();
        let mut data = Vec::new();
        assert!(matches!(
            store.next_into(&mut data),
            Err(L10nError::CorruptSkeleton(_))
        ));
    }
}
