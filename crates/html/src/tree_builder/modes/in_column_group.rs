//! 13.2.6.4.12 the "in column group" insertion mode.

use crate::atom;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder};

use super::{chars, split_leading_ws};

impl TreeBuilder {
    pub(crate) fn in_column_group<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        use atom::*;
        match token {
            Token::Characters(t) => {
                let (ws, rest) = split_leading_ws(t.text);
                self.insert_text(ws);
                if rest.is_empty() {
                    return Flow::Done;
                }
                if !self.current_is(COLGROUP) {
                    // "Anything else" ignores one character at a time, so the
                    // whitespace among the rest is still inserted here.
                    self.insert_whitespace_ignore_others(rest);
                    return Flow::Done;
                }
                self.in_column_group_anything_else(chars(t, rest))
            }
            Token::Comment(_) | Token::ProcessingInstruction(_) => {
                self.insert_comment_token(token, None);
                Flow::Done
            }
            Token::Doctype(_) => {
                self.parse_error(ErrorCode::UnexpectedDoctype);
                Flow::Done
            }
            Token::StartTag(tag) if tag.name == HTML => self.in_body(token),
            Token::StartTag(tag) if tag.name == COL => {
                self.insert_void_element(&tag);
                Flow::Done
            }
            Token::EndTag(tag) if tag.name == COLGROUP => {
                if !self.current_is(COLGROUP) {
                    self.parse_error(ErrorCode::EndTagWithoutOpenElement);
                    return Flow::Done;
                }
                self.pop();
                self.mode = InsertionMode::InTable;
                Flow::Done
            }
            Token::EndTag(tag) if tag.name == COL => {
                self.parse_error(ErrorCode::UnexpectedEndTag);
                Flow::Done
            }
            Token::StartTag(tag) | Token::EndTag(tag) if tag.name == TEMPLATE => {
                self.in_head(token)
            }
            Token::Eof => self.in_body(token),
            _ => self.in_column_group_anything_else(token),
        }
    }

    fn in_column_group_anything_else<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        if !self.current_is(atom::COLGROUP) {
            self.parse_error(ErrorCode::unexpected(token.kind()));
            return Flow::Done;
        }
        self.pop();
        self.mode = InsertionMode::InTable;
        Flow::Reprocess(token)
    }
}
