//! 13.2.6.5 the rules for parsing tokens in foreign content (SVG and MathML).

use crate::atom;
use crate::dom_patch::Namespace;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::open_stack::{Category, ElemKey};
use crate::tree_builder::{Flow, TreeBuilder, foreign};

use super::is_ws;

impl TreeBuilder {
    pub(crate) fn foreign_content<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        match token {
            Token::Characters(t) => {
                // U+0000 becomes U+FFFD (a parse error); anything non-whitespace
                // sets frameset-ok to "not ok".
                let nuls = t.text.bytes().filter(|&b| b == 0).count();
                if nuls > 0 {
                    // One pass over the characters (a pattern search per NUL is
                    // slow on a long run of them).
                    self.text_errors(ErrorCode::UnexpectedNullInText, t.text, |c| c == '\0');
                    let fixed: String = t
                        .text
                        .chars()
                        .map(|c| if c == '\0' { '\u{FFFD}' } else { c })
                        .collect();
                    self.insert_text(&fixed);
                } else {
                    self.insert_text(t.text);
                }
                if t.text.chars().any(|c| !is_ws(c) && c != '\0') {
                    self.frameset_ok = false;
                }
                Flow::Done
            }
            Token::Comment(_) | Token::ProcessingInstruction(_) => {
                self.insert_comment_token(token, None);
                Flow::Done
            }
            Token::Doctype(_) => {
                self.parse_error(ErrorCode::UnexpectedDoctype);
                Flow::Done
            }
            Token::StartTag(tag)
                if foreign::is_breakout_tag(tag.name)
                    || (tag.name == atom::FONT
                        && (tag.attrs.value_of(atom::COLOR).is_some()
                            || tag.attrs.value_of(atom::FACE).is_some()
                            || tag.attrs.value_of(atom::SIZE).is_some())) =>
            {
                self.breakout(token)
            }
            Token::EndTag(tag) if matches!(tag.name, atom::BR | atom::P) => self.breakout(token),
            Token::StartTag(tag) => {
                let ns = self
                    .adjusted_current_node()
                    .and_then(|n| self.mirror.elem(n))
                    .map_or(Namespace::Html, |e| e.ns);
                self.insert_foreign_element(&tag, ns, false);
                if tag.self_closing {
                    // An SVG `script` would be processed here; either way the
                    // element is popped.
                    self.pop();
                }
                Flow::Done
            }
            Token::EndTag(tag) => {
                if tag.name == atom::SCRIPT
                    && self
                        .current_node()
                        .and_then(|n| self.mirror.elem(n))
                        .is_some_and(|e| e.ns == Namespace::Svg && e.name == atom::SCRIPT)
                {
                    self.pop();
                    return Flow::Done;
                }
                self.foreign_end_tag(tag.name, token)
            }
            Token::Eof => self.process_in_mode(token),
        }
    }

    /// Breakout: parse error; pop until a MathML text integration point, an HTML
    /// integration point or an HTML element; reprocess in the insertion mode.
    fn breakout<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        self.parse_error(ErrorCode::HtmlStartTagInForeignContent);
        while let Some(node) = self.current_node() {
            let Some(e) = self.mirror.elem(node) else {
                break;
            };
            let stop = e.ns == Namespace::Html
                || e.html_integration_point
                || (e.ns == Namespace::MathMl && foreign::is_mathml_text_integration_point(e.name));
            if stop {
                break;
            }
            self.pop();
        }
        Flow::Reprocess(token)
    }

    /// "Any other end tag" in foreign content: walking down from the current
    /// node, pop up to the first element with the token's name, unless an HTML
    /// element comes first (then the insertion mode's rules apply) or the walk
    /// reaches the bottom of the stack (fragment case). Answered from the stack's
    /// index, not by a walk.
    fn foreign_end_tag<'a>(&mut self, name: crate::atom::Atom, token: Token<'a>) -> Flow<'a> {
        let top = self.open.len().saturating_sub(1);
        if self
            .open
            .get(top)
            .and_then(|n| self.mirror.elem(n))
            .is_some_and(|e| e.name != name)
        {
            self.parse_error(ErrorCode::UnexpectedEndTag);
        }
        let html = self.open.top_in(Category::Html);
        let matching = [Namespace::Svg, Namespace::MathMl]
            .into_iter()
            .filter_map(|ns| self.open.top(ElemKey { ns, name }))
            .max();
        if let Some(m) = matching
            && m > 0
            && html.is_none_or(|h| m > h)
        {
            self.open.truncate(m);
            return Flow::Done;
        }
        // Otherwise the walk reaches an HTML element (the `html` root at the
        // latest), unless it starts at the bottom (fragment case).
        if top == 0 {
            Flow::Done
        } else {
            self.process_in_mode(token)
        }
    }
}
