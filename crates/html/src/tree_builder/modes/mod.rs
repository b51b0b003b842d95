//! 13.2.6.4: one file per insertion mode, plus 13.2.6.5 foreign content. Each
//! mode is a method on [`TreeBuilder`](super::TreeBuilder) that returns a
//! [`Flow`](super::Flow).

mod after_after_body;
mod after_after_frameset;
mod after_body;
mod after_frameset;
mod after_head;
mod before_head;
mod before_html;
mod foreign_content;
mod in_body;
mod in_caption;
mod in_cell;
mod in_column_group;
mod in_frameset;
mod in_head;
mod in_head_noscript;
mod in_row;
mod in_table;
mod in_table_body;
mod in_table_text;
mod in_template;
mod initial;
mod text;

pub(super) use in_body::has_nul;

use crate::error::ErrorCode;
use crate::token::{Text, Token};

use super::TreeBuilder;

/// The spec's whitespace characters for tree construction: TAB, LF, FF, CR, SPACE.
pub(crate) fn is_ws(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\x0C' | '\r' | ' ')
}

/// Splits a run into its leading whitespace and the rest.
pub(crate) fn split_leading_ws(s: &str) -> (&str, &str) {
    let end = s.find(|c| !is_ws(c)).unwrap_or(s.len());
    (s.get(..end).unwrap_or(""), s.get(end..).unwrap_or(""))
}

/// A character token holding `s` (a piece of `text`'s run).
pub(crate) fn chars<'a>(text: Text<'a>, s: &'a str) -> Token<'a> {
    Token::Characters(Text { text: s, ..text })
}

impl TreeBuilder {
    /// A mode that inserts whitespace characters and ignores every other one
    /// ("in frameset", "after frameset", and "in column group" when the current
    /// node is not a `colgroup`): the rules apply to each character of the run on
    /// its own, so whitespace after an ignored character is still inserted. Each
    /// ignored character is a parse error.
    pub(crate) fn insert_whitespace_ignore_others(&mut self, text: &str) {
        let ws: String = text.chars().filter(|&c| is_ws(c)).collect();
        self.text_errors(ErrorCode::UnexpectedText, text, |c| !is_ws(c));
        self.insert_text(&ws);
    }
}
