//! MediaWiki XML dumps (`pages-articles.xml`, `.xml.bz2`), streamed.
//!
//! [`DumpReader`] yields one [`DumpPage`] at a time (title, namespace, the text of
//! the last revision) with memory bounded by the largest page; `.bz2` files
//! (including multistream dumps) are decompressed on the fly by the `bzip2` crate on
//! its default pure-Rust backend (`libbz2-rs-sys`: no C toolchain, no system
//! library). [`DumpStore`] reads a dump once into a [`PageStore`]: every title
//! exists, and the sources of the namespaces it keeps (templates by default) are
//! held in memory.
//!
//! **Multistream dumps** (Wikipedia's `…-multistream.xml.bz2`: many bzip2
//! streams of about 100 pages each, concatenated) are decompressed in parallel
//! on rayon's pool: [`DumpReader::open`] reads [`BZ2_BATCH`] bytes of the
//! compressed file at a time, cuts them where a stream starts (`BZh1`–`BZh9`
//! followed by the first block's magic, byte-aligned), decompresses the complete
//! streams of the batch at once and hands their text on in order. bzip2
//! decompression (about 15–30 MB/s of XML per core) is the slowest part of reading
//! a dump, so this matters on several cores. A file whose first batch holds one
//! stream start only (a single-stream dump) is decompressed as one stream, on one
//! thread, as before. Memory: a batch and its text, or one whole stream when a
//! stream is longer than a batch.

use foldhash::HashMap;
use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;
use std::sync::Arc;

use rayon::iter::{IntoParallelRefIterator, ParallelIterator};

use quick_xml::Reader;
use quick_xml::events::Event;

use super::{PageStore, StoreError};
use crate::preprocess::config::Site;
use crate::preprocess::title::{NS_MAIN, NS_TEMPLATE, Title};

/// One page of a dump.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DumpPage {
    /// The title as the dump writes it (`Template:Foo bar`).
    pub title: String,
    /// The namespace id.
    pub ns: i32,
    /// The wikitext of the last revision.
    pub text: String,
}

/// Which element's text is being collected.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Field {
    None,
    Title,
    Ns,
    Text,
}

/// Streams the pages of a dump.
///
/// ```
/// use tagloom_wikitext::preprocess::DumpReader;
///
/// let xml = "<mediawiki><page><title>Template:A</title><ns>10</ns>\
///            <revision><text>x &amp; y</text></revision></page></mediawiki>";
/// let pages: Vec<_> = DumpReader::new(xml.as_bytes(), "inline").collect::<Result<_, _>>()?;
/// assert_eq!(pages[0].title, "Template:A");
/// assert_eq!(pages[0].text, "x & y");
/// # Ok::<(), tagloom_wikitext::preprocess::StoreError>(())
/// ```
pub struct DumpReader<R: BufRead> {
    reader: Reader<R>,
    path: String,
    buf: Vec<u8>,
    done: bool,
}

impl DumpReader<Box<dyn BufRead + Send>> {
    /// Opens a dump file; a name ending in `.bz2` is decompressed.
    pub fn open(path: &Path) -> Result<Self, StoreError> {
        let file = File::open(path).map_err(|source| StoreError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let io_error = |source| StoreError::Io {
            path: path.display().to_string(),
            source,
        };
        // Large buffers: the decoder's per-call cost matters at 8 KiB.
        const BUF: usize = 1 << 18;
        let inner: Box<dyn BufRead + Send> = if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("bz2"))
        {
            let mut file = file;
            let mut head = Vec::new();
            file.by_ref()
                .take(BZ2_BATCH as u64)
                .read_to_end(&mut head)
                .map_err(io_error)?;
            if stream_starts(&head).nth(1).is_some() {
                Box::new(BufReader::with_capacity(
                    BUF,
                    ParallelBz2::new(head, BufReader::with_capacity(BUF, file), BZ2_BATCH),
                ))
            } else {
                let rest = std::io::Cursor::new(head).chain(file);
                Box::new(BufReader::with_capacity(
                    BUF,
                    bzip2::read::MultiBzDecoder::new(BufReader::with_capacity(BUF, rest)),
                ))
            }
        } else {
            Box::new(BufReader::with_capacity(BUF, file))
        };
        Ok(DumpReader::new(inner, &path.display().to_string()))
    }
}

/// Compressed bytes a multistream `.bz2` dump is read and decompressed in at a
/// time (see the module documentation).
pub const BZ2_BATCH: usize = 8 << 20;

/// The magic of a bzip2 block (the BCD digits of π), right after a stream's
/// `BZh` and block-size digit.
const BLOCK_MAGIC: [u8; 6] = [0x31, 0x41, 0x59, 0x26, 0x53, 0x59];

