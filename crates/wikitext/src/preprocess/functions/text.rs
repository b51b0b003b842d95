//! Text functions: case, padding, URL and anchor encoding, numbers, `#tag`.

use super::escape::decode_entities;
use super::{CallArgs, Frame, PageExpander};
use crate::preprocess::parse::{Mode, parse_with};
use crate::preprocess::title::ucfirst as ucfirst_str;
use crate::preprocess::tree::Node;

type Ex<'x, 'p, 's> = &'x mut PageExpander<'p, 's>;

/// Applies `f` to the text between extension tags, keeping the tags as written
/// (MediaWiki's `markerSkipCallback`: `{{uc:x<nowiki/>y}}` leaves the tag alone).
fn outside_ext(ex: Ex<'_, '_, '_>, s: &str, f: impl Fn(&str) -> String) -> String {
    if !s.contains('<') {
        return f(s);
    }
    let tree = parse_with(s, ex.pre.parse_options(Mode::Page));
    let mut out = String::with_capacity(s.len());
    let mut text_start = 0;
    for node in &tree.nodes {
        if let Node::Ext(e) = node {
            out.push_str(&f(&s[text_start..e.span.start]));
            out.push_str(&s[e.span.clone()]);
            text_start = e.span.end;
        }
    }
    out.push_str(&f(&s[text_start..]));
    out
}

/// Removes extension tags (MediaWiki's `killMarkers`).
fn kill_ext(ex: Ex<'_, '_, '_>, s: &str) -> String {
    if !s.contains('<') {
        return s.to_owned();
    }
    let tree = parse_with(s, ex.pre.parse_options(Mode::Page));
    let mut out = String::with_capacity(s.len());
    for node in &tree.nodes {
        if !matches!(node, Node::Ext(_)) {
            out.push_str(&s[node.span()]);
        }
    }
    out
}

/// `{{lc:…}}`.
pub(crate) fn lc(ex: Ex<'_, '_, '_>, _: &Frame<'_>, c: &CallArgs<'_>) -> String {
    outside_ext(ex, c.arg0, str::to_lowercase)
}

/// `{{uc:…}}`.
pub(crate) fn uc(ex: Ex<'_, '_, '_>, _: &Frame<'_>, c: &CallArgs<'_>) -> String {
    outside_ext(ex, c.arg0, str::to_uppercase)
}

/// `{{lcfirst:…}}`.
pub(crate) fn lcfirst(_: Ex<'_, '_, '_>, _: &Frame<'_>, c: &CallArgs<'_>) -> String {
    let mut chars = c.arg0.chars();
    match chars.next() {
        Some(first) => first.to_lowercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// `{{ucfirst:…}}`.
pub(crate) fn ucfirst(_: Ex<'_, '_, '_>, _: &Frame<'_>, c: &CallArgs<'_>) -> String {
    ucfirst_str(c.arg0)
}

/// `{{padleft:text|length|padding}}` (padding `0` by default, length at most 500).
pub(crate) fn padleft(ex: Ex<'_, '_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    pad(ex, f, c, true)
}

/// `{{padright:text|length|padding}}`.
pub(crate) fn padright(ex: Ex<'_, '_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    pad(ex, f, c, false)
}

fn pad(ex: Ex<'_, '_, '_>, f: &Frame<'_>, c: &CallArgs<'_>, left: bool) -> String {
    let length = php_int_prefix(&ex.arg(f, c, 0).unwrap_or_default()).min(500);
    let padding = ex.arg(f, c, 1).unwrap_or_else(|| "0".into());
    let padding = kill_ext(ex, &padding);
    let pad_chars: Vec<char> = padding.chars().collect();
    let have = c.arg0.chars().count() as i64;
    if pad_chars.is_empty() || length <= have {
        return c.arg0.to_owned();
    }
    let fill: String = pad_chars
        .iter()
        .cycle()
        .take((length - have) as usize)
        .collect();
    if left {
        fill + c.arg0
    } else {
        format!("{}{fill}", c.arg0)
    }
}

/// PHP's `(int)` of a string: leading blanks, sign, digits; 0 otherwise.
pub(crate) fn php_int_prefix(s: &str) -> i64 {
    let t = s.trim_start();
    let (neg, digits) = match t.strip_prefix('-') {
        Some(r) => (true, r),
        None => (false, t.strip_prefix('+').unwrap_or(t)),
    };
    let n: i64 = digits
        .bytes()
        .take_while(u8::is_ascii_digit)
        .take(18)
        .fold(0, |acc, d| acc * 10 + i64::from(d - b'0'));
    if neg { -n } else { n }
}

/// `{{urlencode:text|QUERY}}` (`+` for space), `PATH` (`%20`), `WIKI` (`_`).
pub(crate) fn urlencode(ex: Ex<'_, '_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    match ex.arg(f, c, 0).as_deref() {
        Some("PATH") => outside_ext(ex, c.arg0, raw_urlencode),
        Some("WIKI") => outside_ext(ex, c.arg0, |s| wiki_urlencode(&s.replace(' ', "_"))),
        _ => outside_ext(ex, c.arg0, query_urlencode),
    }
}

fn percent(out: &mut String, b: u8) {
    out.push_str(&format!("%{b:02X}"));
}

/// PHP's `urlencode`.
pub(crate) fn query_urlencode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' => out.push(b as char),
            b' ' => out.push('+'),
            b => percent(&mut out, b),
        }
    }
    out
}

