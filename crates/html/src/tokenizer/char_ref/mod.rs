//! 13.2.5.72-13.2.5.80: character references (`&amp;`, `&#x26;`, `&#38;`).
//!
//! The spec walks nine states; here one function reads the whole reference from the
//! buffer (it never spans more than the alphanumeric run after `&`, or the digits)
//! and reports `NeedMore` when the buffer ends before the longest match is known.

pub(crate) mod table;
#[cfg(test)]
mod table_tests;

use crate::error::ErrorCode;
use crate::tokenizer::{End, Tokenizer};
use table::{LONGEST_ENTITY_NAME, lookup_entity};

/// The replacement text of the named character reference `&name;` (`name`
/// without the `&` and the `;`), from the HTML Standard's table: exact and
/// case-sensitive. For code that decodes references outside the tokenizer, such
/// as wikitext, which only knows references closed by `;`; the tokenizer itself
/// also decodes the legacy names without `;` and the longest prefix match.
///
/// ```
/// use tagloom_html::tokenizer::named_reference;
///
/// assert_eq!(named_reference("ndash"), Some("\u{2013}"));
/// assert_eq!(named_reference("AMP"), Some("&"));
/// assert_eq!(named_reference("ampx"), None);
/// ```
pub fn named_reference(name: &str) -> Option<&'static str> {
    let mut key = [0u8; LONGEST_ENTITY_NAME];
    let key = key.get_mut(..=name.len())?;
    let (head, semi) = key.split_at_mut(name.len());
    head.copy_from_slice(name.as_bytes());
    semi.fill(b';');
    lookup_entity(key)
}

/// The longest named reference that may omit its `;` (`middot`, `frac34`…).
const LONGEST_LEGACY_NAME: usize = 6;

/// 13.2.5.80: code points 0x80-0x9F mapped as windows-1252 would.
const C1_REPLACEMENTS: [u32; 32] = [
    0x20AC, 0x81, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039,
    0x0152, 0x8D, 0x017D, 0x8F, 0x90, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
    0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x9D, 0x017E, 0x0178,
];

impl Tokenizer {
    /// 13.2.5.72 Character reference state, at the `&`. Appends the result to
    /// builder `which` (the text, or the attribute value when `in_attr`).
    pub(crate) fn consume_char_ref(&mut self, which: usize, in_attr: bool) -> Result<(), End> {
        let amp = self.pos;
        match self.peek_at(amp + 1) {
            Ok(b'#') => self.numeric_char_ref(which, amp),
            Ok(c) if c.is_ascii_alphanumeric() => self.named_char_ref(which, in_attr, amp),
            Err(End::NeedMore) => Err(End::NeedMore),
            // "Flush code points consumed as a character reference" (just `&`) and
            // reconsume in the return state.
            _ => {
                self.push_range(which, amp, amp + 1);
                self.pos = amp + 1;
                Ok(())
            }
        }
    }

