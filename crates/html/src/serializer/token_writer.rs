//! [`TokenWriter`]: writes a token stream one token at a time, optionally
//! byte-preserving.

use std::fmt::{self, Write};

use crate::token::OwnedToken;

use super::options::SerializeOptions;
use super::source::SourceText;
use super::stream;
use super::write::ItemWriter;

/// An option a [`TokenWriter`] cannot apply, because deciding it needs tokens
/// that have not arrived yet. Use [`TokenSerializer`](super::TokenSerializer) on
/// the whole list for these.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NeedsLookahead {
    /// `omit_optional_tags`: whether a tag may be left out depends on what follows.
    #[error("omit_optional_tags needs the next token; use TokenSerializer")]
    OmitOptionalTags,
    /// `inject_meta_charset`: the `<meta>` goes after `<head>` only if none came
    /// before `</head>`.
    #[error("inject_meta_charset needs the whole head; use TokenSerializer")]
    InjectMetaCharset,
}

/// Writes tokens one at a time, optionally byte-preserving.
///
/// Nothing is buffered: each call writes its token and remembers only whether the
/// stream is inside a raw-text element (and, with `strip_whitespace`, inside a
/// whitespace-preserving one), so a rewriter or a pipeline can stream a document
/// of any size through it. This is the same item writer as
/// [`TokenSerializer`](super::TokenSerializer)'s, without the two options that need
/// to see later tokens (see [`NeedsLookahead`]).
///
/// **Byte-preserving mode** ([`write_preserving`](TokenWriter::write_preserving)):
/// a token that is not [modified](crate::token::OwnedToken::is_modified) and has a
/// span is written as the source text of its span, exactly as it was read; every
/// other token is serialized. A rewrite that changes one attribute therefore
/// changes only that tag's bytes. Spans tile the input, except that bytes the
/// tokenizer consumes without a token at the very end (the `]]>` closing a CDATA
/// section, an unfinished tag) are in no span: at end of input, a consumer that
/// wants every byte back copies the source after the last span itself.
///
/// Serialized tokens follow the spec's serialization (§13.3) with the
/// [`SerializeOptions::spec`] defaults: text escaped (`&`, U+00A0, `<`, `>`) unless
/// inside a raw-text element (`script`, `style`… in the HTML namespace: set
/// [`OwnedTag::set_ns`](crate::token::OwnedTag::set_ns) from the
/// [`TextTypeSimulator`](crate::text_type::TextTypeSimulator) so that `<style>` in
/// SVG counts as foreign), attribute values double-quoted and escaped, a valueless
/// attribute written bare, the self-closing flag as `/`, end tags without
/// attributes. Text inside a raw-text element is written as it is, as the spec
/// does: a program that puts `</script` into a script's text ends the element
/// there (a sanitizer must check such text; the writer does not).
///
/// ```
/// use tagloom_html::serializer::TokenWriter;
/// use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
/// use tagloom_html::token::{OwnedToken, Token};
/// use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
///
/// let source = "<P CLASS=x>a &amp; b<script>if (a<b) go()</script>";
/// let mut tok = Tokenizer::new(TokenizerConfig::default());
/// let mut sim = TextTypeSimulator::new(SimulatorConfig::default());
/// tok.push_str(source);
/// tok.finish();
/// let mut writer = TokenWriter::new();
/// let mut out = String::new();
/// while let Some(token) = tok.next_token().unwrap() {
///     let mut owned = token.to_owned();
///     let effect = sim.process_owned(&owned);
///     if let Some(state) = effect.switch {
///         tok.set_state(state.into());
///     }
///     if let OwnedToken::StartTag(tag) = &mut owned {
///         tag.set_ns(effect.ns);
///         if tag.name() == "p" {
///             tag.set_attr("id", "first");
///         }
///     }
///     writer.write_preserving(&owned, source, &mut out).unwrap();
/// }
/// // Only the changed tag is re-serialized; the rest is the source, byte for byte.
/// assert_eq!(out, "<p class=\"x\" id=\"first\">a &amp; b<script>if (a<b) go()</script>");
/// ```
#[derive(Clone, Debug)]
pub struct TokenWriter {
    writer: ItemWriter,
}

impl Default for TokenWriter {
    fn default() -> TokenWriter {
        TokenWriter::new()
    }
}

impl TokenWriter {
    /// A writer with the spec's serialization ([`SerializeOptions::spec`]).
    pub fn new() -> TokenWriter {
        TokenWriter {
            writer: ItemWriter::new(SerializeOptions::spec()),
        }
    }

    /// A writer with these options; refused if one of them needs lookahead.
    pub fn with_options(options: SerializeOptions) -> Result<TokenWriter, NeedsLookahead> {
        if options.omit_optional_tags {
            return Err(NeedsLookahead::OmitOptionalTags);
        }
        if options.inject_meta_charset.is_some() {
            return Err(NeedsLookahead::InjectMetaCharset);
        }
        Ok(TokenWriter {
            writer: ItemWriter::new(options),
        })
    }

    /// The options.
    pub fn options(&self) -> &SerializeOptions {
        &self.writer.options
    }

    /// Serializes `token` (end of input writes nothing).
    pub fn write<W: Write + ?Sized>(&mut self, token: &OwnedToken, out: &mut W) -> fmt::Result {
        let writer = &mut self.writer;
        stream::for_each_item(token, |item| writer.write_item(&item, None, None, out))
    }

    /// Writes `token` as its source text when it is unmodified and `source` holds
    /// its span, and serializes it otherwise (see [`TokenWriter`]).
    pub fn write_preserving<W: Write + ?Sized, S: SourceText + ?Sized>(
        &mut self,
        token: &OwnedToken,
        source: &S,
        out: &mut W,
    ) -> fmt::Result {
        if !token.is_modified()
            && let Some(text) = token.span().and_then(|span| source.source_text(span))
        {
            let writer = &mut self.writer;
            // Tracking cannot fail.
            let _ = stream::for_each_item(token, |item| {
                writer.track(&item);
                Ok(())
            });
            return out.write_str(text);
        }
        self.write(token, out)
    }

    /// Starts a new stream: forgets whether the last one ended inside a raw-text
    /// element.
    pub fn reset(&mut self) {
        self.writer.reset();
    }
}