/// The offsets in `buf` where a bzip2 stream starts (its first 10 bytes are
/// there); a stream start is byte-aligned, the blocks inside it are not.
fn stream_starts(buf: &[u8]) -> impl Iterator<Item = usize> + '_ {
    buf.windows(10).enumerate().filter_map(|(i, w)| {
        (w.starts_with(b"BZh")
            && w.get(3).is_some_and(|d| (b'1'..=b'9').contains(d))
            && w.get(4..) == Some(&BLOCK_MAGIC[..]))
        .then_some(i)
    })
}

/// A multistream bzip2 file decompressed a batch of streams at a time, the
/// streams of a batch in parallel (see the module documentation).
struct ParallelBz2<R: Read> {
    input: R,
    /// Compressed bytes read and not yet decompressed, from a stream start.
    pending: Vec<u8>,
    input_done: bool,
    /// Decompressed text and how much of it was read.
    text: Vec<u8>,
    at: usize,
    /// Compressed bytes per batch ([`BZ2_BATCH`]).
    batch: usize,
}

impl<R: Read> ParallelBz2<R> {
    /// `head`: bytes already read from the start of `input`.
    fn new(head: Vec<u8>, input: R, batch: usize) -> Self {
        ParallelBz2 {
            input,
            pending: head,
            input_done: false,
            text: Vec::new(),
            at: 0,
            batch: batch.max(1),
        }
    }

    /// Decompresses the next batch into `text`; `false` at the end.
    fn refill(&mut self) -> std::io::Result<bool> {
        let mut want = self.batch;
        loop {
            while !self.input_done && self.pending.len() < want {
                let from = self.pending.len();
                let n = (&mut self.input)
                    .take((want - from) as u64)
                    .read_to_end(&mut self.pending)?;
                self.input_done = n == 0;
            }
            // Complete streams: up to the last start, or everything at the end.
            let starts: Vec<usize> = stream_starts(&self.pending).collect();
            let cut = match starts.last() {
                _ if self.input_done => self.pending.len(),
                Some(&last) if last > 0 => last,
                // One stream longer than a batch: read on.
                _ => {
                    want = self.pending.len() + self.batch;
                    continue;
                }
            };
            if cut == 0 {
                return Ok(false);
            }
            let mut bounds: Vec<usize> = starts.into_iter().filter(|&s| s < cut).collect();
            if bounds.first() != Some(&0) {
                bounds.insert(0, 0);
            }
            bounds.push(cut);
            let segments: Vec<&[u8]> = bounds
                .windows(2)
                .filter_map(|w| self.pending.get(*w.first()?..*w.get(1)?))
                .collect();
            let texts: Vec<std::io::Result<Vec<u8>>> = segments
                .par_iter()
                .map(|segment| {
                    let mut out = Vec::with_capacity(segment.len() * 4);
                    bzip2::read::MultiBzDecoder::new(*segment).read_to_end(&mut out)?;
                    Ok(out)
                })
                .collect();
            self.text.clear();
            self.at = 0;
            for text in texts {
                self.text.extend_from_slice(&text?);
            }
            self.pending.drain(..cut);
            return Ok(true);
        }
    }
}

impl<R: Read> Read for ParallelBz2<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        while self.at >= self.text.len() {
            if !self.refill()? {
                return Ok(0);
            }
        }
        let rest = self.text.get(self.at..).unwrap_or(&[]);
        let n = rest.len().min(buf.len());
        if let (Some(to), Some(from)) = (buf.get_mut(..n), rest.get(..n)) {
            to.copy_from_slice(from);
        }
        self.at += n;
        Ok(n)
    }
}

impl<R: BufRead> DumpReader<R> {
    /// Reads a dump from `input`; `path` names it in errors.
    pub fn new(input: R, path: &str) -> Self {
        DumpReader {
            reader: Reader::from_reader(input),
            path: path.to_owned(),
            buf: Vec::new(),
            done: false,
        }
    }

