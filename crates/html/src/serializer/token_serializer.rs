//! [`TokenSerializer`]: writes a token stream as HTML with html5lib's serializer
//! options (see [`SerializeOptions`]).
//!
//! Pipeline, in html5lib's filter order: split character data into whitespace and
//! other runs, inject `<meta charset>`, then per item decide omission (optional
//! tags, which look one item back and ahead), whitespace collapsing and escaping.
//! Escaping and attribute names are the DOM serializer's own routines.

use std::fmt::{self, Write};

use crate::dom_patch::{AttrNamespace, Namespace};

use super::attr_name::write_attr_name;
use super::elements::{is_boolean_attribute, is_raw_text_element, serializes_as_void};
use super::escape::{EscapeMode, write_escaped};
use super::meta_charset;
use super::optional_tags::{end_tag_is_optional, start_tag_is_optional};
use super::options::{AttrQuoting, QuoteChar, SerializeOptions};
use super::stream::{self, Item, MetaRewrite, is_space};
use super::token::{SerializerToken, TokenAttr};

/// Serializes token streams; reusable (its buffers are kept between calls).
///
/// ```
/// use tagloom_html::dom_patch::Namespace;
/// use tagloom_html::serializer::{SerializeOptions, SerializerToken, TokenAttr, TokenSerializer};
///
/// let attrs = [TokenAttr::new("class", "a b"), TokenAttr::new("hidden", "")];
/// let tokens = [
///     SerializerToken::StartTag { ns: Namespace::Html, name: "html", attrs: &[] },
///     SerializerToken::StartTag { ns: Namespace::Html, name: "p", attrs: &attrs },
///     SerializerToken::Characters("1 < 2"),
///     SerializerToken::EndTag { ns: Namespace::Html, name: "p" },
///     SerializerToken::EndTag { ns: Namespace::Html, name: "html" },
/// ];
/// let mut serializer = TokenSerializer::new(SerializeOptions::default());
/// assert_eq!(serializer.to_string(&tokens), "<p class=\"a b\" hidden=\"\">1 &lt; 2");
/// ```
#[derive(Clone, Debug, Default)]
pub struct TokenSerializer {
    options: SerializeOptions,
    /// Attribute order scratch buffer for `alphabetical_attributes`.
    order: Vec<usize>,
}

/// Per-stream state of the write loop.
#[derive(Default)]
struct State {
    /// Inside a raw-text element (html5lib's `in_cdata`).
    raw: bool,
    /// Depth inside whitespace-preserving elements (`strip_whitespace`).
    preserve: usize,
}

impl TokenSerializer {
    /// A serializer with these options.
    pub fn new(options: SerializeOptions) -> TokenSerializer {
        TokenSerializer {
            options,
            order: Vec::new(),
        }
    }

    /// The options.
    pub fn options(&self) -> &SerializeOptions {
        &self.options
    }

