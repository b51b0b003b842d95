//! `<`: comments, extension tags (`<nowiki>`, `<pre>`, `<includeonly>` and
//! friends) and HTML tags. A tag MediaWiki does not allow is text.

use std::borrow::Cow;

use tagloom_html::atom;
use tagloom_html::token::{Name, OwnedAttribute, OwnedTag, OwnedToken};

use super::{Tokenizer, entity};
use crate::preprocess::find_from;
use crate::sanitizer;
use crate::token::{RefTag, Tok, WikiToken};

/// A tag as written: name (lowercase), attributes (raw names, decoded values),
/// whether it is an end tag or self-closing, its length.
pub(crate) struct RawTag<'a> {
    /// The name as written when it is lowercase (nearly always): no copy and
    /// no look-up among the static atoms, which only an allowed HTML tag
    /// needs ([`sanitized_tag`]); most tags read are `<ref>`s, whose name is
    /// only compared.
    pub(crate) name: Cow<'a, str>,
    pub(crate) attrs: Vec<(String, String)>,
    /// The values as written (before references are decoded) of the
    /// attributes (by index) whose value differs from it; most values hold
    /// no reference, and keep no second copy (see [`RawTag::source`]).
    pub(crate) sources: Vec<(usize, String)>,
    /// Attributes whose value held `<nowiki>`: name and Parsoid's HTML of
    /// the value (`mw:ExpandedAttrs`).
    pub(crate) expanded: Vec<(String, String)>,
    pub(crate) end: bool,
    pub(crate) self_closing: bool,
    pub(crate) len: usize,
}

impl RawTag<'_> {
    /// Attribute `i`'s value as written (before references are decoded).
    pub(crate) fn source(&self, i: usize) -> &str {
        match self.sources.iter().find(|(k, _)| *k == i) {
            Some((_, source)) => source,
            None => self.attrs.get(i).map_or("", |(_, v)| v),
        }
    }
}

/// Parses the tag at the start of `s` (which starts with `<`).
pub(crate) fn parse_tag(s: &str) -> Option<RawTag<'_>> {
    let bytes = s.as_bytes();
    let mut i = 1;
    let end = bytes.get(1) == Some(&b'/');
    if end {
        i += 1;
    }
    let name_start = i;
    if !bytes.get(i).is_some_and(u8::is_ascii_alphabetic) {
        return None;
    }
    while bytes.get(i).is_some_and(|b| b.is_ascii_alphanumeric()) {
        i += 1;
    }
    let name = s.get(name_start..i)?;
    let name = if name.bytes().any(|b| b.is_ascii_uppercase()) {
        Cow::Owned(name.to_ascii_lowercase())
    } else {
        Cow::Borrowed(name)
    };
    // The name must end at whitespace, `/` or `>`.
    if !matches!(
        bytes.get(i),
        Some(b' ' | b'\t' | b'\n' | b'\r' | b'/' | b'>')
    ) {
        return None;
    }
    let mut attrs = Vec::new();
    let mut sources = Vec::new();
    let mut expanded = Vec::new();
    loop {
        while bytes.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        match bytes.get(i)? {
            b'>' => {
                return Some(RawTag {
                    name,
                    attrs,
                    sources,
                    expanded,
                    end,
                    self_closing: false,
                    len: i + 1,
                });
            }
            b'/' if bytes.get(i + 1) == Some(&b'>') => {
                return Some(RawTag {
                    name,
                    attrs,
                    sources,
                    expanded,
                    end,
                    self_closing: true,
                    len: i + 2,
                });
            }
            b'<' => return None,
            _ => {}
        }
        let attr_start = i;
        while bytes
            .get(i)
            .is_some_and(|b| !b.is_ascii_whitespace() && !matches!(b, b'/' | b'>' | b'='))
        {
            i += 1;
        }
        if i == attr_start {
            // A stray `/` or `=`.
            i += 1;
            continue;
        }
        let attr_name = s.get(attr_start..i)?.to_owned();
        let mut j = i;
        while bytes.get(j).is_some_and(|b| b.is_ascii_whitespace()) {
            j += 1;
        }
        let mut value = String::new();
        if bytes.get(j) == Some(&b'=') {
            j += 1;
            while bytes.get(j).is_some_and(|b| b.is_ascii_whitespace()) {
                j += 1;
            }
            match bytes.get(j) {
                Some(&q @ (b'"' | b'\'')) => {
                    // A quoted value ends at its quote, or (unclosed) before the
                    // `>` (or `/>`) that ends the tag.
                    let tail = s.get(j + 1..)?;
                    // A value never spans a `<` other than a comment's (bounds
                    // the search); comments in a quoted value are dropped.
                    let bound = value_bound(tail);
                    let tail = tail.get(..bound)?;
                    let quote = find_outside_comments(tail, q);
                    let gt = find_outside_comments(tail, b'>');
                    match (quote, gt) {
                        (Some(qe), g) if g.is_none_or(|g| qe < g) => {
                            value = strip_comments(tail.get(..qe)?);
                            j = j + 1 + qe + 1;
                        }
                        (_, Some(g)) => {
                            let mut v = tail.get(..g)?;
                            if let Some(stripped) = v.strip_suffix('/') {
                                v = stripped.trim_end();
                                j = j + 1 + g - 1;
                            } else {
                                j = j + 1 + g;
                            }
                            value = v.to_owned();
                        }
                        _ => return None,
                    }
                }
                _ => {
                    let v_start = j;
                    while bytes.get(j).is_some_and(|b| {
                        !b.is_ascii_whitespace()
                            && *b != b'>'
                            && !(*b == b'/' && bytes.get(j + 1) == Some(&b'>'))
                    }) {
                        j += 1;
                    }
                    value = s.get(v_start..j)?.to_owned();
                }
            }
            i = j;
        }
        if let Some((text, html)) = nowiki_value(&value) {
            expanded.push((attr_name.to_ascii_lowercase(), html));
            sources.push((attrs.len(), value));
            attrs.push((attr_name, text));
            continue;
        }
        let decoded = match entity::decode(&value) {
            Cow::Owned(decoded) => Some(decoded),
            Cow::Borrowed(_) => None,
        };
        match decoded {
            Some(decoded) => {
                sources.push((attrs.len(), value));
                attrs.push((attr_name, decoded));
            }
            // The value is its source: moved, not copied.
            None => attrs.push((attr_name, value)),
        }
    }
}