    fn next_page(&mut self) -> Result<Option<DumpPage>, StoreError> {
        let mut field = Field::None;
        let mut in_page = false;
        let (mut title, mut ns, mut text) = (String::new(), String::new(), String::new());
        loop {
            self.buf.clear();
            let event =
                self.reader
                    .read_event_into(&mut self.buf)
                    .map_err(|e| StoreError::Xml {
                        path: self.path.clone(),
                        message: e.to_string(),
                    })?;
            match event {
                Event::Start(e) => match e.local_name().as_ref() {
                    b"page" => {
                        in_page = true;
                        title.clear();
                        ns.clear();
                        text.clear();
                    }
                    b"title" if in_page => field = Field::Title,
                    b"ns" if in_page => field = Field::Ns,
                    b"text" if in_page => {
                        // A later revision replaces an earlier one.
                        text.clear();
                        field = Field::Text;
                    }
                    _ => field = Field::None,
                },
                Event::End(e) => {
                    field = Field::None;
                    if e.local_name().as_ref() == b"page" && in_page {
                        let ns = ns.trim().parse().unwrap_or(NS_MAIN);
                        return Ok(Some(DumpPage {
                            title: std::mem::take(&mut title),
                            ns,
                            text: std::mem::take(&mut text),
                        }));
                    }
                }
                Event::Text(t) => {
                    let s = t.xml_content().map_err(|e| StoreError::Xml {
                        path: self.path.clone(),
                        message: e.to_string(),
                    })?;
                    if let Some(o) = target(field, &mut title, &mut ns, &mut text) {
                        o.push_str(&s);
                    }
                }
                Event::CData(t) => {
                    let s = t.decode().map_err(|e| StoreError::Xml {
                        path: self.path.clone(),
                        message: e.to_string(),
                    })?;
                    if let Some(o) = target(field, &mut title, &mut ns, &mut text) {
                        o.push_str(&s);
                    }
                }
                Event::GeneralRef(r) => {
                    let c = match r.resolve_char_ref() {
                        Ok(Some(c)) => Some(c),
                        Ok(None) => match r.as_ref() {
                            b"amp" => Some('&'),
                            b"lt" => Some('<'),
                            b"gt" => Some('>'),
                            b"quot" => Some('"'),
                            b"apos" => Some('\''),
                            _ => None,
                        },
                        Err(e) => return Err(xml_error(&self.path, e)),
                    };
                    let Some(c) = c else {
                        let name = String::from_utf8_lossy(r.as_ref()).into_owned();
                        return Err(xml_error(&self.path, format!("unknown entity &{name};")));
                    };
                    if let Some(o) = target(field, &mut title, &mut ns, &mut text) {
                        o.push(c);
                    }
                }
                Event::Eof => return Ok(None),
                _ => {}
            }
        }
    }
}

fn xml_error(path: &str, message: impl std::fmt::Display) -> StoreError {
    StoreError::Xml {
        path: path.to_owned(),
        message: message.to_string(),
    }
}

fn target<'s>(
    field: Field,
    title: &'s mut String,
    ns: &'s mut String,
    text: &'s mut String,
) -> Option<&'s mut String> {
    match field {
        Field::Title => Some(title),
        Field::Ns => Some(ns),
        Field::Text => Some(text),
        Field::None => None,
    }
}

