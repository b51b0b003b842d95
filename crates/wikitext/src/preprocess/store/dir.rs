//! A directory of pages, one file per page.
//!
//! **Naming.** A file's name is the page's full title, percent-encoded
//! ([`DirStore::file_name`]: UTF-8 bytes of `% / \ : * ? " < > |` and control
//! characters as `%XX`, spaces as `_`), optionally followed by one of the
//! extensions `.wikitext`, `.wiki`, `.mediawiki`, `.txt`. Reading is lenient: any
//! `%XX` is decoded and the result normalized as a title, so `Template%3AFoo_bar`,
//! `Template:Foo bar.wikitext` and `template%3Afoo%20bar.txt` all name
//! `Template:Foo bar`. Subdirectories are not read. The listing is taken once,
//! when the store is opened; sources are read when asked for.

use foldhash::HashMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use super::{PageStore, StoreError};
use crate::preprocess::config::Site;
use crate::preprocess::title::{NS_MAIN, Title};

const EXTENSIONS: &[&str] = &[".wikitext", ".wiki", ".mediawiki", ".txt"];

/// Pages as files in one directory (see the module docs for the naming).
#[derive(Clone, Debug)]
pub struct DirStore {
    files: HashMap<Title, PathBuf>,
}

impl DirStore {
    /// Lists `dir`. File names that are not valid titles are skipped.
    pub fn open(dir: &Path, site: &Site) -> Result<DirStore, StoreError> {
        let io = |source| StoreError::Io {
            path: dir.display().to_string(),
            source,
        };
        let mut files = HashMap::default();
        for entry in std::fs::read_dir(dir).map_err(io)? {
            let entry = entry.map_err(io)?;
            if !entry.file_type().map_err(io)?.is_file() {
                continue;
            }
            let name = entry.file_name();
            let Some(name) = name.to_str() else { continue };
            if name.starts_with('.') {
                continue;
            }
            let Some(raw) = title_from_file_name(name) else {
                continue;
            };
            if let Ok(title) = Title::parse(&raw, NS_MAIN, site) {
                files.insert(title, entry.path());
            }
        }
        Ok(DirStore { files })
    }

    /// The file name a page is stored under (without extension).
    ///
    /// ```
    /// use tagloom_wikitext::preprocess::{DirStore, Site, Title};
    /// let t = Title::parse("Template:A/b c", 0, &Site::default())?;
    /// assert_eq!(DirStore::file_name(&t), "Template%3AA%2Fb_c");
    /// # Ok::<(), tagloom_wikitext::preprocess::TitleError>(())
    /// ```
    pub fn file_name(title: &Title) -> String {
        let mut out = String::new();
        for c in title.db_key().chars() {
            if matches!(
                c,
                '%' | '/' | '\\' | ':' | '*' | '?' | '"' | '<' | '>' | '|'
            ) || c.is_control()
            {
                let mut buf = [0; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("%{b:02X}"));
                }
            } else {
                out.push(c);
            }
        }
        out
    }

    /// The number of pages.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether the directory had no pages.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }
}

/// Strips a known extension and percent-decodes.
fn title_from_file_name(name: &str) -> Option<String> {
    let stem = EXTENSIONS
        .iter()
        .find_map(|ext| name.strip_suffix(ext))
        .unwrap_or(name);
    let bytes = stem.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut k = 0;
    while let Some(&b) = bytes.get(k) {
        if b == b'%'
            && let Some(hex) = stem.get(k + 1..k + 3)
            && let Ok(v) = u8::from_str_radix(hex, 16)
        {
            out.push(v);
            k += 3;
        } else {
            out.push(b);
            k += 1;
        }
    }
    String::from_utf8(out).ok()
}

impl PageStore for DirStore {
    fn exists(&self, title: &Title) -> bool {
        self.files.contains_key(title)
    }

    fn source(&self, title: &Title) -> Result<Option<Arc<str>>, StoreError> {
        let Some(path) = self.files.get(title) else {
            return Ok(None);
        };
        let bytes = std::fs::read(path).map_err(|source| StoreError::Io {
            path: path.display().to_string(),
            source,
        })?;
        let text = String::from_utf8(bytes).map_err(|_| StoreError::NotUtf8 {
            path: path.display().to_string(),
        })?;
        Ok(Some(Arc::from(text)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        let site = Site::default();
        for raw in ["Template:A/b c", "Foo%bar", "Help:Q?"] {
            let t = Title::parse(raw, 0, &site).unwrap();
            let name = format!("{}.wikitext", DirStore::file_name(&t));
            let back = title_from_file_name(&name).unwrap();
            assert_eq!(Title::parse(&back, 0, &site).unwrap(), t);
        }
        assert_eq!(
            title_from_file_name("Template%3AFoo%20bar").unwrap(),
            "Template:Foo bar"
        );
    }
}
