//! # tagloom-wikitext
//!
//! Wikitext to HTML, following Parsoid's design (`../shared/seeds/002_…`): a
//! wikitext tokenizer feeds the token transform pipeline of `tagloom-transform`
//! (templates expanded in sub-pipelines, then quotes, lists, paragraphs, tables
//! and the sanitizer), and the HTML5 tree builder builds the result.
//!
//! - [`render`]: a page's wikitext to the HTML of its `<body>`, Parsoid-style.
//! - [`tokenize()`](tokenize::tokenize): the tokenizer alone ([`WikiToken`]s with
//!   source ranges).
//! - [`preprocess`]: the preprocessor — template, template-argument and parser
//!   function expansion with frames, and the page store templates come from.
//!
//! ## Output form
//!
//! The children of Parsoid's `<body>`, without its round-trip data
//! (`data-parsoid`, `about` ids): paragraphs as `<p>`, headings with an `id`
//! (`==A b==` → `<h2 id="A_b">`), character references as
//! `<span typeof="mw:Entity">`, `<nowiki>` bodies as `<span typeof="mw:Nowiki">`,
//! `<pre>` as `<pre typeof="mw:Extension/pre" data-mw='…'>`, behaviour switches
//! as `<meta property="mw:PageProp/…">`. Tags MediaWiki does not allow are text;
//! allowed ones keep only MediaWiki's allowed attributes.
//!
//! ```
//! use tagloom_wikitext::{RenderOptions, render};
//!
//! let html = render("== Hi ==\n''Hello'' '''world'''\n* one\n* two", &RenderOptions::default())?;
//! assert_eq!(
//!     html,
//!     "<h2 id=\"Hi\"> Hi </h2>\n<p><i>Hello</i> <b>world</b></p>\n<ul><li> one</li>\n<li> two</li></ul>"
//! );
//! # Ok::<(), tagloom_wikitext::WikiError>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod decimal;
mod dom;
pub mod preprocess;
mod render;
mod sanitizer;
pub mod title;
pub mod token;
pub mod tokenize;
mod transclusion;
mod transform;

pub use render::MAX_PAGE_BYTES;
pub use title::normalize_title;
pub use token::{Tok, WikiKind, WikiToken};

use std::sync::Arc;

/// How to render a page.
#[derive(Clone)]
pub struct RenderOptions {
    /// The page's title (`Main Page`); relative links and magic words use it.
    pub title: String,
    /// The wiki's pages: templates come from it, and links to pages it lacks are
    /// red. `None`: no templates, and every link is blue.
    pub store: Option<Arc<dyn preprocess::PageStore>>,
    /// The preprocessor's configuration (limits, site, clock). By default
    /// comments are kept, as Parsoid does.
    pub preprocess: preprocess::Config,
    /// The most wikitext accepted ([`MAX_PAGE_BYTES`] by default).
    pub max_page_bytes: usize,
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            title: "Main Page".to_owned(),
            store: None,
            preprocess: preprocess::Config {
                keep_comments: true,
                ..preprocess::Config::default()
            },
            max_page_bytes: MAX_PAGE_BYTES,
        }
    }
}

impl std::fmt::Debug for RenderOptions {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("RenderOptions")
            .field("title", &self.title)
            .field("store", &self.store.is_some())
            .field("preprocess", &self.preprocess)
            .field("max_page_bytes", &self.max_page_bytes)
            .finish()
    }
}

/// Why a page could not be rendered.
#[derive(Debug, thiserror::Error)]
pub enum WikiError {
    /// The page is larger than [`RenderOptions::max_page_bytes`].
    #[error("the page has {size} bytes of wikitext, more than the limit of {limit}")]
    TooLarge {
        /// The page's size.
        size: usize,
        /// The limit.
        limit: usize,
    },
    /// The page's title is not a valid title.
    #[error("invalid page title: {0}")]
    Title(String),
    /// The preprocessor refused the page.
    #[error(transparent)]
    Preprocess(#[from] preprocess::PreprocessError),
    /// The transform pipeline failed.
    #[error(transparent)]
    Pipeline(#[from] tagloom_transform::pipeline::PipelineError),
}

/// Renders a page's wikitext to the HTML of its `<body>` (see the
/// [crate docs](crate) for the output form).
pub fn render(wikitext: &str, options: &RenderOptions) -> Result<String, WikiError> {
    render::render(wikitext, options)
}
