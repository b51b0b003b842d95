//! Parsoid's normalization of wt2html results for comparison (the facts of its
//! test runner: `TestUtils::normalizeOut` for Parsoid-only expectations and for
//! actual output, `TestUtils::normalizeHTML` for legacy-parser expectations),
//! re-implemented over a small owned tree built from tagloom-html's parse.

use regex::Regex;
use std::sync::LazyLock;
use tagloom_html::dom::{NodeKind, NodeRef};
use tagloom_html::{ParseConfig, parse_document};

#[derive(Clone, Debug)]
pub enum Node {
    Element {
        name: String,
        attrs: Vec<(String, String)>,
        children: Vec<Node>,
    },
    Text(String),
    Comment(String),
}

impl Node {
    fn name(&self) -> Option<&str> {
        match self {
            Node::Element { name, .. } => Some(name),
            _ => None,
        }
    }
    fn attr(&self, key: &str) -> Option<&str> {
        match self {
            Node::Element { attrs, .. } => attrs
                .iter()
                .find(|(k, _)| k == key)
                .map(|(_, v)| v.as_str()),
            _ => None,
        }
    }
}

fn build(node: NodeRef<'_>) -> Vec<Node> {
    node.children()
        .filter_map(|child| match child.kind() {
            NodeKind::Element(e) => Some(Node::Element {
                name: e.local_name().to_owned(),
                attrs: e
                    .attrs()
                    .iter()
                    .map(|a| (a.name.to_string(), a.value.to_owned()))
                    .collect(),
                children: build(child),
            }),
            NodeKind::Text(t) => Some(Node::Text(t.to_owned())),
            NodeKind::Comment(c) => Some(Node::Comment(c.to_owned())),
            _ => None,
        })
        .collect()
}

/// The children of `<body>` of `html` parsed as a document.
pub fn body(html: &str) -> Vec<Node> {
    // Both sides are UTF-8 (a declaration in <head>, which is not compared).
    let source = format!("<meta charset=utf-8>{html}");
    let Ok(store) = parse_document(source.as_bytes(), &ParseConfig::default()) else {
        return vec![Node::Text(format!("<unparsable: {html}>"))];
    };
    let Some(doc) = store.document() else {
        return Vec::new();
    };
    for top in doc.children() {
        if let NodeKind::Element(e) = top.kind()
            && e.local_name() == "html"
        {
            for part in top.children() {
                if let NodeKind::Element(e) = part.kind()
                    && e.local_name() == "body"
                {
                    return build(part);
                }
            }
        }
    }
    Vec::new()
}

struct Opts<'a> {
    preserve_iew: bool,
    parsoid_only: bool,
    strip_typeof: Option<&'a Regex>,
    strip_leading: bool,
    strip_trailing: bool,
    in_pre: bool,
}

static WS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\s+").unwrap());
static LEAD: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s+").unwrap());
static TRAIL: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\s+$").unwrap());

fn newline_around(name: Option<&str>) -> bool {
    matches!(
        name,
        Some(
            "body"
                | "caption"
                | "div"
                | "dd"
                | "dt"
                | "li"
                | "p"
                | "table"
                | "tr"
                | "td"
                | "th"
                | "tbody"
                | "dl"
                | "ol"
                | "ul"
                | "h1"
                | "h2"
                | "h3"
                | "h4"
                | "h5"
                | "h6"
        )
    )
}

fn clean_spans(children: &mut Vec<Node>, re: Option<&Regex>) {
    let Some(re) = re else { return };
    let mut out = Vec::with_capacity(children.len());
    for mut child in children.drain(..) {
        let unwrap =
            child.name() == Some("span") && re.is_match(child.attr("typeof").unwrap_or(""));
        if unwrap {
            if let Node::Element {
                children: inner, ..
            } = &mut child
            {
                clean_spans(inner, Some(re));
                out.append(inner);
            }
        } else {
            out.push(child);
        }
    }
    *children = out;
}

/// DOM `normalize()`: adjacent text nodes merged, empty ones dropped.
fn merge_text(children: &mut Vec<Node>) {
    let mut out: Vec<Node> = Vec::with_capacity(children.len());
    for child in children.drain(..) {
        match child {
            Node::Text(t) if t.is_empty() => {}
            Node::Text(t) => {
                if let Some(Node::Text(prev)) = out.last_mut() {
                    prev.push_str(&t);
                } else {
                    out.push(Node::Text(t));
                }
            }
            other => out.push(other),
        }
    }
    *children = out;
}

