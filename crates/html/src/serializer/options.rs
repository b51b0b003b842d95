//! [`SerializeOptions`]: the token serializer's knobs (html5lib's serializer options).

/// When attribute values get quotes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum AttrQuoting {
    /// Only when the value needs them: it is empty, or contains ASCII whitespace,
    /// `"`, `'`, `=`, `>` or `` ` `` (§13.1.2.3 "unquoted attribute value syntax").
    /// `<` is written as `&lt;` and does not force quotes; `>`, though also written
    /// escaped, still does, as html5lib-tests' serializer fixtures expect.
    #[default]
    WhenNeeded,
    /// Always.
    Always,
}

/// Which quote character surrounds a quoted attribute value.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum QuoteChar {
    /// `"`, unless the value contains `"` but no `'`: then `'` (fewer escapes).
    #[default]
    Best,
    /// Always `"` (a `"` in the value becomes `&quot;`).
    Double,
    /// Always `'` (a `'` in the value becomes `&#39;`).
    Single,
}

/// Options of the [`TokenSerializer`](super::TokenSerializer) and
/// [`TokenWriter`](super::TokenWriter). The defaults are html5lib's and give
/// compact output: optional tags omitted, boolean attributes minimized, quotes only
/// where needed; [`spec`](Self::spec) gives the spec's serialization.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SerializeOptions {
    /// When to quote attribute values.
    pub quote_attr_values: AttrQuoting,
    /// Which quote to use.
    pub quote_char: QuoteChar,
    /// Write a boolean attribute (see
    /// [`is_boolean_attribute`](super::is_boolean_attribute)) whose value is empty
    /// or its own name as just its name.
    pub minimize_boolean_attributes: bool,
    /// Write `/` at the end of void elements' start tags.
    pub use_trailing_solidus: bool,
    /// With `use_trailing_solidus`: write ` />` rather than `/>`.
    pub space_before_trailing_solidus: bool,
    /// Escape text inside raw-text elements (`script`, `style`, …) too.
    pub escape_rcdata: bool,
    /// Omit start and end tags the syntax allows to omit (§13.1.2.4).
    pub omit_optional_tags: bool,
    /// Collapse runs of ASCII whitespace to one space outside `pre`, `textarea`
    /// and raw-text elements.
    pub strip_whitespace: bool,
    /// Write attributes sorted by (namespace, name) instead of in token order.
    pub alphabetical_attributes: bool,
    /// Declare this encoding in the `head`: rewrite `<meta charset>` and
    /// `<meta http-equiv=content-type>`, or insert `<meta charset=…>` right after
    /// `<head>` when the head has neither.
    pub inject_meta_charset: Option<String>,
    /// Whether the output is meant for a parser with scripting enabled, making
    /// `noscript` a raw-text element (as html5lib assumes).
    pub scripting: bool,
}

impl SerializeOptions {
    /// The spec's serialization (§13.3), for [`TokenWriter`](super::TokenWriter):
    /// attribute values always double-quoted, nothing omitted, minimized or
    /// collapsed, attributes in token order, scripting off (as the tree builder's
    /// and the simulator's defaults; set it to the parser's flag, it decides
    /// whether `noscript` text is raw).
    pub fn spec() -> SerializeOptions {
        SerializeOptions {
            quote_attr_values: AttrQuoting::Always,
            quote_char: QuoteChar::Double,
            minimize_boolean_attributes: false,
            use_trailing_solidus: false,
            space_before_trailing_solidus: false,
            escape_rcdata: false,
            omit_optional_tags: false,
            strip_whitespace: false,
            alphabetical_attributes: false,
            inject_meta_charset: None,
            scripting: false,
        }
    }
}

impl Default for SerializeOptions {
    fn default() -> SerializeOptions {
        SerializeOptions {
            quote_attr_values: AttrQuoting::WhenNeeded,
            quote_char: QuoteChar::Best,
            minimize_boolean_attributes: true,
            use_trailing_solidus: false,
            space_before_trailing_solidus: true,
            escape_rcdata: false,
            omit_optional_tags: true,
            strip_whitespace: false,
            alphabetical_attributes: false,
            inject_meta_charset: None,
            scripting: true,
        }
    }
}