/// Where a quoted attribute value must end at the latest: the first `<`
/// that does not open a closed comment.
fn value_bound(tail: &str) -> usize {
    let mut from = 0;
    while let Some(at) = tail
        .get(from..)
        .and_then(|r| memchr::memchr(b'<', r.as_bytes()))
    {
        let at = from + at;
        match opaque_len(tail.get(at..).unwrap_or("")) {
            Some(len) => from = at + len,
            None => return at,
        }
    }
    tail.len()
}

/// The length of a closed comment or `<nowiki>…</nowiki>` at the start of `s`
/// (inside an attribute value both are kept whole).
fn opaque_len(s: &str) -> Option<usize> {
    if let Some(r) = s.strip_prefix("<!--") {
        return find_from(r, 0, "-->").map(|e| 4 + e + 3);
    }
    let open = s.get(..8)?;
    if !open.eq_ignore_ascii_case("<nowiki>") {
        return None;
    }
    let lower = s.get(8..)?.to_ascii_lowercase();
    lower.find("</nowiki>").map(|e| 8 + e + 9)
}

/// A value's `<nowiki>` elements: the value as text (their content kept) and
/// as Parsoid's HTML for `data-mw` (`<span typeof="mw:Nowiki">…</span>`);
/// `None` without any.
fn nowiki_value(value: &str) -> Option<(String, String)> {
    // Most values hold no tag at all: no lowercased copy of them.
    if !super::skip::has_byte(value.as_bytes(), b'<') {
        return None;
    }
    let lower = value.to_ascii_lowercase();
    if !lower.contains("<nowiki>") {
        return None;
    }
    let (mut text, mut html) = (String::new(), String::new());
    let mut i = 0;
    while let Some(at) = lower.get(i..).and_then(|r| r.find("<nowiki>")) {
        let open = i + at;
        let body = open + 8;
        let Some(close) = lower.get(body..).and_then(|r| r.find("</nowiki>")) else {
            break;
        };
        let before = value.get(i..open).unwrap_or("");
        let inner = value.get(body..body + close).unwrap_or("");
        text.push_str(before);
        text.push_str(inner);
        html.push_str(before);
        html.push_str("<span typeof=\"mw:Nowiki\">");
        html.push_str(inner);
        html.push_str("</span>");
        i = body + close + 9;
    }
    text.push_str(value.get(i..).unwrap_or(""));
    html.push_str(value.get(i..).unwrap_or(""));
    Some((text, html))
}