fn is_fallback_id_span(node: &Node) -> bool {
    node.name() == Some("span")
        && node
            .attr("typeof")
            .is_some_and(|t| t.split_whitespace().any(|w| w == "mw:FallbackId"))
}

fn iew(node: &mut Node, mut opts: Opts<'_>) {
    let name = node.name().map(str::to_owned);
    if name.as_deref() == Some("pre") {
        opts.in_pre = true;
    }
    if let Node::Text(data) = node {
        if !opts.preserve_iew {
            if !opts.in_pre {
                *data = WS.replace_all(data, " ").into_owned();
            }
            if opts.strip_leading {
                *data = LEAD.replace(data, "").into_owned();
            }
            if opts.strip_trailing {
                *data = TRAIL.replace(data, "").into_owned();
            }
        }
        return;
    }
    let is_mw_span = name.as_deref() == Some("span")
        && node.attr("typeof").is_some_and(|t| t.starts_with("mw:"));
    let heading = matches!(
        name.as_deref(),
        Some("h1" | "h2" | "h3" | "h4" | "h5" | "h6")
    );
    let Node::Element { children, .. } = node else {
        return;
    };
    clean_spans(children, opts.strip_typeof);
    if !opts.parsoid_only {
        children.retain(|c| !matches!(c, Node::Comment(_)));
    }
    merge_text(children);
    if name.as_deref() == Some("pre") {
        opts.strip_leading = false;
        opts.strip_trailing = true;
    } else if is_mw_span {
        // transparent
    } else {
        let around = newline_around(name.as_deref());
        opts.strip_leading = around;
        opts.strip_trailing = around;
    }
    let mut start = 0;
    if heading && children.first().is_some_and(is_fallback_id_span) {
        start = 1;
    }
    let len = children.len();
    for i in start..len {
        let child_opts = Opts {
            preserve_iew: opts.preserve_iew,
            parsoid_only: opts.parsoid_only,
            strip_typeof: opts.strip_typeof,
            strip_leading: opts.strip_leading,
            strip_trailing: opts.strip_trailing && i + 1 == len,
            in_pre: opts.in_pre,
        };
        if let Some(child) = children.get_mut(i) {
            iew(child, child_opts);
        }
        opts.strip_leading = false;
    }
    if opts.in_pre || opts.preserve_iew {
        return;
    }
    static END_WS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"\s*$").unwrap());
    static START_WS: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"^\s*").unwrap());
    let mut i = 0;
    while i < children.len() {
        let child_name = children.get(i).and_then(Node::name).map(str::to_owned);
        let both = newline_around(child_name.as_deref());
        let before = both;
        let after = both || child_name.as_deref() == Some("br");
        if before {
            if i > 0
                && let Some(Node::Text(prev)) = children.get_mut(i - 1)
            {
                *prev = END_WS.replace(prev, "\n").into_owned();
            } else {
                children.insert(i, Node::Text("\n".into()));
                i += 1;
            }
        }
        if after {
            if let Some(Node::Text(next)) = children.get_mut(i + 1) {
                *next = START_WS.replace(next, "\n").into_owned();
            } else {
                children.insert(i + 1, Node::Text("\n".into()));
            }
        }
        i += 1;
    }
}

const VOID: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track",
    "wbr", "param", "keygen", "basefont", "bgsound", "frame",
];

fn escape_text(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
}

fn escape_attr(s: &str, out: &mut String) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '"' => out.push_str("&quot;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            _ => out.push(c),
        }
    }
}

/// XML-style serialization with sorted attributes (Parsoid's `toXML`, `sortAttrs`).
fn to_xml(nodes: &[Node], out: &mut String) {
    for node in nodes {
        match node {
            Node::Text(t) => escape_text(t, out),
            Node::Comment(c) => {
                out.push_str("<!--");
                out.push_str(c);
                out.push_str("-->");
            }
            Node::Element {
                name,
                attrs,
                children,
            } => {
                out.push('<');
                out.push_str(name);
                let mut sorted: Vec<&(String, String)> = attrs.iter().collect();
                sorted.sort_by(|a, b| a.0.cmp(&b.0));
                for (k, v) in sorted {
                    out.push(' ');
                    out.push_str(k);
                    out.push_str("=\"");
                    escape_attr(v, out);
                    out.push('"');
                }
                if VOID.contains(&name.as_str()) {
                    out.push_str("/>");
                    continue;
                }
                out.push('>');
                if matches!(name.as_str(), "pre" | "textarea" | "listing")
                    && matches!(children.first(), Some(Node::Text(t)) if t.starts_with('\n'))
                {
                    out.push('\n');
                }
                to_xml(children, out);
                out.push_str("</");
                out.push_str(name);
                out.push('>');
            }
        }
    }
}

