//! What the renderer asks of the wiki: which pages exist.

use std::collections::HashSet;

/// Says whether a page exists (links to missing pages are red links).
pub trait PageExists: Send + Sync {
    /// Whether the page titled `title` (normalized by [`normalize_title`]) exists.
    fn exists(&self, title: &str) -> bool;
}

/// A set of existing titles.
#[derive(Clone, Debug, Default)]
pub struct PageSet {
    titles: HashSet<String>,
}

impl PageSet {
    /// Adds a title (normalized).
    pub fn insert(&mut self, title: &str) {
        self.titles.insert(normalize_title(title));
    }
}

impl PageExists for PageSet {
    fn exists(&self, title: &str) -> bool {
        self.titles.contains(&normalize_title(title))
    }
}

/// MediaWiki's title normalization for lookups: `_` as space, runs of spaces
/// collapsed, trimmed, first letter upper-case.
pub fn normalize_title(title: &str) -> String {
    let spaced = title.replace('_', " ");
    let words: Vec<&str> = spaced.split_whitespace().collect();
    let joined = words.join(" ");
    let mut chars = joined.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}
