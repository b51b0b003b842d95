//! Table syntax at the start of a line: `{|` table, `|+` caption, `|-` row,
//! `|`/`!` cells with `||`/`!!` for more cells on the line, `| attrs | content`,
//! `|}` end. Only start tags are made for rows and cells: the tree builder
//! closes them, as the HTML table model implies.
//!
//! Template output is marked (`transclusion.rs`); the markers are transparent
//! to table syntax, as in the expanded text MediaWiki tokenizes: `|` + a
//! template giving `|y` is `||`. A call whose output reaches into a cell's
//! syntax (its pipes or attributes), or runs from one cell into another, is
//! Parsoid's templated cell: its start marker goes right after the cell's
//! start tag with the wikitext of the cell before it (`tl:prefix`), its end
//! marker carries the rest of the cell after it (`tl:suffix`), and
//! `dom::table_fixups` widens the range to whole cells (Parsoid's
//! `TableFixups` and template-range expansion).

use tagloom_html::atom;
use tagloom_html::token::{OwnedTag, OwnedToken};

use super::Tokenizer;
use super::tags::{parse_tag, sanitized_tag};
use crate::preprocess::find_from;
use crate::token::{Tok, WikiToken};
use crate::transclusion::{END, INDEX_END, START};

/// What kind of cell line the tokenizer is on.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum CellLine {
    Data,
    Header,
}

/// Private attributes (a `:` in the name: wikitext can never make them; the
/// DOM pass `dom::table_fixups` removes them). Each is a static atom of
/// tagloom-html (`atom::TL_CALL`…, see `dom::is_private_atom`): the hot ones
/// (every marker's `tl:call`, every cell's `tl:wt`, every row's `tl:row`)
/// are set by their atom, no text copied into a `Box<str>`. Set by atom
/// only: `tl:row` (`atom::TL_ROW`) on a `|-` row (Parsoid flags empty
/// wikitext rows whatever their attributes), `tl:wt` (`atom::TL_WT`) on a
/// cell made by wikitext syntax (its whitespace is trimmed).
pub(crate) const ATTR_CELL: &str = "tl:cell";
pub(crate) const ATTR_PREFIX: &str = "tl:prefix";
pub(crate) const ATTR_SUFFIX: &str = "tl:suffix";
/// A marker's call (its index in the page's marked calls).
pub(crate) const ATTR_CALL: &str = "tl:call";
/// A cell started by `||` or `!!` (a new quote context).
pub(crate) const ATTR_INLINE_CELL: &str = "tl:inline";
/// A table's id, and the table a marker was written in.
pub(crate) const ATTR_TID: &str = "tl:tid";
/// The table's wikitext before a start marker in it.
pub(crate) const ATTR_TPREFIX: &str = "tl:tprefix";
/// The table's wikitext after an end marker in it.
pub(crate) const ATTR_TSUFFIX: &str = "tl:tsuffix";

/// On an end marker held to its table's end: the table's wikitext after the
/// call (a literal part closing the call's `data-mw`).
pub(crate) const ATTR_HSUFFIX: &str = "tl:hsuffix";

/// The bytes a cell's attribute search ([`Tokenizer::cell`]) stops at:
/// markers, comments and `<nowiki>`, links, pipes and bangs.
pub(super) const CELL_STOP: [bool; 256] = super::byte_set(b"\xEE<[|!");

/// The bytes that may end a cell ([`Tokenizer::cell_end`]).
pub(super) const BARS: [bool; 256] = super::byte_set(b"|!");

/// The length of the transclusion marker at the start of `s`, if any.
pub(crate) fn marker_len(s: &str) -> Option<usize> {
    if let Some(after) = s.strip_prefix(START) {
        let end = after.find(INDEX_END)?;
        return after
            .get(..end)
            .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
            .then(|| START.len_utf8() + end + INDEX_END.len_utf8());
    }
    s.starts_with(END).then(|| END.len_utf8())
}

/// `s` without transclusion markers.
pub(crate) fn without_markers(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find([START, END]) {
        out.push_str(rest.get(..at).unwrap_or(""));
        let tail = rest.get(at..).unwrap_or("");
        let skip =
            marker_len(tail).unwrap_or_else(|| tail.chars().next().map_or(1, char::len_utf8));
        rest = tail.get(skip..).unwrap_or("");
    }
    out.push_str(rest);
    out
}

/// Skips markers at `i` in `b`/`s`; the position after them.
fn skip_markers(s: &str, mut i: usize) -> usize {
    while let Some(n) = s.get(i..).and_then(marker_len) {
        i += n;
    }
    i
}

/// The tags [`tag_with`] made on a page, by name and attribute source: a
/// table's rows and cells often repeat the same attributes, parsed and
/// sanitized once.
#[derive(Default)]
pub(crate) struct TagCache {
    tags: foldhash::HashMap<String, OwnedTag>,
    /// The look-up key (`name`, NUL, attributes), its buffer reused.
    key: String,
}