impl<R: BufRead> Iterator for DumpReader<R> {
    type Item = Result<DumpPage, StoreError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.next_page() {
            Ok(Some(p)) => Some(Ok(p)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}

/// A dump read into memory: all titles, and the sources of kept namespaces.
#[derive(Clone, Debug, Default)]
pub struct DumpStore {
    /// Every title's text, with the namespaces that have a page of that text:
    /// asking whether a title exists (every link does) hashes its text only,
    /// not its namespace's id and name too.
    titles: HashMap<Box<str>, Vec<i32>>,
    /// How many titles `titles` holds.
    count: usize,
    sources: HashMap<Title, Arc<str>>,
}

impl DumpStore {
    /// Reads the dump at `path`, keeping the sources of templates (namespace 10)
    /// only: other pages exist but are not transcludable.
    pub fn open(path: &Path, site: &Site) -> Result<DumpStore, StoreError> {
        Self::open_keeping(path, site, |ns| ns == NS_TEMPLATE)
    }

    /// Reads the dump at `path`, keeping the sources of namespaces `keep` accepts.
    pub fn open_keeping(
        path: &Path,
        site: &Site,
        keep: impl Fn(i32) -> bool,
    ) -> Result<DumpStore, StoreError> {
        Self::from_reader(DumpReader::open(path)?, site, keep)
    }

    /// Reads pages from a [`DumpReader`].
    pub fn from_reader<R: BufRead>(
        reader: DumpReader<R>,
        site: &Site,
        keep: impl Fn(i32) -> bool,
    ) -> Result<DumpStore, StoreError> {
        let mut store = DumpStore::default();
        for page in reader {
            store.add_page(&page?, site, &keep);
        }
        Ok(store)
    }

    /// Adds one page (read by a [`DumpReader`]): its title exists, and its source
    /// is kept if `keep` accepts its namespace. A title that does not parse is
    /// skipped.
    pub fn add_page(&mut self, page: &DumpPage, site: &Site, keep: impl Fn(i32) -> bool) {
        let Ok(title) = Title::parse(&page.title, NS_MAIN, site) else {
            return;
        };
        if keep(title.ns()) {
            self.sources
                .insert(title.clone(), Arc::from(page.text.as_str()));
        }
        let namespaces = self.titles.entry(title.text().into()).or_default();
        if !namespaces.contains(&title.ns()) {
            namespaces.push(title.ns());
            self.count += 1;
        }
    }

    /// The number of pages (titles) in the dump.
    pub fn len(&self) -> usize {
        self.count
    }

    /// Whether the dump had no pages.
    pub fn is_empty(&self) -> bool {
        self.count == 0
    }
}

impl PageStore for DumpStore {
    fn exists(&self, title: &Title) -> bool {
        self.titles
            .get(title.text())
            .is_some_and(|namespaces| namespaces.contains(&title.ns()))
    }
    fn source(&self, title: &Title) -> Result<Option<Arc<str>>, StoreError> {
        Ok(self.sources.get(title).cloned())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn bz2(text: &str) -> Vec<u8> {
        let mut e = bzip2::write::BzEncoder::new(Vec::new(), bzip2::Compression::best());
        let written = e.write_all(text.as_bytes());
        assert!(written.is_ok());
        e.finish().unwrap_or_default()
    }

    /// Titles of the same text in two namespaces are two pages; a title
    /// added twice is one; other namespaces' titles of that text do not exist.
    #[test]
    fn titles_exist_per_namespace() {
        let site = Site::default();
        let mut store = DumpStore::default();
        for title in ["Foo bar", "Template:Foo_bar", "foo bar", "Help:Other"] {
            let page = DumpPage {
                title: title.into(),
                ns: 0,
                text: "x".into(),
            };
            store.add_page(&page, &site, |ns| ns == NS_TEMPLATE);
        }
        assert_eq!(store.len(), 3);
        assert!(!store.is_empty());
        let exists =
            |t: &str| Title::parse(t, NS_MAIN, &site).is_ok_and(|title| store.exists(&title));
        assert!(exists("Foo bar"));
        assert!(exists("Template:Foo bar"));
        assert!(exists("Help:Other"));
        assert!(!exists("Category:Foo bar"));
        assert!(!exists("Other"));
        assert!(!exists("Foo"));
        assert!(DumpStore::default().is_empty());
    }

    #[test]
    fn multistream_bz2_reads_in_order_at_any_batch_size() {
        let parts: Vec<String> = (0..7)
            .map(|i| {
                format!(
                    "<page><title>P{i}</title><text>{}</text></page>",
                    "x".repeat(i * 300)
                )
            })
            .collect();
        let compressed: Vec<u8> = parts.iter().flat_map(|p| bz2(p)).collect();
        assert_eq!(stream_starts(&compressed).count(), 7);
        let want = parts.concat();
        for batch in [1, 16, 200, 1 << 20] {
            let mut r = ParallelBz2::new(Vec::new(), std::io::Cursor::new(&compressed), batch);
            let mut got = String::new();
            assert!(r.read_to_string(&mut got).is_ok(), "batch {batch}");
            assert_eq!(got, want, "batch {batch}");
        }
        // A damaged stream is an error, not a panic or a short read.
        let mut bad = compressed.clone();
        if let Some(b) = bad.get_mut(60) {
            *b ^= 0xff;
        }
        let mut r = ParallelBz2::new(Vec::new(), std::io::Cursor::new(&bad), 1 << 20);
        assert!(r.read_to_end(&mut Vec::new()).is_err());
    }

    #[test]
    fn multistream_dump_file_gives_the_pages_of_the_single_stream_one() -> Result<(), StoreError> {
        let pages: Vec<String> = (0..5)
            .map(|i| format!("<page><title>T{i}</title><ns>0</ns><revision><text>t{i} &amp;</text></revision></page>"))
            .collect();
        let xml = format!("<mediawiki>{}</mediawiki>", pages.concat());
        let dir = tempfile::tempdir().map_err(|source| StoreError::Io {
            path: "tmp".into(),
            source,
        })?;
        let single = dir.path().join("single.xml.bz2");
        let multi = dir.path().join("multi.xml.bz2");
        let mut m = bz2("<mediawiki>");
        for p in &pages {
            m.extend(bz2(p));
        }
        m.extend(bz2("</mediawiki>"));
        for (path, data) in [(&single, bz2(&xml)), (&multi, m)] {
            std::fs::write(path, data).map_err(|source| StoreError::Io {
                path: "tmp".into(),
                source,
            })?;
        }
        let a: Vec<DumpPage> = DumpReader::open(&single)?.collect::<Result<_, _>>()?;
        let b: Vec<DumpPage> = DumpReader::open(&multi)?.collect::<Result<_, _>>()?;
        assert_eq!(a.len(), 5);
        assert_eq!(a, b);
        assert_eq!(b.get(4).map(|p| p.text.as_str()), Some("t4 &"));
        Ok(())
    }
}
