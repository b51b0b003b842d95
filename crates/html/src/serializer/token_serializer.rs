//! [`TokenSerializer`]: writes a whole token list as HTML with html5lib's
//! serializer options (see [`SerializeOptions`]), including the two that look
//! ahead: optional-tag omission and `<meta charset>` injection.
//!
//! Pipeline, in html5lib's filter order: split character data into whitespace and
//! other runs, inject `<meta charset>`, then per item decide omission (optional
//! tags, which look one item back and ahead), whitespace collapsing and escaping.
//! For a stream written token by token, see [`TokenWriter`](super::TokenWriter).

use std::fmt::{self, Write};

use crate::token::OwnedToken;

use super::meta_charset;
use super::options::SerializeOptions;
use super::stream;
use super::write::ItemWriter;

/// Serializes token lists; reusable.
///
/// html5lib's `EmptyTag` is a start tag of an element that serializes as void
/// (`<br>`, `<meta>`…): such a tag gets no end tag, and the omission rules treat
/// it as empty. A tag's [`ns`](crate::token::OwnedTag::ns) and its attributes'
/// namespaces are written as html5lib does (no prefix for elements, `xlink:` and
/// so on for attributes).
///
/// ```
/// use tagloom_html::serializer::{SerializeOptions, TokenSerializer};
/// use tagloom_html::token::{OwnedTag, OwnedToken};
///
/// let p = OwnedTag::new("p").with_attr("class", "a b").with_attr("hidden", "");
/// let tokens = [
///     OwnedToken::start("html"),
///     OwnedToken::StartTag(p),
///     OwnedToken::text("1 < 2"),
///     OwnedToken::end("p"),
///     OwnedToken::end("html"),
/// ];
/// let mut serializer = TokenSerializer::new(SerializeOptions::default());
/// assert_eq!(serializer.to_string(&tokens), "<p class=\"a b\" hidden=\"\">1 &lt; 2");
/// ```
#[derive(Clone, Debug, Default)]
pub struct TokenSerializer {
    writer: ItemWriter,
}

impl TokenSerializer {
    /// A serializer with these options.
    pub fn new(options: SerializeOptions) -> TokenSerializer {
        TokenSerializer {
            writer: ItemWriter::new(options),
        }
    }

    /// The options.
    pub fn options(&self) -> &SerializeOptions {
        &self.writer.options
    }

    /// Serializes `tokens` into a new `String`.
    pub fn to_string(&mut self, tokens: &[OwnedToken]) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = self.serialize(tokens, &mut out);
        out
    }

    /// Serializes `tokens` into `out`.
    pub fn serialize<W: Write + ?Sized>(
        &mut self,
        tokens: &[OwnedToken],
        out: &mut W,
    ) -> fmt::Result {
        let mut items = Vec::with_capacity(tokens.len() + 2);
        stream::build(tokens, &mut items);
        if self.writer.options.inject_meta_charset.is_some() {
            meta_charset::inject(&mut items);
        }
        self.writer.reset();
        for (i, item) in items.iter().enumerate() {
            let previous = i.checked_sub(1).and_then(|p| items.get(p));
            let next = items.get(i + 1);
            self.writer.write_item(item, previous, next, out)?;
        }
        Ok(())
    }
}
