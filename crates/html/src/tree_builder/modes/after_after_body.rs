//! 13.2.6.4.22 the "after after body" insertion mode.

use crate::atom;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::insert::Place;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder};

use super::{chars, split_leading_ws};

impl TreeBuilder {
    pub(crate) fn after_after_body<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        match token {
            Token::Comment(_) | Token::ProcessingInstruction(_) => {
                self.insert_comment_token(token, Some(Place::Append(self.document)));
                Flow::Done
            }
            Token::Doctype(_) => self.in_body(token),
            Token::StartTag(tag) if tag.name == atom::HTML => self.in_body(token),
            Token::Characters(t) => {
                let (ws, rest) = split_leading_ws(t.text);
                if !ws.is_empty() {
                    self.in_body(chars(t, ws));
                }
                if rest.is_empty() {
                    return Flow::Done;
                }
                self.after_after_body_anything_else(chars(t, rest))
            }
            Token::Eof => {
                self.stop_parsing();
                Flow::Done
            }
            _ => self.after_after_body_anything_else(token),
        }
    }

    fn after_after_body_anything_else<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        self.parse_error(ErrorCode::ContentAfterBody);
        self.mode = InsertionMode::InBody;
        Flow::Reprocess(token)
    }
}
