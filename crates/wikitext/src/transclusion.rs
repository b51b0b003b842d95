//! Template encapsulation (Parsoid's `mw:Transclusion`): the page is expanded
//! one top-level template call at a time, each call's output between marker
//! characters the tokenizer turns into `<meta typeof="mw:Transclusion">` …
//! `<meta typeof="mw:Transclusion/End">`; the DOM pass `dom::encapsulate` then
//! puts `typeof` and `data-mw` (the call's target and parameters) on the output.

use std::borrow::Cow;

use foldhash::HashMap;

use crate::preprocess::{self, Node, PageExpander, Title, Tree};

/// Starts a call's output; followed by its index and [`INDEX_END`].
pub(crate) const START: char = '\u{E000}';
/// Ends the index after [`START`].
pub(crate) const INDEX_END: char = '\u{E001}';
/// Ends a call's output.
pub(crate) const END: char = '\u{E002}';

/// Appends the marker that starts call `index`'s output.
fn push_start_marker(out: &mut String, index: usize) {
    out.push(START);
    crate::dom::cite::push_number(out, index);
    out.push(INDEX_END);
}

/// Whether `text` holds a marker (all three are `\u{E000}`…`\u{E002}`,
/// UTF-8 `EE 80 80`…`EE 80 82`): a byte search for their lead byte, not a
/// search char by char, over every call's output.
fn has_marker(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut from = 0;
    while let Some(at) = bytes.get(from..).and_then(|b| memchr::memchr(0xEE, b)) {
        let at = from + at;
        if bytes.get(at + 1) == Some(&0x80)
            && bytes
                .get(at + 2)
                .is_some_and(|&b| (0x80..=0x82).contains(&b))
        {
            return true;
        }
        from = at + 1;
    }
    false
}

/// Whether `text` opens more call outputs than it closes (it ends inside one).
/// One byte search for the markers' lead byte (see [`has_marker`]) counts
/// both kinds at once.
pub(crate) fn opens_call(text: &str) -> bool {
    let bytes = text.as_bytes();
    // Starts minus ends.
    let mut balance = 0isize;
    for at in memchr::memchr_iter(0xEE, bytes) {
        if bytes.get(at + 1) != Some(&0x80) {
            continue;
        }
        match bytes.get(at + 2) {
            Some(0x80) => balance += 1,
            Some(0x82) => balance -= 1,
            _ => {}
        }
    }
    balance > 0
}

/// Parser functions (by lowercase name) whose calls Parsoid marks as functions.
const FUNCTIONS: &[&str] = &[
    "lc",
    "uc",
    "lcfirst",
    "ucfirst",
    "padleft",
    "padright",
    "urlencode",
    "anchorencode",
    "ns",
    "nse",
    "fullurl",
    "localurl",
    "formatnum",
    "plural",
    "int",
    "canonicalurl",
    "filepath",
    "gender",
    "grammar",
    "tag",
];

/// `s` as a JSON string, as serde_json writes it.
fn json(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    json_into(s, &mut out);
    out
}

/// Appends `s` as a JSON string written as serde_json writes one: `"` and `\`
/// escaped, the C0 controls as `\b \t \n \f \r` or `\u00XX`, all else as is.
pub(crate) fn json_into(s: &str, out: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.reserve(s.len() + 2);
    out.push('"');
    let bytes = s.as_bytes();
    if !any_json_escape(bytes) {
        // Most strings (names, values, titles): one copy.
        out.push_str(s);
        out.push('"');
        return;
    }
    let mut from = 0;
    let mut i = 0;
    while let Some(&b) = bytes.get(i) {
        // Eight plain bytes at a time (most text has nothing to escape).
        if let Some(word) = bytes
            .get(i..i + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            && !needs_json_escape(u64::from_le_bytes(word))
        {
            i += 8;
            continue;
        }
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..0x20 => "",
            _ => {
                i += 1;
                continue;
            }
        };
        out.push_str(s.get(from..i).unwrap_or(""));
        if esc.is_empty() {
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(b >> 4)]));
            out.push(char::from(HEX[usize::from(b & 0xf)]));
        } else {
            out.push_str(esc);
        }
        i += 1;
        from = i;
    }
    out.push_str(s.get(from..).unwrap_or(""));
    out.push('"');
}

/// Whether any byte of `bytes` needs escaping in a JSON string: a long
/// string [`BLOCK`] bytes at a time, a shorter one eight bytes at a time,
/// the last ones as one word too (overlapping the words before, or read in
/// overlapping halves and padded with spaces when shorter than a word: most
/// names are), so no byte is looked at alone.
pub(crate) fn any_json_escape(bytes: &[u8]) -> bool {
    let word = |at: usize| {
        bytes
            .get(at..at + 8)
            .and_then(|w| <[u8; 8]>::try_from(w).ok())
            .map_or(0, u64::from_le_bytes)
    };
    let len = bytes.len();
    if len >= BLOCK {
        // Long strings (a whole call's source, ref bodies): a block at a
        // time, each block's bytes tested without an early exit (the
        // compiler turns that into vector compares), the last block
        // overlapping the ones before.
        let (blocks, _) = bytes.as_chunks::<BLOCK>();
        if blocks.iter().any(block_needs_json_escape) {
            return true;
        }
        return bytes
            .last_chunk::<BLOCK>()
            .is_some_and(block_needs_json_escape);
    }
    if len >= 8 {
        let mut at = 0;
        while at + 8 < len {
            if needs_json_escape(word(at)) {
                return true;
            }
            at += 8;
        }
        return needs_json_escape(word(len - 8));
    }
    // Two overlapping halves (every byte in at least one), the rest spaces.
    const SPACES: u64 = 0x2020_2020_2020_2020;
    let half = |from: usize, to: usize| {
        bytes
            .get(from..to)
            .unwrap_or_default()
            .iter()
            .rev()
            .fold(0u64, |w, &b| w << 8 | u64::from(b))
    };
    let w = match len {
        0 => return false,
        1..4 => half(0, len) | SPACES << (8 * len),
        _ => half(0, 4) | half(len - 4, len) << 32,
    };
    needs_json_escape(w)
}

/// The bytes [`any_json_escape`] tests at once in a long string.
const BLOCK: usize = 32;

