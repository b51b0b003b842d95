//! Finding a unit by its source: the key a page block and a file's unit share
//! (the source as PO text, codes as markers), an index from that key to unit ids,
//! and the word similarity `update` marks near matches with.
//!
//! The key is only a bucket: a unit found through it still has to pass the
//! format's exact source check (text, codes and their markup) before its
//! translation is used.

use std::collections::HashMap;

use crate::block::Run;
use crate::count::for_each_word;
use crate::po::runs_to_text;
use crate::reader::{FNV_START, fnv1a};

/// The bucket of a source given as runs.
pub fn runs_key(runs: &[Run]) -> u64 {
    text_key(&runs_to_text(runs))
}

/// The bucket of a source given as PO text (a `msgid`).
pub fn text_key(text: &str) -> u64 {
    fnv1a(FNV_START, text.as_bytes())
}

/// Unit ids by source bucket, in file order.
#[derive(Debug, Default)]
pub struct SourceIndex {
    by_key: HashMap<u64, Vec<String>>,
}

impl SourceIndex {
    /// Indexes `(id, key)` pairs.
    pub fn new<'a>(units: impl IntoIterator<Item = (&'a String, u64)>) -> Self {
        let mut by_key: HashMap<u64, Vec<String>> = HashMap::new();
        for (id, key) in units {
            by_key.entry(key).or_default().push(id.clone());
        }
        SourceIndex { by_key }
    }

    /// The ids in bucket `key`.
    pub fn ids(&self, key: u64) -> &[String] {
        self.by_key.get(&key).map_or(&[], Vec::as_slice)
    }
}

/// The words of a source for comparing (lowercased; codes' markers are not
/// words: `<1>`, `</1>`, `<2/>` are skipped).
pub fn comparable_words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for_each_word(&comparable_text(text), |w| out.push(w.to_lowercase()));
    out
}

/// PO text without its code markers (`<1>`, `</1>`, `<2/>` become a space).
pub fn comparable_text(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(pos) = rest.find('<') {
        out.push_str(&rest[..pos]);
        let after = &rest[pos + 1..];
        let body = after.strip_prefix('/').unwrap_or(after);
        let digits = body.bytes().take_while(u8::is_ascii_digit).count();
        let tail = &body[digits..];
        let end = if digits == 0 {
            0
        } else if tail.starts_with("/>") {
            2
        } else if tail.starts_with('>') {
            1
        } else {
            0
        };
        if end == 0 {
            out.push('<');
            rest = after;
        } else {
            out.push(' ');
            rest = &tail[end..];
        }
    }
    out.push_str(rest);
    out
}

/// The Dice coefficient of two bags of words: twice the shared words over the
/// total (1.0 for the same words in any order, 0.0 for none in common).
pub fn similarity(a: &[String], b: &[String]) -> f64 {
    if a.is_empty() && b.is_empty() {
        return 1.0;
    }
    let mut bag: HashMap<&str, i32> = HashMap::new();
    for w in a {
        *bag.entry(w.as_str()).or_default() += 1;
    }
    let mut shared = 0usize;
    for w in b {
        if let Some(n) = bag.get_mut(w.as_str())
            && *n > 0
        {
            *n -= 1;
            shared += 1;
        }
    }
    2.0 * shared as f64 / (a.len() + b.len()) as f64
}

/// Whether two bags of `a` and `b` words can reach `threshold` at all
/// (Dice ≤ 2·min/(a+b)): the length filter before any comparison.
pub fn lengths_can_match(a: usize, b: usize, threshold: f64) -> bool {
    let total = a + b;
    total == 0 || 2.0 * a.min(b) as f64 / total as f64 >= threshold
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words(s: &str) -> Vec<String> {
        comparable_words(s)
    }

    #[test]
    fn markers_are_not_words_and_similarity_is_a_bag_dice() {
        assert_eq!(words("Click <1>here</1><2/> now"), ["click", "here", "now"]);
        assert_eq!(words("a <b> 1<x"), ["a", "b", "1<x"]);
        let a = words("The quick brown fox jumps");
        let b = words("The quick red fox jumps");
        assert!((similarity(&a, &b) - 0.8).abs() < 1e-9);
        assert_eq!(similarity(&a, &a), 1.0);
        assert_eq!(similarity(&a, &words("nothing shared")), 0.0);
        assert!(lengths_can_match(4, 5, 0.75));
        assert!(!lengths_can_match(2, 8, 0.75));
    }

    #[test]
    fn index_buckets_by_source() {
        let ids = ["a".to_string(), "b".to_string()];
        let index = SourceIndex::new([(&ids[0], text_key("x")), (&ids[1], text_key("x"))]);
        assert_eq!(index.ids(text_key("x")), ids);
        assert!(index.ids(text_key("y")).is_empty());
    }
}