/// PHP's `rawurlencode`.
pub(crate) fn raw_urlencode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b => percent(&mut out, b),
        }
    }
    out
}

/// MediaWiki's `wfUrlencode`: `rawurlencode` keeping `; @ $ ! * ( ) , / ~ :`.
pub(crate) fn wiki_urlencode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                out.push(b as char)
            }
            b';' | b'@' | b'$' | b'!' | b'*' | b'(' | b')' | b',' | b'/' | b':' => {
                out.push(b as char)
            }
            b => percent(&mut out, b),
        }
    }
    out
}

/// `{{anchorencode:…}}`: the section anchor of a heading text (links reduced to
/// their text, tags dropped, references decoded, blanks as `_`).
pub(crate) fn anchorencode(_: Ex<'_, '_, '_>, _: &Frame<'_>, c: &CallArgs<'_>) -> String {
    let stripped = strip_links_and_tags(c.arg0);
    let decoded = decode_entities(&stripped);
    // `_` counts as a space: runs collapse, the ends are trimmed.
    let id = decoded
        .replace('_', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join("_");
    let mut out = String::with_capacity(id.len());
    for ch in id.chars() {
        match ch {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#039;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '{' => out.push_str("&#123;"),
            '}' => out.push_str("&#125;"),
            '[' => out.push_str("&#91;"),
            ']' => out.push_str("&#93;"),
            '|' => out.push_str("&#124;"),
            ch => out.push(ch),
        }
    }
    out
}

/// `[[a|b]]` → `b`, `[[a]]` → `a`, `<tag>` removed.
fn strip_links_and_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    loop {
        let link = rest.find("[[");
        let tag = rest.find('<');
        match (link, tag) {
            (Some(l), t) if t.is_none_or(|t| l < t) => {
                out.push_str(&rest[..l]);
                let after = &rest[l + 2..];
                match after.find("]]") {
                    Some(e) => {
                        let inner = after[..e].trim_start_matches(':');
                        out.push_str(inner.rsplit('|').next().unwrap_or(inner));
                        rest = &after[e + 2..];
                    }
                    None => {
                        out.push_str("[[");
                        rest = after;
                    }
                }
            }
            (_, Some(t)) => {
                out.push_str(&rest[..t]);
                let after = &rest[t..];
                let is_tag = after[1..].starts_with(|c: char| c.is_ascii_alphabetic() || c == '/');
                match after.find('>') {
                    Some(e) if is_tag => rest = &after[e + 1..],
                    _ => {
                        out.push('<');
                        rest = &after[1..];
                    }
                }
            }
            _ => {
                out.push_str(rest);
                return out;
            }
        }
    }
}

/// `{{formatnum:1234567.5}}` → `1,234,567.5`; `|R` removes the separators.
pub(crate) fn formatnum(ex: Ex<'_, '_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    match ex.arg(f, c, 0).as_deref() {
        Some("R") => c.arg0.replace(',', ""),
        Some("NOSEP") => c.arg0.to_owned(),
        _ => outside_ext(ex, c.arg0, group_digits),
    }
}

fn group_digits(s: &str) -> String {
    let (sign, body) = match s.strip_prefix('-') {
        Some(b) => ("-", b),
        None => ("", s),
    };
    let (int, frac) = match body.split_once('.') {
        Some((i, f)) => (i, Some(f)),
        None => (body, None),
    };
    if int.is_empty()
        || !int.bytes().all(|b| b.is_ascii_digit())
        || frac.is_some_and(|f| !f.bytes().all(|b| b.is_ascii_digit()))
    {
        return s.to_owned();
    }
    let mut grouped = String::with_capacity(int.len() + int.len() / 3);
    for (k, ch) in int.chars().enumerate() {
        if k > 0 && (int.len() - k) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(ch);
    }
    match frac {
        Some(f) => format!("{sign}{grouped}.{f}"),
        None => format!("{sign}{grouped}"),
    }
}

