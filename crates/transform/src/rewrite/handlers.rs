//! The handler registry: selectors and the closures that run on what they match.

use super::element::{Element, ElementContent};
use super::error::HandlerResult;
use super::nodes::{Comment, Doctype, DocumentEnd, EndTag, TextChunk};
use super::selector::{Selector, SelectorError};

pub(crate) type ElementFn<'h> = Box<dyn FnMut(&mut Element<'_, 'h>) -> HandlerResult + 'h>;
pub(crate) type TextFn<'h> = Box<dyn FnMut(&mut TextChunk<'_>) -> HandlerResult + 'h>;
pub(crate) type CommentFn<'h> = Box<dyn FnMut(&mut Comment<'_>) -> HandlerResult + 'h>;
pub(crate) type DoctypeFn<'h> = Box<dyn FnMut(&mut Doctype<'_>) -> HandlerResult + 'h>;
pub(crate) type EndTagFn<'h> = Box<dyn FnMut(&mut EndTag<'_>) -> HandlerResult + 'h>;
pub(crate) type ContentFn<'h> = Box<dyn FnMut(&mut ElementContent<'_>) -> HandlerResult + 'h>;
pub(crate) type EndFn<'h> = Box<dyn FnMut(&mut DocumentEnd<'_>) -> HandlerResult + 'h>;

/// Handlers by selector, run in the order they were added. Every method parses its
/// selector and returns the [`SelectorError`] if it does not parse, so
/// registrations chain with `?`:
///
/// ```
/// use tagloom_transform::rewrite::{ContentType, Handlers, rewrite_str, Settings};
///
/// let mut handlers = Handlers::new();
/// handlers
///     .element("a[href^='http:']", |el| {
///         el.set_attribute("rel", "nofollow")?;
///         Ok(())
///     })?
///     .text("h1", |t| {
///         if t.last_in_text_node() {
///             t.after("!", ContentType::Text);
///         }
///         Ok(())
///     })?;
/// let out = rewrite_str("<h1>Hi</h1><a href='http://x'>x</a>", handlers, Settings::default())?;
/// assert_eq!(out, "<h1>Hi!</h1><a href='http://x' rel=\"nofollow\">x</a>");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Default)]
pub struct Handlers<'h> {
    pub(crate) element: Vec<(Selector, ElementFn<'h>)>,
    pub(crate) end_tag: Vec<(Selector, EndTagFn<'h>)>,
    pub(crate) content: Vec<(Selector, usize, ContentFn<'h>)>,
    /// `None`: every text chunk of the document. `bool`: whole text nodes.
    pub(crate) text: Vec<(Option<Selector>, bool, TextFn<'h>)>,
    pub(crate) comments: Vec<(Option<Selector>, CommentFn<'h>)>,
    pub(crate) doctype: Vec<DoctypeFn<'h>>,
    pub(crate) end: Vec<EndFn<'h>>,
}

impl<'h> Handlers<'h> {
    /// No handlers: the rewriter then copies its input.
    pub fn new() -> Self {
        Self::default()
    }

    /// Runs `handler` on the start tag of every element `selector` matches.
    pub fn element(
        &mut self,
        selector: &str,
        handler: impl FnMut(&mut Element<'_, 'h>) -> HandlerResult + 'h,
    ) -> Result<&mut Self, SelectorError> {
        self.element
            .push((Selector::parse_compiled_only(selector)?, Box::new(handler)));
        Ok(self)
    }

    /// Runs `handler` at the end of every element `selector` matches (its end tag,
    /// or where it ends implicitly); void elements have no end.
    pub fn end_tag(
        &mut self,
        selector: &str,
        handler: impl FnMut(&mut EndTag<'_>) -> HandlerResult + 'h,
    ) -> Result<&mut Self, SelectorError> {
        self.end_tag
            .push((Selector::parse_compiled_only(selector)?, Box::new(handler)));
        Ok(self)
    }

    /// Runs `handler` at the end of every element `selector` matches, with the
    /// element's content (as rewritten by the other handlers). The element's output
    /// is held until then, at most `max_bytes` of content: a larger element stops
    /// the rewrite with [`RewriteError::ContentTooLarge`](super::RewriteError::ContentTooLarge).
    pub fn element_content(
        &mut self,
        selector: &str,
        max_bytes: usize,
        handler: impl FnMut(&mut ElementContent<'_>) -> HandlerResult + 'h,
    ) -> Result<&mut Self, SelectorError> {
        self.content.push((
            Selector::parse_compiled_only(selector)?,
            max_bytes,
            Box::new(handler),
        ));
        Ok(self)
    }

    /// Runs `handler` on the text chunks inside every element `selector` matches
    /// (its descendants' text included), as the tokenizer delivers them.
    pub fn text(
        &mut self,
        selector: &str,
        handler: impl FnMut(&mut TextChunk<'_>) -> HandlerResult + 'h,
    ) -> Result<&mut Self, SelectorError> {
        self.text.push((
            Some(Selector::parse_compiled_only(selector)?),
            false,
            Box::new(handler),
        ));
        Ok(self)
    }

    /// Like [`text`](Self::text), but each call gets a whole text node (the text
    /// is held until the next tag or comment, at most
    /// [`Settings::max_text_node_bytes`](super::Settings::max_text_node_bytes)).
    pub fn text_nodes(
        &mut self,
        selector: &str,
        handler: impl FnMut(&mut TextChunk<'_>) -> HandlerResult + 'h,
    ) -> Result<&mut Self, SelectorError> {
        self.text.push((
            Some(Selector::parse_compiled_only(selector)?),
            true,
            Box::new(handler),
        ));
        Ok(self)
    }

    /// Runs `handler` on the comments inside every element `selector` matches.
    pub fn comments(
        &mut self,
        selector: &str,
        handler: impl FnMut(&mut Comment<'_>) -> HandlerResult + 'h,
    ) -> Result<&mut Self, SelectorError> {
        self.comments.push((
            Some(Selector::parse_compiled_only(selector)?),
            Box::new(handler),
        ));
        Ok(self)
    }

    /// Runs `handler` on every text chunk of the document, inside elements or not.
    pub fn document_text(
        &mut self,
        handler: impl FnMut(&mut TextChunk<'_>) -> HandlerResult + 'h,
    ) -> &mut Self {
        self.text.push((None, false, Box::new(handler)));
        self
    }

    /// Runs `handler` on every comment of the document.
    pub fn document_comments(
        &mut self,
        handler: impl FnMut(&mut Comment<'_>) -> HandlerResult + 'h,
    ) -> &mut Self {
        self.comments.push((None, Box::new(handler)));
        self
    }

    /// Runs `handler` on the DOCTYPE.
    pub fn doctype(
        &mut self,
        handler: impl FnMut(&mut Doctype<'_>) -> HandlerResult + 'h,
    ) -> &mut Self {
        self.doctype.push(Box::new(handler));
        self
    }

    /// Runs `handler` once at the end of the document.
    pub fn document_end(
        &mut self,
        handler: impl FnMut(&mut DocumentEnd<'_>) -> HandlerResult + 'h,
    ) -> &mut Self {
        self.end.push(Box::new(handler));
        self
    }
}
