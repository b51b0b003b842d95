//! # tagloom-wikitext
//!
//! Wikitext to HTML, following Parsoid's design (`../shared/seeds/002_…`): a
//! wikitext tokenizer feeds the token transform pipeline of `tagloom-transform`
//! (templates expanded in sub-pipelines, then quotes, lists, paragraphs, tables
//! and the sanitizer), and the HTML5 tree builder builds the result.
//!
//! - [`preprocess`]: the preprocessor — template, template-argument and parser
//!   function expansion with frames, and the page store templates come from.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod preprocess;