/// Whether any byte of `block` needs escaping in a JSON string, every byte
/// tested (no early exit, so the test vectorizes).
fn block_needs_json_escape(block: &[u8; BLOCK]) -> bool {
    block.iter().fold(0u8, |any, &b| any | json_escape_flag(b)) != 0
}

/// 1 when byte `b` needs escaping in a JSON string (`"`, `\`, below 0x20),
/// else 0: a flag to OR without a branch (the block scans' one rule; the
/// word test [`needs_json_escape`] is its eight-bytes-at-once form).
#[inline(always)]
fn json_escape_flag(b: u8) -> u8 {
    u8::from(b < 0x20) | u8::from(b == b'"') | u8::from(b == b'\\')
}

/// Whether any of the eight bytes of `w` is `"`, `\` or below 0x20 (the
/// bit tricks of "Bit Twiddling Hacks": a zero byte, a byte less than n).
fn needs_json_escape(w: u64) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero_byte = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS != 0;
    let below_space = w.wrapping_sub(ONES * 0x20) & !w & HIGHS != 0;
    below_space
        || zero_byte(w ^ (ONES * u64::from(b'"')))
        || zero_byte(w ^ (ONES * u64::from(b'\\')))
}

/// What [`expand_into`] keeps across a page and its `<ref>` bodies: the
/// marked calls, and each template name's `href` (titles normalized once).
struct Marks<'a, 's> {
    site: &'a preprocess::Site,
    /// [`data_mw`]'s list of a call's parameters, made once and cleared for
    /// each call (not an allocation a call).
    params: Vec<Param<'s>>,
    calls: Vec<Call>,
    /// A template name as written (comments-free, trimmed) → its `href` as a
    /// JSON string.
    hrefs: HashMap<String, String>,
    /// The open brackets of the expanded text's last line (shared by the
    /// page and its ref bodies, which write to the same text).
    brackets: OpenBrackets,
}

/// One parameter of a call's `data-mw`: pieces of the call's source (the
/// name without its comments is made, as a positional name of ten or more).
struct Param<'s> {
    name: Cow<'s, str>,
    value: &'s str,
    /// The name as written, when that had comments.
    key: Option<&'s str>,
}

/// The name of positional parameter `n` (from 1): its digits, the first
/// nine not made.
fn positional_name(n: usize) -> Cow<'static, str> {
    const DIGITS: &str = "0123456789";
    match DIGITS.get(n..n + 1) {
        Some(d) if n > 0 => Cow::Borrowed(d),
        _ => Cow::Owned(n.to_string()),
    }
}

/// The preprocessor's titles of the call names it classified
/// ([`PageExpander::titles`]).
type Titles = HashMap<String, Option<Title>>;

/// Parsoid's `data-mw` for the call `src` (`{{…}}`), written straight from
/// the call's parts; a template's `href` from `titles` when the name is there.
fn data_mw<'s>(
    src: &'s str,
    call: &preprocess::Braced,
    marks: &mut Marks<'_, 's>,
    titles: &Titles,
    expanded_name: Option<&str>,
) -> String {
    let text = |span: &std::ops::Range<usize>| src.get(span.clone()).unwrap_or("");
    let target_wt = text(&call.title.span);
    let trimmed = trim(target_wt);
    // Parsoid's target source starts after leading blanks and comments.
    let mut shown = target_wt.trim_start();
    while let Some(rest) = shown.strip_prefix("<!--") {
        match rest.find("-->") {
            Some(end) => shown = rest.get(end + 3..).unwrap_or("").trim_start(),
            None => break,
        }
    }
    let mut out = String::with_capacity(call.span.len() + 96 + 16 * call.parts.len());
    // A call without `"`, `\` or control characters (most are one line
    // without quotes) has none in any of its strings (each is a piece of
    // it, or digits): they are written as they are, not searched one by one.
    // Names with comments need `<`: found in the same pass over the call.
    let (escapes, has_angle) = escapes_and_angle(text(&call.span).as_bytes());
    let plain = !escapes;
    let string_into = |s: &str, out: &mut String| {
        if plain {
            out.push('"');
            out.push_str(s);
            out.push('"');
        } else {
            json_into(s, out);
        }
    };
    out.push_str("{\"parts\":[{\"template\":{\"target\":{\"wt\":");
    string_into(shown, &mut out);
    let function = if matches!(trimmed, "=" | "!") {
        Some(trimmed.to_owned())
    } else if let Some(rest) = trimmed.strip_prefix('#') {
        Some(rest.split(':').next().unwrap_or("").trim().to_lowercase())
    } else if let Some(colon) = memchr::memchr(b':', trimmed.as_bytes()) {
        let name = trimmed.get(..colon).unwrap_or("").trim().to_lowercase();
        FUNCTIONS.contains(&name.as_str()).then_some(name)
    } else if !trimmed.is_empty()
        && trimmed.chars().all(|c| c.is_ascii_uppercase() || c == '_')
        && call.parts.is_empty()
    {
        Some(trimmed.to_lowercase())
    } else {
        None
    };
    match &function {
        Some(f) => {
            out.push_str(",\"function\":");
            json_into(f, &mut out);
        }
        None => {
            out.push_str(",\"href\":");
            // A templated name (`{{{{1x|1x}}|…}}`) is the title it expands to.
            match expanded_name {
                Some(name) => out.push_str(&template_href(name, trimmed, marks.site)),
                None if !(trimmed.contains('<') && trimmed.contains("<!--")) => {
                    match marks.hrefs.get(trimmed) {
                        Some(href) => out.push_str(href),
                        None => {
                            let href = match titles.get(trimmed) {
                                // The preprocessor's title of the same name
                                // (made as [`template_href`] makes one).
                                Some(title) => href_json(
                                    &title
                                        .as_ref()
                                        .map_or_else(|| trimmed.to_owned(), Title::prefixed),
                                ),
                                None => template_href(trimmed, trimmed, marks.site),
                            };
                            out.push_str(&href);
                            marks.hrefs.insert(trimmed.to_owned(), href);
                        }
                    }
                }
                None => out.push_str(&template_href(
                    &without_comments(trimmed),
                    trimmed,
                    marks.site,
                )),
            }
        }
    }
    out.push_str("},\"params\":{");
    // Each parameter once (a repeated name: the last one), in call order.
    let mut params = std::mem::take(&mut marks.params);
    params.clear();
    let mut n = 0;
    for part in &call.parts {
        let whole = text(&part.span);
        // A parser function's arguments are all positional, as written.
        let eq = part.eq.filter(|_| function.is_none());
        params.push(match eq.and_then(|eq| part.nodes.get(eq)) {
            Some(eq) => {
                let at = eq.span().start.saturating_sub(part.span.start);
                let raw = trim(whole.get(..at).unwrap_or(""));
                let value = trim(whole.get(at + 1..).unwrap_or(""));
                if has_angle && raw.contains('<') && raw.contains("<!--") {
                    let name = without_comments(raw);
                    // A name written with comments keeps its source as `key`.
                    let key = (name != raw).then_some(raw);
                    Param {
                        name: Cow::Owned(name),
                        value,
                        key,
                    }
                } else {
                    Param {
                        name: Cow::Borrowed(raw),
                        value,
                        key: None,
                    }
                }
            }
            None => {
                n += 1;
                Param {
                    name: positional_name(n),
                    value: whole,
                    key: None,
                }
            }
        });
    }
    let mut first = true;
    for (i, param) in params.iter().enumerate() {
        let name: &str = &param.name;
        if params
            .get(i + 1..)
            .is_some_and(|later| later.iter().any(|p| same_name(&p.name, name)))
        {
            continue;
        }
        if !first {
            out.push(',');
        }
        first = false;
        if plain && param.key.is_none() {
            // The quotes written with the text around them: three pushes
            // fewer a parameter.
            out.push('"');
            out.push_str(name);
            out.push_str("\":{\"wt\":\"");
            out.push_str(param.value);
            out.push_str("\"}");
            continue;
        }
        string_into(name, &mut out);
        out.push_str(":{\"wt\":");
        string_into(param.value, &mut out);
        if let Some(key) = param.key {
            out.push_str(",\"key\":{\"wt\":");
            string_into(key, &mut out);
            out.push('}');
        }
        out.push('}');
    }
    out.push_str("},\"i\":0}}]}");
    marks.params = params;
    out
}

