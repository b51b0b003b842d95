//! 13.2.6.4.20 the "in frameset" insertion mode.

use crate::atom;
use crate::token::Token;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder};

use super::is_ws;

impl TreeBuilder {
    pub(crate) fn in_frameset<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        use atom::*;
        match token {
            Token::Characters(t) => {
                self.insert_frameset_whitespace(t.text);
                Flow::Done
            }
            Token::Comment(t) => {
                self.insert_comment(t.text, None);
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
                    self.parse_error();
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
                    self.parse_error();
                }
                self.stop_parsing();
                Flow::Done
            }
            _ => {
                self.parse_error();
                Flow::Done
            }
        }
    }

    /// "in frameset" / "after frameset": whitespace characters are inserted,
    /// every other character is a parse error and ignored.
    pub(crate) fn insert_frameset_whitespace(&mut self, text: &str) {
        let ws: String = text.chars().filter(|&c| is_ws(c)).collect();
        if ws.len() < text.len() {
            self.parse_error();
        }
        self.insert_text(&ws);
    }
}
