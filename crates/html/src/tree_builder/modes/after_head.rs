//! 13.2.6.4.6 the "after head" insertion mode.

use crate::atom;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder};

use super::{chars, split_leading_ws};

impl TreeBuilder {
    pub(crate) fn after_head<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        match token {
            Token::Characters(t) => {
                let (ws, rest) = split_leading_ws(t.text);
                self.insert_text(ws);
                if rest.is_empty() {
                    return Flow::Done;
                }
                self.after_head_anything_else(chars(t, rest))
            }
            Token::Comment(_) | Token::ProcessingInstruction(_) => {
                self.insert_comment_token(token, None);
                Flow::Done
            }
            Token::Doctype(_) => {
                self.parse_error(ErrorCode::UnexpectedDoctype);
                Flow::Done
            }
            Token::StartTag(tag) => match tag.name {
                atom::HTML => self.in_body(token),
                atom::BODY => {
                    self.insert_html_element(&tag);
                    self.frameset_ok = false;
                    self.mode = InsertionMode::InBody;
                    Flow::Done
                }
                atom::FRAMESET => {
                    self.insert_html_element(&tag);
                    self.mode = InsertionMode::InFrameset;
                    Flow::Done
                }
                atom::BASE
                | atom::BASEFONT
                | atom::BGSOUND
                | atom::LINK
                | atom::META
                | atom::NOFRAMES
                | atom::SCRIPT
                | atom::STYLE
                | atom::TEMPLATE
                | atom::TITLE => {
                    // Parse error; process in "in head" with the head element
                    // pushed back on the stack for the duration.
                    self.parse_error(ErrorCode::UnexpectedStartTag);
                    let Some(head) = self.head else {
                        return self.in_head(token);
                    };
                    self.open.push(head, &self.mirror);
                    let flow = self.in_head(token);
                    if let Some(i) = self.open.position(head) {
                        self.open.remove(i);
                    }
                    flow
                }
                atom::HEAD => {
                    self.parse_error(ErrorCode::UnexpectedStartTag);
                    Flow::Done
                }
                _ => self.after_head_anything_else(token),
            },
            Token::EndTag(tag) => match tag.name {
                atom::TEMPLATE => self.in_head(token),
                atom::BODY | atom::HTML | atom::BR => self.after_head_anything_else(token),
                _ => {
                    self.parse_error(ErrorCode::UnexpectedEndTag);
                    Flow::Done
                }
            },
            Token::Eof => self.after_head_anything_else(token),
        }
    }

    fn after_head_anything_else<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        self.insert_html_element_named(atom::BODY);
        self.mode = InsertionMode::InBody;
        Flow::Reprocess(token)
    }
}