/// Whether two parameter names are the same: lengths and first bytes
/// compared before the text (most names differ in one of them, and the
/// positional ones `1` … `9` all have one byte: no `memcmp` call for them).
fn same_name(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.as_bytes().first() == b.as_bytes().first() && a == b
}

/// Whether `bytes` (a whole call) hold a byte that needs escaping in a
/// JSON string, and whether they hold a `<`: one pass, [`BLOCK`] bytes at
/// a time with no early exit (vector compares). The last bytes are a block
/// too (a byte looked at twice sets no new flag): the call's last block
/// again, overlapping the ones before, or in a call shorter than a block
/// its bytes padded with spaces (the bytes one by one, or eight at a time,
/// cost ≈ 100 instructions a call).
fn escapes_and_angle(bytes: &[u8]) -> (bool, bool) {
    let block_flags = |block: &[u8; BLOCK]| {
        block.iter().fold((0u8, 0u8), |(e, a), &b| {
            (e | json_escape_flag(b), a | u8::from(b == b'<'))
        })
    };
    let (blocks, rest) = bytes.as_chunks::<BLOCK>();
    let (mut escape, mut angle) = (0u8, 0u8);
    for block in blocks {
        let (e, a) = block_flags(block);
        escape |= e;
        angle |= a;
    }
    if !rest.is_empty() {
        let last = match bytes.last_chunk::<BLOCK>() {
            Some(last) => *last,
            None => {
                let mut padded = [b' '; BLOCK];
                if let Some(head) = padded.get_mut(..rest.len()) {
                    head.copy_from_slice(rest);
                }
                padded
            }
        };
        let (e, a) = block_flags(&last);
        escape |= e;
        angle |= a;
    }
    (escape != 0, angle != 0)
}

/// Whether `s` holds byte `b` twice in a row (`{{`, `[[`): a byte search
/// for `b`, each hit's next byte looked at (`str::contains` of a two-byte
/// needle sets up a searcher on every call; each marked call asks twice).
fn has_pair(s: &str, b: u8) -> bool {
    let bytes = s.as_bytes();
    memchr::memchr_iter(b, bytes).any(|at| bytes.get(at + 1) == Some(&b))
}

/// `s.trim()`: ASCII blanks at the ends are taken off by their bytes, and
/// only ends that are not ASCII are decoded as characters (every name and
/// value of every call is trimmed).
fn trim(s: &str) -> &str {
    // The blanks `char::is_whitespace` finds among ASCII bytes.
    let blank = |b: &u8| matches!(b, b'\t'..=b'\r' | b' ');
    let bytes = s.as_bytes();
    let start = bytes.iter().position(|b| !blank(b)).unwrap_or(bytes.len());
    let end = bytes
        .iter()
        .rposition(|b| !blank(b))
        .map_or(start, |e| e + 1);
    // Both are character boundaries: next to ASCII bytes or the string's ends.
    let t = s.get(start..end).unwrap_or("");
    let wide = |b: Option<&u8>| b.is_some_and(|b| !b.is_ascii());
    if wide(t.as_bytes().first()) || wide(t.as_bytes().last()) {
        t.trim()
    } else {
        t
    }
}

/// The `href` of template `name` as a JSON string: `./Template:Name`, or
/// `./` and the target source `trimmed` when `name` is no title.
fn template_href(name: &str, trimmed: &str, site: &preprocess::Site) -> String {
    let name = crate::tokenize::entity::decode_all(name);
    let title = preprocess::Title::parse(&name, preprocess::NS_TEMPLATE, site)
        .map(|t| t.prefixed())
        .unwrap_or_else(|_| trimmed.to_owned());
    href_json(&title)
}

/// The `href` of the page `title` (prefixed) as a JSON string.
fn href_json(title: &str) -> String {
    // Written in one string, quotes and all: the encoding leaves no
    // control character or backslash, so only a `"` would need the escaped
    // form (checked as `json_into` checks).
    let mut href = String::with_capacity(title.len() + 8);
    href.push_str("\"./");
    crate::title::push_encoded_title(&mut href, title);
    match href.get(1..) {
        Some(inner) if !any_json_escape(inner.as_bytes()) => {
            href.push('"');
            href
        }
        inner => json(inner.unwrap_or("")),
    }
}

