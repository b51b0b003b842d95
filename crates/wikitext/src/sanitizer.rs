//! MediaWiki's HTML allow-lists for wikitext: which tag names are HTML (others
//! are text) and which attributes each keeps (`Sanitizer::setupAttributesAllowed`
//! in MediaWiki, as facts).

/// Tags that are HTML in wikitext (MediaWiki's allowed elements).
pub(crate) fn is_allowed_tag(name: &str) -> bool {
    matches!(
        name,
        "b" | "bdi"
            | "del"
            | "i"
            | "ins"
            | "u"
            | "font"
            | "big"
            | "small"
            | "sub"
            | "sup"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "cite"
            | "code"
            | "em"
            | "s"
            | "strike"
            | "strong"
            | "tt"
            | "var"
            | "div"
            | "center"
            | "blockquote"
            | "ol"
            | "ul"
            | "dl"
            | "table"
            | "caption"
            | "pre"
            | "ruby"
            | "rb"
            | "rp"
            | "rt"
            | "rtc"
            | "p"
            | "span"
            | "abbr"
            | "dfn"
            | "kbd"
            | "samp"
            | "data"
            | "time"
            | "mark"
            | "br"
            | "wbr"
            | "hr"
            | "li"
            | "dt"
            | "dd"
            | "tr"
            | "td"
            | "th"
            | "q"
            | "bdo"
            | "meta"
            | "link"
            | "thead"
            | "tbody"
            | "tfoot"
    )
}

const COMMON: &[&str] = &[
    "id",
    "class",
    "style",
    "lang",
    "dir",
    "title",
    "tabindex",
    "role",
    "about",
    "property",
    "resource",
    "datatype",
    "typeof",
    "itemid",
    "itemprop",
    "itemref",
    "itemscope",
    "itemtype",
];

/// Whether element `tag` keeps attribute `attr` (lowercase).
pub(crate) fn is_allowed_attr(tag: &str, attr: &str) -> bool {
    if attr.starts_with("aria-") {
        return true;
    }
    if let Some(rest) = attr.strip_prefix("data-") {
        // data-mw and data-parsoid are Parsoid's own (renamed before this);
        // data-ooui is reserved; no namespaced names.
        return !rest.is_empty() && !rest.contains(':');
    }
    if COMMON.contains(&attr) {
        return true;
    }
    let specific: &[&str] = match tag {
        "blockquote" | "q" => &["cite"],
        "del" | "ins" => &["cite", "datetime"],
        "br" => &["clear"],
        "pre" | "hr" => &["width", "size", "noshade"],
        "div" | "center" | "p" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "caption" => &["align"],
        "table" => &[
            "summary",
            "width",
            "border",
            "frame",
            "rules",
            "cellspacing",
            "cellpadding",
            "align",
            "bgcolor",
        ],
        "thead" | "tbody" | "tfoot" | "tr" => &["bgcolor", "align", "valign"],
        "td" | "th" => &[
            "abbr", "axis", "headers", "scope", "rowspan", "colspan", "nowrap", "width", "height",
            "bgcolor", "align", "valign",
        ],
        "font" => &["size", "color", "face"],
        "ul" => &["type"],
        "ol" => &["type", "start", "reversed"],
        "li" => &["type", "value"],
        "bdo" => &["dir"],
        "data" => &["value"],
        "time" => &["datetime"],
        "meta" => &["itemprop", "content"],
        "link" => &["itemprop", "href", "title"],
        "rt" => &["rbspan"],
        _ => &[],
    };
    specific.contains(&attr)
}

/// MediaWiki's style check (`Sanitizer::checkCss`): CSS escapes and line
/// continuations decoded, comments blanked (text after an unclosed `/*`
/// dropped); a control character gives `/* invalid control char */`, anything
/// that can load or run something `/* insecure input */`.
pub(crate) fn sanitize_style(value: &str) -> String {
    let value = normalize_css(value);
    // A numeric reference left undecoded names no valid character (`&#13;`):
    // MediaWiki decodes it to U+FFFD, which counts as a control character.
    let control = has_invalid_numeric_ref(&value)
        || value.chars().any(
            |c| matches!(c, '\0'..='\u{8}' | '\u{b}' | '\u{e}'..='\u{1f}' | '\u{7f}' | '\u{fffd}'),
        );
    if control {
        return "/* invalid control char */".to_owned();
    }
    if is_insecure_css(&value.to_lowercase()) {
        return "/* insecure input */".to_owned();
    }
    value
}

/// Whether `s` holds a numeric character reference (`&#13;`, `&#x0;`) that
/// decodes to no valid character.
fn has_invalid_numeric_ref(s: &str) -> bool {
    s.match_indices("&#").any(|(at, _)| {
        let tail = s.get(at..).unwrap_or("");
        let body = tail.get(2..).unwrap_or("");
        let digits = body.strip_prefix(['x', 'X']).map_or_else(
            || body.bytes().take_while(u8::is_ascii_digit).count(),
            |hex| hex.bytes().take_while(u8::is_ascii_hexdigit).count(),
        );
        let prefix = usize::from(body.starts_with(['x', 'X']));
        digits > 0
            && body.as_bytes().get(prefix + digits) == Some(&b';')
            && crate::tokenize::entity::reference(tail).is_none()
    })
}

