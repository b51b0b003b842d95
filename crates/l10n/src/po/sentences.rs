//! Merging a segmented unit's sentence entries (`msgctxt "UNIT#s1"`, `"UNIT#s2"`…,
//! [`crate::segment`]).
//!
//! The entries' sources are found in the page's block in order (whitespace between
//! them comes from the page); each is checked as a whole entry is (its `msgid` and
//! the markup of its codes), and the block's target is the sentences' targets with
//! the page's whitespace between them. A sentence without a usable translation
//! (empty, or `#, fuzzy` and not asked for) keeps its source. A block whose text no
//! longer is the entries' sentences, or one sentence of which has changed markup or
//! broken codes, keeps its source as a whole, with an issue.

use super::{PoEntry, PoTranslations, has_target, source_syntax, target_runs, text_to_runs};
use crate::block::{Block, Run};
use crate::error::Result;
use crate::segment::{Aligner, sentence_block, sentence_id};
use crate::writer::{Issue, IssueKind};

impl PoTranslations {
    /// The target of `block` from its sentence entries, `first` being the first.
    pub(super) fn sentences_target(
        &mut self,
        block: &Block,
        first: PoEntry,
    ) -> Result<Option<Vec<Run>>> {
        let mut aligner = Aligner::new(&block.runs);
        let mut out: Vec<Run> = Vec::new();
        let mut translated = false;
        let mut next = Some(first);
        let mut n = 1;
        loop {
            let Some(entry) = next.take() else {
                return self.changed(block, n, block, format!("sentence {n} is not in the file"));
            };
            let sentence = text_to_runs(&entry.id)
                .ok()
                .and_then(|source| aligner.sentence(&source));
            let Some((gap, runs)) = sentence else {
                return self.changed(block, n, block, format!("sentence {n} differs"));
            };
            push_text(&mut out, &gap);
            let part = sentence_block(block, n, runs);
            let syntax = match source_syntax(&entry, &part) {
                Ok(syntax) => syntax,
                Err(why) => return self.changed(block, n, &part, why),
            };
            if self.usable(&entry) {
                match target_runs(&entry, &part, syntax) {
                    Ok(t) => {
                        translated = true;
                        out.extend(t);
                    }
                    Err(why) => {
                        self.issues
                            .push(Issue::new(&part.id, IssueKind::Codes, why));
                        self.drop_after(block, n)?;
                        return Ok(None);
                    }
                }
            } else {
                self.skipped += usize::from(has_target(&entry));
                out.extend(part.runs);
            }
            if let Some(rest) = aligner.rest_if_gap() {
                push_text(&mut out, &rest);
                break;
            }
            n += 1;
            next = self.take(&sentence_id(&block.id, n))?;
        }
        Ok(translated.then_some(out))
    }

    /// Reports `at` (the block, or sentence `n` of it) as changed; the block's
    /// later sentence entries are dropped (one issue per block, not one more per
    /// sentence left over).
    fn changed(
        &mut self,
        block: &Block,
        n: usize,
        at: &Block,
        why: String,
    ) -> Result<Option<Vec<Run>>> {
        self.issues
            .push(Issue::new(&at.id, IssueKind::SourceChanged, why));
        self.drop_after(block, n)?;
        Ok(None)
    }

    fn drop_after(&mut self, block: &Block, n: usize) -> Result<()> {
        let mut k = n + 1;
        while self.take(&sentence_id(&block.id, k))?.is_some() {
            k += 1;
        }
        Ok(())
    }
}

fn push_text(out: &mut Vec<Run>, text: &str) {
    if text.is_empty() {
        return;
    }
    if let Some(Run::Text(t)) = out.last_mut() {
        t.push_str(text);
    } else {
        out.push(Run::Text(text.to_string()));
    }
}
