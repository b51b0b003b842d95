//! External links: `[URL text]`, `[URL]` (numbered), free URLs (`http://…` in
//! running text), and the magic links `RFC 1234`, `PMID 1234`, `ISBN …`.
//! Parsoid's forms: `<a rel="mw:ExtLink nofollow" class="external text|autonumber|free">`,
//! `class="external mw-magiclink mw-magiclink-rfc|pmid"`, ISBN as an internal link
//! to `Special:BookSources`.

use std::borrow::Cow;

use tagloom_html::atom;
use tagloom_html::token::{OwnedAttribute, OwnedTag, OwnedToken};

use super::{Tokenizer, byte_set, entity};
use crate::preprocess::find_from;
use crate::token::{Tok, WikiToken};

/// MediaWiki's default URL protocols (`$wgUrlProtocols`), without `//`.
const PROTOCOLS: &[&str] = &[
    "bitcoin:",
    "ftp://",
    "ftps://",
    "geo:",
    "git://",
    "gopher://",
    "http://",
    "https://",
    "irc://",
    "ircs://",
    "magnet:",
    "mailto:",
    "matrix:",
    "mms://",
    "news:",
    "nntp://",
    "redis://",
    "sftp://",
    "sip:",
    "sips:",
    "sms:",
    "ssh://",
    "svn://",
    "tel:",
    "telnet://",
    "urn:",
    "worldwind://",
    "xmpp:",
];

/// The first bytes of [`PROTOCOLS`], in both cases: most words start with
/// none of them, and are no protocol after one look-up.
const PROTOCOL_START: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    while i < PROTOCOLS.len() {
        if let Some(&first) = PROTOCOLS[i].as_bytes().first() {
            t[first.to_ascii_lowercase() as usize] = true;
            t[first.to_ascii_uppercase() as usize] = true;
        }
        i += 1;
    }
    t
};

/// For each lower-case first letter (`a` = 0), the range of [`PROTOCOLS`]
/// (sorted, so each letter's are together) starting with it: a text
/// colon after a word compares only those (`s`: seven), not all 28.
const BY_FIRST: [(usize, usize); 26] = {
    let mut t = [(0, 0); 26];
    let mut i = 0;
    while i < PROTOCOLS.len() {
        if let Some(&first) = PROTOCOLS[i].as_bytes().first() {
            let k = (first - b'a') as usize;
            if t[k].1 == 0 {
                t[k].0 = i;
            }
            t[k].1 = i + 1;
        }
        i += 1;
    }
    t
};

/// The length of the protocol at the start of `s` (case-insensitive);
/// `relative` also accepts `//`.
pub(crate) fn protocol(s: &str, relative: bool) -> Option<usize> {
    if relative && s.starts_with("//") {
        return Some(2);
    }
    if !PROTOCOL_START[usize::from(*s.as_bytes().first()?)] {
        return None;
    }
    // Every protocol is ASCII letters and a `:` within its first 12 bytes:
    // most text fails on its first byte or on the first byte that is no
    // letter; then only the protocols with their `:` there are compared.
    let b = s.as_bytes();
    let colon = b.iter().take(12).position(|c| !c.is_ascii_alphabetic())?;
    if colon == 0 || b.get(colon) != Some(&b':') {
        return None;
    }
    let first = b.first()?.to_ascii_lowercase();
    let &(from, to) = BY_FIRST.get(usize::from(first.wrapping_sub(b'a')))?;
    PROTOCOLS
        .get(from..to)?
        .iter()
        .filter(|p| p.as_bytes().get(colon) == Some(&b':'))
        .find(|p| {
            b.get(..p.len())
                .is_some_and(|h| h.eq_ignore_ascii_case(p.as_bytes()))
        })
        .map(|p| p.len())
}

fn url_char(c: char) -> bool {
    !(c.is_whitespace()
        || c.is_control()
        || matches!(
            c,
            '[' | ']' | '<' | '>' | '"' | '\u{fffd}' | '\u{a0}' | '\u{e000}'..='\u{e002}'
        ))
}

