//! 13.2.6.4.14 the "in row" insertion mode.

use crate::atom;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::stack::Scope;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder};

impl TreeBuilder {
    pub(crate) fn in_row<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        use atom::*;
        match token {
            Token::StartTag(tag) if matches!(tag.name, TH | TD) => {
                self.clear_stack_back_to(&[TR, TEMPLATE]);
                self.insert_html_element(&tag);
                self.mode = InsertionMode::InCell;
                self.active.push_marker();
                Flow::Done
            }
            Token::EndTag(tag) if tag.name == TR => {
                self.close_row();
                Flow::Done
            }
            Token::StartTag(tag)
                if matches!(
                    tag.name,
                    CAPTION | COL | COLGROUP | TBODY | TFOOT | THEAD | TR
                ) =>
            {
                if self.close_row() {
                    Flow::Reprocess(token)
                } else {
                    Flow::Done
                }
            }
            Token::EndTag(tag) if tag.name == TABLE => {
                if self.close_row() {
                    Flow::Reprocess(token)
                } else {
                    Flow::Done
                }
            }
            Token::EndTag(tag) if matches!(tag.name, TBODY | TFOOT | THEAD) => {
                if !self.has_in_scope(tag.name, Scope::Table) {
                    self.parse_error(ErrorCode::EndTagWithoutOpenElement);
                    return Flow::Done;
                }
                if self.close_row() {
                    Flow::Reprocess(token)
                } else {
                    Flow::Done
                }
            }
            Token::EndTag(tag)
                if matches!(tag.name, BODY | CAPTION | COL | COLGROUP | HTML | TD | TH) =>
            {
                self.parse_error(ErrorCode::UnexpectedEndTag);
                Flow::Done
            }
            _ => self.in_table(token),
        }
    }

    /// Closes the row if a `tr` is in table scope; false (a parse error) if not.
    fn close_row(&mut self) -> bool {
        if !self.has_in_scope(atom::TR, Scope::Table) {
            self.parse_error(ErrorCode::EndTagWithoutOpenElement);
            return false;
        }
        self.clear_stack_back_to(&[atom::TR, atom::TEMPLATE]);
        self.pop();
        self.mode = InsertionMode::InTableBody;
        true
    }
}
