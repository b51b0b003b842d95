//! 13.2.6.4.1 the "initial" insertion mode.

use crate::dom_patch::QuirksMode;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::insert::Place;
use crate::tree_builder::mirror::Kind;
use crate::tree_builder::quirks;
use crate::tree_builder::sink::TreeSink;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder};

use super::{chars, split_leading_ws};

impl TreeBuilder {
    pub(crate) fn initial<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        match token {
            // Whitespace is ignored.
            Token::Characters(t) => {
                let (_, rest) = split_leading_ws(t.text);
                if rest.is_empty() {
                    return Flow::Done;
                }
                self.initial_anything_else(chars(t, rest))
            }
            Token::Comment(_) | Token::ProcessingInstruction(_) => {
                self.insert_comment_token(token, Some(Place::Append(self.document)));
                Flow::Done
            }
            Token::Doctype(d) => {
                if quirks::doctype_is_error(&d) {
                    self.parse_error(ErrorCode::NonConformingDoctype);
                }
                let node = self.mirror.add(Kind::Other);
                let key = self.mirror.key(node);
                self.emit.create_doctype(
                    key,
                    d.name.unwrap_or(""),
                    d.public_id.unwrap_or(""),
                    d.system_id.unwrap_or(""),
                );
                self.append_to(self.document, node);
                let mode = quirks::doctype_mode(&d);
                if mode != QuirksMode::NoQuirks {
                    self.set_quirks(mode);
                }
                self.mode = InsertionMode::BeforeHtml;
                Flow::Done
            }
            _ => self.initial_anything_else(token),
        }
    }

    fn initial_anything_else<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        self.parse_error(ErrorCode::MissingDoctype);
        self.set_quirks(QuirksMode::Quirks);
        self.mode = InsertionMode::BeforeHtml;
        Flow::Reprocess(token)
    }
}
