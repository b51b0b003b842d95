//! 13.2.6.4.3 the "before head" insertion mode.

use crate::atom;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder};

use super::{chars, split_leading_ws};

impl TreeBuilder {
    pub(crate) fn before_head<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        match token {
            Token::Characters(t) => {
                let (_, rest) = split_leading_ws(t.text);
                if rest.is_empty() {
                    return Flow::Done;
                }
                self.before_head_anything_else(chars(t, rest))
            }
            Token::Comment(_) | Token::ProcessingInstruction(_) => {
                self.insert_comment_token(token, None);
                Flow::Done
            }
            Token::Doctype(_) => {
                self.parse_error(ErrorCode::UnexpectedDoctype);
                Flow::Done
            }
            Token::StartTag(tag) if tag.name == atom::HTML => self.in_body(token),
            Token::StartTag(tag) if tag.name == atom::HEAD => {
                let head = self.insert_html_element(&tag);
                self.head = Some(head);
                self.mode = InsertionMode::InHead;
                Flow::Done
            }
            Token::EndTag(tag)
                if !matches!(tag.name, atom::HEAD | atom::BODY | atom::HTML | atom::BR) =>
            {
                self.parse_error(ErrorCode::UnexpectedEndTag);
                Flow::Done
            }
            _ => self.before_head_anything_else(token),
        }
    }

    fn before_head_anything_else<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        let head = self.insert_html_element_named(atom::HEAD);
        self.head = Some(head);
        self.mode = InsertionMode::InHead;
        Flow::Reprocess(token)
    }
}