/// ASCII URL characters that [`url`] takes as they are: letters, digits and
/// punctuation that starts nothing in a URL (not `' { | &`, which may, nor
/// the blanks, controls and `[ ] < > "` that end it).
const URL_PLAIN: [bool; 256] =
    byte_set(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~:/?#@!$()*+,;=%");

/// The raw length of the URL at the start of `s` (protocol included) and its
/// decoded text: URL characters and references that decode to them, up to `''`.
fn url(s: &str, proto: usize) -> (usize, String) {
    let mut i = proto;
    let mut decoded = s.get(..proto).unwrap_or("").to_owned();
    // An IPv6 host in brackets.
    if let Some(host) = s.get(proto..).and_then(|r| r.strip_prefix('['))
        && let Some(end) = host.find(']')
        && end > 0
        && host.get(..end).is_some_and(|h| {
            h.bytes()
                .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.')
        })
    {
        decoded.push_str(s.get(proto..proto + end + 2).unwrap_or(""));
        i += end + 2;
    }
    while let Some(c) = s.get(i..).and_then(|r| r.chars().next()) {
        // Most of a URL is ASCII that is neither special here nor decoded:
        // that run is copied at once.
        let run = s.as_bytes().get(i..).map_or(0, |r| {
            r.iter().take_while(|&&b| URL_PLAIN[usize::from(b)]).count()
        });
        if run > 0 {
            decoded.push_str(s.get(i..i + run).unwrap_or(""));
            i += run;
            continue;
        }
        if c == '\'' && s.get(i..).is_some_and(|r| r.starts_with("''")) {
            break;
        }
        if c == '{' && s.get(i..).is_some_and(|r| r.starts_with("{{")) {
            break;
        }
        if c == '|' && s.get(i..).is_some_and(|r| r.starts_with("||")) {
            break;
        }
        if c == '&' {
            // Any reference but `&lt;` and `&gt;` is part of a URL (the href
            // encodes what it must, see `ext_tag`).
            match entity::reference(s.get(i..).unwrap_or("")) {
                Some((len, text)) if text != "<" && text != ">" => {
                    decoded.push_str(&text);
                    i += len;
                    continue;
                }
                Some(_) => break,
                None => {}
            }
        }
        if !url_char(c) {
            break;
        }
        decoded.push(c);
        i += c.len_utf8();
    }
    (i, decoded)
}

/// Whether `tok` opens a wikilink: unresolved, or its `<a>` when the
/// tokenizer resolves them ([`super::LinkPage`]).
fn opens_wiki_link(tok: &Tok) -> bool {
    match tok {
        Tok::WikiLink(_) => true,
        Tok::Html(OwnedToken::StartTag(tag)) => crate::transform::links::is_link_tag(tag),
        _ => false,
    }
}

/// Blanks between an external link's URL and its text (`\p{Zs}`, tabs, and
/// the NUL MediaWiki strips).
fn is_link_space(c: char) -> bool {
    c == '\t' || c == '\0' || (c.is_whitespace() && !matches!(c, '\n' | '\r'))
}

/// Where the `]` that ends a bracketed link's text is in `s` (the text after
/// the URL): wikilinks and HTML tags in the text are skipped whole (a `]` in
/// them is theirs). `Err` with the end of the line when there is none.
fn closing_bracket(s: &str) -> Result<usize, usize> {
    let b = s.as_bytes();
    let line = s.find('\n').unwrap_or(s.len());
    let mut i = 0;
    while i < line {
        match b.get(i) {
            Some(b']') => return Ok(i),
            Some(b'[') if b.get(i + 1) == Some(&b'[') => {
                match s.get(i + 2..line).and_then(|r| r.find("]]")) {
                    Some(end) => i += 2 + end + 2,
                    None => i += 2,
                }
            }
            Some(b'<') => match s.get(i..).and_then(super::tags::parse_tag) {
                Some(tag) if i + tag.len <= line => i += tag.len,
                _ => i += 1,
            },
            _ => i += 1,
        }
    }
    Err(line)
}

fn is_word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

/// Characters an external link's host loses (MediaWiki's `cleanUrl`: soft
/// hyphen, joiners, direction marks, variation selectors and other invisible
/// ones).
fn is_ignored_in_host(c: char) -> bool {
    matches!(c,
        '\u{ad}' | '\u{34f}' | '\u{61c}' | '\u{115f}'..='\u{1160}' | '\u{17b4}'..='\u{17b5}'
        | '\u{180b}'..='\u{180e}' | '\u{200b}'..='\u{200f}' | '\u{202a}'..='\u{202e}'
        | '\u{2060}'..='\u{206f}' | '\u{3164}' | '\u{fe00}'..='\u{fe0f}' | '\u{feff}'
        | '\u{ffa0}' | '\u{fff0}'..='\u{fff8}' | '\u{1bca0}'..='\u{1bca3}'
        | '\u{1d173}'..='\u{1d17a}' | '\u{e0000}'..='\u{e007f}')
}

/// `url` with the ignored characters removed from its host (borrowed when
/// it has none: every URL of a page but a rare one).
fn strip_host(url: &str) -> Cow<'_, str> {
    // Every ignored character is outside ASCII.
    if url.is_ascii() || !url.chars().any(is_ignored_in_host) {
        return Cow::Borrowed(url);
    }
    let host_start = url
        .find("//")
        .map_or_else(|| url.find(':').map_or(0, |c| c + 1), |s| s + 2);
    let host_end = url
        .get(host_start..)
        .and_then(|r| r.find('/'))
        .map_or(url.len(), |e| host_start + e);
    let mut out = String::with_capacity(url.len());
    out.push_str(url.get(..host_start).unwrap_or(""));
    out.extend(
        url.get(host_start..host_end)
            .unwrap_or("")
            .chars()
            .filter(|&c| !is_ignored_in_host(c)),
    );
    out.push_str(url.get(host_end..).unwrap_or(""));
    Cow::Owned(out)
}

