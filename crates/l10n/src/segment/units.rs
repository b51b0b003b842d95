//! A page's units cut into sentences, for `update` (which matches sentence by
//! sentence) and `count` (which counts sentences as units), and put back together
//! for writing.

use std::ops::Range;

use super::{Piece, Segmenter};
use crate::block::Block;
use crate::count::{Counts, runs_text};

/// Counts `block` and its attribute sub-blocks: each sentence a unit when
/// `segmenter` is given (`count`), else each block.
pub(crate) fn count_block(counts: &mut Counts, block: &Block, segmenter: Option<&Segmenter>) {
    for b in std::iter::once(block).chain(&block.subs) {
        match segmenter.and_then(|s| s.sentence_blocks(b)) {
            Some((_, sentences)) => sentences
                .iter()
                .for_each(|s| counts.add_text(&runs_text(&s.runs))),
            None => counts.add_text(&runs_text(&b.runs)),
        }
    }
}

/// One unit of the page and where its sentences are in [`SentenceUnits::units`].
pub(crate) struct Group {
    /// The unit.
    pub(crate) block: Block,
    /// Its pieces when it has two sentences or more.
    pub(crate) pieces: Option<Vec<Piece>>,
    /// Its sentences (or itself) in [`SentenceUnits::units`].
    pub(crate) range: Range<usize>,
}

/// The units a page's blocks give: sentences when segmenting, else the blocks.
pub(crate) struct SentenceUnits {
    /// What is matched and counted: each sentence of a segmented block (id
    /// `UNIT#sN`), every other block as it is.
    pub(crate) units: Vec<Block>,
    /// How `units` group into the page's units (`None`: one each, not segmenting).
    pub(crate) groups: Option<Vec<Group>>,
}

impl SentenceUnits {
    /// Cuts `blocks` with `segmenter` (`None`: no segmentation, the blocks as they are).
    pub(crate) fn new(blocks: Vec<Block>, segmenter: Option<&Segmenter>) -> Self {
        let Some(seg) = segmenter else {
            return SentenceUnits {
                units: blocks,
                groups: None,
            };
        };
        let mut units = Vec::with_capacity(blocks.len());
        let mut groups = Vec::with_capacity(blocks.len());
        for block in blocks {
            let start = units.len();
            let pieces = match seg.sentence_blocks(&block) {
                Some((pieces, sentences)) => {
                    units.extend(sentences);
                    Some(pieces)
                }
                None => {
                    units.push(block.clone());
                    None
                }
            };
            groups.push(Group {
                block,
                pieces,
                range: start..units.len(),
            });
        }
        SentenceUnits {
            units,
            groups: Some(groups),
        }
    }
}
