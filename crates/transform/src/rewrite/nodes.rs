//! The views handlers get of text, comments, the DOCTYPE, end tags and the end of
//! the document.

use super::content::{ContentType, NodeEdits, check_name, node_edits, push_content};
use super::error::RewriteError;

/// A piece of text (see [`Handlers::text`](super::Handlers::text)), or a whole text
/// node (see [`Handlers::text_nodes`](super::Handlers::text_nodes)).
///
/// As in lol-html, a text node may arrive in several chunks and ends with a chunk
/// for which [`last_in_text_node`](Self::last_in_text_node) is true (possibly
/// empty). Unlike lol-html, [`as_str`](Self::as_str) is the text after
/// character references are decoded (`&amp;` is `&`); [`source`](Self::source) is
/// the markup as written.
#[derive(Debug)]
pub struct TextChunk<'a> {
    pub(crate) text: &'a str,
    pub(crate) source: &'a str,
    pub(crate) last: bool,
    pub(crate) edits: &'a mut NodeEdits,
}

impl<'a> TextChunk<'a> {
    /// The text, character references decoded.
    pub fn as_str(&self) -> &'a str {
        self.text
    }

    /// The text as it is written in the input.
    pub fn source(&self) -> &'a str {
        self.source
    }

    /// Whether this is the last chunk of its text node.
    pub fn last_in_text_node(&self) -> bool {
        self.last
    }
}

node_edits!(TextChunk);

/// A comment.
#[derive(Debug)]
pub struct Comment<'a> {
    pub(crate) text: &'a str,
    pub(crate) edits: &'a mut NodeEdits,
}

impl<'a> Comment<'a> {
    /// The comment's data (between `<!--` and `-->`).
    pub fn text(&self) -> &'a str {
        self.text
    }

    /// Replaces the comment's data; refuses text that would end the comment early.
    pub fn set_text(&mut self, text: &str) -> Result<(), RewriteError> {
        if text.contains("-->") || text.starts_with('>') || text.starts_with("->") {
            return Err(RewriteError::InvalidComment);
        }
        self.edits.replacement = Some(format!("<!--{text}-->"));
        Ok(())
    }
}

node_edits!(Comment);

/// The DOCTYPE.
#[derive(Debug)]
pub struct Doctype<'a> {
    pub(crate) name: Option<&'a str>,
    pub(crate) public_id: Option<&'a str>,
    pub(crate) system_id: Option<&'a str>,
    pub(crate) edits: &'a mut NodeEdits,
}

impl<'a> Doctype<'a> {
    /// The name, lowercased (`Some("html")`).
    pub fn name(&self) -> Option<&'a str> {
        self.name
    }

    /// The public identifier.
    pub fn public_id(&self) -> Option<&'a str> {
        self.public_id
    }

    /// The system identifier.
    pub fn system_id(&self) -> Option<&'a str> {
        self.system_id
    }
}

node_edits!(Doctype);

/// An element's end, explicit (`</p>`) or implied (the element was closed by
/// another tag or the end of input). See [`Element::on_end_tag`](super::Element::on_end_tag).
#[derive(Debug)]
pub struct EndTag<'a> {
    pub(crate) name: &'a mut Option<String>,
    pub(crate) original: &'a str,
    pub(crate) implicit: bool,
    pub(crate) edits: &'a mut NodeEdits,
}

impl EndTag<'_> {
    /// The element's tag name (as renamed, if it was).
    pub fn name(&self) -> &str {
        self.name.as_deref().unwrap_or(self.original)
    }

    /// Renames the end tag (and, for an implied end, writes one with this name).
    pub fn set_name(&mut self, name: &str) -> Result<(), RewriteError> {
        check_name(name)?;
        *self.name = Some(name.to_ascii_lowercase());
        Ok(())
    }

    /// Whether the input has no end tag here (the element ends implicitly).
    pub fn is_implicit(&self) -> bool {
        self.implicit
    }
}

node_edits!(EndTag);

/// The end of the document: content appended here comes last.
#[derive(Debug)]
pub struct DocumentEnd<'a> {
    pub(crate) out: &'a mut String,
}

impl DocumentEnd<'_> {
    /// Appends `content` at the end of the document.
    pub fn append(&mut self, content: &str, kind: ContentType) {
        push_content(self.out, content, kind);
    }
}