/// The end of `proto://[v6 address](:port)` at the start of `url`, if it
/// has such a host.
fn ipv6_host(url: &str) -> Option<usize> {
    // By its first `/` (memchr), not a substring searcher set up per URL.
    let host = find_from(url, 0, "//")? + 2;
    let inner = url.get(host..)?.strip_prefix('[')?;
    let close = inner.find(']')?;
    let addr = inner.get(..close)?;
    if addr.is_empty()
        || !addr
            .bytes()
            .all(|b| b.is_ascii_hexdigit() || b == b':' || b == b'.')
    {
        return None;
    }
    let after = host + 1 + close + 1;
    let port = url
        .get(after..)?
        .strip_prefix(':')
        .map_or(0, |p| 1 + p.bytes().take_while(u8::is_ascii_digit).count());
    Some(after + port)
}

/// An external href as MediaWiki cleans it: `[ ] < > " |`, controls and
/// spaces URL-encoded as PHP's `urlencode` does (a space is `+`), ignored
/// characters dropped from the host.
fn clean_href(href: &str) -> String {
    let mut out = String::with_capacity(href.len());
    let stripped = strip_host(href);
    // An IPv6 host keeps its brackets.
    let (ipv6, rest) = match ipv6_host(&stripped) {
        Some(end) => stripped.split_at(end),
        None => ("", &*stripped),
    };
    out.push_str(ipv6);
    // Most hrefs have nothing to encode (every character encoded is ASCII):
    // one table pass with no early exit (it vectorizes) finds it.
    if !rest
        .bytes()
        .fold(false, |any, b| any | HREF_ENCODED[usize::from(b)])
    {
        out.push_str(rest);
        return out;
    }
    for c in rest.chars() {
        match c {
            ' ' => out.push('+'),
            c if c.is_ascii() && encoded_in_href(c as u8) => {
                out.push_str(&format!("%{:02X}", c as u32));
            }
            c => out.push(c),
        }
    }
    out
}

/// [`encoded_in_href`] as a table.
const HREF_ENCODED: [bool; 256] = {
    let mut t = [false; 256];
    let mut b = 0;
    while b < 256 {
        t[b] = encoded_in_href(b as u8);
        b += 1;
    }
    t
};

/// The bytes [`clean_href`] encodes: `[ ] < > " |`, controls and the space.
const fn encoded_in_href(b: u8) -> bool {
    matches!(
        b,
        b' ' | b'[' | b']' | b'<' | b'>' | b'"' | b'|' | 0..=0x1f | 0x7f
    )
}

