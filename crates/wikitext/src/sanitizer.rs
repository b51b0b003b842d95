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
        // data-mw and data-parsoid are Parsoid's own; data-ooui is reserved.
        return !rest.is_empty();
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

/// MediaWiki's style check: a declaration list with anything that can load or
/// run something becomes `/* insecure input */`.
pub(crate) fn sanitize_style(value: &str) -> String {
    // Comments go first (each becomes a space), so they cannot hide anything.
    let mut stripped = String::with_capacity(value.len());
    let mut rest = value;
    while let Some(open) = rest.find("/*") {
        stripped.push_str(rest.get(..open).unwrap_or(""));
        stripped.push(' ');
        rest = match rest
            .get(open + 2..)
            .and_then(|r| r.find("*/").map(|e| (r, e)))
        {
            Some((r, e)) => r.get(e + 2..).unwrap_or(""),
            None => "",
        };
    }
    stripped.push_str(rest);
    let value = stripped.as_str();
    let lower = value.to_ascii_lowercase();
    let bad = [
        "expression",
        "url(",
        "url\\",
        "image(",
        "image-set(",
        "-o-link",
        "-moz-binding",
        "behavior",
        "attr(",
        "@import",
        "\\",
    ]
    .iter()
    .any(|b| lower.contains(b));
    if bad {
        "/* insecure input */".to_owned()
    } else {
        value.to_owned()
    }
}

/// The attribute `name="value"` of element `tag` as MediaWiki keeps it (name
/// lowercased, value checked), or `None` when it is dropped. The names Parsoid
/// itself writes (`about`, `property`, `rel`, `typeof`, `data-mw…`,
/// `data-parsoid…`, `data-x…`, `data-object-id`) are kept as `data-x-…`, as
/// Parsoid's tokenizer protects them (`TokenizerUtils::protectAttrs`), so
/// wikitext cannot forge Parsoid's own markup.
pub(crate) fn attribute(tag: &str, name: &str, value: &str) -> Option<(String, String)> {
    let lower = name.to_ascii_lowercase();
    let valid_name = lower
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.'));
    if !valid_name || lower.starts_with("data-ooui") {
        return None;
    }
    let protected = matches!(
        lower.as_str(),
        "about" | "property" | "rel" | "typeof" | "data-object-id"
    ) || ["data-mw", "data-parsoid", "data-x"]
        .iter()
        .any(|p| lower.starts_with(p));
    if protected {
        return Some((format!("data-x-{lower}"), value.to_owned()));
    }
    if !is_allowed_attr(tag, &lower) {
        return None;
    }
    let value = match lower.as_str() {
        "style" => sanitize_style(value),
        "tabindex" if value.trim() != "0" => return None,
        // Ids: spaces as `_`; an empty id is dropped.
        "id" if value.trim().is_empty() => return None,
        "id" => value.trim().replace(' ', "_"),
        _ => value.to_owned(),
    };
    Some((lower, value))
}
