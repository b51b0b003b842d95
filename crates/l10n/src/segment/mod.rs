//! Optional sentence segmentation of units (`--segment sentences`).
//!
//! A unit (a block) stays the unit; with [`Segmentation::Sentences`] its text is cut
//! into sentences by ICU4X's UAX #29 sentence segmenter (`icu_segmenter`, compiled
//! data, tailored to the source language where ICU has a tailoring — today only
//! Greek, where `;` is a question mark). Translation memories match sentences far
//! more often than paragraphs.
//!
//! * **XLIFF**: one `<unit>` with a `<segment id="s1">` per sentence and an
//!   `<ignorable>` for the whitespace between them (the spec's place for content
//!   outside segments); the codes' `<originalData>` is the unit's.
//! * **PO**: one entry per sentence, `msgctxt "UNIT#s1"`, `"UNIT#s2"`… in order
//!   ([`sentence_id`]: the unit id, `#s` and the sentence's number from 1 — the
//!   XLIFF segment's `id` after the unit's). The whitespace between sentences is
//!   not in the file: the merge takes it from the page.
//! * A block that is one sentence is written exactly as without segmentation
//!   (`msgctxt "UNIT"`, one `<segment>`).
//!
//! Inline codes are never split: a sentence boundary inside a paired code's span
//! (`<b>One. Two.</b>`) is dropped, so those sentences stay one segment; at the
//! edge of a code, end tags stay with the sentence they end and start tags go
//! with the next one. A "sentence" without a letter (`1.`, `…`) is joined
//! to the next one (the last to the previous). What is a sentence is ICU's rule,
//! no more: `e.g. the` stays one sentence (a lowercase word follows the period),
//! `Dr. Smith` is two (UAX #29 has no abbreviation list).
//!
//! Merging puts each translated sentence in place of its source; a sentence without
//! a translation keeps its source. A block is translated only if every sentence
//! source is still the page's (text and codes, as for units); otherwise the whole
//! block keeps its source and an issue names it.

mod align;
mod split;
mod units;

use std::fmt;
use std::str::FromStr;

use icu_segmenter::SentenceSegmenter;
use icu_segmenter::options::SentenceBreakOptions;

use crate::block::{Block, Run};
use crate::lang::LanguageTag;
use crate::rules::Rules;

pub(crate) use align::Aligner;
pub(crate) use units::{SentenceUnits, count_block};

/// How units are cut into segments (`--segment`, or `"segment"` in a rules file).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Segmentation {
    /// One segment per unit (the default).
    #[default]
    None,
    /// One segment per sentence (UAX #29, ICU4X).
    Sentences,
}

impl FromStr for Segmentation {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "none" => Ok(Segmentation::None),
            "sentences" => Ok(Segmentation::Sentences),
            other => Err(format!(
                "{other:?}: expected `none` or `sentences` segmentation"
            )),
        }
    }
}

impl fmt::Display for Segmentation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Segmentation::None => "none",
            Segmentation::Sentences => "sentences",
        })
    }
}

/// A piece of a segmented unit: a sentence, or the whitespace between two.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Piece {
    /// A sentence's runs (codes whole: a paired code never spans two pieces).
    Sentence(Vec<Run>),
    /// Whitespace outside the sentences (XLIFF `<ignorable>`).
    Gap(String),
}

/// A sentence segmenter for one source language.
///
/// ```
/// use tagloom_l10n::{LanguageTag, Run};
/// use tagloom_l10n::segment::{Piece, Segmenter};
/// let seg = Segmenter::new(&LanguageTag::parse("en").unwrap());
/// let pieces = seg.split(&[Run::Text("One sentence. And another.".into())]);
/// assert_eq!(pieces, [
///     Piece::Sentence(vec![Run::Text("One sentence.".into())]),
///     Piece::Gap(" ".into()),
///     Piece::Sentence(vec![Run::Text("And another.".into())]),
/// ]);
/// ```
#[derive(Debug)]
pub struct Segmenter {
    /// `None`: the root rules (the tailored constructor failed).
    tailored: Option<SentenceSegmenter>,
}