    /// Serializes `tokens` into a new `String`.
    pub fn to_string(&mut self, tokens: &[SerializerToken<'_>]) -> String {
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = self.serialize(tokens, &mut out);
        out
    }

    /// Serializes `tokens` into `out`.
    pub fn serialize<W: Write + ?Sized>(
        &mut self,
        tokens: &[SerializerToken<'_>],
        out: &mut W,
    ) -> fmt::Result {
        let mut items = Vec::with_capacity(tokens.len() + 2);
        stream::build(tokens, &mut items);
        if self.options.inject_meta_charset.is_some() {
            meta_charset::inject(&mut items);
        }
        let mut state = State::default();
        for (i, item) in items.iter().enumerate() {
            let previous = i.checked_sub(1).and_then(|p| items.get(p));
            let next = items.get(i + 1);
            self.write_item(item, previous, next, &mut state, out)?;
        }
        Ok(())
    }

    fn write_item<W: Write + ?Sized>(
        &mut self,
        item: &Item<'_>,
        previous: Option<&Item<'_>>,
        next: Option<&Item<'_>>,
        state: &mut State,
        out: &mut W,
    ) -> fmt::Result {
        let o = &self.options;
        match *item {
            Item::Doctype {
                name,
                public_id,
                system_id,
            } => write_doctype(out, name, public_id, system_id),
            Item::Start {
                ns,
                name,
                attrs,
                empty,
                rewrite,
            } => {
                if o.strip_whitespace
                    && !empty
                    && (state.preserve > 0 || preserves_whitespace(ns, name, o.scripting))
                {
                    state.preserve += 1;
                }
                if ns == Namespace::Html
                    && is_raw_text_element(ns, name, o.scripting)
                    && !o.escape_rcdata
                {
                    state.raw = true;
                }
                let omit = o.omit_optional_tags
                    && ns == Namespace::Html
                    && attrs.is_empty()
                    && start_tag_is_optional(name, previous, next);
                if omit {
                    return Ok(());
                }
                write_start_tag(o, &mut self.order, out, ns, name, attrs, rewrite)
            }
            Item::MetaCharset => {
                let encoding = o.inject_meta_charset.as_deref().unwrap_or_default();
                let attr = [TokenAttr::new("charset", encoding)];
                write_start_tag(
                    o,
                    &mut self.order,
                    out,
                    Namespace::Html,
                    "meta",
                    &attr,
                    MetaRewrite::None,
                )
            }
            Item::End { ns, name } => {
                if o.strip_whitespace && state.preserve > 0 {
                    state.preserve -= 1;
                }
                if is_raw_text_element(ns, name, o.scripting) {
                    state.raw = false;
                }
                if o.omit_optional_tags && ns == Namespace::Html && end_tag_is_optional(name, next)
                {
                    return Ok(());
                }
                out.write_str("</")?;
                out.write_str(name)?;
                out.write_char('>')
            }
            Item::Comment(data) => {
                out.write_str("<!--")?;
                out.write_str(data)?;
                out.write_str("-->")
            }
            Item::Space(text) => {
                if o.strip_whitespace && state.preserve == 0 {
                    out.write_char(' ')
                } else {
                    out.write_str(text)
                }
            }
            Item::Text(text) => {
                let collapse = o.strip_whitespace && state.preserve == 0;
                if state.raw {
                    write_runs(out, text, collapse, |out, run| out.write_str(run))
                } else {
                    write_runs(out, text, collapse, |out, run| {
                        write_escaped(out, run, EscapeMode::Text)
                    })
                }
            }
        }
    }
}

/// Writes a start tag; `order` is a reusable buffer for the attribute order.
fn write_start_tag<W: Write + ?Sized>(
    o: &SerializeOptions,
    order: &mut Vec<usize>,
    out: &mut W,
    ns: Namespace,
    name: &str,
    attrs: &[TokenAttr<'_>],
    rewrite: MetaRewrite,
) -> fmt::Result {
    out.write_char('<')?;
    out.write_str(name)?;
    order.clear();
    order.extend(0..attrs.len());
    if o.alphabetical_attributes {
        order.sort_by(|&a, &b| {
            let key = |i: usize| attrs.get(i).map(|a| (ns_uri(a.ns), a.name));
            key(a).cmp(&key(b))
        });
    }
    let encoding = o.inject_meta_charset.as_deref().unwrap_or_default();
    let mut content_type: String;
    for attr in order.iter().filter_map(|&i| attrs.get(i)) {
        let no_ns = attr.ns == AttrNamespace::None;
        let value = match rewrite {
            MetaRewrite::Charset if no_ns && attr.name.eq_ignore_ascii_case("charset") => encoding,
            MetaRewrite::ContentType if no_ns && attr.name == "content" => {
                content_type = format!("text/html; charset={encoding}");
                content_type.as_str()
            }
            _ => attr.value,
        };
        write_attr(o, out, name, attr.ns, attr.name, value)?;
    }
    if o.use_trailing_solidus && serializes_as_void(ns, name) {
        out.write_str(if o.space_before_trailing_solidus {
            " /"
        } else {
            "/"
        })?;
    }
    out.write_char('>')
}

/// Writes ` name=value` (or just ` name` for a minimized boolean attribute).
fn write_attr<W: Write + ?Sized>(
    o: &SerializeOptions,
    out: &mut W,
    element: &str,
    ns: AttrNamespace,
    name: &str,
    value: &str,
) -> fmt::Result {
    out.write_char(' ')?;
    write_attr_name(out, ns, name)?;
    let minimize = o.minimize_boolean_attributes
        && ns == AttrNamespace::None
        && is_boolean_attribute(element, name)
        && (value.is_empty() || value.eq_ignore_ascii_case(name));
    if minimize {
        return Ok(());
    }
    out.write_char('=')?;
    let quote = match o.quote_attr_values {
        AttrQuoting::Always => true,
        AttrQuoting::WhenNeeded => value.is_empty() || value.bytes().any(needs_quotes),
    };
    if !quote {
        return write_escaped(out, value, EscapeMode::Text);
    }
    let single = match o.quote_char {
        QuoteChar::Double => false,
        QuoteChar::Single => true,
        QuoteChar::Best => value.contains('"') && !value.contains('\''),
    };
    let (q, mode) = if single {
        ('\'', EscapeMode::SingleQuoted)
    } else {
        ('"', EscapeMode::DoubleQuoted)
    };
    out.write_char(q)?;
    write_escaped(out, value, mode)?;
    out.write_char(q)
}

/// A byte that makes an attribute value need quotes (see [`AttrQuoting::WhenNeeded`]).
fn needs_quotes(b: u8) -> bool {
    is_space(b) || matches!(b, b'"' | b'\'' | b'=' | b'>' | b'`')
}

/// Sort key of an attribute namespace (html5lib sorts by namespace URI, none first).
fn ns_uri(ns: AttrNamespace) -> &'static str {
    match ns {
        AttrNamespace::None => "",
        AttrNamespace::XLink => "http://www.w3.org/1999/xlink",
        AttrNamespace::Xml => "http://www.w3.org/XML/1998/namespace",
        AttrNamespace::Xmlns => "http://www.w3.org/2000/xmlns/",
    }
}

/// Elements inside which `strip_whitespace` leaves whitespace alone.
fn preserves_whitespace(ns: Namespace, name: &str, scripting: bool) -> bool {
    (ns == Namespace::Html && matches!(name, "pre" | "textarea" | "listing"))
        || is_raw_text_element(ns, name, scripting)
}

/// Writes `text` through `write`, replacing each whitespace run by one space when
/// `collapse` is set.
fn write_runs<W: Write + ?Sized>(
    out: &mut W,
    text: &str,
    collapse: bool,
    mut write: impl FnMut(&mut W, &str) -> fmt::Result,
) -> fmt::Result {
    if !collapse {
        return write(out, text);
    }
    let bytes = text.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        if bytes.get(i).copied().is_some_and(is_space) {
            write(out, text.get(start..i).unwrap_or_default())?;
            out.write_char(' ')?;
            while bytes.get(i).copied().is_some_and(is_space) {
                i += 1;
            }
            start = i;
        } else {
            i += 1;
        }
    }
    write(out, text.get(start..).unwrap_or_default())
}

/// `<!DOCTYPE name PUBLIC "…" "…">` in the legacy form html5lib writes: the
/// public identifier after `PUBLIC`, or `SYSTEM` when there is only a system
/// identifier, which is quoted with `'` if it contains `"`.
fn write_doctype<W: Write + ?Sized>(
    out: &mut W,
    name: &str,
    public_id: &str,
    system_id: &str,
) -> fmt::Result {
    out.write_str("<!DOCTYPE ")?;
    out.write_str(name)?;
    if !public_id.is_empty() {
        write!(out, " PUBLIC \"{public_id}\"")?;
    } else if !system_id.is_empty() {
        out.write_str(" SYSTEM")?;
    }
    if !system_id.is_empty() {
        let q = if system_id.contains('"') { '\'' } else { '"' };
        write!(out, " {q}{system_id}{q}")?;
    }
    out.write_char('>')
}
