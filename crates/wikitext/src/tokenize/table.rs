//! Table syntax at the start of a line: `{|` table, `|+` caption, `|-` row,
//! `|`/`!` cells with `||`/`!!` for more cells on the line, `| attrs | content`,
//! `|}` end. Only start tags are made for rows and cells: the tree builder
//! closes them, as the HTML table model implies.

use tagloom_html::token::{OwnedTag, OwnedToken};

use super::Tokenizer;
use super::tags::{parse_tag, sanitized_tag};

/// What kind of cell line the tokenizer is on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum CellLine {
    Data,
    Header,
}

/// A tag with the attributes written in `attrs` (sanitized; unparsable ones dropped).
fn tag_with(name: &str, attrs: &str) -> OwnedTag {
    // Markup among attributes is junk: tags are dropped (their text then
    // fails to be an allowed attribute).
    let mut cleaned = String::with_capacity(attrs.len());
    let mut in_tag = false;
    for c in attrs.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => in_tag = false,
            _ if !in_tag => cleaned.push(c),
            _ => {}
        }
    }
    let attrs = cleaned.trim();
    if attrs.is_empty() {
        return OwnedTag::new(name);
    }
    let source = format!("<{name} {attrs}>");
    match parse_tag(&source) {
        Some(raw) => sanitized_tag(&raw),
        None => OwnedTag::new(name),
    }
}

impl Tokenizer<'_> {
    /// Table syntax at the start of a line (after optional spaces); false if none.
    pub(crate) fn table_line(&mut self) -> bool {
        let rest = self.rest();
        let ws = rest
            .bytes()
            .take_while(|b| matches!(b, b' ' | b'\t'))
            .count();
        let line = rest.get(ws..).unwrap_or("");
        let eol = line.find('\n').unwrap_or(line.len());
        let start = self.pos;
        if line.starts_with("{|") {
            self.table_depth += 1;
            // A stray `|}` among the attributes is ignored.
            let attrs = line.get(2..eol).unwrap_or("").replace("|}", " ");
            self.pos = start + ws + eol;
            self.emit_html(OwnedToken::StartTag(tag_with("table", &attrs)), start);
            return true;
        }
        if self.table_depth == 0 {
            return false;
        }
        if line.starts_with("|}") {
            self.pos = start + ws + 2;
            self.table_depth -= 1;
            self.emit_html(OwnedToken::end("table"), start);
            return true;
        }
        if line.starts_with("|-") {
            let dashes = line.bytes().skip(1).take_while(|&b| b == b'-').count();
            let attrs = line.get(1 + dashes..eol).unwrap_or("");
            self.pos = start + ws + eol;
            self.emit_html(OwnedToken::StartTag(tag_with("tr", attrs)), start);
            return true;
        }
        if line.starts_with("|+") {
            self.pos = start + ws + 2;
            self.cell("caption", start);
            return true;
        }
        if line.starts_with('|') {
            self.pos = start + ws + 1;
            self.cell_line = Some(CellLine::Data);
            self.cell("td", start);
            return true;
        }
        if line.starts_with('!') {
            self.pos = start + ws + 1;
            self.cell_line = Some(CellLine::Header);
            self.cell("th", start);
            return true;
        }
        false
    }

    /// A cell's start tag: `attrs |` before the content when there is a single
    /// `|` before the next `||`/`!!` or the end of the line, outside links and
    /// templates.
    pub(crate) fn cell(&mut self, name: &str, start: usize) {
        let rest = self.rest();
        let eol = rest.find('\n').unwrap_or(rest.len());
        let line = rest.get(..eol).unwrap_or("");
        let mut attrs_end = None;
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            match (b.get(i), b.get(i + 1)) {
                (Some(b'['), Some(b'[')) | (Some(b'{'), Some(b'{')) | (Some(b'<'), _) => break,
                (Some(b'|'), Some(b'|')) | (Some(b'!'), Some(b'!')) => break,
                (Some(b'|'), _) => {
                    attrs_end = Some(i);
                    break;
                }
                _ => i += 1,
            }
        }
        let tag = match attrs_end {
            Some(at) => {
                let attrs = line.get(..at).unwrap_or("");
                self.pos += at + 1;
                tag_with(name, attrs)
            }
            None => OwnedTag::new(name),
        };
        self.emit_html(OwnedToken::StartTag(tag), start);
    }

    /// At `||` (or `!!` on a header line): the next cell.
    pub(crate) fn next_cell(&mut self) {
        let start = self.pos;
        self.pos += 2;
        let name = match self.cell_line {
            Some(CellLine::Header) => "th",
            _ => "td",
        };
        self.flush_text();
        self.cell(name, start);
    }
}
