//! Page stores: where template sources come from and which titles exist.
//!
//! - [`PageStore`]: the synchronous trait the expander calls.
//! - [`MemoryStore`]: pages in a map (tests, prefetched pages).
//! - [`DirStore`]: a directory of files named by percent-encoded title.
//! - [`DumpStore`] and [`DumpReader`]: a MediaWiki XML dump (`.xml`, `.xml.bz2`),
//!   streamed.
//! - [`AsyncPageSource`] and [`prefetch`]: an asynchronous source (an HTTP
//!   fetcher) whose pages are gathered into a [`MemoryStore`] before expansion.

mod dir;
mod dump;
mod fetch;

use foldhash::HashMap;
use std::sync::Arc;

pub use dir::DirStore;
pub use dump::{DumpPage, DumpReader, DumpStore};
pub use fetch::{AsyncPageSource, SourceFuture, prefetch};

use super::title::Title;

/// Why a store could not answer.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Reading a file failed.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// The cause.
        source: std::io::Error,
    },
    /// The dump is not well-formed XML.
    #[error("{path}: XML error: {message}")]
    Xml {
        /// The dump.
        path: String,
        /// What the XML reader said.
        message: String,
    },
    /// A page is not UTF-8.
    #[error("{path}: not UTF-8")]
    NotUtf8 {
        /// The file.
        path: String,
    },
    /// An asynchronous source failed.
    #[error("fetching {title}: {message}")]
    Fetch {
        /// The page.
        title: String,
        /// What went wrong.
        message: String,
    },
}

/// A set of pages: which titles exist, and their wikitext.
///
/// Implementations are shared between threads rendering pages in parallel.
pub trait PageStore: Send + Sync {
    /// Whether the page exists (red links, `#ifexist`).
    fn exists(&self, title: &Title) -> bool;
    /// The page's wikitext, `None` if it does not exist.
    fn source(&self, title: &Title) -> Result<Option<Arc<str>>, StoreError>;
}

impl<T: PageStore + ?Sized> PageStore for &T {
    fn exists(&self, title: &Title) -> bool {
        (**self).exists(title)
    }
    fn source(&self, title: &Title) -> Result<Option<Arc<str>>, StoreError> {
        (**self).source(title)
    }
}

impl<T: PageStore + ?Sized> PageStore for Arc<T> {
    fn exists(&self, title: &Title) -> bool {
        (**self).exists(title)
    }
    fn source(&self, title: &Title) -> Result<Option<Arc<str>>, StoreError> {
        (**self).source(title)
    }
}

/// Pages in memory, keyed by normalized title.
///
/// ```
/// use tagloom_wikitext::preprocess::{MemoryStore, PageStore, Site, Title};
///
/// let site = Site::default();
/// let mut store = MemoryStore::default();
/// store.insert(Title::parse("Template:Echo", 0, &site)?, "{{{1}}}");
/// assert!(store.exists(&Title::parse("template:echo", 0, &site)?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct MemoryStore {
    pages: HashMap<Title, Arc<str>>,
}

impl MemoryStore {
    /// Adds or replaces a page.
    pub fn insert(&mut self, title: Title, source: impl Into<Arc<str>>) {
        self.pages.insert(title, source.into());
    }

    /// The number of pages.
    pub fn len(&self) -> usize {
        self.pages.len()
    }

    /// Whether there are no pages.
    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }
}

impl PageStore for MemoryStore {
    fn exists(&self, title: &Title) -> bool {
        self.pages.contains_key(title)
    }
    fn source(&self, title: &Title) -> Result<Option<Arc<str>>, StoreError> {
        Ok(self.pages.get(title).cloned())
    }
}

/// Opens a page store from a path: a directory is a [`DirStore`], a file (`.xml`,
/// `.xml.bz2`) a [`DumpStore`] — what `--templates DIR|DUMP` needs.
pub fn open_store(
    path: &std::path::Path,
    site: &super::config::Site,
) -> Result<Box<dyn PageStore>, StoreError> {
    if path.is_dir() {
        Ok(Box::new(DirStore::open(path, site)?))
    } else {
        Ok(Box::new(DumpStore::open(path, site)?))
    }
}

/// An empty store: every template is missing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoPages;

impl PageStore for NoPages {
    fn exists(&self, _: &Title) -> bool {
        false
    }
    fn source(&self, _: &Title) -> Result<Option<Arc<str>>, StoreError> {
        Ok(None)
    }
}