impl TagCache {
    /// [`tag_with`]`(name, attrs)`, made once per page for each source. A
    /// cached tag's copy has room for one more attribute (a row's or cell's
    /// private one, added next): a plain clone's list is exactly full, and
    /// that attribute would move it.
    fn tag(&mut self, name: &str, attrs: &str) -> OwnedTag {
        // Most rows (`|-`) have no attributes: the bare tag `tag_with`
        // gives, without the key's hashing and the cached tag's clone.
        if attrs.bytes().all(|b| matches!(b, b' ' | b'\t')) {
            return OwnedTag::new(name);
        }
        self.key.clear();
        self.key.push_str(name);
        self.key.push('\0');
        self.key.push_str(attrs);
        if let Some(tag) = self.tags.get(self.key.as_str()) {
            return with_room(tag);
        }
        let tag = tag_with(name, attrs);
        self.tags.insert(self.key.clone(), tag.clone());
        tag
    }
}

/// A copy of `tag` (a [`tag_with`] tag: no span, the HTML namespace) whose
/// attribute list has room for one more.
fn with_room(tag: &OwnedTag) -> OwnedTag {
    let mut copy = OwnedTag::new(tag.name().clone());
    copy.set_self_closing(tag.self_closing());
    let attrs = copy.attrs_mut();
    attrs.reserve_exact(tag.attrs().len() + 1);
    attrs.extend(tag.attrs().iter().cloned());
    copy
}

/// A tag with the attributes written in `attrs` (sanitized; unparsable ones dropped).
fn tag_with(name: &str, attrs: &str) -> OwnedTag {
    let attrs = without_markers(attrs);
    // Markup among attributes is junk: tags and comments are dropped (their
    // text then fails to be an allowed attribute).
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
    let attrs = cleaned.trim_start();
    if attrs.trim_end().is_empty() {
        return OwnedTag::new(name);
    }
    // A quoted value left open ends where the attributes end (Parsoid's
    // `table_att_value`: a missing end quote stops at the `|`).
    let mut open: Option<char> = None;
    let mut after_eq = false;
    for c in attrs.chars() {
        match open {
            Some(q) if c == q => open = None,
            Some(_) => {}
            None if after_eq && (c == '"' || c == '\'') => {
                open = Some(c);
                after_eq = false;
            }
            None if c == '=' => after_eq = true,
            None if c.is_whitespace() => {}
            None => after_eq = false,
        }
    }
    let source = match open {
        Some(q) => format!("<{name} {attrs}{q}>"),
        None => format!("<{name} {}>", attrs.trim_end()),
    };
    match parse_tag(&source) {
        Some(raw) => sanitized_tag(&raw),
        None => OwnedTag::new(name),
    }
}

/// Where a `{|` line's attributes (`attrs`, after `{|`) are one call's output
/// that runs on past the line: only spaces before its start marker, no other
/// marker on the line. The offset of the start marker.
fn attrs_spanning_call(attrs: &str) -> Option<usize> {
    let at = attrs.find(START)?;
    let single = attrs.matches(START).count() == 1 && !attrs.contains(END);
    (single && attrs.get(..at)?.trim().is_empty()).then_some(at)
}

/// Parsoid's `mw:ExpandedAttrs` for attributes a call made together with
/// content (its AttributeExpander's "uneditable" attributes): the first
/// attribute's name and the attributes' source.
fn expanded_attrs(tag: &mut OwnedTag, from_marker: &str) {
    let source = without_markers(from_marker);
    let source = source.trim();
    let Some(first) = tag.attrs().first().map(|a| a.name.to_string()) else {
        return;
    };
    let json = |s: &str| serde_json::Value::String(s.to_owned()).to_string();
    let data_mw = format!(
        "{{\"attribs\":[[{{\"txt\":{},\"html\":{},\"uneditable\":true}},{{\"html\":\"\"}}]]}}",
        json(&first),
        json(source)
    );
    tag.set_attr(atom::TYPEOF, "mw:ExpandedAttrs");
    tag.set_attr(atom::DATA_MW, &data_mw);
}