fn run_iew(
    nodes: Vec<Node>,
    strip_typeof: Option<&Regex>,
    parsoid_only: bool,
    preserve_iew: bool,
) -> Vec<Node> {
    let mut body = Node::Element {
        name: "body".into(),
        attrs: Vec::new(),
        children: nodes,
    };
    iew(
        &mut body,
        Opts {
            preserve_iew,
            parsoid_only,
            strip_typeof,
            strip_leading: true,
            strip_trailing: true,
            in_pre: false,
        },
    );
    match body {
        Node::Element { children, .. } => children,
        _ => Vec::new(),
    }
}

/// JS-style `decodeURI`: valid UTF-8 percent-escapes are decoded unless they
/// stand for a reserved character (`;/?:@&=+$,#`).
pub fn decode_uri(s: &str) -> String {
    let bytes = s.as_bytes();
    let mut out: Vec<u8> = Vec::with_capacity(bytes.len());
    let mut i = 0;
    let hex = |b: u8| (b as char).to_digit(16).map(|d| d as u8);
    while i < bytes.len() {
        if bytes[i] == b'%' {
            // Collect a run of escapes.
            let mut run = Vec::new();
            let mut j = i;
            while j + 2 < bytes.len() && bytes[j] == b'%' {
                match (hex(bytes[j + 1]), hex(bytes[j + 2])) {
                    (Some(h), Some(l)) => {
                        run.push(h * 16 + l);
                        j += 3;
                    }
                    _ => break,
                }
            }
            if run.is_empty() {
                out.push(b'%');
                i += 1;
                continue;
            }
            match std::str::from_utf8(&run) {
                Ok(text) => {
                    let mut k = i;
                    for c in text.chars() {
                        let n = c.len_utf8() * 3;
                        if ";/?:@&=+$,#".contains(c) {
                            out.extend_from_slice(&bytes[k..k + n]);
                        } else {
                            let mut buf = [0u8; 4];
                            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                        }
                        k += n;
                    }
                }
                Err(_) => out.extend_from_slice(&bytes[i..j]),
            }
            i = j;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

fn strip_attrs(nodes: &mut [Node], names: &[&str]) {
    for node in nodes {
        if let Node::Element {
            attrs, children, ..
        } = node
        {
            attrs.retain(|(k, _)| !names.contains(&k.as_str()));
            strip_attrs(children, names);
        }
    }
}

fn remove_elements(nodes: &mut Vec<Node>, drop: &dyn Fn(&Node) -> bool) {
    nodes.retain(|n| !drop(n));
    for node in nodes {
        if let Node::Element { children, .. } = node {
            remove_elements(children, drop);
        }
    }
}

static HREF: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#" href="[^"]*""#).unwrap());
static EMPTY_SPAN_WS: LazyLock<Regex> =
    LazyLock::new(|| Regex::new(r"(\s)<span>\s*</span>\s*").unwrap());
static EMPTY_SPAN: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"<span>\s*</span>").unwrap());

fn decode_hrefs(s: &str) -> String {
    HREF.replace_all(s, |c: &regex::Captures<'_>| decode_uri(&c[0]))
        .into_owned()
}

/// `TestUtils::normalizeOut` (actual output; expected output of Parsoid-only tests).
pub fn normalize_out(html: &str, parsoid_only: bool, preserve_iew: bool) -> String {
    static PARSOID_ONLY: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r"^mw:Placeholder$").unwrap());
    static LEGACY: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"^mw:(?:DisplaySpace|Placeholder|Nowiki|Transclusion|Entity)$").unwrap()
    });
    let strip = if parsoid_only {
        &*PARSOID_ONLY
    } else {
        &*LEGACY
    };
    let mut nodes = run_iew(body(html), Some(strip), parsoid_only, preserve_iew);
    const UNNECESSARY: &[&str] = &[
        "data-mw-original-href",
        "data-parsoid",
        "prefix",
        "about",
        "rev",
        "datatype",
        "inlist",
        "usemap",
        "vocab",
    ];
    if parsoid_only {
        strip_attrs(&mut nodes, UNNECESSARY);
        let mut out = String::new();
        to_xml(&nodes, &mut out);
        return out.replace("<span typeof=\"mw:Nowiki\"></span>", "");
    }
    remove_elements(&mut nodes, &|n| matches!(n.name(), Some("meta" | "link")));
    let mut names = UNNECESSARY.to_vec();
    names.extend(["data-mw", "resource", "rel", "property", "class", "typeof"]);
    strip_attrs(&mut nodes, &names);
    let mut out = String::new();
    to_xml(&nodes, &mut out);
    static MW_ID: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#" id="mw[\w-]{2,}""#).unwrap());
    static DOT_HREF: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#"(href=")(?:\.?\./)+"#).unwrap());
    let out = MW_ID.replace_all(&out, "");
    let out = EMPTY_SPAN_WS.replace_all(&out, "$1");
    let out = EMPTY_SPAN.replace_all(&out, "");
    let out = DOT_HREF.replace_all(&out, "$1");
    decode_hrefs(&out)
}

