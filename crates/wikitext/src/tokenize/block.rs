//! Start-of-line syntax: list bullets, `----` rules and `=` headings.

use tagloom_html::atom;
use tagloom_html::token::{OwnedTag, OwnedToken};

use super::{Tokenizer, byte_set};
use crate::preprocess::find_from;
use crate::token::{Tok, WikiToken};

/// The first bytes of a line at which [`Tokenizer::start_of_line`] may find
/// something: blanks and `<` (comments, empty lines, include directives, a
/// table line's lead), `_` (behaviour switches), the bullets, `-` (rules),
/// `=` (headings), `{` `|` `!` (table syntax) and 0xEE (a transclusion
/// marker's first byte). Any other first byte starts nothing.
const LINE_SYNTAX: [bool; 256] = byte_set(b" \t<_*#:;-={|!\xEE");

impl Tokenizer<'_> {
    /// Called at the start of the input and after every newline. Inline:
    /// most lines start with a byte no start-of-line syntax starts with (a
    /// letter, a newline): one table look-up, and nothing to do.
    #[inline]
    pub(crate) fn start_of_line(&mut self) {
        if self.peek().is_some_and(|b| LINE_SYNTAX[usize::from(b)]) {
            self.line_syntax();
        }
    }

    /// [`start_of_line`](Self::start_of_line) at a byte line syntax may
    /// start with.
    fn line_syntax(&mut self) {
        // A call whose output starts a table cell: the cell first (`table.rs`).
        if self.table_depth > 0 && self.at_marker() && self.table_line() {
            return;
        }
        // Template markers are start-of-line transparent.
        let before = self.pos;
        while self.at_marker() && self.marker() {}
        // A line that held a template is no comment-only line, even when the
        // template gave nothing.
        if self.pos == before {
            self.empty_lines();
        }
        // Comments before block syntax are start-of-line transparent.
        self.leading_comments();
        if self.table_line() {
            return;
        }
        let start = self.pos;
        let rest = self.rest();
        let bullets = rest
            .bytes()
            .take_while(|b| matches!(b, b'*' | b'#' | b':' | b';'))
            .count();
        if bullets > 0 {
            let b = rest.get(..bullets).unwrap_or("");
            self.pos += bullets;
            self.dd_pending = b.ends_with(';');
            self.emit(Tok::ListItem(b.into()), start);
            // A table may start right after the bullets (comments between).
            self.leading_comments();
            if self
                .rest()
                .trim_start_matches([' ', '\t'])
                .starts_with("{|")
            {
                self.table_line();
            }
            return;
        }
        if rest.starts_with("----") {
            let n = rest.bytes().take_while(|&b| b == b'-').count();
            self.pos += n;
            self.emit_html(OwnedToken::StartTag(OwnedTag::new(atom::HR)), start);
            return;
        }
        if rest.starts_with('=') {
            self.heading();
        }
    }

    /// Whether a call's start or end marker (U+E000, U+E002) is here: three
    /// bytes compared, no character decoded.
    fn at_marker(&self) -> bool {
        matches!(self.rest().as_bytes(), [0xEE, 0x80, 0x80 | 0x82, ..])
    }

    /// Lines of only comments and spaces, each ended by a newline: one
    /// [`Tok::EmptyLine`] (their newlines are not line breaks for paragraphs).
    fn empty_lines(&mut self) {
        // Such a line starts with a blank or its first comment.
        if !matches!(self.peek(), Some(b' ' | b'\t' | b'<')) {
            return;
        }
        let start = self.pos;
        let mut inner = Vec::new();
        loop {
            let line_start = self.pos;
            let rest = self.rest();
            let bytes = rest.as_bytes();
            let mut i = 0;
            let mut parts = Vec::new();
            let mut comments = 0;
            loop {
                let ws = bytes
                    .iter()
                    .skip(i)
                    .take_while(|b| matches!(b, b' ' | b'\t'))
                    .count();
                if ws > 0 {
                    parts.push(WikiToken::at(
                        Tok::Html(OwnedToken::text(rest.get(i..i + ws).unwrap_or(""))),
                        line_start + i,
                        line_start + i + ws,
                    ));
                    i += ws;
                }
                let tail = rest.get(i..).unwrap_or("");
                if tail.starts_with("<!--")
                    && let Some(end) = tail.get(4..).and_then(|t| find_from(t, 0, "-->"))
                {
                    let data = tail.get(4..4 + end).unwrap_or("");
                    parts.push(WikiToken::at(
                        Tok::Html(OwnedToken::comment(super::tags::encode_comment(data))),
                        line_start + i,
                        line_start + i + end + 7,
                    ));
                    i += end + 7;
                    comments += 1;
                    continue;
                }
                break;
            }
            if comments == 0 || bytes.get(i) != Some(&b'\n') {
                break;
            }
            parts.push(WikiToken::at(
                Tok::Html(OwnedToken::text("\n")),
                line_start + i,
                line_start + i + 1,
            ));
            inner.append(&mut parts);
            self.pos = line_start + i + 1;
        }
        if !inner.is_empty() {
            self.emit(Tok::EmptyLine(inner), start);
        }
    }

    /// Comments and include directives (`<noinclude>`, `</onlyinclude>`,
    /// `<includeonly>…</includeonly>`) at the current position, as tokens.
    fn leading_comments(&mut self) {
        // Each starts with `<` (a comment, a directive) or `_` (a switch).
        while matches!(self.peek(), Some(b'<' | b'_')) {
            let directive = self.rest().starts_with('<')
                && super::tags::parse_tag(self.rest()).is_some_and(|t| {
                    matches!(&*t.name, "noinclude" | "onlyinclude")
                        || (t.name == "includeonly" && !t.end)
                });
            if directive {
                let before = self.pos;
                self.angle();
                if self.pos == before {
                    break;
                }
                continue;
            }
            if self.at_switch() {
                self.switch();
                continue;
            }
            if !self.rest().starts_with("<!--") {
                break;
            }
            let rest = self.rest();
            let Some(end) = rest.get(4..).and_then(|r| find_from(r, 0, "-->")) else {
                break;
            };
            let start = self.pos;
            let data = rest.get(4..4 + end).unwrap_or("").to_owned();
            self.pos += end + 7;
            self.emit_html(
                OwnedToken::comment(super::tags::encode_comment(&data)),
                start,
            );
        }
    }

    /// Whether a behaviour switch (`__TOC__`) starts here.
    fn at_switch(&self) -> bool {
        let rest = self.rest();
        rest.starts_with("__")
            && rest
                .get(2..)
                .and_then(|r| r.find("__").and_then(|e| r.get(..e)))
                .is_some_and(|word| super::SWITCHES.iter().any(|s| s.eq_ignore_ascii_case(word)))
    }

    /// The end of the current line, comments (which may hold newlines) skipped.
    fn line_end(&self) -> usize {
        let rest = self.rest();
        let mut i = 0;
        loop {
            let tail = rest.get(i..).unwrap_or("");
            let nl = super::newline(tail);
            let comment = tail
                .get(..nl.unwrap_or(tail.len()))
                .and_then(|t| find_from(t, 0, "<!--"));
            match (nl, comment) {
                (Some(n), Some(c)) if c < n => {
                    match tail.get(c + 4..).and_then(|t| find_from(t, 0, "-->")) {
                        Some(e) => i += c + 4 + e + 3,
                        None => return self.limit,
                    }
                }
                (Some(n), _) => return self.pos + i + n,
                (None, _) => return self.limit,
            }
        }
    }

    /// `==Title==` up to the end of the line (trailing spaces and comments
    /// allowed after the closing `=`s).
    fn heading(&mut self) {
        let start = self.pos;
        let eol = self.line_end();
        let line = self.src.get(start..eol).unwrap_or("");
        let mut content_end = line.len();
        loop {
            let trimmed = line
                .get(..content_end)
                .unwrap_or("")
                .trim_end_matches([' ', '\t', '\u{e002}']);
            content_end = trimmed.len();
            if trimmed.ends_with("-->")
                && let Some(open) = trimmed.rfind("<!--")
            {
                content_end = open;
                continue;
            }
            // Include directives after the heading are not part of it
            // (each ends with `>`: other lines are not lowercased).
            if !trimmed.ends_with('>') {
                break;
            }
            let lower = trimmed.to_ascii_lowercase();
            let directive = [
                "<noinclude>",
                "</noinclude>",
                "<onlyinclude>",
                "</onlyinclude>",
            ]
            .iter()
            .find(|d| lower.ends_with(*d))
            .map(|d| trimmed.len() - d.len())
            .or_else(|| {
                lower
                    .ends_with("</includeonly>")
                    .then(|| lower.rfind("<includeonly>"))
                    .flatten()
            });
            if let Some(open) = directive {
                content_end = open;
                continue;
            }
            break;
        }
        let content = line.get(..content_end).unwrap_or("");
        let lead = content.bytes().take_while(|&b| b == b'=').count();
        let trail = content.bytes().rev().take_while(|&b| b == b'=').count();
        let level = if lead == content.len() {
            // A line of `=` only: `===` is a level-1 heading of `=`.
            if content.len() < 3 {
                return;
            }
            ((content.len() - 1) / 2).min(6)
        } else {
            lead.min(trail).min(6)
        };
        if level == 0 {
            return;
        }
        let name = [atom::H1, atom::H2, atom::H3, atom::H4, atom::H5, atom::H6]
            .get(level - 1)
            .copied()
            .unwrap_or(atom::H6);
        self.pos = start + level;
        self.emit_html(OwnedToken::StartTag(OwnedTag::new(name)), start);
        let saved = self.limit;
        self.limit = start + content_end - level;
        self.scan();
        self.limit = saved;
        let end_start = self.pos;
        self.pos = start + content_end;
        self.emit_html(OwnedToken::EndTag(OwnedTag::new(name)), end_start);
    }
}

