//! 13.2.6.4.20 the "in frameset" insertion mode.

use crate::atom;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder};

impl TreeBuilder {
    pub(crate) fn in_frameset<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        use atom::*;
        match token {
            Token::Characters(t) => {
                self.insert_whitespace_ignore_others(t.text);
                Flow::Done
            }
            Token::Comment(_) | Token::ProcessingInstruction(_) => {
                self.insert_comment_token(token, None);
                Flow::Done
            }
            Token::StartTag(tag) if tag.name == HTML => self.in_body(token),
            Token::StartTag(tag) if tag.name == FRAMESET => {
                self.insert_html_element(&tag);
                Flow::Done
            }
            Token::EndTag(tag) if tag.name == FRAMESET => {
                if self.open.len() <= 1 {
                    // The root `html` element (fragment case).
                    self.parse_error(ErrorCode::UnexpectedEndTag);
                    return Flow::Done;
                }
                self.pop();
                if self.context.is_none() && !self.current_is(FRAMESET) {
                    self.mode = InsertionMode::AfterFrameset;
                }
                Flow::Done
            }
            Token::StartTag(tag) if tag.name == FRAME => {
                self.insert_void_element(&tag);
                Flow::Done
            }
            Token::StartTag(tag) if tag.name == NOFRAMES => self.in_head(token),
            Token::Eof => {
                if self.open.len() > 1 {
                    self.parse_error(ErrorCode::EofWithOpenElements);
                }
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
