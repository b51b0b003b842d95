//! 13.2.6.4.7 the "in body" insertion mode (with A.6's `select` rules): character,
//! comment, DOCTYPE and end-of-file tokens here; tags in `start_tags.rs` and
//! `end_tags.rs`.

mod end_tags;
mod start_tags;

use crate::atom;
use crate::error::ErrorCode;
use crate::token::Token;
use crate::tree_builder::{Flow, TreeBuilder};

use super::is_ws;

impl TreeBuilder {
    pub(crate) fn in_body<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        match token {
            Token::Characters(t) => {
                self.in_body_characters(t.text);
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
            Token::StartTag(tag) => self.in_body_start_tag(tag, token),
            Token::EndTag(tag) => self.in_body_end_tag(tag, token),
            Token::Eof => self.in_body_eof(token),
        }
    }

    /// Character tokens: U+0000 is a parse error and ignored; anything else
    /// reconstructs the active formatting elements and is inserted; a
    /// non-whitespace character sets frameset-ok to "not ok". The characters
    /// around the NULs all go to the same place (reconstructing again is a no-op),
    /// so they are inserted together: one patch, not one per NUL-separated piece
    /// (8 MiB of "\0\n" made four million).
    pub(crate) fn in_body_characters(&mut self, text: &str) {
        let nul = has_nul(text);
        if nul {
            self.text_errors(ErrorCode::UnexpectedNullInText, text, |c| c == '\0');
        }
        let without_nuls;
        let text = if !nul {
            text
        } else {
            let mut kept = text.to_owned();
            kept.retain(|c| c != '\0');
            without_nuls = kept;
            &without_nuls
        };
        if text.is_empty() {
            return;
        }
        self.reconstruct_active_formatting();
        self.insert_text_inline(text);
        // Once "not ok", it stays so: no need to look at the text again.
        if self.frameset_ok && text.chars().any(|c| !is_ws(c)) {
            self.frameset_ok = false;
        }
    }

    /// End of file: hand over to "in template" if a template is open; otherwise
    /// a parse error if an element other than the allowed ones is still open,
    /// then stop parsing.
    fn in_body_eof<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        if !self.template_modes.is_empty() {
            return self.in_template(token);
        }
        if self.has_unclosed_at_body_end() {
            self.parse_error(ErrorCode::EofWithOpenElements);
        }
        self.stop_parsing();
        Flow::Done
    }

    /// 13.2.7 "stop parsing": pop everything.
    pub(crate) fn stop_parsing(&mut self) {
        self.open.clear();
    }

    /// Whether an end tag for `body` would find a `body` in scope.
    pub(crate) fn body_in_scope(&self) -> bool {
        self.has_in_scope(atom::BODY, crate::tree_builder::stack::Scope::Default)
    }
}

/// Whether `text` holds a NUL (the text "in body" drops). Most runs are
/// short (a newline, a word): eight bytes a step beats the call into memchr
/// there.
#[inline]
pub(crate) fn has_nul(text: &str) -> bool {
    if text.len() < 32 {
        short_has_nul(text.as_bytes())
    } else {
        memchr::memchr(0, text.as_bytes()).is_some()
    }
}

/// Whether `bytes` (a short run) holds a NUL: eight bytes a step (the
/// "has a zero byte" test on a word), the rest one by one.
#[inline]
fn short_has_nul(bytes: &[u8]) -> bool {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let mut words = bytes.chunks_exact(8);
    for word in &mut words {
        let mut w = [0u8; 8];
        w.copy_from_slice(word);
        let v = u64::from_le_bytes(w);
        if v.wrapping_sub(LOW) & !v & HIGH != 0 {
            return true;
        }
    }
    words.remainder().contains(&0)
}

#[cfg(test)]
mod short_nul_tests {
    #[test]
    fn finds_a_nul_anywhere_and_only_a_nul() {
        for len in 0..32 {
            let clean: Vec<u8> = (0..len).map(|i| 0x80 | (i as u8 * 7)).collect();
            assert!(!super::short_has_nul(&clean));
            assert!(!super::short_has_nul(&vec![1u8; len]));
            for at in 0..len {
                let mut with = clean.clone();
                with[at] = 0;
                assert!(super::short_has_nul(&with), "len {len} at {at}");
            }
        }
    }

    #[test]
    fn has_nul_is_contains_on_both_sides_of_the_short_limit() {
        for len in 0..80 {
            let clean = "abcdefghij".repeat(8)[..len].to_owned();
            assert!(!super::has_nul(&clean), "len {len}");
            for at in 0..len {
                let with = format!("{}\0{}", &clean[..at], &clean[at + 1..]);
                assert!(super::has_nul(&with), "len {len} at {at}");
            }
        }
    }
}