#[cfg(test)]
mod tests {
    use super::LINE_SYNTAX;
    use crate::token::Tok;

    /// Every line opener `start_of_line` recognizes starts with a byte of
    /// [`LINE_SYNTAX`], so the early return skips none of them.
    #[test]
    fn every_line_opener_starts_with_a_line_syntax_byte() {
        let openers = [
            " ",
            "\t",
            "<!-- c -->",
            "<noinclude>",
            "<onlyinclude>",
            "<includeonly>",
            "__NOTOC__",
            "*",
            "#",
            ":",
            ";",
            "----",
            "==",
            "{|",
            "|",
            "!",
            "\u{e000}",
            "\u{e002}",
        ];
        for opener in openers {
            let first = opener.as_bytes().first().copied().unwrap_or(0);
            assert!(LINE_SYNTAX[usize::from(first)], "{opener:?}");
        }
    }

    /// `at_marker`'s byte pattern is exactly the start and end markers.
    #[test]
    fn marker_bytes_are_start_and_end() {
        use crate::transclusion::{END, INDEX_END, START};
        for (c, is_marker) in [
            (START, true),
            (END, true),
            (INDEX_END, false),
            ('\u{e003}', false),
        ] {
            let mut buf = [0; 4];
            let bytes = c.encode_utf8(&mut buf).as_bytes();
            assert_eq!(
                matches!(bytes, [0xEE, 0x80, 0x80 | 0x82, ..]),
                is_marker,
                "{c:?}"
            );
        }
    }

    /// A line starting with any other byte gives the same tokens as the same
    /// line after a letter: the byte is text, nothing starts at the line start.
    #[test]
    fn other_first_bytes_start_nothing() {
        for b in (0x20..0x7f_u8).filter(|&b| !LINE_SYNTAX[usize::from(b)]) {
            let line = format!("{}x\n", char::from(b));
            let tokens = super::super::tokenize(&format!("a\n{line}"));
            assert!(
                tokens
                    .iter()
                    .all(|t| !matches!(t.tok, Tok::ListItem(_) | Tok::EmptyLine(_))
                        && t.start_name().is_none()),
                "{line:?}: {tokens:?}"
            );
        }
    }
}
