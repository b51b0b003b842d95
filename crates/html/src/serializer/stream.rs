//! The token serializer's working stream: tokens with character data split into
//! whitespace and non-whitespace runs, and room for an injected `<meta charset>`.
//!
//! The split matters because several omission rules ask whether the next thing is
//! "ASCII whitespace", and `strip_whitespace` treats the runs differently.

use std::fmt;

use crate::dom_patch::Namespace;
use crate::token::{OwnedAttribute, OwnedToken};

use super::elements::serializes_as_void;

/// How an element's attributes are rewritten by `inject_meta_charset`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum MetaRewrite {
    None,
    /// Replace the `charset` attribute's value with the encoding.
    Charset,
    /// Replace the `content` attribute's value with `text/html; charset=…`.
    ContentType,
}

/// One item of the working stream.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Item<'a> {
    /// Missing identifiers are empty.
    Doctype {
        name: &'a str,
        public_id: &'a str,
        system_id: &'a str,
    },
    Start {
        ns: Namespace,
        name: &'a str,
        attrs: &'a [OwnedAttribute],
        self_closing: bool,
        /// An element without content (html5lib's `EmptyTag`): one that
        /// serializes as void.
        empty: bool,
        rewrite: MetaRewrite,
    },
    /// The injected `<meta charset=…>` (an empty tag).
    MetaCharset,
    End {
        ns: Namespace,
        name: &'a str,
    },
    Comment(&'a str),
    ProcessingInstruction {
        target: &'a str,
        data: &'a str,
    },
    /// Characters without leading or trailing ASCII whitespace.
    Text(&'a str),
    /// Only ASCII whitespace.
    Space(&'a str),
}

impl<'a> Item<'a> {
    /// For the omission rules: the HTML tag this item starts, with whether it is
    /// an empty tag.
    pub(crate) fn html_start(&self) -> Option<(&'a str, bool)> {
        match *self {
            Item::Start {
                ns: Namespace::Html,
                name,
                empty,
                ..
            } => Some((name, empty)),
            Item::MetaCharset => Some(("meta", true)),
            _ => None,
        }
    }
}

/// ASCII whitespace as html5lib's serializer splits it: tab, LF, FF, CR, space.
pub(crate) fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// Converts `tokens` into `items` (cleared first).
pub(crate) fn build<'a>(tokens: &'a [OwnedToken], items: &mut Vec<Item<'a>>) {
    items.clear();
    for token in tokens {
        // Pushing cannot fail.
        let _ = for_each_item(token, |item| {
            items.push(item);
            Ok(())
        });
    }
}

/// Calls `f` with the items of one token, in order (none for end of input).
pub(crate) fn for_each_item<'a>(
    token: &'a OwnedToken,
    mut f: impl FnMut(Item<'a>) -> fmt::Result,
) -> fmt::Result {
    match token {
        OwnedToken::Doctype(d) => f(Item::Doctype {
            name: d.name().unwrap_or_default(),
            public_id: d.public_id().unwrap_or_default(),
            system_id: d.system_id().unwrap_or_default(),
        }),
        OwnedToken::StartTag(tag) => {
            let name = tag.name().as_str();
            f(Item::Start {
                ns: tag.ns(),
                name,
                attrs: tag.attrs(),
                self_closing: tag.self_closing(),
                empty: serializes_as_void(tag.ns(), name),
                rewrite: MetaRewrite::None,
            })
        }
        OwnedToken::EndTag(tag) => f(Item::End {
            ns: tag.ns(),
            name: tag.name().as_str(),
        }),
        OwnedToken::Comment(c) => f(Item::Comment(c.text())),
        OwnedToken::ProcessingInstruction(pi) => f(Item::ProcessingInstruction {
            target: pi.target(),
            data: pi.data(),
        }),
        OwnedToken::Characters(t) => split_text(t.text(), f),
        OwnedToken::Eof => Ok(()),
    }
}

fn split_text<'a>(text: &'a str, mut f: impl FnMut(Item<'a>) -> fmt::Result) -> fmt::Result {
    let bytes = text.as_bytes();
    let lead = bytes.iter().take_while(|&&b| is_space(b)).count();
    let trail = bytes
        .get(lead..)
        .unwrap_or_default()
        .iter()
        .rev()
        .take_while(|&&b| is_space(b))
        .count();
    let middle_end = bytes.len() - trail;
    // Whitespace bytes are ASCII, so these are character boundaries.
    if let Some(s) = text.get(..lead).filter(|s| !s.is_empty()) {
        f(Item::Space(s))?;
    }
    if let Some(s) = text.get(lead..middle_end).filter(|s| !s.is_empty()) {
        f(Item::Text(s))?;
    }
    if let Some(s) = text.get(middle_end..).filter(|s| !s.is_empty()) {
        f(Item::Space(s))?;
    }
    Ok(())
}
