//! The item writer both token serializers share: one item in, its HTML out, with
//! the per-stream state (inside a raw-text element, inside whitespace-preserving
//! elements). Escaping and attribute names are the DOM serializer's own routines.

use std::fmt::{self, Write};

use crate::dom_patch::{AttrNamespace, Namespace};
use crate::token::OwnedAttribute;

use super::attr_name::write_attr_name;
use super::elements::{is_boolean_attribute, is_raw_text_element, serializes_as_void};
use super::escape::{EscapeMode, write_escaped};
use super::optional_tags::{end_tag_is_optional, start_tag_is_optional};
use super::options::{AttrQuoting, QuoteChar, SerializeOptions};
use super::stream::{Item, MetaRewrite, is_space};

/// Options, scratch space and per-stream state.
#[derive(Clone, Debug, Default)]
pub(crate) struct ItemWriter {
    pub(crate) options: SerializeOptions,
    /// Attribute order scratch buffer for `alphabetical_attributes`.
    order: Vec<usize>,
    /// Inside a raw-text element (html5lib's `in_cdata`): text is written as is.
    raw: bool,
    /// Depth inside whitespace-preserving elements (`strip_whitespace`).
    preserve: usize,
}

impl ItemWriter {
    pub(crate) fn new(options: SerializeOptions) -> ItemWriter {
        ItemWriter {
            options,
            ..ItemWriter::default()
        }
    }

    /// Forgets the state of the previous stream.
    pub(crate) fn reset(&mut self) {
        self.raw = false;
        self.preserve = 0;
    }

    /// Follows `item` into or out of raw-text and whitespace-preserving elements
    /// (also for an item written some other way, e.g. from its source bytes).
    pub(crate) fn track(&mut self, item: &Item<'_>) {
        let o = &self.options;
        match *item {
            Item::Start {
                ns, name, empty, ..
            } => {
                if o.strip_whitespace
                    && !empty
                    && (self.preserve > 0 || preserves_whitespace(ns, name, o.scripting))
                {
                    self.preserve += 1;
                }
                if is_raw_text_element(ns, name, o.scripting) && !o.escape_rcdata {
                    self.raw = true;
                }
            }
            Item::End { ns, name } => {
                if o.strip_whitespace && self.preserve > 0 {
                    self.preserve -= 1;
                }
                if is_raw_text_element(ns, name, o.scripting) {
                    self.raw = false;
                }
            }
            _ => {}
        }
    }

