//! Word and character counts, as translation vendors quote by them
//! (`tagloom l10n count`).
//!
//! The rule, one pass over a unit's text (codes are not counted):
//!
//! * a **word** is a run of characters between whitespace that holds at least one
//!   letter or digit (`e-mail`, `3.5`, `l'homme` are one word; a lone `—` or `|`
//!   is none);
//! * every Han, Hiragana or Katakana character is a word of its own (Chinese and
//!   Japanese are written without spaces; vendors count them per character);
//! * **characters** are all characters that are not whitespace (NBSP included).
//!
//! Thai, Lao, Khmer and Myanmar are also written without spaces and have no such
//! rule here: a run of them counts as one word (use the characters for them).

use std::path::Path;

use crate::block::Block;
use crate::error::Result;
use crate::flow::Format;
use crate::po::PoReader;
use crate::reader::{BlockSink, ReadOptions, read_file};
use crate::rules::Rules;
use crate::xliff::XliffReader;

/// Units, words and characters.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Counts {
    /// Translation units.
    pub units: usize,
    /// Words (see the module docs).
    pub words: usize,
    /// Characters that are not whitespace.
    pub chars: usize,
}

impl Counts {
    /// Adds one unit of `text`.
    pub fn add_text(&mut self, text: &str) {
        self.units += 1;
        for_each_word(text, |_| self.words += 1);
        self.chars += text.chars().filter(|c| !c.is_whitespace()).count();
    }

    /// Adds another count.
    pub fn add(&mut self, other: Counts) {
        self.units += other.units;
        self.words += other.words;
        self.chars += other.chars;
    }
}

/// The words of `text` under the module's rule, each handed to `f` (trimmed of
/// leading and trailing punctuation).
pub fn for_each_word(text: &str, mut f: impl FnMut(&str)) {
    let mut start: Option<usize> = None;
    let flush = |from: Option<usize>, to: usize, f: &mut dyn FnMut(&str)| {
        if let Some(from) = from {
            let w = text[from..to].trim_matches(|c: char| !c.is_alphanumeric());
            if !w.is_empty() {
                f(w);
            }
        }
    };
    let bytes = text.as_bytes();
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        // ASCII without decoding (its whitespace is `char::is_whitespace`'s).
        let (space, cjk, len) = if b.is_ascii() {
            (matches!(b, b'\t'..=b'\r' | b' '), false, 1)
        } else {
            let c = text[i..].chars().next().unwrap_or(' ');
            let cjk = is_cjk(c);
            (c.is_whitespace(), cjk, c.len_utf8())
        };
        if space || cjk {
            flush(start.take(), i, &mut f);
            if cjk {
                f(&text[i..i + len]);
            }
        } else if start.is_none() {
            start = Some(i);
        }
        i += len;
    }
    flush(start, text.len(), &mut f);
}

/// [`for_each_word`]'s count over text that comes in pieces (a block's text runs),
/// without joining them: a piece boundary does not end a word, [`WordCounter::gap`]
/// (a standalone code) does.
#[derive(Default)]
pub(crate) struct WordCounter {
    words: usize,
    in_word: bool,
    has_alnum: bool,
}

impl WordCounter {
    /// The next piece of text.
    pub(crate) fn feed(&mut self, text: &str) {
        let bytes = text.as_bytes();
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if b.is_ascii() {
                // A run of ASCII with the state in locals (the common case).
                let (mut words, mut in_word, mut has_alnum) =
                    (self.words, self.in_word, self.has_alnum);
                while let Some(&b) = bytes.get(i).filter(|b| b.is_ascii()) {
                    match ASCII_CLASS.get(usize::from(b)).copied().unwrap_or(OTHER) {
                        SPACE => {
                            words += usize::from(in_word && has_alnum);
                            in_word = false;
                            has_alnum = false;
                        }
                        class => {
                            in_word = true;
                            has_alnum |= class == ALNUM;
                        }
                    }
                    i += 1;
                }
                (self.words, self.in_word, self.has_alnum) = (words, in_word, has_alnum);
                continue;
            }
            let c = text.get(i..).and_then(|t| t.chars().next()).unwrap_or(' ');
            if c.is_whitespace() {
                self.gap();
            } else if is_cjk(c) {
                self.gap();
                self.words += 1;
            } else {
                self.in_word = true;
                self.has_alnum |= c.is_alphanumeric();
            }
            i += c.len_utf8();
        }
    }

    /// Whitespace: the word being read ends.
    pub(crate) fn gap(&mut self) {
        self.words += usize::from(self.in_word && self.has_alnum);
        self.in_word = false;
        self.has_alnum = false;
    }

    /// The words counted.
    pub(crate) fn finish(mut self) -> usize {
        self.gap();
        self.words
    }
}