/// CSS escapes decoded (`\` + newline removed, `\` + hex digits as that
/// character, `\` + other as that character; newline, quotes and backslash
/// kept escaped), then comments blanked as MediaWiki's `normalizeCss` does.
fn normalize_css(value: &str) -> String {
    let out = if value.contains('\\') {
        decode_css_escapes(value)
    } else {
        value.to_owned()
    };
    let trimmed = out.trim();
    if !trimmed.contains("/*") {
        return out;
    }
    let single_comment = trimmed.starts_with("/*")
        && trimmed.ends_with("*/")
        && trimmed.len() >= 4
        && !trimmed
            .get(2..trimmed.len() - 2)
            .is_some_and(|b| b.contains(['*', '/']));
    if single_comment {
        return out;
    }
    // Comments become spaces; anything after an unclosed `/*` goes.
    let mut stripped = String::with_capacity(out.len());
    let mut rest = out.as_str();
    while let Some(open) = rest.find("/*") {
        stripped.push_str(rest.get(..open).unwrap_or(""));
        match rest
            .get(open + 2..)
            .and_then(|r| r.find("*/").map(|e| (r, e)))
        {
            Some((r, e)) => {
                stripped.push(' ');
                rest = r.get(e + 2..).unwrap_or("");
            }
            None => {
                rest = "";
            }
        }
    }
    stripped.push_str(rest);
    stripped
}

/// CSS escapes of `value` decoded (see [`normalize_css`]).
fn decode_css_escapes(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let decoded = match chars.peek().copied() {
            None => '\\',
            Some('\n' | '\u{c}') => {
                chars.next();
                continue;
            }
            Some('\r') => {
                chars.next();
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                continue;
            }
            Some(h) if h.is_ascii_hexdigit() => {
                let mut code = 0u32;
                let mut n = 0;
                while n < 6
                    && let Some(d) = chars.peek().and_then(|c| c.to_digit(16))
                {
                    code = code * 16 + d;
                    n += 1;
                    chars.next();
                }
                if matches!(chars.peek(), Some(' ' | '\t' | '\r' | '\n' | '\u{c}')) {
                    chars.next();
                }
                char::from_u32(code)
                    .filter(|&c| c != '\0')
                    .unwrap_or('\u{fffd}')
            }
            Some(other) => {
                chars.next();
                other
            }
        };
        if matches!(decoded, '\n' | '"' | '\'' | '\\') {
            out.push_str(&format!("\\{:x} ", decoded as u32));
        } else {
            out.push(decoded);
        }
    }
    out
}

/// MediaWiki's list of CSS that can load or run something (lowercase input).
fn is_insecure_css(lower: &str) -> bool {
    if lower.contains("expression") {
        return true;
    }
    // Every other form needs its `:` or `(` (most styles have no `(`), and
    // three of the `:` words start with `-o-`.
    let (colon, paren) = (lower.contains(':'), lower.contains('('));
    if !paren && !(colon && (lower.contains("accelerator") || lower.contains("-o-"))) {
        return false;
    }
    // `word\s*(` and `word\s*:` forms.
    let followed = |word: &str, by: char| {
        lower.match_indices(word).any(|(at, _)| {
            lower
                .get(at + word.len()..)
                .map(|r| r.trim_start())
                .is_some_and(|r| r.starts_with(by))
        })
    };
    ["accelerator", "-o-link", "-o-link-source", "-o-replace"]
        .iter()
        .any(|w| followed(w, ':'))
        || ["url", "src", "image", "image-set"]
            .iter()
            .any(|w| followed(w, '('))
        || lower.match_indices("attr").any(|(at, _)| {
            // `attr\s*\([^)]+[\s,]+url`
            let r = lower.get(at + 4..).unwrap_or("").trim_start();
            r.strip_prefix('(').is_some_and(|args| {
                let args = args.split(')').next().unwrap_or("");
                args.match_indices("url").any(|(u, _)| {
                    u > 0
                        && args
                            .get(..u)
                            .is_some_and(|before| before.ends_with([' ', '\t', '\n', ',']))
                })
            })
        })
}

/// Attribute names written in wikitext that Parsoid uses itself: renamed to
/// `data-x-…` by the tokenizer (Parsoid's `protectAttrs`), so they survive as
/// data but never act.
pub(crate) fn protect_name(lower: &str) -> Option<String> {
    let protected = matches!(
        lower,
        "about" | "property" | "rel" | "typeof" | "data-object-id"
    ) || ["data-mw", "data-parsoid", "data-x"]
        .iter()
        .any(|p| lower.starts_with(p));
    protected.then(|| format!("data-x-{lower}"))
}

