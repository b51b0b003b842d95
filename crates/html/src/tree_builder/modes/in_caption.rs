//! 13.2.6.4.11 the "in caption" insertion mode.

use crate::atom;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::stack::Scope;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder};

impl TreeBuilder {
    pub(crate) fn in_caption<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        use atom::*;
        match token {
            Token::EndTag(tag) if tag.name == CAPTION => {
                self.close_caption();
                Flow::Done
            }
            Token::StartTag(tag)
                if matches!(
                    tag.name,
                    CAPTION | COL | COLGROUP | TBODY | TD | TFOOT | TH | THEAD | TR
                ) =>
            {
                if self.close_caption() {
                    Flow::Reprocess(token)
                } else {
                    Flow::Done
                }
            }
            Token::EndTag(tag) if tag.name == TABLE => {
                if self.close_caption() {
                    Flow::Reprocess(token)
                } else {
                    Flow::Done
                }
            }
            Token::EndTag(tag)
                if matches!(
                    tag.name,
                    BODY | COL | COLGROUP | HTML | TBODY | TD | TFOOT | TH | THEAD | TR
                ) =>
            {
                self.parse_error(ErrorCode::UnexpectedEndTag);
                Flow::Done
            }
            _ => self.in_body(token),
        }
    }

    /// Closes the caption if one is in table scope; false (a parse error) if not.
    fn close_caption(&mut self) -> bool {
        if !self.has_in_scope(atom::CAPTION, Scope::Table) {
            self.parse_error(ErrorCode::EndTagWithoutOpenElement);
            return false;
        }
        self.generate_implied_end_tags(None);
        if !self.current_is(atom::CAPTION) {
            self.parse_error(ErrorCode::ImplicitlyClosedElements);
        }
        self.pop_until(atom::CAPTION);
        self.active.clear_to_last_marker();
        self.mode = InsertionMode::InTable;
        true
    }
}