/// Parsoid's `data-mw` for a template argument `src` (`{{{…}}}`) on the page.
fn param_data_mw(src: &str, call: &preprocess::Braced) -> String {
    let text = |span: &std::ops::Range<usize>| src.get(span.clone()).unwrap_or("");
    let target = text(&call.title.span);
    let mut params = String::from("{");
    for (i, part) in call.parts.iter().enumerate() {
        if i > 0 {
            params.push(',');
        }
        params.push_str(&format!(
            "{}:{{\"wt\":{}}}",
            json(&(i + 1).to_string()),
            json(text(&part.span))
        ));
    }
    params.push('}');
    format!(
        "{{\"parts\":[{{\"templatearg\":{{\"target\":{{\"wt\":{}}},\"params\":{params},\"i\":0}}}}]}}",
        json(target)
    )
}

/// A marked call: its `data-mw`, and the wikitext between the previous marked
/// call and it (a literal part when the two make one compound range).
#[derive(Clone, Debug, Default)]
pub(crate) struct Call {
    pub(crate) data_mw: String,
    pub(crate) gap: String,
    /// The call expanded to nothing (an empty transclusion, unlike output the
    /// tree builder drops: the DOM pass cannot tell the two apart).
    pub(crate) empty: bool,
}

/// Expands `src` (page view), wrapping each top-level call's output in markers;
/// returns the text and each call's `data-mw`.
pub(crate) fn expand(
    page: &mut PageExpander<'_, '_>,
    src: &str,
    tree: &Tree,
    site: &preprocess::Site,
) -> Result<(String, Vec<Call>), preprocess::PreprocessError> {
    // The expanded text is up to 1.10 times the source on the real-article
    // corpus (markers and red-link calls; 13 of 111 pages outgrew the
    // source's length): an eighth more, made once.
    let mut out = String::with_capacity(src.len().saturating_add(src.len() / 8));
    let mut marks = Marks {
        site,
        params: Vec::new(),
        calls: Vec::new(),
        hrefs: HashMap::default(),
        brackets: OpenBrackets::default(),
    };
    expand_into(page, src, tree, &mut marks, &mut out, 0)?;
    Ok((out, marks.calls))
}

/// How deep `<ref>` bodies inside `<ref>`/`<references>` bodies are expanded
/// call by call (deeper ones expand whole, unmarked).
const MAX_TAG_NESTING: usize = 8;

/// The top-level extension tags whose bodies are page wikitext Cite renders
/// (their calls are marked like the page's own).
fn is_cite_tag(src: &str, e: &preprocess::ExtTag) -> bool {
    src.get(e.name.clone())
        .is_some_and(|n| n.eq_ignore_ascii_case("ref") || n.eq_ignore_ascii_case("references"))
}

/// The preprocessor tree of a ref body. A body without `{` or `<` holds no
/// call, argument, tag or comment: its tree is one text node (about a third
/// of the corpus's bodies), made without a parse.
fn body_tree(page: &PageExpander<'_, '_>, body: &str) -> Tree {
    let options = page.pre.parse_options(preprocess::Mode::Page);
    if memchr::memchr2(b'{', b'<', body.as_bytes()).is_some() {
        return preprocess::parse_with(body, options);
    }
    let nodes = if body.is_empty() {
        Vec::new()
    } else {
        vec![Node::Text(0..body.len())]
    };
    let tree = Tree { nodes };
    debug_assert_eq!(tree, preprocess::parse_with(body, options));
    tree
}

