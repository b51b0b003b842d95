//! §13.2.9 "Coercing an HTML DOM into an infoset": the tweaks an XML pipeline needs
//! for what the HTML parser produces (character data and comments XML cannot hold,
//! names that are not XML names).
//!
//! ```
//! use tagloom_html::xml_infoset::{coerce_comment, coerce_name, coerce_text};
//! assert_eq!(coerce_text("a\u{C}b\u{FFFF}"), "a b\u{FFFD}");
//! assert_eq!(coerce_comment(" a -- b -"), " a - - b - ");
//! assert_eq!(coerce_name("foo<bar"), "fooU00003Cbar");
//! ```

use std::borrow::Cow;

/// Whether `c` is a character XML 1.0 allows (its `Char` production).
fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Character data, attribute values and comment text: FORM FEED becomes a space and
/// any other non-XML character U+FFFD.
pub fn coerce_text(text: &str) -> Cow<'_, str> {
    if text.chars().all(|c| c != '\u{C}' && is_xml_char(c)) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| match c {
                '\u{C}' => ' ',
                c if is_xml_char(c) => c,
                _ => '\u{FFFD}',
            })
            .collect(),
    )
}

/// Comment data: as [`coerce_text`], plus a space between two consecutive hyphens and
/// after a final hyphen.
pub fn coerce_comment(data: &str) -> Cow<'_, str> {
    let text = coerce_text(data);
    if !text.contains("--") && !text.ends_with('-') {
        return text;
    }
    let mut out = String::with_capacity(text.len() + 4);
    let mut previous_hyphen = false;
    for c in text.chars() {
        if c == '-' && previous_hyphen {
            out.push(' ');
        }
        previous_hyphen = c == '-';
        out.push(c);
    }
    if out.ends_with('-') {
        out.push(' ');
    }
    Cow::Owned(out)
}

/// An element or attribute local name: each character that may not appear in an XML
/// name (at its position) becomes `U` and six uppercase hex digits.
pub fn coerce_name(name: &str) -> Cow<'_, str> {
    let ok = |i: usize, c: char| is_name_start(c) || (i > 0 && is_name_char(c));
    if name.chars().enumerate().all(|(i, c)| ok(i, c)) {
        return Cow::Borrowed(name);
    }
    let mut out = String::with_capacity(name.len() + 8);
    for (i, c) in name.chars().enumerate() {
        if ok(i, c) {
            out.push(c);
        } else {
            out.push_str(&format!("U{:06X}", c as u32));
        }
    }
    Cow::Owned(out)
}

/// XML 1.0 (5th ed.) `NameStartChar`, without `:` (names here are local names).
fn is_name_start(c: char) -> bool {
    matches!(c,
        'A'..='Z' | '_' | 'a'..='z' | '\u{C0}'..='\u{D6}' | '\u{D8}'..='\u{F6}'
        | '\u{F8}'..='\u{2FF}' | '\u{370}'..='\u{37D}' | '\u{37F}'..='\u{1FFF}'
        | '\u{200C}'..='\u{200D}' | '\u{2070}'..='\u{218F}' | '\u{2C00}'..='\u{2FEF}'
        | '\u{3001}'..='\u{D7FF}' | '\u{F900}'..='\u{FDCF}' | '\u{FDF0}'..='\u{FFFD}'
        | '\u{10000}'..='\u{EFFFF}')
}

/// XML 1.0 `NameChar`, without `:`.
fn is_name_char(c: char) -> bool {
    is_name_start(c)
        || matches!(c, '-' | '.' | '0'..='9' | '\u{B7}' | '\u{300}'..='\u{36F}' | '\u{203F}'..='\u{2040}')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn leaves_xml_clean_text_borrowed() {
        assert!(matches!(coerce_text("plain text é 😀"), Cow::Borrowed(_)));
        assert!(matches!(coerce_comment(" a - b "), Cow::Borrowed(_)));
        assert!(matches!(coerce_name("svg-path"), Cow::Borrowed(_)));
    }

    #[test]
    fn rewrites_what_xml_rejects() {
        assert_eq!(coerce_text("\u{1}\u{FFFE}"), "\u{FFFD}\u{FFFD}");
        assert_eq!(coerce_comment("---"), "- - - ");
        assert_eq!(coerce_name("xlink:href"), "xlinkU00003Ahref");
        assert_eq!(coerce_name("1a"), "U000031a");
    }
}