/// `{{plural:n|one|other}}` (English rules; `n` may have separators).
pub(crate) fn plural(ex: Ex<'_, '_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    let forms = ex.args(f, c);
    let n: f64 = c.arg0.replace(',', "").trim().parse().unwrap_or(0.0);
    for form in &forms {
        if let Some((k, v)) = form.split_once('=')
            && k.trim().parse::<f64>().is_ok_and(|k| k == n)
        {
            return v.to_owned();
        }
    }
    let plain: Vec<&String> = forms.iter().filter(|f| !f.contains('=')).collect();
    let pick = if n == 1.0 {
        plain.first()
    } else {
        plain.get(1).or(plain.first())
    };
    pick.map(|s| (*s).clone()).unwrap_or_default()
}

/// `{{#tag:name|content|attr=value}}`: the extension tag as text.
pub(crate) fn tag(ex: Ex<'_, '_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    let name = c.arg0.to_lowercase();
    let known = ex.pre.config().ext_tags.contains(&name);
    if !known {
        return format!(
            "<span class=\"error\">Unknown extension tag \"{}\"</span>",
            html_escape(&name)
        );
    }
    let inner = c
        .parts
        .first()
        .map(|p| ex.expand_to_string(&p.nodes, f, c.flags, c.depth));
    let mut attrs = String::new();
    for p in c.parts.iter().skip(1) {
        let Some(name_nodes) = p.name() else { continue };
        let strip = crate::preprocess::expand::Flags {
            strip_comments: true,
        };
        let an = ex
            .expand_to_string(name_nodes, f, strip, c.depth)
            .trim()
            .to_owned();
        let v = ex
            .expand_to_string(p.value(), f, c.flags, c.depth)
            .trim()
            .to_owned();
        let v = unquote(&v);
        attrs.push_str(&format!(" {}=\"{}\"", html_escape(&an), html_escape(v)));
    }
    match inner {
        Some(inner) => format!("<{name}{attrs}>{inner}</{name}>"),
        None => format!("<{name}{attrs}/>"),
    }
}

fn unquote(v: &str) -> &str {
    let b = v.as_bytes();
    if b.len() >= 2
        && (b[0] == b'"' || b[0] == b'\'')
        && (b[b.len() - 1] == b'"' || b[b.len() - 1] == b'\'')
    {
        &v[1..v.len() - 1]
    } else {
        v
    }
}

/// `&`, `<`, `>`, `"` as references.
pub(crate) fn html_escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// `{{#language:code}}`: the code (language names are not available).
pub(crate) fn first_arg_name(_: Ex<'_, '_, '_>, _: &Frame<'_>, c: &CallArgs<'_>) -> String {
    c.arg0.to_owned()
}

/// `{{int:key}}`: messages are not available, so it shows as MediaWiki shows a
/// missing message, `⧼key⧽`.
pub(crate) fn int_msg(_: Ex<'_, '_, '_>, _: &Frame<'_>, c: &CallArgs<'_>) -> String {
    format!("\u{29fc}{}\u{29fd}", html_escape(c.arg0))
}

/// `{{gender:user|male|female|other}}`: user genders are unknown, so the
/// neutral form (the third, else the first).
pub(crate) fn gender(ex: Ex<'_, '_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    ex.arg(f, c, 2)
        .or_else(|| ex.arg(f, c, 0))
        .unwrap_or_default()
}

/// `{{#invoke:Module|function|…}}`: Lua modules cannot run here, so the call is
/// answered with Scribunto's error markup: "No such module" when the store has
/// no `Module:` page, "Lua is not supported" otherwise.
pub(crate) fn invoke(ex: Ex<'_, '_, '_>, _: &Frame<'_>, c: &CallArgs<'_>) -> String {
    let site = &ex.pre.config().site;
    let module = crate::preprocess::title::Title::parse(c.arg0, 828, site);
    let message = match module {
        Ok(t) if ex.pre.store().exists(&t) => {
            "Script error: Lua modules are not supported.".to_owned()
        }
        _ => format!("Script error: No such module \"{}\".", c.arg0),
    };
    format!(
        "<strong class=\"error\"><span class=\"scribunto-error\">{}</span></strong>",
        html_escape(&message)
    )
}

/// Counts a renderer does not know (`PAGESIZE`, `PAGESINCATEGORY`): 0.
pub(crate) fn zero(_: Ex<'_, '_, '_>, _: &Frame<'_>, _: &CallArgs<'_>) -> String {
    "0".into()
}

/// Functions that only set page properties (`DEFAULTSORT`, `DISPLAYTITLE`).
pub(crate) fn nothing(_: Ex<'_, '_, '_>, _: &Frame<'_>, _: &CallArgs<'_>) -> String {
    String::new()
}