/// The first `q` in `s` outside `<!-- … -->` comments. Only a `q` or a `<`
/// can end the search: one vector search for either, not a byte loop.
fn find_outside_comments(s: &str, q: u8) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = 0;
    while let Some(at) = b.get(i..).and_then(|r| memchr::memchr2(q, b'<', r)) {
        i += at;
        if b.get(i) == Some(&b'<')
            && let Some(len) = opaque_len(s.get(i..).unwrap_or(""))
        {
            i += len;
            continue;
        }
        if b.get(i) == Some(&q) {
            return Some(i);
        }
        i += 1;
    }
    None
}

/// `s` without its `<!-- … -->` comments (an unclosed one runs to the end).
pub(crate) fn strip_comments(s: &str) -> String {
    // Most attribute values hold no `<`: a copy, without `find`'s substring
    // search set up.
    if !super::skip::has_byte(s.as_bytes(), b'<') {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = find_from(rest, 0, "<!--") {
        out.push_str(rest.get(..open).unwrap_or(""));
        rest = match rest
            .get(open + 4..)
            .and_then(|r| find_from(r, 0, "-->").map(|e| (r, e)))
        {
            Some((r, e)) => r.get(e + 3..).unwrap_or(""),
            None => "",
        };
    }
    out.push_str(rest);
    out
}

/// The sanitized attributes of an allowed tag.
pub(crate) fn sanitized_tag(raw: &RawTag<'_>) -> OwnedTag {
    let mut tag = OwnedTag::new(Name::new(&raw.name));
    tag.set_self_closing(raw.self_closing);
    let attrs = tag.attrs_mut();
    for (name, value) in &raw.attrs {
        let Some((lower, value)) = sanitizer::attribute(&raw.name, name, value) else {
            continue;
        };
        // A repeated attribute: the last one wins.
        attrs.retain(|a| a.name.as_str() != lower);
        attrs.push(OwnedAttribute::new(Name::new(&lower), value));
    }
    if !raw.expanded.is_empty() {
        // Parsoid records values built from `<nowiki>` (mw:ExpandedAttrs).
        let json = |s: &str| serde_json::Value::String(s.to_owned()).to_string();
        let parts: Vec<String> = raw
            .expanded
            .iter()
            .map(|(k, html)| format!("[{{\"txt\":{}}},{{\"html\":{}}}]", json(k), json(html)))
            .collect();
        tag.set_attr(atom::TYPEOF, "mw:ExpandedAttrs");
        tag.set_attr(
            atom::DATA_MW,
            format!("{{\"attribs\":[{}]}}", parts.join(",")),
        );
    }
    tag
}

/// Finds `</name>` (ASCII case-insensitive) in `s`: its start and length.
fn find_close(s: &str, name: &str) -> Option<(usize, usize)> {
    let mut from = 0;
    while let Some(at) = crate::preprocess::find_from(s, from, "</") {
        let after = at + 2 + name.len();
        let matches = s
            .get(at + 2..after)
            .is_some_and(|n| n.eq_ignore_ascii_case(name));
        if matches {
            let rest = s.get(after..)?;
            let ws = rest.bytes().take_while(|b| b.is_ascii_whitespace()).count();
            if rest.as_bytes().get(ws) == Some(&b'>') {
                return Some((at, after + ws + 1 - at));
            }
        }
        from = at + 2;
    }
    None
}

/// How many closes inside template output a Cite tag's body may skip.
const MAX_REF_CLOSE_RETRIES: usize = 64;

impl Tokenizer<'_> {
    /// `find_close` from the current body start `body` (an offset in the
    /// source), remembering failures: when `</name>` is missing after some
    /// position it is missing after every later one.
    fn close_of(&mut self, name: &'static str, body: usize) -> Option<(usize, usize)> {
        if self
            .missing_close
            .iter()
            .any(|&(n, from)| n == name && from <= body)
        {
            return None;
        }
        let found = find_close(self.src.get(body..self.limit).unwrap_or(""), name);
        if found.is_none() {
            self.missing_close.push((name, body));
        }
        found
    }

    /// A Cite tag's close (`at`, `close_len` from `body`) that is not inside a
    /// template's output opened in the body: such a `</ref>` closes a tag the
    /// template made, and the body runs to the next close outside it.
    fn close_outside_calls(
        &self,
        name: &str,
        body: usize,
        mut at: usize,
        mut close_len: usize,
    ) -> (usize, usize) {
        for _ in 0..MAX_REF_CLOSE_RETRIES {
            let inner = self.src.get(body..body + at).unwrap_or("");
            // Most bodies hold no marker at all (whose characters all start
            // with 0xEE): one vector search says so.
            if memchr::memchr(0xEE, inner.as_bytes()).is_none()
                || !crate::transclusion::opens_call(inner)
            {
                break;
            }
            let after = body + at + close_len;
            match find_close(self.src.get(after..self.limit).unwrap_or(""), name) {
                Some((a, l)) => {
                    at = after - body + a;
                    close_len = l;
                }
                None => break,
            }
        }
        (at, close_len)
    }

    /// At `<`.
    pub(crate) fn angle(&mut self) {
        let start = self.pos;
        let rest = self.rest();
        if rest.starts_with("<!--") {
            let (data, len) = match rest.get(4..).and_then(|r| find_from(r, 0, "-->")) {
                Some(end) => (rest.get(4..4 + end).unwrap_or(""), end + 7),
                None => (rest.get(4..).unwrap_or(""), rest.len()),
            };
            self.pos += len;
            self.emit_html(OwnedToken::comment(encode_comment(data)), start);
            return;
        }
        let Some(raw) = parse_tag(rest) else {
            self.pos += 1;
            self.push_text("<", start);
            return;
        };
        // Whether the page may have a table (an HTML one, if allowed).
        self.saw_table |= raw.name == "table";
        match &*raw.name {
            "nowiki" if !raw.end => return self.nowiki(raw, start),
            "pre" if !raw.end && self.ext_pre(&raw, start) => return,
            "ref" if !raw.end => return self.cite_ref(raw, start),
            "references" if !raw.end => return self.cite_references(raw, start),
            "noinclude" | "onlyinclude" => {
                self.pos += raw.len;
                if !raw.self_closing {
                    // Parsoid marks where the directive was.
                    let kind = if raw.name == "noinclude" {
                        "NoInclude"
                    } else {
                        "OnlyInclude"
                    };
                    let end = if raw.end { "/End" } else { "" };
                    let meta = OwnedTag::new(atom::META)
                        .with_attr(atom::TYPEOF, format!("mw:Includes/{kind}{end}"));
                    self.emit_html(OwnedToken::StartTag(meta), start);
                } else {
                    self.flush_text();
                }
                return;
            }
            "includeonly" if !raw.end => {
                let skip = if raw.self_closing {
                    raw.len
                } else {
                    let body = self.pos + raw.len;
                    self.close_of("includeonly", body)
                        .map_or(rest.len(), |(at, l)| raw.len + at + l)
                };
                let src = rest.get(..skip).unwrap_or("");
                self.pos += skip;
                if raw.self_closing {
                    self.flush_text();
                    return;
                }
                let data_mw = format!("{{\"src\":{}}}", serde_json::Value::String(src.to_owned()));
                let meta = OwnedTag::new(atom::META)
                    .with_attr(atom::TYPEOF, "mw:Includes/IncludeOnly")
                    .with_attr(atom::DATA_MW, data_mw);
                self.emit_html(OwnedToken::StartTag(meta), start);
                self.out.push(WikiToken::start_tag(
                    OwnedTag::new(atom::META)
                        .with_attr(atom::TYPEOF, "mw:Includes/IncludeOnly/End"),
                ));
                return;
            }
            _ => {}
        }
        // An unclosed `<pre>` (no extension tag) is the HTML element.
        if !sanitizer::is_allowed_tag(&raw.name)
            || !raw.end && sanitizer::is_literal_tag(&raw.name, &raw.attrs)
        {
            // Not HTML in wikitext: the `<` is text, the rest is scanned as usual.
            self.pos += 1;
            self.push_text("<", start);
            return;
        }
        self.pos += raw.len;
        if self.dd_pending && !matches!(&*raw.name, "br" | "hr" | "wbr" | "meta" | "link") {
            if raw.end {
                self.dd_depth = self.dd_depth.saturating_sub(1);
            } else if !raw.self_closing {
                self.dd_depth += 1;
            }
        }
        let tag = sanitized_tag(&raw);
        let token = if raw.end {
            OwnedToken::EndTag(tag)
        } else {
            OwnedToken::StartTag(tag)
        };
        self.emit_html(token, start);
    }

    /// `<ref …>…</ref>` or `<ref name=… />`; unclosed: text.
    fn cite_ref(&mut self, raw: RawTag<'_>, start: usize) {
        let attr = |n: &str| {
            raw.attrs
                .iter()
                .rev()
                .find(|(k, _)| k.eq_ignore_ascii_case(n))
                .map(|(_, v)| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        let body = if raw.self_closing {
            self.pos += raw.len;
            None
        } else {
            let body_start = self.pos + raw.len;
            let Some((at, close_len)) = self.close_of("ref", body_start) else {
                self.pos += 1;
                self.push_text("<", start);
                return;
            };
            let (at, close_len) = self.close_outside_calls("ref", body_start, at, close_len);
            let body = self
                .src
                .get(body_start..body_start + at)
                .unwrap_or("")
                .to_owned();
            self.pos = body_start + at + close_len;
            Some(body)
        };
        let (name, group) = (attr("name"), attr("group"));
        // The tag's attributes move into the token (no copy).
        let tag = RefTag {
            attrs: raw.attrs,
            name,
            group,
            body,
        };
        self.emit(Tok::Ref(Box::new(tag)), start);
    }

    /// `<references>…</references>` or `<references/>`; unclosed: text.
    fn cite_references(&mut self, raw: RawTag<'_>, start: usize) {
        let body_start = self.pos + raw.len;
        let body = if raw.self_closing {
            self.pos = body_start;
            None
        } else {
            let Some((at, close_len)) = self.close_of("references", body_start) else {
                self.pos += 1;
                self.push_text("<", start);
                return;
            };
            let (at, close_len) = self.close_outside_calls("references", body_start, at, close_len);
            let body = self.src.get(body_start..body_start + at).unwrap_or("");
            self.pos = body_start + at + close_len;
            Some(body.to_owned())
        };
        let tag = RefTag {
            attrs: raw.attrs,
            name: None,
            group: None,
            body,
        };
        self.emit(Tok::References(Box::new(tag)), start);
    }

    /// `<nowiki>…</nowiki>`: the body is text (references decoded), in a
    /// `mw:Nowiki` span. Unclosed: the tag is text.
    fn nowiki(&mut self, raw: RawTag<'_>, start: usize) {
        let rest = self.rest();
        if raw.self_closing {
            self.pos += raw.len;
            self.emit_html(
                OwnedToken::StartTag(
                    OwnedTag::new(atom::SPAN).with_attr(atom::TYPEOF, "mw:Nowiki"),
                ),
                start,
            );
            self.out.push(WikiToken::end(atom::SPAN));
            return;
        }
        let body_all = rest.get(raw.len..).unwrap_or("");
        let Some((at, close_len)) = self.close_of("nowiki", self.pos + raw.len) else {
            self.pos += 1;
            self.push_text("<", start);
            return;
        };
        let body = body_all.get(..at).unwrap_or("");
        self.pos += raw.len + at + close_len;
        self.emit_html(
            OwnedToken::StartTag(OwnedTag::new(atom::SPAN).with_attr(atom::TYPEOF, "mw:Nowiki")),
            start,
        );
        push_decoded(&mut self.out, body);
        self.out.push(WikiToken::end(atom::SPAN));
    }

    /// `<pre>…</pre>`: the extension tag (body literal, `<nowiki>` tags removed,
    /// references decoded). Returns false when it does not close.
    fn ext_pre(&mut self, raw: &RawTag<'_>, start: usize) -> bool {
        let rest = self.rest();
        let body = if raw.self_closing {
            None
        } else {
            let after = rest.get(raw.len..).unwrap_or("");
            let Some((at, close_len)) = self.close_of("pre", self.pos + raw.len) else {
                return false;
            };
            Some((after.get(..at).unwrap_or(""), raw.len + at + close_len))
        };
        // An extension tag's attribute values have their source line breaks
        // and tabs as spaces (references decoded after); data-mw has them
        // trimmed as well.
        let attrs: Vec<(String, String)> = raw
            .attrs
            .iter()
            .enumerate()
            .map(|(i, (k, _))| {
                let v = raw.source(i);
                (
                    k.clone(),
                    entity::decode_all(&v.replace(['\n', '\r', '\t'], " ")),
                )
            })
            .collect();
        let ext = RawTag {
            name: raw.name.clone(),
            attrs,
            sources: Vec::new(),
            expanded: Vec::new(),
            end: false,
            self_closing: false,
            len: raw.len,
        };
        let mut tag = sanitized_tag(&ext);
        tag.set_attr(atom::TYPEOF, "mw:Extension/pre");
        tag.set_attr(
            "data-mw",
            ext_data_mw("pre", &ext.attrs, body.map(|(text, _)| text)),
        );
        self.pos += body.map_or(raw.len, |(_, len)| len);
        self.emit_html(OwnedToken::StartTag(tag), start);
        if let Some((text, _)) = body {
            // The tree builder drops one newline at the start of the body, as
            // Parsoid's does. References in `<nowiki>` keep their
            // mw:Entity spans; others are decoded.
            push_pre_body(&mut self.out, text);
        }
        self.out.push(WikiToken::end(atom::PRE));
        true
    }
}

/// A `<pre>` body: `<nowiki>X</nowiki>` pairs become X with references as
/// mw:Entity spans (first `</nowiki>` after each opening; unpaired tags stay
/// literal), the rest is text with references decoded.
fn push_pre_body(out: &mut Vec<WikiToken>, s: &str) {
    let lower = s.to_ascii_lowercase();
    let mut text = String::with_capacity(s.len());
    let mut i = 0;
    while let Some(at) = lower.get(i..).and_then(|r| r.find("<nowiki>")) {
        let open = i + at;
        let body = open + "<nowiki>".len();
        let Some(close) = lower.get(body..).and_then(|r| r.find("</nowiki>")) else {
            break;
        };
        text.push_str(&entity::decode(s.get(i..open).unwrap_or("")));
        if !text.is_empty() {
            out.push(WikiToken::text(std::mem::take(&mut text)));
        }
        push_decoded(out, s.get(body..body + close).unwrap_or(""));
        i = body + close + "</nowiki>".len();
    }
    text.push_str(&entity::decode(s.get(i..).unwrap_or("")));
    if !text.is_empty() {
        out.push(WikiToken::text(text));
    }
}

/// Text with references as `mw:Entity` spans.
fn push_decoded(out: &mut Vec<WikiToken>, s: &str) {
    let mut rest = s;
    let mut text = String::new();
    while let Some(at) = rest.find('&') {
        text.push_str(rest.get(..at).unwrap_or(""));
        let tail = rest.get(at..).unwrap_or("");
        match entity::reference(tail) {
            Some((len, decoded)) => {
                if !text.is_empty() {
                    out.push(WikiToken::text(std::mem::take(&mut text)));
                }
                out.push(WikiToken::start_tag(
                    OwnedTag::new(atom::SPAN).with_attr(atom::TYPEOF, "mw:Entity"),
                ));
                out.push(WikiToken::text(decoded));
                out.push(WikiToken::end(atom::SPAN));
                rest = tail.get(len..).unwrap_or("");
            }
            None => {
                text.push('&');
                rest = tail.get(1..).unwrap_or("");
            }
        }
    }
    text.push_str(rest);
    if !text.is_empty() {
        out.push(WikiToken::text(text));
    }
}

/// Parsoid's `data-mw` of an extension tag: name, attributes in source order,
/// body source.
pub(crate) fn ext_data_mw(name: &str, attrs: &[(String, String)], body: Option<&str>) -> String {
    let json = |s: &str| serde_json::Value::String(s.to_owned()).to_string();
    let mut out = format!("{{\"name\":{},\"attrs\":{{", json(name));
    for (i, (k, v)) in attrs.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str(&json(&k.to_ascii_lowercase()));
        out.push(':');
        out.push_str(&json(v.trim_matches([' ', '\n', '\r', '\t'])));
    }
    out.push('}');
    if let Some(body) = body {
        out.push_str(",\"body\":{\"extsrc\":");
        out.push_str(&json(body));
        out.push('}');
    }
    out.push('}');
    out
}

/// Comment data that cannot end the comment early when read back as HTML
/// (Parsoid's encoding: `--` and `>` as character references).
pub(crate) fn encode_comment(data: &str) -> String {
    data.replace("--", "-&#x2D;").replace('>', "&#x3E;")
}

#[cfg(test)]
mod tests {
    use super::parse_tag;

    /// A value is kept as written only where it differs from the decoded
    /// one (a reference, a `<nowiki>`); `source` gives every value as written.
    #[test]
    fn sources_are_the_values_as_written() {
        let tag = parse_tag("<pre a=\"x&amp;y\" b=z c='<nowiki>n</nowiki>' d=\"\">");
        let Some(tag) = tag else {
            panic!("no tag");
        };
        let values: Vec<&str> = tag.attrs.iter().map(|(_, v)| v.as_str()).collect();
        assert_eq!(values, ["x&y", "z", "n", ""]);
        let sources: Vec<&str> = (0..4).map(|i| tag.source(i)).collect();
        assert_eq!(sources, ["x&amp;y", "z", "<nowiki>n</nowiki>", ""]);
        assert_eq!(tag.sources.len(), 2);
        assert_eq!(tag.source(4), "");
    }
}