fn expand_into<'s>(
    page: &mut PageExpander<'_, '_>,
    src: &'s str,
    tree: &Tree,
    marks: &mut Marks<'_, 's>,
    out: &mut String,
    nesting: usize,
) -> Result<(), preprocess::PreprocessError> {
    let mut segment_start = 0;
    // The end of the last marked call in the source.
    let mut marked_end = 0;
    let mut tables = TableDepth::default();
    // The last marked call: its index in `calls`, where its end marker
    // ends in `out`, and whether its output ended on a list line.
    let mut last_marked: Option<(usize, usize, bool)> = None;
    // The first node after the last one handled below: the nodes from it on
    // to the next handled one cover the text before that one.
    let mut gap_from = 0;
    // Each call's expansion, in one buffer.
    let mut expansion = String::new();
    // The frame every call of `src` is expanded in (two hash maps' states
    // made once, not per call).
    let root = preprocess::Frame::root(src);
    for (k, node) in tree.nodes.iter().enumerate() {
        let gap = tree.nodes.get(gap_from..k).unwrap_or(&[]);
        if let Node::Ext(e) = node {
            let Some(inner) = e.inner.clone().filter(|_| nesting < MAX_TAG_NESTING) else {
                continue;
            };
            if !is_cite_tag(src, e) {
                continue;
            }
            gap_from = k + 1;
            expand_gap(page, src, gap, segment_start..e.span.start, out)?;
            out.push_str(src.get(e.span.start..inner.start).unwrap_or(""));
            let inner_src = src.get(inner.clone()).unwrap_or("");
            let inner_tree = body_tree(page, inner_src);
            expand_into(page, inner_src, &inner_tree, marks, out, nesting + 1)?;
            out.push_str(src.get(inner.end..e.span.end).unwrap_or(""));
            segment_start = e.span.end;
            continue;
        }
        if let Node::Ignore(span) = node {
            // Include directives of the page itself (`<noinclude>`,
            // `<includeonly>…</includeonly>`) reach the tokenizer as written:
            // Parsoid marks them with metas.
            gap_from = k + 1;
            expand_gap(page, src, gap, segment_start..span.start, out)?;
            // Inside a tag or link they go, as before.
            if safe_context(last_line(out)) {
                out.push_str(src.get(span.clone()).unwrap_or(""));
            }
            segment_start = span.end;
            continue;
        }
        let (call, param) = match node {
            Node::Template(call) => (call, false),
            // A template argument on the page itself (`{{{1|default}}}`):
            // Parsoid marks it as mw:Param.
            Node::Argument(call) => (call, true),
            _ => continue,
        };
        let span = call.span.clone();
        // The text before the call, expanded on its own (it holds no call).
        gap_from = k + 1;
        expand_gap(page, src, gap, segment_start..span.start, out)?;
        let call_src = src.get(span.clone()).unwrap_or("");
        page.check_input(call_src.len())?;
        expansion.clear();
        page.expand_call(&root, node, &mut expansion);
        let line_at = line_start(out);
        let line = out.get(line_at..).unwrap_or(out);
        // Output that is only wikitext syntax (`{{!}}`, table pieces) stays
        // unmarked: it becomes structure, not content.
        let target = trim(src.get(call.title.span.clone()).unwrap_or(""));
        // The output without its blanks, trimmed once for the tests below.
        let shown = trim(&expansion);
        let syntax_only = target != "="
            && !shown.is_empty()
            && shown.chars().all(|c| {
                matches!(
                    c,
                    '|' | '!' | '{' | '}' | '-' | '=' | '+' | '*' | '#' | ':' | ';'
                )
            });
        // `{{!}}` outside wikitext tables is content (Parsoid marks it); in a
        // table it is a pipe of the table syntax.
        let pipe_is_content = expansion == "|"
            && !line.ends_with('{')
            && (tables.depth(out) == 0 || cell_content(line, src.get(span.end..).unwrap_or("")));
        let syntax_only = syntax_only && !pipe_is_content;
        // A call that opens or closes a wikitext table is encapsulated with it.
        let table_syntax = shown.starts_with("{|") || shown == "|}";
        let syntax_only = syntax_only && !table_syntax;
        let unexpanded = expansion == call_src && !param;
        // A call right after a marked one whose list its output continues
        // (`{{1x|#foo}}{{1x|#foo}}`, the second starting a new line, T2529):
        // one transclusion of two parts.
        let continues_list = expansion.starts_with('\n')
            && expansion
                .get(1..)
                .is_some_and(|r| r.starts_with(['*', '#', ':', ';']));
        if !param
            && continues_list
            && span.start == segment_start
            && !has_marker(&expansion)
            && let Some((idx, end_at, true)) = last_marked
            && end_at == out.len()
            && out.ends_with(END)
        {
            out.pop();
            out.push_str(&expansion);
            out.push(END);
            let part = data_mw(src, call, marks, &page.titles, None);
            let part = part
                .strip_prefix("{\"parts\":[")
                .and_then(|p| p.strip_suffix("]}"))
                .unwrap_or("");
            if let Some(prev) = marks.calls.get_mut(idx).map(|c| &mut c.data_mw) {
                let n = prev.matches("\"i\":").count();
                let part = match part.strip_suffix("\"i\":0}}") {
                    Some(head) => format!("{head}\"i\":{n}}}}}"),
                    None => part.to_owned(),
                };
                if let Some(head) = prev.strip_suffix("]}") {
                    *prev = format!("{head},{part}]}}");
                }
            }
            last_marked = Some((idx, out.len(), ends_on_list_line(&expansion)));
            segment_start = span.end;
            continue;
        }
        if has_marker(&expansion)
            || !safe_context(line)
            || !safe_after_bracket(line, marks.brackets.last_open(out, line_at), &expansion)
            || syntax_only
            || unexpanded
        {
            out.push_str(&expansion);
        } else {
            // Output ending in a wikilink takes the page's link trail
            // (`{{1x|[[Foo]]}}s`): the letters join the link and the
            // transclusion, as a part of its own.
            let trail_len = if !param && expansion.ends_with("]]") && has_pair(&expansion, b'[') {
                src.get(span.end..)
                    .unwrap_or("")
                    .bytes()
                    .take_while(u8::is_ascii_lowercase)
                    .count()
            } else {
                0
            };
            let trail_len = if trail_len == 0 && !param {
                open_item_extent(src, span.clone(), &expansion)
            } else {
                trail_len
            };
            let trail = src.get(span.end..span.end + trail_len).unwrap_or("");
            // A call on a list line whose output continues the list: the
            // list is the transclusion's, and the line's start a part of it.
            let lead = if param {
                None
            } else {
                list_line_lead(src, span.clone(), &expansion, out)
            };
            match &lead {
                Some(l) => {
                    let mut marker = String::with_capacity(12);
                    push_start_marker(&mut marker, marks.calls.len());
                    out.insert_str(out.len() - l.len(), &marker);
                    // The line moved: read again.
                    marks.brackets = OpenBrackets::default();
                }
                None => push_start_marker(out, marks.calls.len()),
            }
            out.push_str(&expansion);
            out.push_str(trail);
            out.push(END);
            let target = src.get(call.title.span.clone()).unwrap_or("");
            let gap = src.get(marked_end..span.start).unwrap_or("").to_owned();
            if param {
                marks.calls.push(Call {
                    data_mw: param_data_mw(src, call),
                    gap,
                    empty: expansion.is_empty(),
                });
                marked_end = span.end;
                segment_start = span.end;
                continue;
            }
            let expanded_name = if has_pair(target, b'{') {
                Some(without_comments(&page.expand(target)?.text))
            } else {
                None
            };
            let mut data = data_mw(src, call, marks, &page.titles, expanded_name.as_deref());
            if let Some(l) = &lead
                && let Some(tail) = data.strip_prefix("{\"parts\":[")
            {
                data = format!("{{\"parts\":[{},{tail}", json(l));
            }
            if !trail.is_empty()
                && let Some(head) = data.strip_suffix("]}")
            {
                data = format!("{head},{}]}}", json(trail));
            }
            marks.calls.push(Call {
                data_mw: data,
                gap,
                empty: expansion.is_empty(),
            });
            marked_end = span.end + trail_len;
            last_marked = Some((
                marks.calls.len() - 1,
                out.len(),
                trail_len == 0 && lead.is_none() && ends_on_list_line(&expansion),
            ));
            segment_start = span.end + trail_len;
            continue;
        }
        segment_start = span.end;
    }
    let gap = tree.nodes.get(gap_from..).unwrap_or(&[]);
    expand_gap(page, src, gap, segment_start..src.len(), out)
}

/// Expands the page text `src[text]`, which holds no call, into `out`: `gap`
/// are the tree's nodes that cover it (the first may start before it, in
/// the link trail a marked call took).
fn expand_gap(
    page: &mut PageExpander<'_, '_>,
    src: &str,
    gap: &[Node],
    text: std::ops::Range<usize>,
    out: &mut String,
) -> Result<(), preprocess::PreprocessError> {
    page.check_input(text.end.saturating_sub(text.start))?;
    let skip = gap
        .iter()
        .take_while(|n| n.span().end <= text.start)
        .count();
    let gap = gap.get(skip..).unwrap_or(&[]);
    match gap.split_first() {
        Some((Node::Text(first), rest)) if first.start < text.start => {
            page.expand_page_nodes(src, &[Node::Text(text.start..first.end)], out);
            page.expand_page_nodes(src, rest, out);
        }
        // A trail is plain text; were it not, the text is parsed on its own.
        Some((first, _)) if first.span().start < text.start => {
            out.push_str(&page.expand(src.get(text).unwrap_or(""))?.text);
        }
        _ => page.expand_page_nodes(src, gap, out),
    }
    Ok(())
}