impl Tokenizer<'_> {
    /// Table syntax at the start of a line (after optional spaces, comments
    /// and, before a cell, transclusion markers); false if none.
    pub(crate) fn table_line(&mut self) -> bool {
        // Table syntax, or the blanks, comments and markers before it,
        // starts with one of a few bytes (`|` and `!` only inside a table).
        let may_start = match self.peek() {
            Some(b' ' | b'\t' | b'<' | 0xEE | b'{') => true,
            Some(b'|' | b'!') => self.table_depth > 0,
            _ => false,
        };
        if !may_start {
            return false;
        }
        let rest = self.rest();
        // Leading spaces, comments and markers.
        let mut lead = 0;
        let mut markers = Vec::new();
        let mut comments = Vec::new();
        loop {
            let tail = rest.get(lead..).unwrap_or("");
            let ws = tail
                .bytes()
                .take_while(|b| matches!(b, b' ' | b'\t'))
                .count();
            if ws > 0 {
                lead += ws;
                continue;
            }
            if tail.starts_with("<!--")
                && let Some(end) = tail.get(4..).and_then(|t| find_from(t, 0, "-->"))
                && !tail.get(..end + 7).unwrap_or("").contains('\n')
            {
                comments.push((lead, end + 7));
                lead += end + 7;
                continue;
            }
            if let Some(n) = marker_len(tail) {
                // Outside a table a line led by a marker is no table
                // syntax (a marker before `{|` is not allowed below): no
                // list of markers made to find that out.
                if self.table_depth == 0 {
                    return false;
                }
                markers.push(self.pos + lead);
                lead += n;
                continue;
            }
            break;
        }
        let line = rest.get(lead..).unwrap_or("");
        let start = self.pos;
        let is_cell = self.table_depth > 0
            && (line.starts_with('!')
                || (line.starts_with('|')
                    && !line.starts_with("|}")
                    && !line.starts_with("|-")
                    && !line.starts_with("|+")));
        let is_table_syntax = line.starts_with("{|")
            || (self.table_depth > 0 && (line.starts_with('|') || line.starts_with('!')));
        if !is_table_syntax || (!markers.is_empty() && !is_cell) {
            return false;
        }
        let eol = super::newline(line).unwrap_or(line.len());
        // Comments before the syntax stay (in the table, as Parsoid keeps them).
        for &(at, len) in &comments {
            let text = rest.get(at + 4..at + len - 3).unwrap_or("");
            let token = OwnedToken::comment(super::tags::encode_comment(text));
            self.pos = start + at + len;
            self.emit_html(token, start + at);
        }
        let syntax = start + lead;
        self.pos = syntax;
        if line.starts_with("{|") {
            self.table_depth += 1;
            self.saw_table = true;
            // A call that ended with the `{|` line: its end marker waits for
            // the table's end, so the range holds the table.
            let mut held = Vec::new();
            let attrs_src = line.get(2..eol).unwrap_or("");
            if attrs_src.contains(END)
                && !attrs_src.contains(START)
                && let Some(call) = self.open_call.take()
            {
                let after = attrs_src
                    .rfind(END)
                    .map_or(eol, |at| 2 + at + END.len_utf8());
                held.push((call, syntax + after));
            }
            self.table_ends.push(held);
            // One call making the attributes and running on into the table.
            let spanning = attrs_spanning_call(attrs_src);
            // A stray `|}` among the attributes is ignored.
            let attrs = line.get(2..eol).unwrap_or("").replace("|}", " ");
            let (attrs, trailing) = split_trailing_comments(&attrs);
            self.pos = syntax + eol;
            let mut tag = self.table_tags.tag("table", attrs);
            if let Some(at) = spanning {
                expanded_attrs(&mut tag, attrs_src.get(at..).unwrap_or(""));
            }
            self.emit_html(OwnedToken::StartTag(tag), syntax);
            if let Some(at) = spanning {
                // Its start marker goes in the table (the tree builder fosters
                // it; `dom::table_fixups` widens the range over the table).
                let saved = self.pos;
                self.pos = syntax + 2 + at;
                self.marker();
                self.pos = saved;
            }
            self.emit_comments(&trailing, syntax);
            return true;
        }
        if line.starts_with("|}") {
            self.pos = syntax + 2;
            self.table_depth -= 1;
            self.emit_html(OwnedToken::end(atom::TABLE), syntax);
            self.release_table_ends();
            return true;
        }
        if line.starts_with("|-") {
            let dashes = line.bytes().skip(1).take_while(|&b| b == b'-').count();
            let attrs = line.get(1 + dashes..eol).unwrap_or("");
            let (attrs, trailing) = split_trailing_comments(attrs);
            self.pos = syntax + eol;
            let tag = self.table_tags.tag("tr", attrs).with_attr(atom::TL_ROW, "");
            self.emit_html(OwnedToken::StartTag(tag), syntax);
            self.emit_comments(&trailing, syntax);
            return true;
        }
        if line.starts_with("|+") {
            self.pos = syntax + 2;
            self.cell(atom::CAPTION, syntax, markers);
            return true;
        }
        if line.starts_with('|') {
            self.pos = syntax + 1;
            self.cell_line = Some(CellLine::Data);
            self.cell(atom::TD, syntax, markers);
            return true;
        }
        if line.starts_with('!') {
            self.pos = syntax + 1;
            self.cell_line = Some(CellLine::Header);
            self.cell(atom::TH, syntax, markers);
            return true;
        }
        false
    }

    /// The end markers held for the table just closed (or, at the end of
    /// the input, for every open one).
    pub(crate) fn release_table_ends(&mut self) {
        for (call, from) in self.table_ends.pop().unwrap_or_default() {
            let mut tag = OwnedTag::new(atom::META)
                .with_attr(atom::TYPEOF, "mw:Transclusion/End")
                .with_attr(atom::TL_CALL, super::call_index(call));
            // The table's wikitext after the call, which the range now holds
            // (a literal part after the call, as Parsoid's range over it).
            let upto = self.pos.min(self.limit);
            if let Some(text) = self.src.get(from..upto)
                && text.len() <= MAX_FOSTER_TEXT
                && !text.contains([START, END])
            {
                tag.set_attr(ATTR_HSUFFIX, text.to_owned());
            }
            self.emit_html(OwnedToken::StartTag(tag), self.pos);
        }
    }

    fn emit_comments(&mut self, comments: &[String], at: usize) {
        for c in comments {
            self.out.push(WikiToken::at(
                Tok::Html(OwnedToken::comment(super::tags::encode_comment(c))),
                at,
                at,
            ));
        }
    }

    /// A cell's start tag: `attrs |` before the content when there is a single
    /// `|` before the next `||`/`!!` or the end of the line, outside links,
    /// comments and `<nowiki>`. `syntax` is where the cell's syntax starts,
    /// `markers` the transclusion markers already met in it. `name` is a
    /// static atom (`td`, `th`, `caption`): no look-up of its text per cell.
    pub(crate) fn cell(&mut self, name: atom::Atom, syntax: usize, mut markers: Vec<usize>) {
        let rest = self.rest();
        let eol = super::newline(rest).unwrap_or(rest.len());
        let line = rest.get(..eol).unwrap_or("");
        let mut attrs_end = None;
        let b = line.as_bytes();
        let mut i = 0;
        let mut seen = Vec::new();
        loop {
            // Only markers, comments, `<nowiki>`, links and pipes matter
            // here: the bytes between are skipped in one search.
            i = super::skip::next_stop(b, i, &CELL_STOP);
            if i >= b.len() {
                break;
            }
            if let Some(n) = line.get(i..).and_then(marker_len) {
                seen.push(self.pos + i);
                i += n;
                continue;
            }
            let tail = line.get(i..).unwrap_or("");
            if tail.starts_with("<!--") {
                match find_from(tail, 0, "-->") {
                    Some(e) => {
                        i += e + 3;
                        continue;
                    }
                    None => break,
                }
            }
            if tail.len() >= 7
                && tail
                    .get(..7)
                    .is_some_and(|t| t.eq_ignore_ascii_case("<nowiki"))
            {
                match tail.to_ascii_lowercase().find("</nowiki>") {
                    Some(e) => {
                        i += e + 9;
                        continue;
                    }
                    None => break,
                }
            }
            match b.get(i) {
                Some(b'[') if b.get(i + 1) == Some(&b'[') => break,
                Some(c @ (b'|' | b'!')) => {
                    let next = skip_markers(line, i + 1);
                    if b.get(next) == Some(c) {
                        break;
                    }
                    if *c == b'|' {
                        attrs_end = Some(i);
                        break;
                    }
                    i += 1;
                }
                _ => i += 1,
            }
        }
        let tag = match attrs_end {
            Some(at) => {
                let attrs = line.get(..at).unwrap_or("");
                markers.extend(seen);
                self.pos += at + 1;
                // End markers right after the pipe: the call's output ended
                // with the cell's syntax.
                while self.pos < self.limit && self.rest().starts_with(END) {
                    markers.push(self.pos);
                    self.pos += END.len_utf8();
                }
                self.table_tags
                    .tag(name.static_name().unwrap_or("td"), attrs)
            }
            None => OwnedTag::new(name),
        };
        self.cell_start = syntax;
        let tag = tag.with_attr(atom::TL_WT, "");
        self.emit_html(OwnedToken::StartTag(tag), syntax);
        self.syntax_markers(markers);
    }

    /// The markers met in a cell's syntax, after its start tag: a start
    /// marker says the call's output makes the cell (`tl:cell`).
    fn syntax_markers(&mut self, markers: Vec<usize>) {
        for m in markers {
            let saved = self.pos;
            self.pos = m;
            let is_start = self.rest().starts_with(START);
            let before = self.out.len();
            if self.marker()
                && is_start
                && let Some(Tok::Html(OwnedToken::StartTag(tag))) =
                    self.out.get_mut(before).map(|t| &mut t.tok)
            {
                tag.set_attr(ATTR_CELL, "");
                // A call at the start of the line owns the rest of it
                // (Parsoid's token stream patcher reparses it with the call).
                let line = self.src.get(..m).unwrap_or("");
                let line = line.rsplit('\n').next().unwrap_or("");
                if without_markers(line).trim().is_empty() {
                    self.line_call = true;
                }
            }
            self.pos = saved;
        }
    }

    /// The private attributes of a marker met on a cell line: the cell's
    /// wikitext before a start marker, the rest of the cell after an end marker.
    /// Inline: most markers are on no cell line (one test).
    #[inline]
    pub(crate) fn cell_marker_attrs(&mut self, tag: &mut OwnedTag, is_start: bool, at: usize) {
        if self.cell_line.is_some() {
            self.cell_line_marker_attrs(tag, is_start, at);
        }
    }

    /// [`cell_marker_attrs`](Self::cell_marker_attrs) on a cell line.
    fn cell_line_marker_attrs(&mut self, tag: &mut OwnedTag, is_start: bool, at: usize) {
        if is_start {
            // Only a cell's first call gets the cell's wikitext before it
            // (later ones join its range): each cell's text is copied once.
            if self
                .cell_call
                .is_none_or(|(cell, _, _)| cell != self.cell_start)
            {
                let prefix = self.src.get(self.cell_start..at).unwrap_or("");
                tag.set_attr(ATTR_PREFIX, without_markers(prefix));
                self.cell_call = Some((self.cell_start, usize::MAX, 0));
            }
            // Output starting with a pipe or bang in a cell's content:
            // Parsoid's table fix-ups take the whole cell as the call's.
            let output = self.src.get(at..).unwrap_or("");
            let output = output.get(marker_len(output).unwrap_or(0)..).unwrap_or("");
            let bang = self.cell_line == Some(CellLine::Data) && output.starts_with('!');
            // (Not `{{!}}` itself: a lone pipe in content is text.)
            let lone_pipe = output.strip_prefix('|').is_some_and(|o| o.starts_with(END));
            if (output.starts_with('|') && !lone_pipe) || bang {
                tag.set_attr(ATTR_CELL, "");
            }
        } else {
            // The cell's end and its last start marker, found once per cell.
            let (end, last_start) = match self.cell_call {
                Some((cell, end, last)) if cell == self.cell_start && end != usize::MAX => {
                    (end, last)
                }
                _ => {
                    let rest = self.src.get(self.pos..self.limit).unwrap_or("");
                    let len = self.cell_end(rest);
                    let last = rest
                        .get(..len)
                        .and_then(|r| r.rfind(START))
                        .map_or(0, |i| self.pos + i);
                    let end = self.pos + len;
                    self.cell_call = Some((self.cell_start, end, last));
                    (end, last)
                }
            };
            // Only the cell's last call ends with the rest of the cell.
            if last_start < self.pos {
                let rest = self.src.get(self.pos..end).unwrap_or("");
                tag.set_attr(ATTR_SUFFIX, without_markers(rest));
            }
        }
    }

    /// Where the current cell ends in `rest`: the next `||` (or `!!` on a
    /// header line) or the end of the line.
    fn cell_end(&self, rest: &str) -> usize {
        let eol = super::newline(rest).unwrap_or(rest.len());
        let line = rest.get(..eol).unwrap_or("");
        let header = self.cell_line == Some(CellLine::Header);
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            // Only `|` and `!` matter: the bytes between skipped in one search.
            i = super::skip::next_stop(b, i, &BARS);
            match b.get(i) {
                Some(c @ (b'|' | b'!')) if *c == b'|' || header => {
                    let next = skip_markers(line, i + 1);
                    if b.get(next) == Some(c) {
                        return i;
                    }
                    i += 1;
                }
                _ => i += 1,
            }
        }
        eol
    }

    /// `||` (or `!!` on a header line) here, markers between the two allowed:
    /// the position after it.
    pub(crate) fn double_bar(&self) -> Option<usize> {
        let first = skip_markers(self.src, self.pos);
        let c = *self.src.as_bytes().get(first)?;
        if c != b'|' && c != b'!' {
            return None;
        }
        // `!!` inside a link's text is text (Parsoid).
        if c == b'!' && (self.cell_line != Some(CellLine::Header) || self.in_ext_link) {
            return None;
        }
        let next = skip_markers(self.src, first + 1);
        (next < self.limit && self.src.as_bytes().get(next) == Some(&c)).then_some(next + 1)
    }

    /// At `||` (or `!!` on a header line): the next cell.
    pub(crate) fn next_cell(&mut self) {
        let start = self.pos;
        let Some(after) = self.double_bar() else {
            return;
        };
        // Markers before, between and (start markers) right before the bars
        // are the new cell's syntax.
        let mut markers = Vec::new();
        let mut p = start;
        while p < after {
            match self.src.get(p..).and_then(marker_len) {
                Some(n) => {
                    markers.push(p);
                    p += n;
                }
                None => p += 1,
            }
        }
        self.pos = after;
        let name = match self.cell_line {
            Some(CellLine::Header) => atom::TH,
            _ => atom::TD,
        };
        self.flush_text();
        self.cell(name, start, markers);
        if let Some(Tok::Html(OwnedToken::StartTag(tag))) = self
            .out
            .iter_mut()
            .rev()
            .find(|t| t.start_atom() == Some(name))
            .map(|t| &mut t.tok)
        {
            tag.set_attr(atom::TL_INLINE, "");
        }
    }

    /// At the end of a line whose cell a call at the line's start made: the
    /// call's end marker, held back, with the rest of the line as its suffix.
    /// Inline: most lines hold no such call (one test a line).
    #[inline]
    pub(crate) fn end_of_line(&mut self) {
        if self.held_end.is_some() {
            self.release_held_end();
        }
        self.line_call = false;
    }

    /// [`end_of_line`](Self::end_of_line)'s held end marker, emitted.
    fn release_held_end(&mut self) {
        if let Some(from) = self.held_end.take() {
            let upto = self.pos.min(self.limit);
            let suffix = without_markers(self.src.get(from..upto).unwrap_or(""));
            let mut tag = OwnedTag::new(atom::META)
                .with_attr(atom::TYPEOF, "mw:Transclusion/End")
                .with_attr(ATTR_SUFFIX, suffix);
            if let Some(index) = self.open_call.take() {
                tag.set_attr(atom::TL_CALL, super::call_index(index));
            }
            self.flush_text();
            self.out.push(WikiToken::at(
                Tok::Html(OwnedToken::StartTag(tag)),
                upto,
                upto,
            ));
        }
    }

    /// An end marker on a line a call at its start owns: held back to the end
    /// of the line (unless another call starts later on the line).
    pub(crate) fn hold_end(&mut self, after: usize) -> bool {
        if !self.line_call {
            return false;
        }
        let rest = self.src.get(after..self.limit).unwrap_or("");
        let line = rest
            .get(..super::newline(rest).unwrap_or(rest.len()))
            .unwrap_or("");
        if line.contains(START) {
            self.line_call = false;
            return false;
        }
        self.held_end = Some(after);
        self.line_call = false;
        true
    }
}

