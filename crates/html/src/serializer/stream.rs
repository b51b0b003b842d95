//! The token serializer's working stream: tokens with character data split into
//! whitespace and non-whitespace runs, and room for an injected `<meta charset>`.
//!
//! The split matters because several omission rules ask whether the next thing is
//! "ASCII whitespace", and `strip_whitespace` treats the runs differently.

use crate::dom_patch::Namespace;

use super::token::{SerializerToken, TokenAttr};

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
    Doctype {
        name: &'a str,
        public_id: &'a str,
        system_id: &'a str,
    },
    Start {
        ns: Namespace,
        name: &'a str,
        attrs: &'a [TokenAttr<'a>],
        /// html5lib's `EmptyTag`.
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
pub(crate) fn build<'a>(tokens: &[SerializerToken<'a>], items: &mut Vec<Item<'a>>) {
    items.clear();
    for token in tokens {
        match *token {
            SerializerToken::Doctype {
                name,
                public_id,
                system_id,
            } => items.push(Item::Doctype {
                name,
                public_id,
                system_id,
            }),
            SerializerToken::StartTag { ns, name, attrs } => items.push(Item::Start {
                ns,
                name,
                attrs,
                empty: false,
                rewrite: MetaRewrite::None,
            }),
            SerializerToken::EmptyTag { name, attrs } => items.push(Item::Start {
                ns: Namespace::Html,
                name,
                attrs,
                empty: true,
                rewrite: MetaRewrite::None,
            }),
            SerializerToken::EndTag { ns, name } => items.push(Item::End { ns, name }),
            SerializerToken::Comment(data) => items.push(Item::Comment(data)),
            SerializerToken::Characters(text) => split_text(text, items),
        }
    }
}

fn split_text<'a>(text: &'a str, items: &mut Vec<Item<'a>>) {
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
        items.push(Item::Space(s));
    }
    if let Some(s) = text.get(lead..middle_end).filter(|s| !s.is_empty()) {
        items.push(Item::Text(s));
    }
    if let Some(s) = text.get(middle_end..).filter(|s| !s.is_empty()) {
        items.push(Item::Space(s));
    }
}
