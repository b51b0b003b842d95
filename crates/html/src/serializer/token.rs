//! The token stream the [`TokenSerializer`](super::TokenSerializer) writes: the
//! shape of html5lib's tree-walker tokens, borrowing all text.

use crate::dom_patch::{AttrNamespace, Namespace};

/// One token to serialize.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SerializerToken<'a> {
    /// A DOCTYPE; empty identifiers are treated as missing.
    Doctype {
        /// The name.
        name: &'a str,
        /// The public identifier.
        public_id: &'a str,
        /// The system identifier.
        system_id: &'a str,
    },
    /// A start tag.
    StartTag {
        /// The element's namespace.
        ns: Namespace,
        /// The tag name.
        name: &'a str,
        /// The attributes in order.
        attrs: &'a [TokenAttr<'a>],
    },
    /// A start tag of an element that has no content (html5lib's `EmptyTag`,
    /// e.g. a void element); always HTML.
    EmptyTag {
        /// The tag name.
        name: &'a str,
        /// The attributes in order.
        attrs: &'a [TokenAttr<'a>],
    },
    /// An end tag.
    EndTag {
        /// The element's namespace.
        ns: Namespace,
        /// The tag name.
        name: &'a str,
    },
    /// A comment's data.
    Comment(&'a str),
    /// Character data.
    Characters(&'a str),
}

/// An attribute of a start tag.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenAttr<'a> {
    /// The namespace (serialized as an `xlink:`/`xml:`/`xmlns:` prefix).
    pub ns: AttrNamespace,
    /// The local name.
    pub name: &'a str,
    /// The value.
    pub value: &'a str,
}

impl<'a> TokenAttr<'a> {
    /// A no-namespace attribute.
    pub const fn new(name: &'a str, value: &'a str) -> TokenAttr<'a> {
        TokenAttr {
            ns: AttrNamespace::None,
            name,
            value,
        }
    }
}