/// Attributes followed by comments: the attributes and the comments' texts.
fn split_trailing_comments(attrs: &str) -> (&str, Vec<String>) {
    let mut comments = Vec::new();
    let mut end = attrs.len();
    loop {
        let head = attrs.get(..end).unwrap_or("").trim_end();
        if head.ends_with("-->")
            && let Some(open) = head.rfind("<!--")
        {
            comments.push(head.get(open + 4..head.len() - 3).unwrap_or("").to_owned());
            end = open;
            continue;
        }
        break;
    }
    comments.reverse();
    (attrs.get(..end).unwrap_or(""), comments)
}

/// Attributes of a table-structure tag a call's output starts with (or ends
/// with): the call's start marker would be fostered out of the table, so it
/// travels on the tag (`dom::table_fixups` puts it back beside the element).
pub(crate) const ATTR_OPEN_DATA: &str = "tl:odata";
pub(crate) const ATTR_OPEN_CALL: &str = "tl:ocall";
pub(crate) const ATTR_CLOSE_CALL: &str = "tl:ccall";
/// An anchored start marker's `tl:tid` and `tl:tprefix` (see `mark_tables`).
pub(crate) const ATTR_OPEN_TID: &str = "tl:otid";
pub(crate) const ATTR_OPEN_TPREFIX: &str = "tl:otprefix";

