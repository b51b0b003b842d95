//! 13.2.6.4.10 the "in table text" insertion mode: character tokens inside a
//! table are collected, then inserted normally if they are all whitespace and
//! foster-parented otherwise.

use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::{Flow, TreeBuilder};

use super::is_ws;

impl TreeBuilder {
    pub(crate) fn in_table_text<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        if let Token::Characters(t) = token {
            for piece in t.text.split('\0') {
                self.pending_table_text.push_str(piece);
                if !self.pending_table_text_non_ws && piece.chars().any(|c| !is_ws(c)) {
                    self.pending_table_text_non_ws = true;
                    // The "anything else" rules of "in table" will apply to the
                    // characters: one parse error, reported at the first token
                    // that is not whitespace (errors are reported in source order).
                    self.parse_error(ErrorCode::FosterParentedContent);
                }
            }
            // Each U+0000 is a parse error, ignored.
            self.parse_errors(
                ErrorCode::UnexpectedNullInText,
                t.text.matches('\0').count(),
            );
            return Flow::Done;
        }
        let text = std::mem::take(&mut self.pending_table_text);
        if self.pending_table_text_non_ws {
            // The "anything else" rules of "in table", for the characters (the parse
            // error is already reported).
            self.foster_parenting = true;
            self.in_body_characters(&text);
            self.foster_parenting = false;
        } else {
            self.insert_text(&text);
        }
        self.pending_table_text_non_ws = false;
        self.mode = self.original_mode;
        Flow::Reprocess(token)
    }
}