impl Segmenter {
    /// The segmenter for `source` (ICU's tailoring for that language when there is
    /// one, else the root UAX #29 rules).
    pub fn new(source: &LanguageTag) -> Segmenter {
        let langid = icu_locale_core::LanguageIdentifier::try_from_str(source.as_str()).ok();
        let mut options = SentenceBreakOptions::default();
        options.content_locale = langid.as_ref();
        Segmenter {
            tailored: SentenceSegmenter::try_new(options).ok(),
        }
    }

    /// The segmenter `rules` ask for (`None`: no segmentation).
    pub fn for_rules(rules: &Rules, source: &LanguageTag) -> Option<Segmenter> {
        match rules.segment {
            Segmentation::None => None,
            Segmentation::Sentences => Some(Segmenter::new(source)),
        }
    }

    /// The sentence boundaries of `text` (byte offsets, 0 and the end included).
    fn boundaries(&self, text: &str) -> Vec<usize> {
        match &self.tailored {
            Some(s) => s.as_borrowed().segment_str(text).collect(),
            None => SentenceSegmenter::new(Default::default())
                .segment_str(text)
                .collect(),
        }
    }

    /// Cuts `runs` into sentences and the whitespace between them (see the module
    /// docs); a unit of one sentence comes back as one [`Piece::Sentence`] of all
    /// its runs.
    pub fn split(&self, runs: &[Run]) -> Vec<Piece> {
        split::split(runs, |text| self.boundaries(text))
    }

    /// The sentences of `block` as blocks of their own (ids [`sentence_id`], the
    /// block's notes on the first), with the pieces; `None` when the block is one
    /// sentence.
    pub fn sentence_blocks(&self, block: &Block) -> Option<(Vec<Piece>, Vec<Block>)> {
        let pieces = self.split(&block.runs);
        let blocks = sentence_blocks(block, &pieces)?;
        Some((pieces, blocks))
    }
}

/// The blocks of a segmented unit's sentences (`None`: fewer than two sentences).
pub fn sentence_blocks(block: &Block, pieces: &[Piece]) -> Option<Vec<Block>> {
    let sentences: Vec<&Vec<Run>> = pieces
        .iter()
        .filter_map(|p| match p {
            Piece::Sentence(r) => Some(r),
            Piece::Gap(_) => None,
        })
        .collect();
    if sentences.len() < 2 {
        return None;
    }
    Some(
        sentences
            .into_iter()
            .enumerate()
            .map(|(i, runs)| sentence_block(block, i + 1, runs.clone()))
            .collect(),
    )
}

/// Sentence `n` (from 1) of `block`, as a block: its id, runs, the block's kind,
/// element and path, and the block's notes when it is the first.
pub(crate) fn sentence_block(block: &Block, n: usize, runs: Vec<Run>) -> Block {
    Block {
        id: sentence_id(&block.id, n),
        kind: block.kind,
        element: block.element.clone(),
        path: block.path.clone(),
        notes: if n == 1 {
            block.notes.clone()
        } else {
            Vec::new()
        },
        preserve: block.preserve,
        runs,
        original: Vec::new(),
        subs: Vec::new(),
        sub_refs: Vec::new(),
        lang_refs: Vec::new(),
    }
}

/// The id of sentence `n` (from 1) of unit `unit`: `UNIT#sN` (PO `msgctxt`; in
/// XLIFF the segment `id="sN"` of that unit).
pub fn sentence_id(unit: &str, n: usize) -> String {
    format!("{unit}#s{n}")
}

/// Whether `id` is sentence `n` of `unit` ([`sentence_id`]).
pub fn is_sentence(id: &str, unit: &str, n: usize) -> bool {
    id.strip_prefix(unit)
        .and_then(|rest| rest.strip_prefix("#s"))
        .and_then(|num| num.parse::<usize>().ok())
        == Some(n)
}

/// The unit a sentence id belongs to (`UNIT` for `UNIT#s2`); any other id as it is.
pub fn unit_of(id: &str) -> &str {
    match id.rsplit_once("#s") {
        Some((unit, n)) if !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => unit,
        _ => id,
    }
}

/// Whether a segmented unit's gap is whitespace only (what [`Piece::Gap`] holds).
pub(crate) fn is_gap_char(c: char) -> bool {
    c.is_whitespace()
}

#[cfg(test)]
mod tests;