/// Whether `text`'s last line is a list line.
fn ends_on_list_line(text: &str) -> bool {
    last_line(text).starts_with(['*', '#', ':', ';'])
}

/// The text after `text`'s last newline (all of it when it has none). The
/// expanded page so far is searched for it before every call, and its last
/// line can be a long paragraph: memchr's vector search from the end, not
/// `rsplit`'s (a generic search a word at a time).
fn last_line(text: &str) -> &str {
    text.get(line_start(text)..).unwrap_or(text)
}

/// Where `text`'s last line starts: after its last newline (0 when it has
/// none), found as [`last_line`] finds it.
fn line_start(text: &str) -> usize {
    memchr::memrchr(b'\n', text.as_bytes()).map_or(0, |at| at + 1)
}

/// The start of the current line before a call (`*foo ` in `*foo {{x}}`)
/// when the line is a list item and the call's output continues the list
/// (it holds a new list line, or ends the line before a list line of the
/// page); `None` otherwise, or when that text is not as written in `out`.
fn list_line_lead(
    src: &str,
    span: std::ops::Range<usize>,
    expansion: &str,
    out: &str,
) -> Option<String> {
    let line_start = line_start(src.get(..span.start)?);
    let lead = src.get(line_start..span.start)?;
    if !lead.starts_with(['*', '#', ':', ';'])
        || lead.contains("{{")
        || lead.contains('<')
        || lead.contains('[')
        || !out.ends_with(lead)
    {
        return None;
    }
    let bullet_after_nl = |s: &str| {
        s.match_indices('\n').any(|(at, _)| {
            s.get(at + 1..)
                .is_some_and(|r| r.starts_with(['*', '#', ':', ';']))
        })
    };
    let after = src.get(span.end..).unwrap_or("");
    // Output that starts a new item at once (`*Foo {{bullet}}`, T2529) is
    // that item alone.
    if expansion
        .split('\n')
        .next()
        .is_none_or(|l| l.trim().is_empty())
    {
        return None;
    }
    let continues = bullet_after_nl(expansion.trim_end_matches('\n'))
        || (expansion.ends_with('\n') && after.starts_with(['*', '#', ':', ';']));
    continues.then(|| lead.to_owned())
}

/// Whether `expansion` has more `<li>`/`<li ` than `</li` (ASCII case
/// ignored): every template's output is searched, by its `<`s, not copied in
/// lower case and searched three times.
fn opens_list_item(expansion: &str) -> bool {
    let bytes = expansion.as_bytes();
    let (mut opens, mut closes) = (0usize, 0usize);
    for at in memchr::memchr_iter(b'<', bytes) {
        let rest = bytes.get(at + 1..).unwrap_or_default();
        let is = |name: &[u8]| {
            rest.get(..name.len())
                .is_some_and(|head| head.eq_ignore_ascii_case(name))
        };
        if is(b"li>") || is(b"li ") {
            opens += 1;
        } else if is(b"/li") {
            closes += 1;
        }
    }
    opens > closes
}

/// When output leaves a list item open (`{{1x|<li>}}a`), the page text that
/// fills it is part of the transclusion (Parsoid's range reaches the item's
/// end): the rest of the line, and on a list line the deeper list lines after
/// it. Its length after the call (0 when none, or when it holds syntax that
/// must stay apart: templates, tags).
fn open_item_extent(src: &str, span: std::ops::Range<usize>, expansion: &str) -> usize {
    if !opens_list_item(expansion) {
        return 0;
    }
    let rest = src.get(span.end..).unwrap_or("");
    let mut len = memchr::memchr(b'\n', rest.as_bytes()).unwrap_or(rest.len());
    let line_start = src.get(..span.start).map_or(0, line_start);
    let prefix: String = src
        .get(line_start..)
        .unwrap_or("")
        .chars()
        .take_while(|c| matches!(c, '*' | '#' | ':' | ';'))
        .collect();
    if !prefix.is_empty() {
        while rest.as_bytes().get(len) == Some(&b'\n') {
            let next = rest.get(len + 1..).unwrap_or("");
            let deeper = next.starts_with(prefix.as_str())
                && next
                    .get(prefix.len()..)
                    .is_some_and(|r| r.starts_with(['*', '#', ':', ';']));
            if !deeper {
                break;
            }
            len += 1 + next.find('\n').unwrap_or(next.len());
        }
    }
    let text = rest.get(..len).unwrap_or("");
    if text.contains("{{") || text.contains('<') || text.contains('[') {
        return 0;
    }
    len
}

/// Whether output can be marked after `line` (the expanded text of the line so
/// far): not inside a tag, where markers would land in
/// an attribute (brackets: [`safe_after_bracket`]).
fn safe_context(line: &str) -> bool {
    // Open when the last `<` or `>` is a `<`. Table syntax lines are fine:
    // markers are transparent to table syntax (`tokenize/table.rs`).
    let bytes = line.as_bytes();
    memchr::memrchr2(b'<', b'>', bytes).is_none_or(|at| bytes.get(at) == Some(&b'>'))
}

/// The last `[` of `line` that no later `]` closes (a `]` closes the nearest
/// open `[` before it; one with none open is text), read from the end.
fn last_open_bracket(line: &str) -> Option<usize> {
    let bytes = line.as_bytes();
    let mut closes = 0usize;
    let mut end = bytes.len();
    while let Some(i) = memchr::memrchr2(b'[', b']', bytes.get(..end).unwrap_or(&[])) {
        end = i;
        if bytes.get(i) == Some(&b']') {
            closes += 1;
        } else if closes > 0 {
            closes -= 1;
        } else {
            return Some(i);
        }
    }
    None
}