/// Whether `value` looks like a script URI (`javascript:`, `vbscript:`).
fn is_evil_uri(value: &str) -> bool {
    let lower = value.to_ascii_lowercase();
    ["javascript", "vbscript"].iter().any(|w| {
        lower.match_indices(w).any(|(at, _)| {
            let before = lower.get(..at).unwrap_or("");
            let before_ok = before.is_empty()
                || before.ends_with(char::is_whitespace)
                || before.trim_end().ends_with("*/");
            let after = lower.get(at + w.len()..).unwrap_or("");
            let after_ok = after
                .chars()
                .next()
                .is_none_or(|c| !(c.is_alphanumeric() || c == '_'));
            before_ok && after_ok
        })
    })
}

/// MediaWiki's attribute name syntax (`[:_\p{L}\p{N}][:_.\-\p{L}\p{N}]*`).
fn is_valid_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars
        .next()
        .is_some_and(|c| c == ':' || c == '_' || c.is_alphanumeric())
        && chars.all(|c| matches!(c, ':' | '_' | '.' | '-') || c.is_alphanumeric())
}

/// Whether a `<meta>` or `<link>` with these attributes (raw names) is text:
/// they are HTML only as microdata (`itemprop`, and `content` or `href`).
pub(crate) fn is_literal_tag(tag: &str, attrs: &[(String, String)]) -> bool {
    let has = |n: &str| attrs.iter().any(|(k, _)| k.eq_ignore_ascii_case(n));
    match tag {
        "meta" => !has("itemprop") || !has("content"),
        "link" => !has("itemprop") || !has("href"),
        _ => false,
    }
}

/// The attribute `name="value"` of element `tag` as Parsoid keeps it (name
/// lowercased, value checked), or `None` when it is dropped. Names Parsoid
/// uses itself are kept as `data-x-…` ([`protect_name`]).
pub(crate) fn attribute(tag: &str, name: &str, value: &str) -> Option<(String, String)> {
    let lower = name.to_lowercase();
    if let Some(protected) = protect_name(&lower) {
        return Some((protected, value.to_owned()));
    }
    if !is_valid_name(&lower) {
        return None;
    }
    if let Some(prefix) = lower.strip_prefix("xmlns:") {
        let ok = !prefix.is_empty()
            && prefix
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, ':' | '_' | '-' | '.'));
        return (ok && !is_evil_uri(value)).then(|| (lower.clone(), value.to_owned()));
    }
    if lower.starts_with("data-ooui") || !is_allowed_attr(tag, &lower) {
        return None;
    }
    if matches!(
        lower.as_str(),
        "about"
            | "property"
            | "resource"
            | "datatype"
            | "typeof"
            | "itemid"
            | "itemprop"
            | "itemref"
            | "itemscope"
            | "itemtype"
    ) && is_evil_uri(value)
    {
        return None;
    }
    let value = match lower.as_str() {
        "style" => sanitize_style(value),
        "tabindex" if value != "0" => return None,
        // Ids: spaces as `_`; an empty id is dropped.
        "id" if value.trim().is_empty() => return None,
        "id" => value.trim().replace(' ', "_"),
        _ => value.to_owned(),
    };
    Some((lower, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn css_checks() {
        assert_eq!(sanitize_style("color: red"), "color: red");
        assert_eq!(sanitize_style("u\\\nrl(x)"), "/* insecure input */");
        assert_eq!(sanitize_style("u\\\rrl(x)"), "/* insecure input */");
        assert_eq!(
            sanitize_style("u\\&#13;rl(x)"),
            "/* invalid control char */"
        );
        assert_eq!(sanitize_style("a:\u{b}b"), "/* invalid control char */");
        assert_eq!(
            sanitize_style("width: /* x */ expression(1)"),
            "/* insecure input */"
        );
        assert_eq!(
            sanitize_style("background: URL (x)"),
            "/* insecure input */"
        );
        assert_eq!(sanitize_style("color: \\72 ed"), "color: red");
        assert_eq!(sanitize_style("a: b /* c"), "a: b ");
        assert_eq!(sanitize_style("/* only */"), "/* only */");
    }

    #[test]
    fn attributes() {
        assert_eq!(
            attribute("span", "property", "x"),
            Some(("data-x-property".into(), "x".into()))
        );
        assert_eq!(
            attribute("span", "xmlns:dct", "http://x/"),
            Some(("xmlns:dct".into(), "http://x/".into()))
        );
        assert_eq!(attribute("span", "xmlns:dct", "javascript:x"), None);
        assert_eq!(attribute("span", "onclick", "x"), None);
        // Values keep their newlines (Parsoid does not fold them).
        assert_eq!(
            attribute("div", "title", "a\nb"),
            Some(("title".into(), "a\nb".into()))
        );
        assert!(is_literal_tag("meta", &[("property".into(), "x".into())]));
        assert!(!is_literal_tag(
            "meta",
            &[
                ("itemprop".into(), "x".into()),
                ("content".into(), "y".into())
            ]
        ));
    }
}
