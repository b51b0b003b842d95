//! The skeleton store: a temp file of `[type:1][len:4 big-endian][data]` entries.
//!
//! The reader appends entries while it tokenizes the document; the writer reads them
//! back in order after [`SkeletonStore::flush`]. Everything that is not translatable
//! goes here as raw source bytes, so replaying the skeleton with every block left
//! untranslated gives back the input byte for byte.
//!
//! Entry types (the seed's three, plus one extension):
//!
//! | type | name  | data |
//! |------|-------|------|
//! | 0    | Text  | raw source bytes |
//! | 1    | Ref   | block id (UTF-8) |
//! | 2    | Lang  | raw source bytes of a `lang`/`xml:lang`/content-language value |
//! | 3    | Block | the block the next Ref names, serialized ([`crate::block::Block::encode`]): its runs, its original bytes, its sub-blocks |
//! | 4    | Root  | a mark right after `<html`: one byte (1 when the element has a `dir` attribute), then its `lang` (else `xml:lang`) value as UTF-8; no source bytes |
//! | 5    | Dir   | raw source bytes of the `<html>` element's `dir` value |
//! | 6    | BlockLang | raw source bytes of a language value on the start tag of the element whose content is the next block: retargeted only when that block is translated |
//!
//! A writer that does not know a type skips it (unknown types are inert), so a
//! seed-only writer still works: it sees Text, Ref and Lang (and loses only an
//! `<html dir>` value and the BlockLang values). Adjacent Text entries are
//! coalesced (up to 64 KiB) to keep the file small.
//!
//! The temp file is anonymous: it is unlinked as soon as it is created (`O_TMPFILE`
//! on Linux, create-then-unlink elsewhere), so it has no name in the temp directory
//! and nothing can be left behind, not even by `SIGKILL`, an abort or a power cut;
//! its space is returned when the store is closed or dropped.
//!
//! ```
//! use tagloom_l10n::skeleton::{SkeletonStore, EntryType};
//! let mut store = SkeletonStore::new()?;
//! store.write_text(b"<p>")?;
//! store.write_ref("p-1")?;
//! store.write_text(b"")?; // skipped
//! store.write_text(b"</p>")?;
//! store.flush()?;
//! let mut data = Vec::new();
//! assert_eq!(store.next_into(&mut data)?, Some(EntryType::TEXT));
//! assert_eq!(data, b"<p>");
//! assert_eq!(store.next_into(&mut data)?, Some(EntryType::REF));
//! assert_eq!(store.next_into(&mut data)?, Some(EntryType::TEXT));
//! assert_eq!(store.next_into(&mut data)?, None);
//! store.close()?;
//! # Ok::<(), tagloom_l10n::L10nError>(())
//! ```

use std::fs::File;
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};

use crate::error::{IoContext, L10nError, Result};

/// The type byte of an entry.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct EntryType(pub u8);

impl EntryType {
    /// Non-translatable raw bytes.
    pub const TEXT: EntryType = EntryType(0);
    /// A block id: the writer substitutes the block.
    pub const REF: EntryType = EntryType(1);
    /// A language attribute value, retargeted when it names the source language.
    pub const LANG: EntryType = EntryType(2);
    /// Extension: the serialized block of the next Ref.
    pub const BLOCK: EntryType = EntryType(3);
    /// Extension: the `<html>` element's mark (where `dir` goes, the page language).
    pub const ROOT: EntryType = EntryType(4);
    /// Extension: the `<html>` element's `dir` value, set for the target's direction.
    pub const DIR: EntryType = EntryType(5);
    /// Extension: a language value of the element around the next block (Lang,
    /// retargeted only when that block is translated).
    pub const BLOCK_LANG: EntryType = EntryType(6);
}

const COALESCE_LIMIT: usize = 64 * 1024;
/// Largest entry accepted when reading back (a corrupt length must not allocate GBs).
const MAX_ENTRY: usize = 1 << 30;