fn ext_tag(href: &str, class: &'static str) -> OwnedTag {
    let href = clean_href(href);
    // The list made whole, at its size (no name compared, no growth).
    let mut tag = OwnedTag::new(atom::A);
    *tag.attrs_mut() = vec![
        OwnedAttribute::new(atom::REL, "mw:ExtLink nofollow"),
        OwnedAttribute::new(atom::CLASS, class),
        OwnedAttribute::new(atom::HREF, href),
    ];
    tag
}

/// A magic-link separator: spaces, tabs, `&nbsp;` and its numeric forms.
fn separator(s: &str) -> Option<usize> {
    if s.starts_with([' ', '\t']) {
        return Some(1);
    }
    match entity::reference(s) {
        Some((len, text)) if s.starts_with('&') && text == "\u{a0}" => Some(len),
        _ => None,
    }
}

/// An ISBN after `ISBN `: MediaWiki's `(97[89]-?)?(\d-?){9}[\dXx]\b`, where
/// each `-` may also be a blank (`separator`). Its raw length and its digits.
fn isbn(s: &str) -> Option<(usize, String)> {
    // Each digit with the offset just after it; one separator between digits.
    let mut items: Vec<(char, usize)> = Vec::new();
    let mut j = 0;
    while items.len() < 13 {
        let Some(c) = s.get(j..).and_then(|r| r.chars().next()) else {
            break;
        };
        if !(c.is_ascii_digit() || c == 'X' || c == 'x') {
            break;
        }
        j += 1;
        items.push((c.to_ascii_uppercase(), j));
        if !c.is_ascii_digit() {
            break;
        }
        let sep = match s.get(j..) {
            Some(r) if r.starts_with('-') => 1,
            Some(r) => separator(r).unwrap_or(0),
            None => 0,
        };
        let next_is_digit = s
            .get(j + sep..)
            .and_then(|r| r.chars().next())
            .is_some_and(|c| c.is_ascii_digit() || c == 'X' || c == 'x');
        if !next_is_digit {
            break;
        }
        j += sep;
    }
    let form = |n: usize| -> Option<(usize, String)> {
        let (body, _) = items.split_at_checked(n)?;
        let (last, end) = *body.last()?;
        let head_digits = body.get(..n - 1)?.iter().all(|(c, _)| c.is_ascii_digit());
        let boundary = !is_word(s.get(end..).and_then(|r| r.chars().next()));
        (head_digits && (last.is_ascii_digit() || last == 'X') && boundary)
            .then(|| (end, body.iter().map(|(c, _)| *c).collect()))
    };
    let prefixed = items.len() >= 13
        && items.first().map(|x| x.0) == Some('9')
        && items.get(1).map(|x| x.0) == Some('7')
        && matches!(items.get(2).map(|x| x.0), Some('8' | '9'));
    prefixed.then(|| form(13)).flatten().or_else(|| form(10))
}

