//! MediaWiki XML dumps (`pages-articles.xml`, `.xml.bz2`), streamed.
//!
//! [`DumpReader`] yields one [`DumpPage`] at a time (title, namespace, the text of
//! the last revision) with memory bounded by the largest page; `.bz2` files
//! (including multistream dumps) are decompressed on the fly by the `bzip2` crate on
//! its default pure-Rust backend (`libbz2-rs-sys`: no C toolchain, no system
//! library). [`DumpStore`] reads a dump once into a [`PageStore`]: every title
//! exists, and the sources of the namespaces it keeps (templates by default) are
//! held in memory.

use foldhash::{HashMap, HashSet};
use std::fs::File;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::sync::Arc;

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
        // Large buffers: the decoder's per-call cost matters at 8 KiB.
        const BUF: usize = 1 << 18;
        let inner: Box<dyn BufRead + Send> = if path
            .extension()
            .is_some_and(|e| e.eq_ignore_ascii_case("bz2"))
        {
            Box::new(BufReader::with_capacity(
                BUF,
                bzip2::read::MultiBzDecoder::new(BufReader::with_capacity(BUF, file)),
            ))
        } else {
            Box::new(BufReader::with_capacity(BUF, file))
        };
        Ok(DumpReader::new(inner, &path.display().to_string()))
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
    titles: HashSet<Title>,
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
            let page = page?;
            let Ok(title) = Title::parse(&page.title, NS_MAIN, site) else {
                continue;
            };
            if keep(title.ns()) {
                store.sources.insert(title.clone(), Arc::from(page.text));
            }
            store.titles.insert(title);
        }
        Ok(store)
    }

    /// The number of pages (titles) in the dump.
    pub fn len(&self) -> usize {
        self.titles.len()
    }

    /// Whether the dump had no pages.
    pub fn is_empty(&self) -> bool {
        self.titles.is_empty()
    }
}

impl PageStore for DumpStore {
    fn exists(&self, title: &Title) -> bool {
        self.titles.contains(title)
    }
    fn source(&self, title: &Title) -> Result<Option<Arc<str>>, StoreError> {
        Ok(self.sources.get(title).cloned())
    }
}
