//! 13.2.6.4.18 the "in template" insertion mode.

use crate::atom;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder};

impl TreeBuilder {
    pub(crate) fn in_template<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        use atom::*;
        match token {
            Token::Characters(_)
            | Token::Comment(_)
            | Token::ProcessingInstruction(_)
            | Token::Doctype(_) => self.in_body(token),
            Token::StartTag(tag) => match tag.name {
                BASE | BASEFONT | BGSOUND | LINK | META | NOFRAMES | SCRIPT | STYLE | TEMPLATE
                | TITLE => self.in_head(token),
                CAPTION | COLGROUP | TBODY | TFOOT | THEAD => {
                    self.switch_template_mode(InsertionMode::InTable, token)
                }
                COL => self.switch_template_mode(InsertionMode::InColumnGroup, token),
                TR => self.switch_template_mode(InsertionMode::InTableBody, token),
                TD | TH => self.switch_template_mode(InsertionMode::InRow, token),
                _ => self.switch_template_mode(InsertionMode::InBody, token),
            },
            Token::EndTag(tag) if tag.name == TEMPLATE => self.in_head(token),
            Token::EndTag(_) => {
                self.parse_error(ErrorCode::UnexpectedEndTag);
                Flow::Done
            }
            Token::Eof => {
                if !self.has_open(TEMPLATE) {
                    // Fragment case: stop parsing.
                    self.stop_parsing();
                    return Flow::Done;
                }
                self.parse_error(ErrorCode::EofWithOpenElements);
                self.pop_until(TEMPLATE);
                self.active.clear_to_last_marker();
                self.template_modes.pop();
                self.reset_insertion_mode();
                Flow::Reprocess(token)
            }
        }
    }

    /// Replaces the current template insertion mode with `mode`, switches to it
    /// and reprocesses.
    fn switch_template_mode<'a>(&mut self, mode: InsertionMode, token: Token<'a>) -> Flow<'a> {
        self.template_modes.pop();
        self.template_modes.push(mode);
        self.mode = mode;
        Flow::Reprocess(token)
    }
}
