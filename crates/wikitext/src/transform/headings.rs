//! Heading ids (a DOM pass in Parsoid, done here on tokens): the heading's text
//! with spaces as `_`, and `_2`, `_3`… for repeats, as MediaWiki's HTML5 anchors.

use foldhash::HashMap;

use tagloom_html::atom::{self, Atom};
use tagloom_html::token::{OwnedTag, OwnedToken};

use super::Transform;
use super::pair::PurePass;
use crate::token::{Tok, WikiToken};

#[derive(Default)]
pub(crate) struct HeadingIds {
    /// The open heading's tokens, its start tag first.
    open: Vec<WikiToken>,
    seen: HashMap<String, usize>,
    /// A reused buffer: the open heading's text.
    text: String,
}

fn is_heading(name: Atom) -> bool {
    matches!(
        name,
        atom::H1 | atom::H2 | atom::H3 | atom::H4 | atom::H5 | atom::H6
    )
}

/// An HTML5 anchor from heading text: its words joined by `_`.
pub(crate) fn anchor(text: &str) -> String {
    let mut id = String::with_capacity(text.len());
    for word in text.split_whitespace() {
        if !id.is_empty() {
            id.push('_');
        }
        id.push_str(word);
    }
    id
}

/// Whether a legacy anchor keeps `b` as it is.
fn legacy_keeps(b: u8) -> bool {
    b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':')
}

/// MediaWiki's legacy anchor encoding (for `mw:FallbackId` spans): bytes other
/// than letters, digits, `-_.:` as `.XX`.
pub(crate) fn legacy_anchor(id: &str) -> String {
    const HEX: &[u8; 16] = b"0123456789ABCDEF";
    let mut out = String::with_capacity(id.len());
    for b in id.bytes() {
        if legacy_keeps(b) {
            out.push(char::from(b));
        } else {
            out.push('.');
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 15)]));
        }
    }
    out
}

impl HeadingIds {
    fn finish(&mut self, out: &mut Vec<WikiToken>) {
        let mut tokens = std::mem::take(&mut self.open);
        let mut text = std::mem::take(&mut self.text);
        text.clear();
        text.extend(tokens.iter().filter_map(WikiToken::as_text));
        let mut id = anchor(&text);
        self.text = text;
        if id.is_empty() {
            id = "_".to_owned();
        }
        let key = if id.is_ascii() {
            id.to_ascii_lowercase()
        } else {
            id.to_lowercase()
        };
        let count = self.seen.entry(key).or_insert(0);
        *count += 1;
        if *count > 1 {
            id = format!("{id}_{count}");
        }
        if let Some(WikiToken {
            tok: Tok::Html(OwnedToken::StartTag(tag)),
            ..
        }) = tokens.first_mut()
            && !tag.has_attr("id")
        {
            let legacy = (!id.bytes().all(legacy_keeps)).then(|| legacy_anchor(&id));
            tag.set_attr(atom::ID, id);
            if let Some(legacy) = legacy {
                let span = OwnedTag::new(atom::SPAN)
                    .with_attr(atom::ID, legacy)
                    .with_attr(atom::TYPEOF, "mw:FallbackId");
                tokens.insert(1, WikiToken::start_tag(span));
                tokens.insert(2, WikiToken::end(atom::SPAN));
            }
        }
        out.append(&mut tokens);
        // The buffer kept for the next heading.
        self.open = tokens;
    }
}

/// Outside a heading, every token but a heading's start passes; nothing
/// changes.
impl PurePass for HeadingIds {
    #[inline]
    fn passes(&self, token: &WikiToken) -> bool {
        self.open.is_empty()
            && !(token.start_atom().is_some_and(is_heading) && token.span.is_some())
    }
}

impl Transform for HeadingIds {
    fn reset(&mut self) {
        *self = Self::default();
    }

    /// Outside a heading, every token but a heading's start passes.
    fn pass(&mut self, token: &WikiToken) -> bool {
        self.passes(token)
    }

    fn push(&mut self, token: WikiToken, out: &mut Vec<WikiToken>) {
        if self.open.is_empty() {
            if token.start_atom().is_some_and(is_heading) && token.span.is_some() {
                self.open.push(token);
            } else {
                out.push(token);
            }
            return;
        }
        let ends = token.end_atom().is_some_and(is_heading);
        let stop = token.is_newline() || token.is_end();
        if stop {
            self.finish(out);
            out.push(token);
        } else {
            self.open.push(token);
            if ends {
                self.finish(out);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_join_words_and_legacy_ones_escape_bytes() {
        for text in [
            "",
            "  ",
            "Early life",
            " a \t b\u{3000}c ",
            "Ünïcode  name",
            "x",
        ] {
            let words: Vec<&str> = text.split_whitespace().collect();
            assert_eq!(anchor(text), words.join("_"), "{text:?}");
        }
        let all: String = (1..=0x7f_u8).map(char::from).chain(['é', '日']).collect();
        let expected: String = all
            .bytes()
            .map(|b| {
                if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':') {
                    char::from(b).to_string()
                } else {
                    format!(".{b:02X}")
                }
            })
            .collect();
        assert_eq!(legacy_anchor(&all), expected);
    }
}