/// A temp-file-backed, append-then-read store of skeleton entries.
pub struct SkeletonStore {
    writer: Option<BufWriter<File>>,
    reader: Option<BufReader<File>>,
    pending_text: Vec<u8>,
    written: u64,
    limit: Option<u64>,
    /// The directory the anonymous file lives in (for messages).
    dir: PathBuf,
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
        Ok(SkeletonStore {
            writer: Some(BufWriter::with_capacity(64 * 1024, file)),
            reader: None,
            pending_text: Vec::new(),
            written: 0,
            limit: None,
            dir: dir.to_path_buf(),
        })
    }

    /// Caps the bytes written to the temp file: past `limit`, writes fail with
    /// [`std::io::ErrorKind::StorageFull`], as on a full disk (a quota, and the way
    /// tests simulate a full disk).
    pub fn with_limit(mut self, limit: Option<u64>) -> Self {
        self.limit = limit;
        self
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

    /// Appends raw bytes (skipped when empty; adjacent texts are coalesced).
    pub fn write_text(&mut self, data: &[u8]) -> Result<()> {
        if data.is_empty() {
            return Ok(());
        }
        if self.pending_text.len() + data.len() > COALESCE_LIMIT {
            self.flush_text()?;
            if data.len() > COALESCE_LIMIT {
                return self.write_raw(EntryType::TEXT, data);
            }
        }
        self.pending_text.extend_from_slice(data);
        Ok(())
    }

    /// Appends a block reference.
    pub fn write_ref(&mut self, block_id: &str) -> Result<()> {
        self.write_entry(EntryType::REF, block_id.as_bytes())
    }

    /// Appends a language value.
    pub fn write_lang(&mut self, value: &[u8]) -> Result<()> {
        self.write_entry(EntryType::LANG, value)
    }

    /// Appends an entry of any type.
    pub fn write_entry(&mut self, kind: EntryType, data: &[u8]) -> Result<()> {
        if kind == EntryType::TEXT {
            return self.write_text(data);
        }
        self.flush_text()?;
        self.write_raw(kind, data)
    }

    fn flush_text(&mut self) -> Result<()> {
        if self.pending_text.is_empty() {
            return Ok(());
        }
        let text = std::mem::take(&mut self.pending_text);
        let result = self.write_raw(EntryType::TEXT, &text);
        self.pending_text = text;
        self.pending_text.clear();
        result
    }

    fn write_raw(&mut self, kind: EntryType, data: &[u8]) -> Result<()> {
        let len = u32::try_from(data.len())
            .map_err(|_| L10nError::CorruptSkeleton("entry larger than 4 GiB".into()))?;
        let total = 5 + data.len() as u64;
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
        let mut header = [0u8; 5];
        header[0] = kind.0;
        header[1..].copy_from_slice(&len.to_be_bytes());
        writer
            .write_all(&header)
            .and_then(|_| writer.write_all(data))
            .ctx(|| format!("writing the skeleton store in {}", dir.display()))?;
        self.written += total;
        Ok(())
    }

    /// Ends writing: flushes the buffer and rewinds for [`SkeletonStore::next_into`].
    pub fn flush(&mut self) -> Result<()> {
        self.flush_text()?;
        let context = format!("flushing the skeleton store in {}", self.dir.display());
        let writer = self
            .writer
            .take()
            .ok_or_else(|| L10nError::CorruptSkeleton("flushed twice".into()))?;
        let mut file = writer
            .into_inner()
            .map_err(|e| L10nError::io(context.clone(), e.into_error()))?;
        file.seek(SeekFrom::Start(0)).ctx(|| context)?;
        self.reader = Some(BufReader::with_capacity(64 * 1024, file));
        Ok(())
    }

    /// Reads the next entry into `data`; `None` at the end.
    pub fn next_into(&mut self, data: &mut Vec<u8>) -> Result<Option<EntryType>> {
        let dir = &self.dir;
        let reader = self
            .reader
            .as_mut()
            .ok_or_else(|| L10nError::CorruptSkeleton("read before flush".into()))?;
        let mut header = [0u8; 5];
        let mut got = 0;
        while got < 5 {
            let n = reader
                .read(&mut header[got..])
                .ctx(|| format!("reading the skeleton store in {}", dir.display()))?;
            if n == 0 {
                if got == 0 {
                    return Ok(None);
                }
                return Err(L10nError::CorruptSkeleton("truncated entry header".into()));
            }
            got += n;
        }
        let len = u32::from_be_bytes([header[1], header[2], header[3], header[4]]) as usize;
        if len > MAX_ENTRY {
            return Err(L10nError::CorruptSkeleton(format!("entry of {len} bytes")));
        }
        data.clear();
        data.resize(len, 0);
        reader.read_exact(data).map_err(|e| {
            if e.kind() == std::io::ErrorKind::UnexpectedEof {
                L10nError::CorruptSkeleton("truncated entry".into())
            } else {
                L10nError::io(
                    format!("reading the skeleton store in {}", dir.display()),
                    e,
                )
            }
        })?;
        Ok(Some(EntryType(header[0])))
    }

    /// Releases the temp file (it has no name: closing it frees its space).
    pub fn close(self) -> Result<()> {
        drop(self);
        Ok(())
    }

    /// The file being read, for tests that corrupt it.
    #[cfg(test)]
    fn reader_file(&self) -> Option<&File> {
        self.reader.as_ref().map(BufReader::get_ref)
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

    fn read_all(store: &mut SkeletonStore) -> Vec<(u8, Vec<u8>)> {
        let mut out = Vec::new();
        let mut data = Vec::new();
        while let Some(kind) = store.next_into(&mut data).unwrap() {
            out.push((kind.0, data.clone()));
        }
        out
    }

    #[test]
    fn round_trip_and_coalescing() {
        let mut store = SkeletonStore::new().unwrap();
        store.write_text(b"<html lang=\"").unwrap();
        store.write_lang(b"en").unwrap();
        store.write_text(b"\">").unwrap();
        store.write_text(b"<p>").unwrap();
        store.write_ref("b1").unwrap();
        store.write_entry(EntryType(9), b"future").unwrap();
        store.flush().unwrap();
        let entries = read_all(&mut store);
        assert_eq!(
            entries,
            vec![
                (0, b"<html lang=\"".to_vec()),
                (2, b"en".to_vec()),
                (0, b"\"><p>".to_vec()),
                (1, b"b1".to_vec()),
                (9, b"future".to_vec()),
            ]
        );
        store.close().unwrap();
    }

    #[test]
    fn large_entries_and_binary_format() {
        let mut store = SkeletonStore::new().unwrap();
        let big = vec![b'x'; 200_000];
        store.write_text(&big).unwrap();
        store.write_ref("r").unwrap();
        store.flush().unwrap();
        let mut bytes = Vec::new();
        let mut file = store.reader_file().unwrap();
        file.read_to_end(&mut bytes).unwrap();
        file.seek(SeekFrom::Start(0)).unwrap();
        assert_eq!(bytes[0], 0);
        assert_eq!(&bytes[1..5], &200_000u32.to_be_bytes());
        assert_eq!(&bytes[200_005..], &[1, 0, 0, 0, 1, b'r']);
        assert_eq!(read_all(&mut store)[0].1.len(), 200_000);
    }

    #[test]
    fn limit_simulates_full_disk() {
        let mut store = SkeletonStore::new().unwrap().with_limit(Some(100));
        let err = store.write_entry(EntryType::REF, &[b'a'; 200]).unwrap_err();
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
        store.write_ref("abc").unwrap();
        store.flush().unwrap();
        store.reader_file().unwrap().set_len(6).unwrap();
        let mut data = Vec::new();
        assert!(matches!(
            store.next_into(&mut data),
            Err(L10nError::CorruptSkeleton(_))
        ));
    }
}