    /// Writes `item`; `previous` and `next` are its neighbours, for the
    /// optional-tag rules (`None` when unknown: then no tag is omitted).
    pub(crate) fn write_item<W: Write + ?Sized>(
        &mut self,
        item: &Item<'_>,
        previous: Option<&Item<'_>>,
        next: Option<&Item<'_>>,
        out: &mut W,
    ) -> fmt::Result {
        self.track(item);
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
                self_closing,
                rewrite,
                ..
            } => {
                let omit = o.omit_optional_tags
                    && ns == Namespace::Html
                    && attrs.is_empty()
                    && start_tag_is_optional(name, previous, next);
                if omit {
                    return Ok(());
                }
                let tag = StartTag {
                    ns,
                    name,
                    attrs,
                    self_closing,
                    rewrite,
                };
                write_start_tag(o, &mut self.order, out, tag)
            }
            Item::MetaCharset => {
                let encoding = o.inject_meta_charset.as_deref().unwrap_or_default();
                let attr = [OwnedAttribute::new("charset", encoding.to_owned())];
                let tag = StartTag {
                    ns: Namespace::Html,
                    name: "meta",
                    attrs: &attr,
                    self_closing: false,
                    rewrite: MetaRewrite::None,
                };
                write_start_tag(o, &mut self.order, out, tag)
            }
            Item::End { ns, name } => {
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
            Item::ProcessingInstruction { target, data } => {
                // A.8: "<?", the target, a space, the data, "?>".
                out.write_str("<?")?;
                out.write_str(target)?;
                out.write_char(' ')?;
                out.write_str(data)?;
                out.write_str("?>")
            }
            Item::Space(text) => {
                if o.strip_whitespace && self.preserve == 0 {
                    out.write_char(' ')
                } else {
                    out.write_str(text)
                }
            }
            Item::Text(text) => {
                let collapse = o.strip_whitespace && self.preserve == 0;
                if self.raw {
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

/// What [`write_start_tag`] writes.
struct StartTag<'a> {
    ns: Namespace,
    name: &'a str,
    attrs: &'a [OwnedAttribute],
    self_closing: bool,
    rewrite: MetaRewrite,
}

/// Writes a start tag; `order` is a reusable buffer for the attribute order.
fn write_start_tag<W: Write + ?Sized>(
    o: &SerializeOptions,
    order: &mut Vec<usize>,
    out: &mut W,
    tag: StartTag<'_>,
) -> fmt::Result {
    let StartTag {
        ns,
        name,
        attrs,
        self_closing,
        rewrite,
    } = tag;
    out.write_char('<')?;
    out.write_str(name)?;
    order.clear();
    order.extend(0..attrs.len());
    if o.alphabetical_attributes {
        order.sort_by(|&a, &b| {
            let key = |i: usize| attrs.get(i).map(|a| (ns_uri(a.ns), a.name.as_str()));
            key(a).cmp(&key(b))
        });
    }
    let encoding = o.inject_meta_charset.as_deref().unwrap_or_default();
    let mut content_type: String;
    let mut unquoted_last = false;
    for attr in order.iter().filter_map(|&i| attrs.get(i)) {
        let no_ns = attr.ns == AttrNamespace::None;
        let attr_name = attr.name.as_str();
        let value = match rewrite {
            MetaRewrite::Charset if no_ns && attr_name.eq_ignore_ascii_case("charset") => encoding,
            MetaRewrite::ContentType if no_ns && attr_name == "content" => {
                content_type = format!("text/html; charset={encoding}");
                content_type.as_str()
            }
            _ => attr.value.as_str(),
        };
        unquoted_last = write_attr(o, out, name, attr, value)?;
    }
    if o.use_trailing_solidus && serializes_as_void(ns, name) {
        out.write_str(if o.space_before_trailing_solidus {
            " /"
        } else {
            "/"
        })?;
    } else if self_closing {
        // The token's own flag (`<circle/>` in SVG closes the element): after an
        // unquoted value, a space keeps the `/` out of the value.
        out.write_str(if o.space_before_trailing_solidus || unquoted_last {
            " /"
        } else {
            "/"
        })?;
    }
    out.write_char('>')
}

/// Writes ` name=value`, or just ` name` for a minimized boolean attribute or a
/// valueless one (`has_value` false, empty value). True when the value was
/// written without quotes.
fn write_attr<W: Write + ?Sized>(
    o: &SerializeOptions,
    out: &mut W,
    element: &str,
    attr: &OwnedAttribute,
    value: &str,
) -> Result<bool, fmt::Error> {
    let (ns, name) = (attr.ns, attr.name.as_str());
    out.write_char(' ')?;
    write_attr_name(out, ns, name)?;
    let minimize = o.minimize_boolean_attributes
        && ns == AttrNamespace::None
        && is_boolean_attribute(element, name)
        && (value.is_empty() || value.eq_ignore_ascii_case(name));
    if minimize || (!attr.has_value && value.is_empty()) {
        return Ok(false);
    }
    out.write_char('=')?;
    let quote = match o.quote_attr_values {
        AttrQuoting::Always => true,
        AttrQuoting::WhenNeeded => value.is_empty() || value.bytes().any(needs_quotes),
    };
    if !quote {
        write_escaped(out, value, EscapeMode::Text)?;
        return Ok(true);
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
    out.write_char(q)?;
    Ok(false)
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
