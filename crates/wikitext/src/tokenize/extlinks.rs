//! External links: `[URL text]`, `[URL]` (numbered), free URLs (`http://…` in
//! running text), and the magic links `RFC 1234`, `PMID 1234`, `ISBN …`.
//! Parsoid's forms: `<a rel="mw:ExtLink nofollow" class="external text|autonumber|free">`,
//! `class="external mw-magiclink mw-magiclink-rfc|pmid"`, ISBN as an internal link
//! to `Special:BookSources`.

use tagloom_html::token::{OwnedTag, OwnedToken};

use super::{Tokenizer, entity};
use crate::token::WikiToken;

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

/// The length of the protocol at the start of `s` (case-insensitive);
/// `relative` also accepts `//`.
pub(crate) fn protocol(s: &str, relative: bool) -> Option<usize> {
    if relative && s.starts_with("//") {
        return Some(2);
    }
    PROTOCOLS
        .iter()
        .find(|p| s.get(..p.len()).is_some_and(|h| h.eq_ignore_ascii_case(p)))
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
            match entity::reference(s.get(i..).unwrap_or("")) {
                Some((len, text)) if text.chars().all(url_char) => {
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

fn is_word(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_alphanumeric() || c == '_')
}

fn ext_tag(href: &str, class: &str) -> OwnedTag {
    // MediaWiki escapes a few characters in external hrefs.
    let href = href.replace('|', "%7C").replace(' ', "%20");
    OwnedTag::new("a")
        .with_attr("rel", "mw:ExtLink nofollow")
        .with_attr("class", class)
        .with_attr("href", href)
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

impl Tokenizer<'_> {
    fn prev_char(&self) -> Option<char> {
        self.src.get(..self.pos).and_then(|s| s.chars().next_back())
    }

    /// Whether a free URL or magic link may start here (cheap pre-check).
    pub(crate) fn autolink_candidate(&self, at: usize) -> bool {
        let Some(b) = self.src.as_bytes().get(at) else {
            return false;
        };
        if !b.is_ascii_alphabetic() {
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
        let close = match after.find([']', '\n']) {
            Some(c) if after.as_bytes().get(c) == Some(&b']') => c,
            found => {
                // No `]` on this line: no bracketed link starts before its end.
                let line_end = start + 1 + len + found.unwrap_or(after.len());
                self.no_bracket_close = Some((start, line_end));
                return false;
            }
        };
        let text_src = after.get(..close).unwrap_or("");
        if self.cell_line.is_some() && (text_src.contains("||") || after.starts_with("||")) {
            return false;
        }
        let lead = text_src.len() - text_src.trim_start_matches([' ', '\t']).len();
        let has_text = lead < text_src.len();
        let class = if has_text {
            "external text"
        } else {
            "external autonumber"
        };
        self.pos = start + 1 + len;
        self.emit_html(OwnedToken::StartTag(ext_tag(&href, class)), start);
        if has_text {
            let saved = self.limit;
            self.pos = start + 1 + len + lead;
            self.limit = start + 1 + len + close;
            self.in_ext_link = true;
            self.scan();
            self.in_ext_link = false;
            self.limit = saved;
            self.flush_text();
        }
        self.pos = start + 1 + len + close + 1;
        self.out.push(WikiToken::end("a"));
        true
    }

    /// A free URL or magic link here: false when there is none.
    pub(crate) fn autolink(&mut self) -> bool {
        if self.in_ext_link || is_word(self.prev_char()) {
            return false;
        }
        self.free_url() || self.magic_link()
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
            let ends_reference = last == ';'
                && raw.rfind('&').is_some_and(|amp| {
                    raw.get(amp..)
                        .is_some_and(|r| entity::reference(r).is_some_and(|(l, _)| l == r.len()))
                });
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
        self.out.push(WikiToken::text(href));
        self.out.push(WikiToken::end("a"));
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
        let mut digits = String::new();
        if kind == "ISBN" {
            // (97[89][- ]?)?(\d[- ]?){9}[\dXx]
            let b = rest.as_bytes();
            let mut j = i;
            let mut last_end = i;
            while let Some(&c) = b.get(j) {
                if c.is_ascii_digit() || ((c == b'X' || c == b'x') && digits.len() >= 9) {
                    digits.push(char::from(c.to_ascii_uppercase()));
                    j += 1;
                    last_end = j;
                    if c == b'X' || c == b'x' {
                        break;
                    }
                } else if (c == b'-' || c == b' ') && !digits.is_empty() {
                    j += 1;
                } else {
                    break;
                }
            }
            if !(digits.len() == 10
                || (digits.len() == 13 && (digits.starts_with("978") || digits.starts_with("979"))))
            {
                return false;
            }
            i = last_end;
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
            digits = rest.get(i..i + n).unwrap_or("").to_owned();
            i += n;
        }
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
            _ => OwnedTag::new("a")
                .with_attr("rel", "mw:WikiLink")
                .with_attr("class", "internal mw-magiclink mw-magiclink-isbn")
                .with_attr("href", format!("./Special:BookSources/{digits}")),
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
        self.out.push(WikiToken::end("a"));
        true
    }
}
