//! 13.2.6.4.15 the "in cell" insertion mode.

use crate::atom;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::stack::Scope;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder};

impl TreeBuilder {
    pub(crate) fn in_cell<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        use atom::*;
        match token {
            Token::EndTag(tag) if matches!(tag.name, TD | TH) => {
                if !self.has_in_scope(tag.name, Scope::Table) {
                    self.parse_error(ErrorCode::EndTagWithoutOpenElement);
                    return Flow::Done;
                }
                self.generate_implied_end_tags(None);
                if !self.current_is(tag.name) {
                    self.parse_error(ErrorCode::ImplicitlyClosedElements);
                }
                self.pop_until(tag.name);
                self.active.clear_to_last_marker();
                self.mode = InsertionMode::InRow;
                Flow::Done
            }
            Token::StartTag(tag)
                if matches!(
                    tag.name,
                    CAPTION | COL | COLGROUP | TBODY | TD | TFOOT | TH | THEAD | TR
                ) =>
            {
                // A.6: asserted to have a cell in table scope; checked anyway.
                if !self.has_in_scope(TD, Scope::Table) && !self.has_in_scope(TH, Scope::Table) {
                    self.parse_error(ErrorCode::EndTagWithoutOpenElement);
                    return Flow::Done;
                }
                self.close_cell();
                Flow::Reprocess(token)
            }
            Token::EndTag(tag) if matches!(tag.name, BODY | CAPTION | COL | COLGROUP | HTML) => {
                self.parse_error(ErrorCode::UnexpectedEndTag);
                Flow::Done
            }
            Token::EndTag(tag) if matches!(tag.name, TABLE | TBODY | TFOOT | THEAD | TR) => {
                if !self.has_in_scope(tag.name, Scope::Table) {
                    self.parse_error(ErrorCode::EndTagWithoutOpenElement);
                    return Flow::Done;
                }
                self.close_cell();
                Flow::Reprocess(token)
            }
            _ => self.in_body(token),
        }
    }

    /// 13.2.6.4.15 "close the cell".
    fn close_cell(&mut self) {
        self.generate_implied_end_tags(None);
        if !self.current_is(atom::TD) && !self.current_is(atom::TH) {
            self.parse_error(ErrorCode::ImplicitlyClosedElements);
        }
        self.pop_until_where(|n| matches!(n, atom::TD | atom::TH));
        self.active.clear_to_last_marker();
        self.mode = InsertionMode::InRow;
    }
}