fn has_class(node: &Node, class: &str) -> bool {
    node.attr("class")
        .is_some_and(|c| c.split_whitespace().any(|w| w == class))
}

/// `normalizePhpOutput` on the tree: no edit-section links, heading wrappers
/// unwrapped, no table of contents.
fn php_output(nodes: &mut Vec<Node>) {
    let mut out = Vec::with_capacity(nodes.len());
    for mut node in nodes.drain(..) {
        if has_class(&node, "mw-editsection") || node.attr("id") == Some("toc") {
            continue;
        }
        if let Node::Element { children, .. } = &mut node {
            php_output(children);
        }
        if node.name() == Some("div") && has_class(&node, "mw-heading") {
            if let Node::Element { mut children, .. } = node {
                let last = children.len().saturating_sub(1);
                if let Some(Node::Text(t)) = children.first_mut()
                    && t.starts_with('\n')
                {
                    t.remove(0);
                }
                if let Some(Node::Text(t)) = children.get_mut(last)
                    && t.ends_with('\n')
                {
                    t.pop();
                }
                out.extend(children);
            }
            continue;
        }
        out.push(node);
    }
    *nodes = out;
}

/// `TestUtils::normalizeHTML` (expected output of tests without a Parsoid section).
pub fn normalize_html(html: &str) -> String {
    let mut nodes = run_iew(body(html), None, false, false);
    php_output(&mut nodes);
    let mut out = String::new();
    to_xml(&nodes, &mut out);
    static ATTRS: LazyLock<Regex> =
        LazyLock::new(|| Regex::new(r#" (class|rel|about|typeof)="[^"]*""#).unwrap());
    static REDLINK: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r"/index.php\?title=([^']+?)&amp;action=edit&amp;redlink=1").unwrap()
    });
    static REDTITLE: LazyLock<Regex> = LazyLock::new(|| {
        Regex::new(r" \((?:page does not exist|encara no existeix|bet ele jaratılmaǵan|lonkásá  ezalí tɛ̂)\)").unwrap()
    });
    static A_HREF: LazyLock<Regex> = LazyLock::new(|| Regex::new(r"<a +href").unwrap());
    static SPACE_GT: LazyLock<Regex> = LazyLock::new(|| Regex::new(r#"" +>"#).unwrap());
    let out = EMPTY_SPAN_WS.replace_all(&out, "$1");
    let out = EMPTY_SPAN.replace_all(&out, "");
    let out = ATTRS.replace_all(&out, "");
    let out = REDLINK.replace_all(&out, "/wiki/$1");
    let out = REDTITLE.replace_all(&out, "");
    let out = A_HREF.replace_all(&out, "<a href");
    let out = out.replace("href=\"/wiki/", "href=\"");
    let out = SPACE_GT.replace_all(&out, "\">");
    let out = out.replace("href=\"#", "href=\"Main Page#");
    let out = decode_hrefs(&out);
    let out = EMPTY_SPAN_WS.replace_all(&out, "$1");
    EMPTY_SPAN.replace_all(&out, "").into_owned()
}
