//! 13.2.6.4.4 the "in head" insertion mode (A.5: `<template shadowrootmode>` is
//! an ordinary template here, as declarative shadow roots are not attached).

use crate::atom;
use crate::error::ErrorCode;
use crate::token::{Tag, Token};
use crate::tree_builder::{EncodingRequest, Flow, InsertionMode, TokenizerSwitch, TreeBuilder};

use super::{chars, split_leading_ws};

impl TreeBuilder {
    pub(crate) fn in_head<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        match token {
            Token::Characters(t) => {
                let (ws, rest) = split_leading_ws(t.text);
                self.insert_text(ws);
                if rest.is_empty() {
                    return Flow::Done;
                }
                self.in_head_anything_else(chars(t, rest))
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
                atom::BASE | atom::BASEFONT | atom::BGSOUND | atom::LINK => {
                    self.insert_void_element(&tag);
                    Flow::Done
                }
                atom::META => {
                    self.insert_void_element(&tag);
                    self.note_meta_encoding(&tag);
                    Flow::Done
                }
                atom::TITLE => {
                    self.parse_text_element(&tag, TokenizerSwitch::Rcdata);
                    Flow::Done
                }
                atom::NOSCRIPT if self.config.scripting => {
                    self.parse_text_element(&tag, TokenizerSwitch::Rawtext);
                    Flow::Done
                }
                atom::NOFRAMES | atom::STYLE => {
                    self.parse_text_element(&tag, TokenizerSwitch::Rawtext);
                    Flow::Done
                }
                atom::NOSCRIPT => {
                    self.insert_html_element(&tag);
                    self.mode = InsertionMode::InHeadNoscript;
                    Flow::Done
                }
                atom::SCRIPT => {
                    self.parse_text_element(&tag, TokenizerSwitch::ScriptData);
                    Flow::Done
                }
                atom::TEMPLATE => {
                    // A.5 step 1–9 (no declarative shadow roots): an ordinary
                    // template with its own formatting scope and mode.
                    self.active.push_marker();
                    self.frameset_ok = false;
                    self.mode = InsertionMode::InTemplate;
                    self.template_modes.push(InsertionMode::InTemplate);
                    self.insert_html_element(&tag);
                    Flow::Done
                }
                atom::HEAD => {
                    self.parse_error(ErrorCode::UnexpectedStartTag);
                    Flow::Done
                }
                _ => self.in_head_anything_else(token),
            },
            Token::EndTag(tag) => match tag.name {
                atom::HEAD => {
                    self.pop();
                    self.mode = InsertionMode::AfterHead;
                    Flow::Done
                }
                atom::BODY | atom::HTML | atom::BR => self.in_head_anything_else(token),
                atom::TEMPLATE => {
                    self.end_template();
                    Flow::Done
                }
                _ => {
                    self.parse_error(ErrorCode::UnexpectedEndTag);
                    Flow::Done
                }
            },
            Token::Eof => self.in_head_anything_else(token),
        }
    }

    fn in_head_anything_else<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        self.pop();
        self.mode = InsertionMode::AfterHead;
        Flow::Reprocess(token)
    }

    /// 13.2.6.2 the generic raw text / RCDATA element parsing algorithms (and
    /// `script`, whose steps differ only in the tokenizer state).
    pub(crate) fn parse_text_element(&mut self, tag: &Tag<'_>, state: TokenizerSwitch) {
        self.insert_html_element(tag);
        self.tokenizer_switch = Some(state);
        self.original_mode = self.mode;
        self.mode = InsertionMode::Text;
    }

    /// 13.2.6.4.4 "an end tag whose tag name is template".
    pub(crate) fn end_template(&mut self) {
        if !self.has_open(atom::TEMPLATE) {
            self.parse_error(ErrorCode::EndTagWithoutOpenElement);
            return;
        }
        self.generate_all_implied_end_tags_thoroughly();
        if !self.current_is(atom::TEMPLATE) {
            self.parse_error(ErrorCode::ImplicitlyClosedElements);
        }
        self.pop_until(atom::TEMPLATE);
        self.active.clear_to_last_marker();
        self.template_modes.pop();
        self.reset_insertion_mode();
    }

    /// 13.2.6.4.4 `meta`: a `charset`, or `http-equiv="content-type"` with a
    /// `content` naming one, may change the encoding (left to the session).
    fn note_meta_encoding(&mut self, tag: &Tag<'_>) {
        let encoding = crate::decoder::meta_declared_encoding(
            tag.attrs.value_of(atom::CHARSET),
            tag.attrs.value_of(atom::HTTP_EQUIV),
            tag.attrs.value_of(atom::CONTENT),
        );
        if let Some(encoding) = encoding {
            self.encoding_request = Some(EncodingRequest {
                encoding,
                offset: tag.span.start,
            });
        }
    }
}
