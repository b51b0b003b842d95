//! Serializers: the spec's HTML fragment serialization algorithm over a
//! [`DomStore`](crate::dom::DomStore) node, and one serializer of token streams
//! ([`OwnedToken`](crate::token::OwnedToken)s) with html5lib's options
//! (attribute quoting choices, optional tag omission, whitespace stripping,
//! `<meta charset>` injection) and a byte-preserving mode.
//!
//! All share one escaping routine ("escaping a string", HTML §13.3 as amended in
//! 2025: `<` and `>` are escaped in attribute values too) and one set of element
//! predicates ([`serializes_as_void`], [`is_raw_text_element`]).
//!
//! Which to pick:
//! * [`serialize_children`]: DOM output (`innerHTML` of an element, or the whole
//!   document when given the document node);
//! * [`TokenWriter`]: a token stream written as it comes, e.g. out of a transform
//!   pipeline or a streaming rewriter; with
//!   [`write_preserving`](TokenWriter::write_preserving), untouched tokens are
//!   written back as their source bytes;
//! * [`TokenSerializer`]: a whole token list with html5lib's options, including
//!   optional-tag omission and `<meta charset>` injection, which look ahead.
//!
//! [`IoWriter`] puts any of them on an `io::Write`.

mod attr_name;
mod elements;
mod escape;

pub use escape::{EscapeMode, escape_into, write_escaped};
mod fragment;
mod io_writer;
mod meta_charset;
mod optional_tags;
mod options;
mod source;
mod stream;
mod token_serializer;
mod token_writer;
mod utf8_bytes;
mod write;

pub use elements::{is_boolean_attribute, is_raw_text_element, serializes_as_void};
pub use fragment::{
    FragmentOptions, children_to_string, node_to_string, serialize_children, serialize_children_io,
};
pub use io_writer::IoWriter;
pub use options::{AttrQuoting, QuoteChar, SerializeOptions};
pub use source::SourceText;
pub use token_serializer::TokenSerializer;
pub use token_writer::{NeedsLookahead, TokenWriter};
pub use utf8_bytes::Utf8Bytes;

#[cfg(test)]
mod tests;
