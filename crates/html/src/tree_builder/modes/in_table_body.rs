//! 13.2.6.4.13 the "in table body" insertion mode.

use crate::atom;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::stack::Scope;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder};

impl TreeBuilder {
    pub(crate) fn in_table_body<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        use atom::*;
        const BODY_CONTEXT: &[crate::atom::Atom] = &[TBODY, TFOOT, THEAD, TEMPLATE];
        match token {
            Token::StartTag(tag) if tag.name == TR => {
                self.clear_stack_back_to(BODY_CONTEXT);
                self.insert_html_element(&tag);
                self.mode = InsertionMode::InRow;
                Flow::Done
            }
            Token::StartTag(tag) if matches!(tag.name, TH | TD) => {
                self.parse_error(ErrorCode::UnexpectedStartTag);
                self.clear_stack_back_to(BODY_CONTEXT);
                self.insert_html_element_named(TR);
                self.mode = InsertionMode::InRow;
                Flow::Reprocess(token)
            }
            Token::EndTag(tag) if matches!(tag.name, TBODY | TFOOT | THEAD) => {
                if !self.has_in_scope(tag.name, Scope::Table) {
                    self.parse_error(ErrorCode::EndTagWithoutOpenElement);
                    return Flow::Done;
                }
                self.clear_stack_back_to(BODY_CONTEXT);
                self.pop();
                self.mode = InsertionMode::InTable;
                Flow::Done
            }
            Token::StartTag(tag)
                if matches!(tag.name, CAPTION | COL | COLGROUP | TBODY | TFOOT | THEAD) =>
            {
                self.leave_table_body(token)
            }
            Token::EndTag(tag) if tag.name == TABLE => self.leave_table_body(token),
            Token::EndTag(tag)
                if matches!(
                    tag.name,
                    BODY | CAPTION | COL | COLGROUP | HTML | TD | TH | TR
                ) =>
            {
                self.parse_error(ErrorCode::UnexpectedEndTag);
                Flow::Done
            }
            _ => self.in_table(token),
        }
    }

    /// Closes the table section (if one is in table scope) and reprocesses.
    fn leave_table_body<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        use atom::*;
        if !(self.has_in_scope(TBODY, Scope::Table)
            || self.has_in_scope(THEAD, Scope::Table)
            || self.has_in_scope(TFOOT, Scope::Table))
        {
            self.parse_error(ErrorCode::EndTagWithoutOpenElement);
            return Flow::Done;
        }
        self.clear_stack_back_to(&[TBODY, TFOOT, THEAD, TEMPLATE]);
        self.pop();
        self.mode = InsertionMode::InTable;
        Flow::Reprocess(token)
    }
}
