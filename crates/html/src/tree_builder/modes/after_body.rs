//! 13.2.6.4.19 the "after body" insertion mode.

use crate::atom;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::insert::Place;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder};

use super::{chars, split_leading_ws};

impl TreeBuilder {
    pub(crate) fn after_body<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        match token {
            Token::Characters(t) => {
                let (ws, rest) = split_leading_ws(t.text);
                if !ws.is_empty() {
                    self.in_body(chars(t, ws));
                }
                if rest.is_empty() {
                    return Flow::Done;
                }
                self.after_body_anything_else(chars(t, rest))
            }
            Token::Comment(_) | Token::ProcessingInstruction(_) => {
                // As the last child of the first element on the stack (`html`).
                let html = self.open.first().unwrap_or(self.document);
                self.insert_comment_token(token, Some(Place::Append(html)));
                Flow::Done
            }
            Token::Doctype(_) => {
                self.parse_error(ErrorCode::UnexpectedDoctype);
                Flow::Done
            }
            Token::StartTag(tag) if tag.name == atom::HTML => self.in_body(token),
            Token::EndTag(tag) if tag.name == atom::HTML => {
                if self.context.is_some() {
                    self.parse_error(ErrorCode::UnexpectedEndTag);
                } else {
                    self.mode = InsertionMode::AfterAfterBody;
                }
                Flow::Done
            }
            Token::Eof => {
                self.stop_parsing();
                Flow::Done
            }
            _ => self.after_body_anything_else(token),
        }
    }

    fn after_body_anything_else<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        self.parse_error(ErrorCode::ContentAfterBody);
        self.mode = InsertionMode::InBody;
        Flow::Reprocess(token)
    }
}
