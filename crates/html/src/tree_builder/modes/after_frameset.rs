//! 13.2.6.4.21 the "after frameset" insertion mode.

use crate::atom;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder};

impl TreeBuilder {
    pub(crate) fn after_frameset<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        match token {
            Token::Characters(t) => {
                self.insert_whitespace_ignore_others(t.text);
                Flow::Done
            }
            Token::Comment(_) | Token::ProcessingInstruction(_) => {
                self.insert_comment_token(token, None);
                Flow::Done
            }
            Token::StartTag(tag) if tag.name == atom::HTML => self.in_body(token),
            Token::EndTag(tag) if tag.name == atom::HTML => {
                self.mode = InsertionMode::AfterAfterFrameset;
                Flow::Done
            }
            Token::StartTag(tag) if tag.name == atom::NOFRAMES => self.in_head(token),
            Token::Eof => {
                self.stop_parsing();
                Flow::Done
            }
            _ => {
                self.parse_error(ErrorCode::unexpected(token.kind()));
                Flow::Done
            }
        }
    }
}
