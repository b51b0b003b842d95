//! 13.2.6.4.23 the "after after frameset" insertion mode.

use crate::atom;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::insert::Place;
use crate::tree_builder::{Flow, TreeBuilder};

use super::is_ws;

impl TreeBuilder {
    pub(crate) fn after_after_frameset<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        match token {
            Token::Comment(_) | Token::ProcessingInstruction(_) => {
                self.insert_comment_token(token, Some(Place::Append(self.document)));
                Flow::Done
            }
            Token::Doctype(_) => self.in_body(token),
            Token::StartTag(tag) if tag.name == atom::HTML => self.in_body(token),
            Token::Characters(t) => {
                // Whitespace: "in body" rules; anything else ignored.
                let ws: String = t.text.chars().filter(|&c| is_ws(c)).collect();
                // One parse error per ignored character.
                self.text_errors(ErrorCode::UnexpectedText, t.text, |c| !is_ws(c));
                if !ws.is_empty() {
                    self.in_body_characters(&ws);
                }
                Flow::Done
            }
            Token::Eof => {
                self.stop_parsing();
                Flow::Done
            }
            Token::StartTag(tag) if tag.name == atom::NOFRAMES => self.in_head(token),
            _ => {
                self.parse_error(ErrorCode::unexpected(token.kind()));
                Flow::Done
            }
        }
    }
}
