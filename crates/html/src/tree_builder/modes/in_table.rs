//! 13.2.6.4.9 the "in table" insertion mode.

use crate::atom;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::stack::Scope;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder, tag_sets};

impl TreeBuilder {
    pub(crate) fn in_table<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        use atom::*;
        match token {
            Token::Characters(_)
                if self
                    .current_node()
                    .and_then(|n| self.html_name(n))
                    .is_some_and(tag_sets::is_table_context_for_text) =>
            {
                self.pending_table_text.clear();
                self.pending_table_text_non_ws = false;
                self.original_mode = self.mode;
                self.mode = InsertionMode::InTableText;
                Flow::Reprocess(token)
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
                CAPTION => {
                    self.clear_stack_back_to(&[TABLE, TEMPLATE]);
                    self.active.push_marker();
                    self.insert_html_element(&tag);
                    self.mode = InsertionMode::InCaption;
                    Flow::Done
                }
                COLGROUP => {
                    self.clear_stack_back_to(&[TABLE, TEMPLATE]);
                    self.insert_html_element(&tag);
                    self.mode = InsertionMode::InColumnGroup;
                    Flow::Done
                }
                COL => {
                    self.clear_stack_back_to(&[TABLE, TEMPLATE]);
                    self.insert_html_element_named(COLGROUP);
                    self.mode = InsertionMode::InColumnGroup;
                    Flow::Reprocess(token)
                }
                TBODY | TFOOT | THEAD => {
                    self.clear_stack_back_to(&[TABLE, TEMPLATE]);
                    self.insert_html_element(&tag);
                    self.mode = InsertionMode::InTableBody;
                    Flow::Done
                }
                TD | TH | TR => {
                    self.clear_stack_back_to(&[TABLE, TEMPLATE]);
                    self.insert_html_element_named(TBODY);
                    self.mode = InsertionMode::InTableBody;
                    Flow::Reprocess(token)
                }
                TABLE => {
                    self.parse_error(ErrorCode::UnexpectedNestedElement);
                    if !self.has_in_scope(TABLE, Scope::Table) {
                        return Flow::Done;
                    }
                    self.pop_until(TABLE);
                    self.reset_insertion_mode();
                    Flow::Reprocess(token)
                }
                STYLE | SCRIPT | TEMPLATE => self.in_head(token),
                INPUT
                    if tag
                        .attrs
                        .value_of(TYPE)
                        .is_some_and(|t| t.eq_ignore_ascii_case("hidden")) =>
                {
                    self.parse_error(ErrorCode::FosterParentedContent);
                    self.insert_void_element(&tag);
                    Flow::Done
                }
                FORM => {
                    self.parse_error(ErrorCode::FosterParentedContent);
                    if self.has_open(TEMPLATE) || self.form.is_some() {
                        return Flow::Done;
                    }
                    let form = self.insert_html_element(&tag);
                    self.form = Some(form);
                    if self.current_node() == Some(form) {
                        self.pop();
                    }
                    Flow::Done
                }
                _ => self.in_table_anything_else(token),
            },
            Token::EndTag(tag) => match tag.name {
                TABLE => {
                    if !self.has_in_scope(TABLE, Scope::Table) {
                        self.parse_error(ErrorCode::EndTagWithoutOpenElement);
                        return Flow::Done;
                    }
                    self.pop_until(TABLE);
                    self.reset_insertion_mode();
                    Flow::Done
                }
                BODY | CAPTION | COL | COLGROUP | HTML | TBODY | TD | TFOOT | TH | THEAD | TR => {
                    self.parse_error(ErrorCode::UnexpectedEndTag);
                    Flow::Done
                }
                TEMPLATE => self.in_head(token),
                _ => self.in_table_anything_else(token),
            },
            Token::Eof => self.in_body(token),
            Token::Characters(_) => self.in_table_anything_else(token),
        }
    }

    /// "Anything else": parse error; process in "in body" with foster parenting.
    pub(crate) fn in_table_anything_else<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        self.parse_error(ErrorCode::FosterParentedContent);
        self.foster_parenting = true;
        let flow = self.in_body(token);
        self.foster_parenting = false;
        flow
    }
}
