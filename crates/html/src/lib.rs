//! # tagloom-html
//!
//! A spec-faithful, streaming HTML5 front end: the WHATWG encoding sniffing
//! algorithm ([`decoder`]) and tokenizer ([`tokenizer`]), built to be fed bytes in
//! chunks of any size and to hand out tokens that borrow the input instead of copying
//! it.
//!
//! ```
//! use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
//! use tagloom_html::token::Token;
//!
//! let mut tok = Tokenizer::new(TokenizerConfig::default());
//! tok.push_str("<p class=note>Hi &amp; bye</p>");
//! tok.finish();
//! let mut seen = Vec::new();
//! while let Some(token) = tok.next_token().unwrap() {
//!     match token {
//!         Token::StartTag(tag) => seen.push(format!("<{}>", tag.name_str())),
//!         Token::Characters(text) => seen.push(text.text.to_string()),
//!         Token::EndTag(tag) => seen.push(format!("</{}>", tag.name_str())),
//!         _ => {}
//!     }
//! }
//! assert_eq!(seen.concat(), "<p>Hi & bye</p>");
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod atom;
pub mod decoder;
pub mod dom;
pub mod dom_patch;
pub mod driver;
pub mod error;
mod phf;
mod seg_vec;
pub mod serializer;
pub mod session;
pub mod sniff;
pub mod span;
pub mod text_type;
pub mod token;
pub mod tokenizer;
pub mod tree_builder;
pub mod xml_infoset;

pub use atom::{Atom, AtomTable};
pub use error::{ErrorCode, ParseError};
pub use span::Span;
pub use token::Token;