/// The `[`s of the expanded text's last line that no `]` after them closes,
/// read once as the text grows (each call asked for [`last_open_bracket`] of
/// the line, read back over all its brackets: a ref body's line is the
/// page's paragraph so far).
#[derive(Default)]
struct OpenBrackets {
    /// Where the line starts in the text.
    line_start: usize,
    /// How far the text is read.
    read: usize,
    /// The open `[`s, as offsets in the line.
    open: Vec<usize>,
}

impl OpenBrackets {
    /// [`last_open_bracket`] of `out`'s last line. Text is only appended
    /// between calls, but for an end marker taken off (text shorter than
    /// read: the line is read again) and a start marker inserted (the caller
    /// starts again). `start`: where the line starts ([`line_start`] of
    /// `out`, which the caller has).
    fn last_open(&mut self, out: &str, start: usize) -> Option<usize> {
        if start != self.line_start || self.read > out.len() || self.read < start {
            self.line_start = start;
            self.read = start;
            self.open.clear();
        }
        let new = out.as_bytes().get(self.read..).unwrap_or_default();
        for at in memchr::memchr2_iter(b'[', b']', new) {
            if new.get(at) == Some(&b'[') {
                self.open.push(self.read + at - start);
            } else {
                self.open.pop();
            }
        }
        self.read = out.len();
        let last = self.open.last().copied();
        debug_assert_eq!(last, last_open_bracket(last_line(out)));
        last
    }
}

/// Whether output `expansion` can be marked after `line`, whose last open
/// `[` is `open`, as far as open brackets go: inside a link's text it can
/// (`[[A|{{x}}]]`, `[http://a {{x}}]`), in a link target or URL it cannot.
fn safe_after_bracket(line: &str, open: Option<usize>, expansion: &str) -> bool {
    let Some(last) = open else {
        return true;
    };
    let bytes = line.as_bytes();
    // A `[` right before it is open too: a wikilink.
    let double = last > 0 && bytes.get(last - 1) == Some(&b'[');
    let after = line.get(last + 1..).unwrap_or("");
    if double {
        // A wikilink: its text starts after the first `|`. A target holding
        // characters no title can (an unexpanded `{{{1}}}`) makes no link: the
        // brackets stay text and the output is content.
        let no_title = |t: &str| t.contains(['{', '}', '[', ']', '<', '>']);
        return after.contains('|') || no_title(after) || no_title(expansion);
    }
    if after.contains(char::is_whitespace) {
        // Past the URL of `[URL text`.
        return true;
    }
    // `[{{x}}`, `[url={{x}}`: a link only if this makes a URL.
    let href = format!("{after}{expansion}");
    crate::tokenize::extlinks::protocol(href.trim_start(), true).is_none()
}

/// `s` without `<!-- … -->` comments, trimmed.
fn without_comments(s: &str) -> String {
    crate::tokenize::tags::strip_comments(s).trim().to_owned()
}

/// Wikitext tables open at the end of the expanded text so far (`{|` and
/// `|}` at line starts), read once: each call reads only the new text.
#[derive(Default)]
struct TableDepth {
    read: usize,
    depth: usize,
}

impl TableDepth {
    fn depth(&mut self, out: &str) -> usize {
        let new = out.get(self.read..).unwrap_or("");
        // Only whole lines: the last one may still grow.
        let upto = line_start(new);
        for line in new.get(..upto).unwrap_or("").lines() {
            let line = line.trim_start();
            if line.starts_with("{|") {
                self.depth += 1;
            } else if line.starts_with("|}") {
                self.depth = self.depth.saturating_sub(1);
            }
        }
        self.read += upto;
        let last = out.get(self.read..).unwrap_or("").trim_start();
        if last.starts_with("{|") {
            self.depth + 1
        } else {
            self.depth
        }
    }
}