    /// 13.2.5.73 Named character reference state and 13.2.5.74 ambiguous ampersand
    /// state.
    fn named_char_ref(&mut self, which: usize, in_attr: bool, amp: usize) -> Result<(), End> {
        let bytes = self.input.buf.as_bytes();
        let name_start = amp + 1;
        let rest = bytes.get(name_start..).unwrap_or(&[]);
        let run = rest
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric())
            .count();
        let after = name_start + run;
        let next = match self.peek_at(after) {
            Ok(c) => Some(c),
            Err(End::Eof) => None,
            Err(End::NeedMore) => return Err(End::NeedMore),
        };
        // Longest match: the whole run with its `;`, else a legacy name without one.
        let mut matched = None;
        if next == Some(b';')
            && run < LONGEST_ENTITY_NAME
            && let Some(chars) = bytes.get(name_start..after + 1).and_then(lookup_entity)
        {
            matched = Some((run + 1, chars, true));
        }
        if matched.is_none() {
            for len in (1..=run.min(LONGEST_LEGACY_NAME)).rev() {
                if let Some(chars) = bytes
                    .get(name_start..name_start + len)
                    .and_then(lookup_entity)
                {
                    matched = Some((len, chars, false));
                    break;
                }
            }
        }
        match matched {
            Some((len, chars, with_semicolon)) => {
                let end = name_start + len;
                if in_attr && !with_semicolon {
                    // "For historical reasons": `&not=` or `&notx` in an attribute
                    // stays literal.
                    let following = self.peek_at(end).ok();
                    if following.is_some_and(|c| c == b'=' || c.is_ascii_alphanumeric()) {
                        self.push_range(which, amp, end);
                        self.pos = end;
                        return Ok(());
                    }
                }
                if !with_semicolon {
                    self.error_before(
                        ErrorCode::MissingSemicolonAfterCharacterReference,
                        self.input.base + end,
                    );
                }
                self.push_text(which, chars);
                self.pos = end;
            }
            None => {
                // 13.2.5.74: the alphanumerics are ordinary characters; a `;` right
                // after them is an unknown-named-character-reference error.
                self.push_range(which, amp, after);
                self.pos = after;
                if next == Some(b';') {
                    self.error_at(
                        ErrorCode::UnknownNamedCharacterReference,
                        self.input.base + after,
                    );
                }
            }
        }
        Ok(())
    }

    /// 13.2.5.75-13.2.5.80: numeric character references.
    fn numeric_char_ref(&mut self, which: usize, amp: usize) -> Result<(), End> {
        let mut digits_start = amp + 2;
        let hex = match self.peek_at(digits_start) {
            Ok(b'x' | b'X') => {
                digits_start += 1;
                true
            }
            Err(End::NeedMore) => return Err(End::NeedMore),
            _ => false,
        };
        let bytes = self.input.buf.as_bytes();
        let rest = bytes.get(digits_start..).unwrap_or(&[]);
        let digits = rest
            .iter()
            .take_while(|b| {
                if hex {
                    b.is_ascii_hexdigit()
                } else {
                    b.is_ascii_digit()
                }
            })
            .count();
        let digits_end = digits_start + digits;
        let next = match self.peek_at(digits_end) {
            Ok(c) => Some(c),
            Err(End::Eof) => None,
            Err(End::NeedMore) => return Err(End::NeedMore),
        };
        if digits == 0 {
            // 13.2.5.76/77: no digits: the `&#` or `&#x` is text.
            self.error_at(
                ErrorCode::AbsenceOfDigitsInNumericCharacterReference,
                self.input.base + digits_start,
            );
            self.push_range(which, amp, digits_start);
            self.pos = digits_start;
            return Ok(());
        }
        // 13.2.5.78/79: accumulate, saturating past the Unicode range.
        let radix = if hex { 16 } else { 10 };
        let mut code: u32 = 0;
        for &b in &rest[..digits] {
            let digit = (b as char).to_digit(radix).unwrap_or(0);
            code = code
                .saturating_mul(radix)
                .saturating_add(digit)
                .min(0x11_0000);
        }
        let mut end = digits_end;
        if next == Some(b';') {
            end += 1;
        } else {
            self.error_at(
                ErrorCode::MissingSemicolonAfterCharacterReference,
                self.input.base + digits_end,
            );
        }
        // 13.2.5.80 Numeric character reference end state. After a `;` the error
        // position is the next, unread character; without one it is the character
        // that ended the digits, already read.
        let at = self.input.base + end;
        let before_next = end > digits_end;
        let report = |t: &mut Tokenizer, code| {
            if before_next {
                t.error_before(code, at)
            } else {
                t.error_at(code, at)
            }
        };
        let c = match code {
            0 => {
                report(self, ErrorCode::NullCharacterReference);
                '\u{FFFD}'
            }
            0x11_0000.. => {
                report(self, ErrorCode::CharacterReferenceOutsideUnicodeRange);
                '\u{FFFD}'
            }
            0xD800..=0xDFFF => {
                report(self, ErrorCode::SurrogateCharacterReference);
                '\u{FFFD}'
            }
            _ => {
                if is_noncharacter(code) {
                    report(self, ErrorCode::NoncharacterCharacterReference);
                }
                let control = code < 0x20 || (0x7F..=0x9F).contains(&code);
                let whitespace = matches!(code, 0x09 | 0x0A | 0x0C | 0x20);
                if code == 0x0D || (control && !whitespace) {
                    report(self, ErrorCode::ControlCharacterReference);
                }
                let code = match code {
                    0x80..=0x9F => C1_REPLACEMENTS[(code - 0x80) as usize],
                    _ => code,
                };
                char::from_u32(code).unwrap_or('\u{FFFD}')
            }
        };
        self.push_char(which, c);
        self.pos = end;
        Ok(())
    }
}

/// U+FDD0..U+FDEF and the last two code points of every plane.
fn is_noncharacter(code: u32) -> bool {
    (0xFDD0..=0xFDEF).contains(&code) || (code & 0xFFFE) == 0xFFFE
}
