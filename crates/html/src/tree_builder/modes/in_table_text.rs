//! 13.2.6.4.10 the "in table text" insertion mode: character tokens inside a
//! table are collected, then inserted normally if they are all whitespace and
//! foster-parented otherwise.

use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::{Flow, TreeBuilder};

use super::is_ws;

/// The most capacity the collected-text buffer keeps between runs.
const KEPT_CAPACITY: usize = 4 * 1024;

impl TreeBuilder {
    pub(crate) fn in_table_text<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        if let Token::Characters(t) = token {
            // The first character that is neither whitespace nor U+0000 makes the
            // "anything else" rules of "in table" apply to the run: one parse error,
            // reported at that character (errors are reported in source order).
            let first = if self.pending_table_text_non_ws {
                None
            } else {
                t.text.char_indices().find(|&(_, c)| c != '\0' && !is_ws(c))
            };
            let (before, after) = first
                .and_then(|(i, _)| t.text.split_at_checked(i))
                .unwrap_or((t.text, ""));
            // Each U+0000 is a parse error, ignored (most runs have none: one
            // look for them, not one per character).
            let has_nul = memchr::memchr(0, t.text.as_bytes()).is_some();
            if has_nul {
                self.text_errors(ErrorCode::UnexpectedNullInText, before, |c| c == '\0');
            }
            if let Some((_, c)) = first {
                self.pending_table_text_non_ws = true;
                let (at, rest) = after.split_at_checked(c.len_utf8()).unwrap_or((after, ""));
                if at.is_empty() {
                    self.parse_error(ErrorCode::FosterParentedContent);
                } else {
                    self.text_errors(ErrorCode::FosterParentedContent, at, |_| true);
                }
                if has_nul {
                    self.text_errors(ErrorCode::UnexpectedNullInText, rest, |c| c == '\0');
                }
            }
            if has_nul {
                for piece in t.text.split('\0') {
                    self.pending_table_text.push_str(piece);
                }
            } else {
                self.pending_table_text.push_str(t.text);
            }
            return Flow::Done;
        }
        let mut text = std::mem::take(&mut self.pending_table_text);
        if self.pending_table_text_non_ws {
            // The "anything else" rules of "in table", for the characters (the parse
            // error is already reported).
            self.foster_parenting = true;
            self.in_body_characters(&text);
            self.foster_parenting = false;
        } else {
            self.insert_text(&text);
        }
        // The buffer is kept for the next run (one allocation per table text run
        // was most of this mode's cost), unless a rare long run grew it.
        text.clear();
        if text.capacity() <= KEPT_CAPACITY {
            self.pending_table_text = text;
        }
        self.pending_table_text_non_ws = false;
        self.mode = self.original_mode;
        Flow::Reprocess(token)
    }
}
