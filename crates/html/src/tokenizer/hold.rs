//! Input held for the caller: a consumer that reads the input text back by
//! offset (the localization reader builds its blocks from ranges of tokens it
//! has queued) can have the tokenizer keep that text instead of keeping a copy
//! of its own. The tokenizer then discards input only before both the last
//! token and the hold.

use super::Tokenizer;

impl Tokenizer {
    /// Keeps the input from absolute offset `from` on (until the next call):
    /// [`Tokenizer::held_text`] can read it back. Without a call, input before
    /// the last token is released as usual.
    pub fn hold_from(&mut self, from: usize) {
        self.input.hold = Some(from);
        // Whatever the release test found held back may go now.
        self.release_at = 0;
    }

    /// The input text over the absolute range `start..end`, while it is held
    /// ([`Tokenizer::hold_from`]) or not yet tokenized: `None` when part of it
    /// was released, is not pushed yet, or splits a character.
    pub fn held_text(&self, start: usize, end: usize) -> Option<&str> {
        let base = self.input.base;
        self.input
            .buf
            .get(start.checked_sub(base)?..end.checked_sub(base)?)
    }

    /// How much of the buffer may be released: the input before the last token,
    /// but none of the held input.
    #[inline(always)]
    pub(super) fn releasable(&self) -> usize {
        match self.input.hold {
            Some(from) => self.committed_pos.min(from.saturating_sub(self.input.base)),
            None => self.committed_pos,
        }
    }

    /// Whether the hold, not the tokens, keeps the buffer from being released.
    #[inline(always)]
    pub(super) fn held_back(&self) -> bool {
        self.releasable() < self.committed_pos
    }
}
