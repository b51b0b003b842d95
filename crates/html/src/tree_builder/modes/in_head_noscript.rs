//! 13.2.6.4.5 the "in head noscript" insertion mode (scripting disabled).

use crate::atom;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder};

use super::{chars, split_leading_ws};

impl TreeBuilder {
    pub(crate) fn in_head_noscript<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        match token {
            Token::Doctype(_) => {
                self.parse_error(ErrorCode::UnexpectedDoctype);
                Flow::Done
            }
            Token::StartTag(tag) if tag.name == atom::HTML => self.in_body(token),
            Token::EndTag(tag) if tag.name == atom::NOSCRIPT => {
                self.pop();
                self.mode = InsertionMode::InHead;
                Flow::Done
            }
            Token::Characters(t) => {
                let (ws, rest) = split_leading_ws(t.text);
                if !ws.is_empty() {
                    self.in_head(chars(t, ws));
                }
                if rest.is_empty() {
                    return Flow::Done;
                }
                self.in_head_noscript_anything_else(chars(t, rest))
            }
            Token::Comment(_) | Token::ProcessingInstruction(_) => self.in_head(token),
            Token::StartTag(tag)
                if matches!(
                    tag.name,
                    atom::BASEFONT
                        | atom::BGSOUND
                        | atom::LINK
                        | atom::META
                        | atom::NOFRAMES
                        | atom::STYLE
                ) =>
            {
                self.in_head(token)
            }
            Token::StartTag(tag) if matches!(tag.name, atom::HEAD | atom::NOSCRIPT) => {
                self.parse_error(ErrorCode::UnexpectedStartTag);
                Flow::Done
            }
            Token::EndTag(tag) if tag.name != atom::BR => {
                self.parse_error(ErrorCode::UnexpectedEndTag);
                Flow::Done
            }
            _ => self.in_head_noscript_anything_else(token),
        }
    }

    fn in_head_noscript_anything_else<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        self.parse_error(ErrorCode::unexpected(token.kind()));
        self.pop();
        self.mode = InsertionMode::InHead;
        Flow::Reprocess(token)
    }
}
