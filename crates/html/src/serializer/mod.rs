//! Serializers: the spec's HTML fragment serialization algorithm over a
//! [`DomStore`](crate::dom::DomStore) node, and an option-driven serializer of
//! token streams in the manner of html5lib's (attribute quoting choices, optional
//! tag omission, whitespace stripping, `<meta charset>` injection).
//!
//! Both share one escaping routine ("escaping a string", HTML §13.3 as amended in
//! 2025: `<` and `>` are escaped in attribute values too) and one set of element
//! predicates ([`serializes_as_void`], [`is_raw_text_element`]).
//!
//! Pick [`serialize_children`] for DOM output (`innerHTML` of an element, or the
//! whole document when given the document node); pick [`TokenSerializer`] to write
//! a token stream, e.g. after a transform pipeline, with compact-output options.

mod attr_name;
mod elements;
mod escape;

pub use escape::{EscapeMode, write_escaped};
mod fragment;

pub use elements::{is_boolean_attribute, is_raw_text_element, serializes_as_void};
pub use fragment::{
    FragmentOptions, children_to_string, serialize_children, serialize_children_io,
};
mod meta_charset;
mod optional_tags;
mod options;
mod stream;
mod token;
mod token_serializer;

pub use options::{AttrQuoting, QuoteChar, SerializeOptions};
pub use token::{SerializerToken, TokenAttr};
pub use token_serializer::TokenSerializer;

#[cfg(test)]
mod tests;
