//! 13.2.6.4.8 the "text" insertion mode (contents of `script`, `style`,
//! `title`, `textarea`…).

use crate::atom;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::{Flow, SuspendReason, TreeBuilder};

impl TreeBuilder {
    pub(crate) fn text<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        match token {
            Token::Characters(t) => {
                self.insert_text(t.text);
                Flow::Done
            }
            Token::Eof => {
                // Parse error; a script would be marked "already started".
                self.parse_error(ErrorCode::EofWithOpenElements);
                self.pop();
                self.mode = self.original_mode;
                Flow::Reprocess(token)
            }
            Token::EndTag(tag) if tag.name == atom::SCRIPT => {
                // Where a browser prepares and may run the script: suspend here.
                if self.config.suspend_at_script {
                    self.last_script = self.current_node();
                }
                self.pop();
                self.mode = self.original_mode;
                if self.config.suspend_at_script {
                    Flow::Suspend(SuspendReason::Script)
                } else {
                    Flow::Done
                }
            }
            Token::EndTag(_) => {
                self.pop();
                self.mode = self.original_mode;
                Flow::Done
            }
            // The tokenizer emits nothing else in the text states.
            _ => Flow::Done,
        }
    }
}