impl Tokenizer<'_> {
    fn prev_char(&self) -> Option<char> {
        self.src.get(..self.pos).and_then(|s| s.chars().next_back())
    }

    /// Where a free URL starts whose protocol ends with the `:` at `colon`:
    /// the start of the letters before it, if that is after `from` and a
    /// free URL or magic link may start there. (A protocol is letters and a
    /// `:`, so a text run needs to look for one only at its `:`s.)
    pub(crate) fn url_start_before(&self, from: usize, colon: usize) -> Option<usize> {
        let letters = self
            .src
            .as_bytes()
            .get(from + 1..colon)?
            .iter()
            .rev()
            .take(12)
            .take_while(|b| b.is_ascii_alphabetic())
            .count();
        let at = colon - letters;
        (letters > 0 && self.autolink_candidate(at)).then_some(at)
    }

    /// Whether a free URL or magic link may start here (cheap pre-check).
    pub(crate) fn autolink_candidate(&self, at: usize) -> bool {
        let Some(b) = self.src.as_bytes().get(at) else {
            return false;
        };
        if !b.is_ascii_alphabetic() {
            return false;
        }
        // Inside an ASCII word (the common case) without decoding the previous
        // character.
        if at > 0
            && self
                .src
                .as_bytes()
                .get(at - 1)
                .is_some_and(|p| p.is_ascii_alphanumeric() || *p == b'_')
        {
            return false;
        }
        let prev = self.src.get(..at).and_then(|s| s.chars().next_back());
        if is_word(prev) {
            return false;
        }
        let rest = self.src.get(at..self.limit).unwrap_or("");
        protocol(rest, false).is_some()
            || ["RFC", "PMID", "ISBN"].iter().any(|k| rest.starts_with(k))
    }

    /// `[URL text]` at `[`: false when it is not one.
    pub(crate) fn bracketed_link(&mut self) -> bool {
        let start = self.pos;
        let rest = self.rest();
        let inner = rest.get(1..).unwrap_or("");
        if self
            .no_bracket_close
            .is_some_and(|(from, to)| from <= start && start < to)
        {
            return false;
        }
        let Some(proto) = protocol(inner, true) else {
            return false;
        };
        let (len, href) = url(inner, proto);
        if len == proto {
            return false;
        }
        let after = inner.get(len..).unwrap_or("");
        let close = match closing_bracket(after) {
            Ok(c) => c,
            Err(line) => {
                // No `]` on this line: no bracketed link starts before its end.
                let line_end = start + 1 + len + line;
                self.no_bracket_close = Some((start, line_end));
                return false;
            }
        };
        let text_src = after.get(..close).unwrap_or("");
        if self.cell_line.is_some() && (text_src.contains("||") || after.starts_with("||")) {
            return false;
        }
        let lead = text_src.len() - text_src.trim_start_matches(is_link_space).len();
        let has_text = lead < text_src.len();
        let class = if has_text {
            "external text"
        } else {
            "external autonumber"
        };
        self.pos = start + 1 + len;
        self.emit_html(OwnedToken::StartTag(ext_tag(&href, class)), start);
        let content = self.out.len();
        if has_text {
            let saved = self.limit;
            self.pos = start + 1 + len + lead;
            self.limit = start + 1 + len + close;
            self.in_ext_link = true;
            // A `:` in the text does not start a `;` line's description.
            self.dd_depth += 1;
            self.scan();
            self.dd_depth = self.dd_depth.saturating_sub(1);
            self.in_ext_link = false;
            self.limit = saved;
            self.flush_text();
        }
        self.pos = start + 1 + len + close + 1;
        self.close_ext_link(content);
        true
    }

    /// Ends the external link whose text starts at token `content`. A wikilink
    /// in the text cannot nest in it: the external link ends before the first
    /// one, and the text after it is wrapped in `<span>`s (Parsoid's unpacking
    /// of misnested links).
    fn close_ext_link(&mut self, content: usize) {
        let first = self
            .out
            .get(content..)
            .and_then(|t| t.iter().position(|t| opens_wiki_link(&t.tok)));
        let Some(first) = first else {
            self.out.push(WikiToken::end(atom::A));
            return;
        };
        let tail = self.out.split_off(content + first);
        self.out.push(WikiToken::end(atom::A));
        let mut depth = 0usize;
        let mut in_span = false;
        for token in tail {
            let is_text = depth == 0 && token.as_text().is_some();
            if in_span && !is_text {
                self.out.push(WikiToken::end(atom::SPAN));
                in_span = false;
            }
            match &token.tok {
                tok if opens_wiki_link(tok) => depth += 1,
                Tok::Html(OwnedToken::EndTag(t)) if t.name().as_str() == "a" => {
                    depth = depth.saturating_sub(1);
                }
                _ => {}
            }
            if is_text && !in_span {
                self.out.push(WikiToken::start(atom::SPAN));
                in_span = true;
            }
            self.out.push(token);
        }
        if in_span {
            self.out.push(WikiToken::end(atom::SPAN));
        }
    }

    /// A free URL or magic link here: false when there is none.
    pub(crate) fn autolink(&mut self) -> bool {
        if self.in_ext_link || is_word(self.prev_char()) {
            return false;
        }
        // Only `RFC`, `PMID` and `ISBN` start a magic link: a run of text
        // starting with any other letter is not looked at twice.
        self.free_url() || (matches!(self.peek(), Some(b'R' | b'P' | b'I')) && self.magic_link())
    }

    fn free_url(&mut self) -> bool {
        let start = self.pos;
        let rest = self.rest();
        let Some(proto) = protocol(rest, false) else {
            return false;
        };
        let (mut len, _) = url(rest, proto);
        // Trailing punctuation is not part of the URL; `)` only without a `(`.
        loop {
            let raw = rest.get(..len).unwrap_or("");
            let Some(last) = raw.chars().next_back() else {
                break;
            };
            let reference = (last == ';')
                .then(|| raw.rfind('&'))
                .flatten()
                .and_then(|amp| {
                    let r = raw.get(amp..)?;
                    let (l, text) = entity::reference(r)?;
                    (l == r.len()).then_some((l, text))
                });
            let ends_reference = reference.is_some();
            // A trailing reference to a blank (`&nbsp;`) is not part of the URL.
            if let Some((l, text)) = &reference
                && text.chars().all(char::is_whitespace)
                && len - l > proto
            {
                len -= l;
                continue;
            }
            let strip = (matches!(last, ',' | ';' | '\\' | '.' | ':' | '!' | '?')
                && !ends_reference)
                || (last == ')' && !raw.contains('('));
            if !strip || len <= proto {
                break;
            }
            len -= last.len_utf8();
        }
        if len <= proto {
            return false;
        }
        let raw = rest.get(..len).unwrap_or("");
        let (_, href) = url(raw, proto);
        self.pos += len;
        self.emit_html(OwnedToken::StartTag(ext_tag(&href, "external free")), start);
        // Control characters from references (`&#x0A;`) are not shown. Most
        // URLs are ASCII without any (whose controls are the ASCII ones):
        // then the shown text is the stripped href as it is.
        let stripped = strip_host(&href);
        let shown: String = if stripped
            .bytes()
            .all(|b| b.is_ascii() && !b.is_ascii_control())
        {
            stripped.into_owned()
        } else {
            stripped.chars().filter(|c| !c.is_control()).collect()
        };
        self.out.push(WikiToken::text(shown));
        self.out.push(WikiToken::end(atom::A));
        true
    }

    fn magic_link(&mut self) -> bool {
        let start = self.pos;
        let rest = self.rest();
        let kind = ["RFC", "PMID", "ISBN"]
            .into_iter()
            .find(|k| rest.starts_with(k));
        let Some(kind) = kind else { return false };
        let mut i = kind.len();
        let mut seps = 0;
        while let Some(n) = separator(rest.get(i..).unwrap_or("")) {
            i += n;
            seps += 1;
        }
        if seps == 0 {
            return false;
        }
        let digits = if kind == "ISBN" {
            let Some((len, number)) = isbn(rest.get(i..).unwrap_or("")) else {
                return false;
            };
            i += len;
            number
        } else {
            let n = rest
                .get(i..)
                .unwrap_or("")
                .bytes()
                .take_while(u8::is_ascii_digit)
                .count();
            if n == 0 {
                return false;
            }
            let number = rest.get(i..i + n).unwrap_or("").to_owned();
            i += n;
            number
        };
        if is_word(rest.get(i..).and_then(|r| r.chars().next())) {
            return false;
        }
        let tag = match kind {
            "RFC" => ext_tag(
                &format!("https://datatracker.ietf.org/doc/html/rfc{digits}"),
                "external mw-magiclink mw-magiclink-rfc",
            ),
            "PMID" => ext_tag(
                &format!("//www.ncbi.nlm.nih.gov/pubmed/{digits}?dopt=Abstract"),
                "external mw-magiclink mw-magiclink-pmid",
            ),
            _ => OwnedTag::new(atom::A)
                .with_attr(atom::REL, "mw:WikiLink")
                .with_attr(atom::CLASS, "internal mw-magiclink mw-magiclink-isbn")
                .with_attr(atom::HREF, format!("./Special:BookSources/{digits}")),
        };
        let text_end = start + i;
        self.pos = start + kind.len();
        self.emit_html(OwnedToken::StartTag(tag), start);
        self.push_text(kind, start);
        let saved = self.limit;
        self.limit = text_end;
        self.in_ext_link = true;
        self.scan();
        self.in_ext_link = false;
        self.limit = saved;
        self.flush_text();
        self.out.push(WikiToken::end(atom::A));
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `BY_FIRST` holds each protocol in its first letter's range, and
    /// nothing else: the protocols are sorted and lower-case.
    #[test]
    fn by_first_letter_ranges_hold_exactly_the_letters_protocols() {
        assert!(PROTOCOLS.windows(2).all(|w| w[0] < w[1]));
        for (k, &(from, to)) in BY_FIRST.iter().enumerate() {
            let letter = b'a' + k as u8;
            let expected: Vec<&str> = PROTOCOLS
                .iter()
                .copied()
                .filter(|p| p.as_bytes().first() == Some(&letter))
                .collect();
            assert_eq!(
                &PROTOCOLS[from..to],
                expected.as_slice(),
                "{}",
                letter as char
            );
        }
        for s in [
            "HTTP://x",
            "Https://x",
            "mailto:a",
            "worldwind://x",
            "news:x",
            "xmpp:y",
        ] {
            assert!(protocol(s, false).is_some(), "{s}");
        }
        for s in ["Note: x", "httpx://", "zzz:", "ht:tp", "e.g.: x"] {
            assert_eq!(protocol(s, false), None, "{s}");
        }
    }

    /// A URL without ignored host characters is borrowed; an IPv6 host is
    /// found after the first `//` only.
    #[test]
    fn strip_host_borrows_and_ipv6_host_finds_brackets() {
        assert!(matches!(
            strip_host("http://example.org/a"),
            Cow::Borrowed(_)
        ));
        assert!(matches!(
            strip_host("http://ex\u{ad}ample.org/é"),
            Cow::Owned(_)
        ));
        assert_eq!(
            strip_host("http://ex\u{ad}ample.org/é"),
            "http://example.org/é"
        );
        for (url, end) in [
            ("http://[::1]/x", Some(12)),
            ("http://[::1]:8080/x", Some(17)),
            ("http://example.org/[x]", None),
            ("mailto:a", None),
            ("//[fe80::1]", Some(11)),
            ("http:/[::1]//", None),
        ] {
            assert_eq!(ipv6_host(url), end, "{url}");
        }
    }

    #[test]
    fn protocol_starts_are_the_protocols_first_letters() {
        for b in 0..=255u8 {
            let starts = PROTOCOLS.iter().any(|p| {
                p.as_bytes()
                    .first()
                    .is_some_and(|f| f.eq_ignore_ascii_case(&b))
            });
            assert_eq!(PROTOCOL_START[usize::from(b)], starts, "{b:#x}");
        }
        assert_eq!(protocol("HTTPS://x", false), Some(8));
        assert_eq!(protocol("Apple:x", false), None);
    }

    #[test]
    fn isbns() {
        assert_eq!(
            isbn("1-234-56789-0 - 2006"),
            Some((13, "1234567890".into()))
        );
        assert_eq!(
            isbn("978 0 316 09811 3"),
            Some((17, "9780316098113".into()))
        );
        assert_eq!(isbn("123456789x."), Some((10, "123456789X".into())));
        assert_eq!(isbn("12345"), None);
        assert_eq!(isbn("1234567890abc"), None);
    }

    #[test]
    fn hrefs() {
        assert_eq!(clean_href("http://a.b/x y|[z]"), "http://a.b/x+y%7C%5Bz%5D");
        assert_eq!(
            clean_href("http://e\u{200c}x.com/\u{200c}"),
            "http://ex.com/\u{200c}"
        );
        assert_eq!(
            clean_href("http://[::1]:80/a[b]"),
            "http://[::1]:80/a%5Bb%5D"
        );
    }

    #[test]
    fn brackets() {
        assert_eq!(closing_bracket(" a [[b]] c] d"), Ok(10));
        assert_eq!(closing_bracket(" <span title=\"[x]\">y</span>]"), Ok(27));
        assert_eq!(closing_bracket(" a\n]"), Err(2));
    }
}
