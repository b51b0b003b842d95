//! Heading ids (a DOM pass in Parsoid, done here on tokens): the heading's text
//! with spaces as `_`, and `_2`, `_3`… for repeats, as MediaWiki's HTML5 anchors.

use std::collections::HashMap;

use tagloom_html::atom::{self, Atom};
use tagloom_html::token::{OwnedTag, OwnedToken};

use super::Transform;
use crate::token::{Tok, WikiToken};

#[derive(Default)]
pub(crate) struct HeadingIds {
    /// The open heading's tokens, its start tag first.
    open: Vec<WikiToken>,
    seen: HashMap<String, usize>,
}

fn is_heading(name: Atom) -> bool {
    matches!(
        name,
        atom::H1 | atom::H2 | atom::H3 | atom::H4 | atom::H5 | atom::H6
    )
}

/// An HTML5 anchor from heading text.
pub(crate) fn anchor(text: &str) -> String {
    let collapsed: Vec<&str> = text.split_whitespace().collect();
    collapsed.join("_")
}

/// MediaWiki's legacy anchor encoding (for `mw:FallbackId` spans): bytes other
/// than letters, digits, `-_.:` as `.XX`.
pub(crate) fn legacy_anchor(id: &str) -> String {
    let mut out = String::with_capacity(id.len());
    for b in id.bytes() {
        if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b':') {
            out.push(char::from(b));
        } else {
            out.push_str(&format!(".{b:02X}"));
        }
    }
    out
}

impl HeadingIds {
    fn finish(&mut self, out: &mut Vec<WikiToken>) {
        let mut tokens = std::mem::take(&mut self.open);
        let text: String = tokens.iter().filter_map(WikiToken::as_text).collect();
        let mut id = anchor(&text);
        if id.is_empty() {
            id = "_".to_owned();
        }
        let count = self.seen.entry(id.to_lowercase()).or_insert(0);
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
            tag.set_attr("id", id.as_str());
            let legacy = legacy_anchor(&id);
            if legacy != id {
                let span = OwnedTag::new("span")
                    .with_attr("id", legacy)
                    .with_attr("typeof", "mw:FallbackId");
                tokens.insert(1, WikiToken::start_tag(span));
                tokens.insert(2, WikiToken::end("span"));
            }
        }
        out.append(&mut tokens);
    }
}

impl Transform for HeadingIds {
    fn reset(&mut self) {
        *self = Self::default();
    }

    /// Outside a heading, every token but a heading's start passes.
    fn pass(&mut self, token: &WikiToken) -> bool {
        self.open.is_empty()
            && !(token.start_atom().is_some_and(is_heading) && token.span.is_some())
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