/// [`ASCII_CLASS`] values: whitespace (`char::is_whitespace`'s ASCII ones), a
/// letter or digit, anything else.
const SPACE: u8 = 0;
const ALNUM: u8 = 1;
const OTHER: u8 = 2;

/// The class of each ASCII byte, for [`WordCounter::feed`].
static ASCII_CLASS: [u8; 128] = {
    let mut table = [OTHER; 128];
    let mut b = 0;
    while b < 128 {
        let c = b as u8;
        table[b] = if matches!(c, b'\t'..=b'\r' | b' ') {
            SPACE
        } else if c.is_ascii_alphanumeric() {
            ALNUM
        } else {
            OTHER
        };
        b += 1;
    }
    table
};

/// Han ideographs, Hiragana, Katakana (full and half width).
fn is_cjk(c: char) -> bool {
    matches!(c,
        '\u{3040}'..='\u{30FF}' | '\u{31F0}'..='\u{31FF}' | '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}' | '\u{F900}'..='\u{FAFF}' | '\u{FF66}'..='\u{FF9F}'
        | '\u{20000}'..='\u{3FFFF}')
}

/// The text of a unit's runs (codes dropped; the one home is [`crate::block`]).
pub use crate::block::runs_text;

/// Counts the units of a page (`.html`…: what `extract` would write), or of an
/// `.xlf`/`.po` file (their sources).
pub fn count_file(path: &Path, rules: &Rules) -> Result<Counts> {
    let mut counts = Counts::default();
    // Sentences count as units when the rules segment (root rules: a page has no
    // source language here).
    let segmenter =
        crate::segment::Segmenter::for_rules(rules, &crate::lang::LanguageTag::english());
    match Format::from_path(path) {
        Some(Format::Xliff) => {
            let mut reader = XliffReader::open(path)?;
            while let Some(unit) = reader.next_unit()? {
                if unit.segments.is_empty() {
                    counts.add_text(&runs_text(&unit.source));
                }
                for s in &unit.segments {
                    counts.add_text(&runs_text(&s.source));
                }
            }
        }
        Some(Format::Po) => {
            let mut reader = PoReader::open(path)?;
            while let Some(entry) = reader.next_entry()? {
                if entry.context.is_some() || !entry.id.is_empty() {
                    counts.add_text(&crate::matching::comparable_text(&entry.id));
                }
            }
        }
        None => {
            let mut sink = |block: &Block| -> Result<()> {
                crate::segment::count_block(&mut counts, block, segmenter.as_ref());
                Ok(())
            };
            read_file(
                path,
                &ReadOptions::new(rules),
                None,
                Some(&mut sink as &mut dyn BlockSink),
            )?;
        }
    }
    Ok(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_piecewise_counter_counts_as_for_each_word() {
        for text in [
            "",
            "  Hello, world!  ",
            "e-mail 3.5 l'homme — | x",
            "日本語のテキスト and more",
            "a\u{a0}b\u{2003}c\tde\u{3000}f",
            "¿Qué? ¡Sí! ÉCOLE naïve",
            "— … «»",
        ] {
            let mut expected = 0;
            for_each_word(text, |_| expected += 1);
            for cut in 0..=text.len() {
                let (Some(a), Some(b)) = (text.get(..cut), text.get(cut..)) else {
                    continue;
                };
                let mut c = WordCounter::default();
                c.feed(a);
                c.feed(b);
                assert_eq!(c.finish(), expected, "{text:?} cut at {cut}");
            }
        }
    }

    fn count(s: &str) -> (usize, usize) {
        let mut c = Counts::default();
        c.add_text(s);
        (c.words, c.chars)
    }

    #[test]
    fn words_and_characters() {
        assert_eq!(count("Hello, big world!"), (3, 15));
        assert_eq!(count("e-mail 3.5 — | l'homme"), (3, 18));
        assert_eq!(count("日本語のテキスト"), (8, 8));
        assert_eq!(count("Tokyo 東京 tower"), (4, 12));
        assert_eq!(count("\u{a0}-1 , |"), (1, 4));
        assert_eq!(count(""), (0, 0));
    }
}