/// Whether a `|` written after `line` (the expanded text of a table line so
/// far), followed by `after`, is a cell's content: the line is a cell line
/// whose current cell has passed its attribute pipe, and the pipe makes no
/// `||` with its neighbours.
fn cell_content(line: &str, after: &str) -> bool {
    let line = line.trim_start();
    let Some(rest) = line.strip_prefix(['|', '!']) else {
        return false;
    };
    if rest.starts_with(['-', '+', '}']) || line.ends_with(['|', '!']) {
        return false;
    }
    if after.starts_with(['|', '!']) || after.starts_with("{{!}}") {
        return false;
    }
    let cell = rest.rsplit("||").next().unwrap_or(rest);
    let cell = if line.starts_with('!') {
        cell.rsplit("!!").next().unwrap_or(cell)
    } else {
        cell
    };
    cell.contains('|') && !cell.contains("[[")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The one-pass count agrees with counting each marker kind apart, also
    /// beside other characters whose UTF-8 starts with the same byte.
    #[test]
    fn opens_call_counts_starts_and_ends() {
        let (s, i, e) = (START, INDEX_END, END);
        let other = '\u{E003}';
        for text in [
            String::new(),
            format!("a{s}0{i}b"),
            format!("a{s}0{i}b{e}c"),
            format!("{e}{s}1{i}"),
            format!("{s}0{i}{s}1{i}{e}"),
            format!("{other}{s}0{i}{e}\u{E080}x"),
            format!("\u{E080}\u{E040}{other}"),
        ] {
            let expected = text.matches(s).count() > text.matches(e).count();
            assert_eq!(opens_call(&text), expected, "{text:?}");
        }
    }

    /// The memchr searches find what `rsplit` and a reverse byte search find.
    #[test]
    fn last_line_and_safe_context_as_the_plain_searches() {
        let long = format!("{}<b>{}", "x".repeat(100), "é y ".repeat(40));
        for text in [
            "",
            "\n",
            "a\n",
            "a\nb",
            "*x {{y}}\n# z",
            "no newline",
            "<a href=\"x",
            "<b>ok</b> then",
            "a > b",
            "\n<",
            long.as_str(),
        ] {
            let line = text.rsplit('\n').next().unwrap_or("");
            assert_eq!(last_line(text), line, "{text:?}");
            assert_eq!(line_start(text), text.rfind('\n').map_or(0, |n| n + 1));
            let safe = line
                .bytes()
                .rev()
                .find(|&b| b == b'<' || b == b'>')
                .is_none_or(|b| b == b'>');
            assert_eq!(safe_context(line), safe, "{text:?}");
            assert_eq!(
                ends_on_list_line(text),
                line.starts_with(['*', '#', ':', ';'])
            );
        }
    }

    #[test]
    fn markers_are_found_as_a_char_search_finds_them() {
        for text in [
            "",
            "plain",
            "\u{E000}",
            "a\u{E001}b",
            "\u{E002}",
            "\u{E003}\u{E0FF}é\u{E07F}",
            "x\u{E080}\u{E000}",
            "\u{3800}\u{E002}",
        ] {
            assert_eq!(
                has_marker(text),
                text.contains([START, INDEX_END, END]),
                "{text:?}"
            );
        }
    }

    #[test]
    fn open_list_items_are_counted_as_in_lower_case() {
        for text in [
            "",
            "no tags",
            "<li>a",
            "<LI class=x>a</Li>",
            "<li>a</li><li>b",
            "<li><li></li>",
            "</li><li",
            "<lix>",
            "<li\n>",
            "é<Li>ü",
            "<ul><li>x</li></ul>",
        ] {
            let lower = text.to_ascii_lowercase();
            let opens = lower.matches("<li>").count() + lower.matches("<li ").count();
            assert_eq!(
                opens_list_item(text),
                opens > lower.matches("</li").count(),
                "{text:?}"
            );
        }
    }

    /// The open brackets read as the text grows are those read back from
    /// the end, line by line, with text taken off and a marker inserted.
    #[test]
    fn open_brackets_as_read_back() {
        let mut out = String::new();
        let mut brackets = OpenBrackets::default();
        for piece in [
            "a [[b",
            "|c]] [",
            "http://x",
            " y] [[",
            "d]]]",
            "[",
            "\n",
            "* [[e",
            "|f",
            "]]",
            "[[g]] [h ",
            "\u{E002}",
        ] {
            out.push_str(piece);
            assert_eq!(
                brackets.last_open(&out, line_start(&out)),
                last_open_bracket(last_line(&out)),
                "{out:?}"
            );
            if out.ends_with(END) {
                out.pop();
                assert_eq!(
                    brackets.last_open(&out, line_start(&out)),
                    last_open_bracket(last_line(&out))
                );
            }
        }
        out.push_str("\n* lead] ");
        assert_eq!(brackets.last_open(&out, line_start(&out)), None);
        assert_eq!(
            brackets.last_open(&out, line_start(&out)),
            last_open_bracket(last_line(&out))
        );
    }

    #[test]
    fn trim_is_str_trim() {
        for s in [
            "",
            " ",
            "a",
            " a ",
            "\t\n\x0b\x0c\r a b \r\n",
            "\u{a0}x\u{a0}",
            " \u{3000}é ",
            "é",
            " é\u{2028}",
            "\x1c a \x1f",
            "x\u{85}",
            "\u{85} ",
            " \u{200b} ",
        ] {
            assert_eq!(trim(s), s.trim(), "{s:?}");
        }
    }

    #[test]
    fn call_scans_are_the_plain_searches() {
        let long = format!("{}<{}\"", "a".repeat(40), "é".repeat(30));
        for s in [
            "",
            "{{a}}",
            "{{[[b]]|c=<!--x-->}}",
            "a{b{{c",
            "{",
            "{{",
            "x\ty",
            "[[[",
            "[x[",
            long.as_str(),
            &long[..40],
        ] {
            assert_eq!(has_pair(s, b'{'), s.contains("{{"), "{s:?}");
            assert_eq!(has_pair(s, b'['), s.contains("[["), "{s:?}");
            assert_eq!(
                escapes_and_angle(s.as_bytes()),
                (any_json_escape(s.as_bytes()), s.contains('<')),
                "{s:?}"
            );
        }
        // Each byte that matters (and some that do not) at each offset of
        // strings shorter than, as long as and longer than a block.
        for len in [5, 31, 32, 33, 70] {
            for at in 0..len {
                for c in ["\0", "\u{1f}", "\"", "\\", "<", " ", "~", "{"] {
                    let mut s = "x".repeat(len - 1);
                    s.insert_str(at, c);
                    assert_eq!(
                        escapes_and_angle(s.as_bytes()),
                        (any_json_escape(s.as_bytes()), s.contains('<')),
                        "{s:?}"
                    );
                }
            }
        }
        for (a, b, same) in [
            ("1", "1", true),
            ("1", "2", false),
            ("ab", "ac", false),
            ("", "", true),
        ] {
            assert_eq!(same_name(a, b), same, "{a:?} {b:?}");
        }
    }

    #[test]
    fn positional_names_are_the_numbers() {
        for n in 1..30 {
            assert_eq!(positional_name(n), n.to_string());
        }
    }

    #[test]
    fn template_hrefs_are_the_encoded_title_as_json() {
        for title in [
            "Template:Foo bar",
            "Template:Say \"hi\"",
            "Template:A\\b",
            "Template:Tab\there",
            "Template:Ünïcode – dash",
            "",
        ] {
            let plain = json(&format!("./{}", crate::title::encode_title(title)));
            assert_eq!(href_json(title), plain, "{title:?}");
        }
    }

    #[test]
    fn json_strings_are_written_as_serde_json_writes_them() {
        let mut samples: Vec<String> = (0u8..0x80)
            .map(|b| format!("a{}b", char::from(b)))
            .collect();
        // Past the eight-byte steps: the byte at each offset of a word.
        for at in 0..17 {
            samples.extend((0u8..0x80).map(|b| {
                let mut s = "é0123456789abcdefghij".to_owned();
                s.insert(at + 2, char::from(b));
                s
            }));
        }
        // Every length up to past a word, each byte that needs escaping (and
        // some that do not) at each offset.
        for len in 1..18 {
            for at in 0..len {
                samples.extend(["\0", "\u{1f}", "\"", "\\", " ", "~", "\u{7f}"].map(|c| {
                    let mut s = "x".repeat(len - 1);
                    s.insert_str(at, c);
                    s
                }));
            }
        }
        samples.extend(
            [
                "",
                "plain",
                "q\"b\\s/",
                "é ☃ \u{E000}\u{7f}",
                "\u{1F600}\n\t",
            ]
            .iter()
            .map(|s| (*s).to_owned()),
        );
        for s in &samples {
            assert_eq!(
                json(s),
                serde_json::Value::String(s.clone()).to_string(),
                "{s:?}"
            );
        }
    }
}