/// How far back an end marker looks for the start tag of the row or cell it
/// follows.
const MAX_ANCHOR_SCAN: usize = 4096;

fn is_structure(name: &str) -> bool {
    matches!(
        name,
        "tr" | "td" | "th" | "tbody" | "thead" | "tfoot" | "caption"
    )
}

fn meta_kind(token: &WikiToken) -> Option<(bool, Option<&str>)> {
    let Tok::Html(OwnedToken::StartTag(tag)) = &token.tok else {
        return None;
    };
    if tag.name().as_str() != "meta" {
        return None;
    }
    match tag.attr("typeof") {
        Some("mw:Transclusion") => Some((true, tag.attr(ATTR_CALL))),
        Some("mw:Transclusion/End") => Some((false, tag.attr(ATTR_CALL))),
        _ => None,
    }
}

/// The index of the first `<table>` start tag of `out` (wikitext or HTML), the
/// first token [`anchor_markers`] and [`mark_tables`] can change: before it,
/// no table is open. One comparison of a static atom per tag.
pub(crate) fn first_table(out: &[WikiToken]) -> Option<usize> {
    out.iter().position(
        |t| matches!(&t.tok, Tok::Html(OwnedToken::StartTag(tag)) if tag.name().is(atom::TABLE)),
    )
}

