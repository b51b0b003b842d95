//! 13.2.6.4.2 the "before html" insertion mode.

use crate::atom;
use crate::dom_patch::Namespace;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::insert::Place;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder};

use super::{chars, split_leading_ws};

impl TreeBuilder {
    pub(crate) fn before_html<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        match token {
            Token::Doctype(_) => {
                self.parse_error(ErrorCode::UnexpectedDoctype);
                Flow::Done
            }
            Token::Comment(_) | Token::ProcessingInstruction(_) => {
                self.insert_comment_token(token, Some(Place::Append(self.document)));
                Flow::Done
            }
            Token::Characters(t) => {
                let (_, rest) = split_leading_ws(t.text);
                if rest.is_empty() {
                    return Flow::Done;
                }
                self.before_html_anything_else(chars(t, rest))
            }
            Token::StartTag(tag) if tag.name == atom::HTML => {
                let html = self.create_element_for(&tag, Namespace::Html);
                self.append_to(self.document, html);
                self.open.push(html, &self.mirror);
                self.mode = InsertionMode::BeforeHead;
                Flow::Done
            }
            Token::EndTag(tag)
                if !matches!(tag.name, atom::HEAD | atom::BODY | atom::HTML | atom::BR) =>
            {
                self.parse_error(ErrorCode::UnexpectedEndTag);
                Flow::Done
            }
            _ => self.before_html_anything_else(token),
        }
    }

    fn before_html_anything_else<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        let html = self.create_element(
            Namespace::Html,
            atom::HTML,
            "html".into(),
            crate::tree_builder::sink::ElementAttrs::none(),
        );
        self.append_to(self.document, html);
        self.open.push(html, &self.mirror);
        self.mode = InsertionMode::BeforeHead;
        Flow::Reprocess(token)
    }
}
