//! A streaming HTML rewriter with CSS-selector handlers, for users of lol-html.
//!
//! Bytes go in with [`Rewriter::write`] in pieces of any size; the rewritten
//! document comes out through an [`OutputSink`] (any `FnMut(&[u8])`, or an
//! [`io::Write`](std::io::Write) in an [`IoSink`]) as soon as it is decided.
//! Input no handler changes is written back byte for byte: the rewriter copies
//! the source between changes and serializes only what handlers changed, so a
//! no-op rewrite is an exact copy whatever the chunking.
//!
//! Nesting comes from the tree builder's rules without a tree
//! ([`tagloom_html::text_type::TextTypeSimulator`]): `<p>` closed by `<div>`, an
//! implied `tbody` before a `tr`, `<script>` and `<title>` content as text, SVG and
//! MathML. So `table > tbody > tr` matches as in a browser, and a `<style>` inside
//! `<svg>` is markup, not raw text. Elements the tree builder creates without a tag
//! (an `html`, `head` or `body` whose tag is missing, `tbody` before `tr`, the empty
//! `p` of a stray `</p>`) reach element handlers too, as implied elements
//! ([`Element::is_implied`]: no attributes; changes land where the tree builder
//! creates them), so handlers match the elements of the tree a browser builds. Memory is bounded: the stack of open elements
//! (at most [`Settings::max_depth`] entries), the largest token
//! ([`Settings::max_token_bytes`]) and whatever opt-in buffering a handler asked
//! for, each with a limit and a typed [`RewriteError`].
//!
//! Porting from lol-html: `element!(sel, f)` is [`Handlers::element`],
//! `text!` is [`Handlers::text`], `comments!` is [`Handlers::comments`],
//! `doctype!`/`doc_comments!`/`doc_text!`/`end!` are [`Handlers::doctype`],
//! [`Handlers::document_comments`], [`Handlers::document_text`],
//! [`Handlers::document_end`]; `HtmlRewriter::new(settings, sink)` is
//! [`Rewriter::new`]; `rewrite_str` is [`rewrite_str`]. What lol-html lacks:
//! [`Handlers::text_nodes`] (whole text nodes instead of chunks) and
//! [`Handlers::element_content`] (the element's content at its end, under a byte
//! budget).
//!
//! ```
//! use tagloom_transform::rewrite::{ContentType, Handlers, Rewriter, Settings};
//!
//! // lol-html:
//! //   let mut rw = HtmlRewriter::new(Settings { element_content_handlers: vec![
//! //       element!("a[href]", |el| { el.set_attribute("rel", "nofollow")?; Ok(()) }),
//! //   ], ..Settings::new() }, |c: &[u8]| out.extend_from_slice(c));
//! let mut out = Vec::new();
//! let mut handlers = Handlers::new();
//! handlers.element("a[href]", |el| {
//!     el.set_attribute("rel", "nofollow")?;
//!     Ok(())
//! })?;
//! handlers.element("img:not([alt])", |el| {
//!     el.set_attribute("alt", "")?;
//!     Ok(())
//! })?;
//! handlers.text_nodes("title", |t| {
//!     let upper = t.as_str().to_uppercase();
//!     t.replace(&upper, ContentType::Text);
//!     Ok(())
//! })?;
//! let mut rw = Rewriter::new(handlers, Settings::default(), |c: &[u8]| out.extend_from_slice(c));
//! for piece in [&b"<title>Hi"[..], b" there</title><a href=/x>x</a>", b"<img src=y.png>"] {
//!     rw.write(piece)?;
//! }
//! rw.end()?;
//! assert_eq!(
//!     String::from_utf8(out)?,
//!     "<title>HI THERE</title><a href=/x rel=\"nofollow\">x</a><img src=y.png alt=\"\">"
//! );
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod content;
mod element;
mod error;
mod handlers;
mod nodes;
mod output;
mod rewriter;
mod rules;
pub mod selector;

pub use content::ContentType;
pub use element::{Element, ElementContent};
pub use error::{HandlerResult, RewriteError};
pub use handlers::Handlers;
pub use nodes::{Comment, Doctype, DocumentEnd, EndTag, TextChunk};
pub use output::{IoSink, OutputSink};
pub use rewriter::{Rewriter, Settings, rewrite_str};
pub use rules::{Rules, RulesError};
pub use selector::{Selector, SelectorError, SelectorErrorKind};