/// In a table, a call's markers right before a row or cell start tag (or right
/// after its end tag) would be fostered out of the table: they move onto the
/// tag. One pass from `first` (the first table's start tag, [`first_table`]:
/// no table is open before it); each end marker looks back at most
/// `MAX_ANCHOR_SCAN` tokens.
pub(crate) fn anchor_markers(out: &mut Vec<WikiToken>, first: usize) {
    let mut depth = 0usize;
    let mut gone = vec![false; out.len()];
    let mut any = false;
    // Calls whose start marker moved onto a tag: only their end markers move.
    let mut anchored: std::collections::HashSet<String> = std::collections::HashSet::new();
    for i in first..out.len() {
        match out.get(i).and_then(WikiToken::start_name) {
            Some("table") => depth += 1,
            _ => {
                if out.get(i).and_then(WikiToken::end_name) == Some("table") {
                    depth = depth.saturating_sub(1);
                }
            }
        }
        if depth == 0 {
            continue;
        }
        let Some((is_start, call)) = out.get(i).and_then(meta_kind) else {
            continue;
        };
        let Some(call) = call.map(str::to_owned) else {
            continue;
        };
        if is_start {
            let next_is_structure = out
                .get(i + 1)
                .and_then(WikiToken::start_name)
                .is_some_and(is_structure);
            if !next_is_structure {
                continue;
            }
            let data = match out.get(i).map(|t| &t.tok) {
                Some(Tok::Html(OwnedToken::StartTag(m))) => {
                    m.attr("data-mw").unwrap_or("").to_owned()
                }
                _ => continue,
            };
            if let Some(Tok::Html(OwnedToken::StartTag(tag))) =
                out.get_mut(i + 1).map(|t| &mut t.tok)
            {
                tag.set_attr(ATTR_OPEN_DATA, data);
                tag.set_attr(ATTR_OPEN_CALL, call.clone());
                anchored.insert(call);
                if let Some(g) = gone.get_mut(i) {
                    *g = true;
                    any = true;
                }
            }
            continue;
        }
        // An end marker right after the tag its call's output opened, or
        // right after a row's or cell's end tag.
        if !anchored.contains(&call) {
            continue;
        }
        let Some(prev) = i.checked_sub(1) else {
            continue;
        };
        let target = match out.get(prev) {
            Some(t) if t.start_name().is_some_and(is_structure) => Some(prev),
            Some(t) if t.end_name().is_some_and(is_structure) => {
                let name = t.end_name().unwrap_or("").to_owned();
                let mut open = 0usize;
                let mut found = None;
                for j in (prev.saturating_sub(MAX_ANCHOR_SCAN)..prev).rev() {
                    let Some(t) = out.get(j) else { break };
                    if t.end_name() == Some(name.as_str()) {
                        open += 1;
                    } else if t.start_name() == Some(name.as_str()) {
                        if open == 0 {
                            found = Some(j);
                            break;
                        }
                        open -= 1;
                    }
                }
                found
            }
            _ => None,
        };
        if let Some(j) = target
            && let Some(Tok::Html(OwnedToken::StartTag(tag))) = out.get_mut(j).map(|t| &mut t.tok)
        {
            tag.set_attr(ATTR_CLOSE_CALL, call);
            if let Some(g) = gone.get_mut(i) {
                *g = true;
                any = true;
            }
        }
    }
    if any {
        let mut k = 0;
        out.retain(|_| {
            let keep = !gone.get(k).copied().unwrap_or(false);
            k += 1;
            keep
        });
    }
}

/// The most table wikitext a fostered call's `data-mw` takes as a literal
/// part before or after the call.
pub(crate) const MAX_FOSTER_TEXT: usize = 64 * 1024;

/// An open table while marking: its id and start, the first start marker
/// met outside its cells, the last end marker met in it, whether a cell is open.
struct OpenTable {
    id: usize,
    start: usize,
    first_start: Option<(usize, usize)>,
    last_end: Option<(usize, usize)>,
    in_cell: bool,
}

/// Where the tree builder may foster a call's output out of a table: the
/// table's first start marker outside its cells gets the table's id
/// (`tl:tid`, also on the table) and the table's wikitext before it
/// (`tl:tprefix`); the table's last end marker gets the wikitext after it
/// (`tl:tsuffix`); `dom::table_fixups` widens a fostered range over the table
/// (Parsoid's fostered-content expansion). One pass over the tokens from
/// `first` (the first table's start tag, [`first_table`]: nothing before it is
/// in a table), and each table's text is copied at most twice.
pub(crate) fn mark_tables(out: &mut [WikiToken], src: &str, first: usize) {
    let mut open: Vec<OpenTable> = Vec::new();
    let mut done: Vec<(OpenTable, usize)> = Vec::new();
    let mut next_id = 0;
    for (i, token) in out.iter_mut().enumerate().skip(first) {
        let Some(span) = token.span() else { continue };
        let Tok::Html(html) = &mut token.tok else {
            continue;
        };
        let (tag, start) = match html {
            OwnedToken::StartTag(tag) => (tag, true),
            OwnedToken::EndTag(tag) => (tag, false),
            _ => continue,
        };
        match (tag.name().as_str(), start) {
            ("table", true) => {
                tag.set_attr(ATTR_TID, next_id.to_string());
                open.push(OpenTable {
                    id: next_id,
                    start: span.start,
                    first_start: None,
                    last_end: None,
                    in_cell: false,
                });
                next_id += 1;
            }
            ("table", false) => {
                if let Some(t) = open.pop() {
                    done.push((t, span.end));
                }
            }
            ("td" | "th" | "caption", true) => {
                if let Some(t) = open.last_mut() {
                    t.in_cell = true;
                }
            }
            ("td" | "th" | "caption" | "tr" | "tbody" | "thead" | "tfoot", _) => {
                if let Some(t) = open.last_mut() {
                    t.in_cell = false;
                    // A start marker anchored on a row or section tag.
                    if start && t.first_start.is_none() && tag.attr(ATTR_OPEN_CALL).is_some() {
                        t.first_start = Some((i, span.start));
                    }
                }
            }
            ("meta", true) => {
                let Some(t) = open.last_mut() else { continue };
                match tag.attr("typeof") {
                    Some("mw:Transclusion") if !t.in_cell && t.first_start.is_none() => {
                        t.first_start = Some((i, span.start));
                    }
                    Some("mw:Transclusion/End") => t.last_end = Some((i, span.end)),
                    _ => {}
                }
            }
            _ => {}
        }
    }
    done.extend(open.into_iter().map(|t| (t, src.len())));
    for (t, end) in done {
        let marks = [
            (
                t.first_start,
                src.get(t.start..t.first_start.map_or(0, |m| m.1)),
                ATTR_TPREFIX,
            ),
            (
                t.last_end,
                src.get(t.last_end.map_or(0, |m| m.1)..end),
                ATTR_TSUFFIX,
            ),
        ];
        for (mark, text, name) in marks {
            let (Some((i, _)), Some(mut text)) = (mark, text) else {
                continue;
            };
            // An anchored start: its marker is the end of the text before it.
            let anchored = matches!(
                out.get(i).map(|t| &t.tok),
                Some(Tok::Html(OwnedToken::StartTag(tag))) if tag.name().as_str() != "meta"
            );
            if anchored && let Some(at) = text.rfind(START) {
                let marker = text.get(at..).unwrap_or("");
                if marker_len(marker) != Some(marker.len()) {
                    continue;
                }
                text = text.get(..at).unwrap_or("");
            }
            // Wikitext of other calls between: a compound range (`dom::compound`).
            // Past the limit the range is not widened (deeply nested tables
            // would otherwise copy the page once per level).
            if text.len() > MAX_FOSTER_TEXT || text.contains([START, END]) {
                continue;
            }
            if let Some(Tok::Html(OwnedToken::StartTag(tag))) = out.get_mut(i).map(|t| &mut t.tok) {
                // On an anchored start's tag, for the marker put back there.
                let (tid, name) = if anchored {
                    (ATTR_OPEN_TID, ATTR_OPEN_TPREFIX)
                } else {
                    (ATTR_TID, name)
                };
                tag.set_attr(tid, t.id.to_string());
                tag.set_attr(name, text.to_owned());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Blank attribute source gives the bare tag `tag_with` makes, with or
    /// without the cache; other sources are still made (and cached) alike.
    #[test]
    fn blank_attributes_give_the_bare_tag() {
        let mut cache = TagCache::default();
        for attrs in ["", " ", "\t ", " class=x", "style=\"a\" "] {
            for name in ["tr", "td", "table"] {
                assert_eq!(
                    cache.tag(name, attrs),
                    tag_with(name, attrs),
                    "{name} {attrs:?}"
                );
                assert_eq!(
                    cache.tag(name, attrs),
                    tag_with(name, attrs),
                    "{name} {attrs:?}"
                );
            }
        }
    }

    /// The private attributes' names are the static atoms the hot paths set.
    #[test]
    fn private_names_are_their_atoms() {
        for (name, atom) in [
            (ATTR_CALL, atom::TL_CALL),
            ("tl:wt", atom::TL_WT),
            ("tl:row", atom::TL_ROW),
            (ATTR_INLINE_CELL, atom::TL_INLINE),
            (ATTR_CELL, atom::TL_CELL),
            (ATTR_PREFIX, atom::TL_PREFIX),
            (ATTR_SUFFIX, atom::TL_SUFFIX),
            (ATTR_TID, atom::TL_TID),
            (ATTR_TPREFIX, atom::TL_TPREFIX),
            (ATTR_TSUFFIX, atom::TL_TSUFFIX),
            (ATTR_HSUFFIX, atom::TL_HSUFFIX),
            (ATTR_OPEN_DATA, atom::TL_ODATA),
            (ATTR_OPEN_CALL, atom::TL_OCALL),
            (ATTR_CLOSE_CALL, atom::TL_CCALL),
            (ATTR_OPEN_TID, atom::TL_OTID),
            (ATTR_OPEN_TPREFIX, atom::TL_OTPREFIX),
        ] {
            assert_eq!(atom.static_name(), Some(name));
        }
    }

    /// A cached tag's copy equals its clone, and takes one more attribute
    /// without moving its list.
    #[test]
    fn cached_copies_have_room() {
        for attrs in ["class=x", "style=\"a\" align=center", "a=b", "<b>"] {
            let tag = tag_with("td", attrs);
            let copy = with_room(&tag);
            assert_eq!(copy, tag, "{attrs:?}");
            let mut copy = copy;
            let at = copy.attrs().as_ptr();
            copy.attrs_mut()
                .push(tagloom_html::token::OwnedAttribute::new(atom::TL_WT, ""));
            assert_eq!(copy.attrs().as_ptr(), at, "{attrs:?}");
        }
    }

    #[test]
    fn the_table_passes_start_at_the_first_table() {
        let none = crate::tokenize::tokenize("a ''b'' [[c]]\n* d <b>e</b>\n");
        assert_eq!(first_table(&none), None);
        for src in [
            "x\n{|\n|a\n|}\n",
            "x <b>y</b> <table><tr><td>a</td></tr></table>",
            "x\n<TABLE>\n<tr><td>a\n",
            "{|\n|a\n{|\n|b\n|}\n|}",
        ] {
            let tokens = crate::tokenize::tokenize(src);
            let Some(first) = first_table(&tokens) else {
                panic!("no table in {src:?}");
            };
            let (before, from) = tokens.split_at(first);
            assert!(
                before.iter().all(|t| t.start_name() != Some("table")),
                "{src:?}"
            );
            // `mark_tables` ran from there: the table has its id.
            assert!(
                matches!(from.first().map(|t| &t.tok), Some(Tok::Html(OwnedToken::StartTag(t)))
                    if t.attr(ATTR_TID) == Some("0")),
                "{src:?}"
            );
        }
    }
}
