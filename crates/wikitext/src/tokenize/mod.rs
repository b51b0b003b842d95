//! The wikitext tokenizer: one pass over the page producing [`WikiToken`]s with
//! source ranges. Block syntax is recognized at the start of a line
//! (`block.rs`: lists, `----`, headings), inline syntax anywhere (quotes,
//! entities, behaviour switches, templates here; tags, comments and extension
//! tags in `tags.rs`). Everything it does not recognize is text.
//!
//! Cost: linear in the input except for searches for a closing delimiter
//! (`-->`, `</nowiki>`, `}}`), each bounded by the input and done at most once per
//! opening delimiter found.

mod block;
pub(crate) mod entity;
pub(crate) mod extlinks;
mod links;
pub(crate) mod skip;
mod table;
pub(crate) mod tags;

use tagloom_html::atom;
use tagloom_html::token::{AttrValue, OwnedAttribute, OwnedTag, OwnedToken};

use self::skip::newline;
use crate::token::{Tok, WikiToken};

/// Whether `token` is a table cell that `||` or `!!` started. The quote
/// transform asks of every start tag: only a `td` or `th` (the tags
/// `next_cell` marks) has its attributes searched.
#[inline]
pub(crate) fn is_inline_cell(token: &WikiToken) -> bool {
    matches!(&token.tok, Tok::Html(OwnedToken::StartTag(t))
        if matches!(t.name().atom(), Some(atom::TD | atom::TH))
            && t.has_attr(table::ATTR_INLINE_CELL))
}

/// Tokenizes a whole page.
pub fn tokenize(src: &str) -> Vec<WikiToken> {
    tokenize_with(src, &[], crate::title::default_site())
}

/// The page a render tokenizes for: its normalized title and its store. With
/// it, the tokenizer resolves each wikilink as it reads it (its `<a>` at once,
/// [`crate::transform::links::link_tag`]), not as a boxed [`Tok::WikiLink`]
/// resolved in a pass after.
#[derive(Clone, Copy)]
pub(crate) struct LinkPage<'a> {
    /// The page's normalized title (a link to it is a self link).
    pub(crate) title: &'a str,
    /// The pages that exist (red links for the others); all do without one.
    pub(crate) pages: Option<&'a dyn crate::preprocess::PageStore>,
}

/// [`tokenize_with`] for `page`: its wikilinks resolved ([`LinkPage`]).
pub(crate) fn tokenize_page(
    src: &str,
    calls: &[crate::transclusion::Call],
    site: &crate::preprocess::Site,
    page: LinkPage<'_>,
) -> Vec<WikiToken> {
    tokenize_in(src, calls, site, Some(page))
}

/// Tokenizes a page whose template output is marked (see `transclusion.rs`);
/// `calls` holds each call's `data-mw`.
pub(crate) fn tokenize_with(
    src: &str,
    calls: &[crate::transclusion::Call],
    site: &crate::preprocess::Site,
) -> Vec<WikiToken> {
    tokenize_in(src, calls, site, None)
}

/// [`tokenize_with`], the wikilinks resolved when `links` is given.
fn tokenize_in(
    src: &str,
    calls: &[crate::transclusion::Call],
    site: &crate::preprocess::Site,
    links: Option<LinkPage<'_>>,
) -> Vec<WikiToken> {
    let mut t = Tokenizer {
        calls,
        site,
        links,
        src,
        pos: 0,
        limit: src.len(),
        out: Vec::with_capacity(src.len() / 8 + 4),
        text: Pending::None,
        dd_pending: false,
        dd_depth: 0,
        dd_quotes: (false, false),
        in_ext_link: false,
        in_wiki_link: false,
        param_open: false,
        no_bracket_close: None,
        missing_close: Vec::new(),
        braces: None,
        table_depth: 0,
        saw_table: false,
        cell_line: None,
        cell_start: 0,
        line_call: false,
        held_end: None,
        open_call: None,
        table_ends: Vec::new(),
        cell_call: None,
        table_tags: table::TagCache::default(),
    };
    t.start_of_line();
    t.scan();
    t.end_of_line();
    while !t.table_ends.is_empty() {
        t.release_table_ends();
    }
    t.flush_text();
    t.out.push(WikiToken::at(Tok::Eof, src.len(), src.len()));
    // Both table passes change nothing before a page's first table: most
    // pages (and ref bodies) have none, and neither pass runs over them;
    // a page whose source has no table syntax is not even searched.
    debug_assert!(t.saw_table || table::first_table(&t.out).is_none());
    if t.saw_table
        && let Some(first) = table::first_table(&t.out)
    {
        table::anchor_markers(&mut t.out, first);
        table::mark_tables(&mut t.out, src, first);
    }
    t.out
}

pub(crate) struct Tokenizer<'a> {
    /// The `data-mw` of each marked template call.
    calls: &'a [crate::transclusion::Call],
    /// The wiki (namespaces and interwiki prefixes of link targets).
    pub(crate) site: &'a crate::preprocess::Site,
    /// The page whose wikilinks are resolved as they are read; `None`: they
    /// are [`Tok::WikiLink`]s.
    pub(crate) links: Option<LinkPage<'a>>,
    pub(crate) src: &'a str,
    pub(crate) pos: usize,
    /// Where the current scan stops (the end of a heading's content, or the input).
    pub(crate) limit: usize,
    pub(crate) out: Vec<WikiToken>,
    /// The text read since the last token.
    text: Pending,
    /// A `;` term is open on this line: its first `:` starts the description.
    pub(crate) dd_pending: bool,
    /// Open HTML elements on a `;` line: a `:` inside one is text.
    pub(crate) dd_depth: usize,
    /// Bold and italic quotes open on a `;` line (a `:` inside them is text).
    pub(crate) dd_quotes: (bool, bool),
    /// Inside an external link's text: no links start here.
    pub(crate) in_ext_link: bool,
    /// Inside a wikilink's text: no wikilinks start here.
    pub(crate) in_wiki_link: bool,
    /// The open template marker is a page parameter's (`mw:Param`).
    param_open: bool,
    /// A range where no `[URL …]` can close (no `]` before the line ends).
    pub(crate) no_bracket_close: Option<(usize, usize)>,
    /// Closing tags known to be missing after a position.
    pub(crate) missing_close: Vec<(&'static str, usize)>,
    /// `{{` positions and the end of their matching `}}`, computed once.
    braces: Option<std::collections::HashMap<usize, usize>>,
    /// Open wikitext tables (table syntax is recognized only inside one).
    pub(crate) table_depth: usize,
    /// A `{|` or a `<table>` tag was read: without one the page has no
    /// table start tag, and [`table::first_table`] need not look for one.
    pub(crate) saw_table: bool,
    /// On a cell line: `||` (and `!!` on a header line) start another cell.
    pub(crate) cell_line: Option<table::CellLine>,
    /// Where the current cell's syntax starts (`|`, `||`, `!`…).
    pub(crate) cell_start: usize,
    /// A call at the start of this line made its first cell (`table.rs`).
    pub(crate) line_call: bool,
    /// That call's end marker, held back to the end of the line.
    pub(crate) held_end: Option<usize>,
    /// The call whose start marker was the last one met.
    pub(crate) open_call: Option<usize>,
    /// Per open wikitext table, the calls whose end markers wait for its end
    /// (with the offset just after the end marker each had).
    pub(crate) table_ends: Vec<Vec<(usize, usize)>>,
    /// The cell (its start) whose first call was met, the cell's end and its
    /// last start marker once known (`usize::MAX`: not yet).
    pub(crate) cell_call: Option<(usize, usize, usize)>,
    /// The table tags made from attribute source so far (tables repeat theirs).
    pub(crate) table_tags: table::TagCache,
}

/// The text read since the last token: a range of the source while it is one
/// (the common case: it becomes a token with one exact allocation), else a copy
/// that started at a source offset.
enum Pending {
    None,
    Src(usize, usize),
    Copied(usize, String),
}

/// A byte-class table: `true` for each byte of `stops` (the tokenizer's scans
/// skip every other byte).
pub(crate) const fn byte_set(stops: &[u8]) -> [bool; 256] {
    let mut t = [false; 256];
    let mut i = 0;
    while i < stops.len() {
        t[stops[i] as usize] = true;
        i += 1;
    }
    t
}

/// The bytes at which a run of plain text may end (see [`Tokenizer::text_run`]).
const STOP: [bool; 256] = byte_set(b"\n'<&_{[|!:RPI\xEE");

/// Plain decimal texts below [`crate::decimal::LIMIT`], for [`call_index`].
const INDEX_TEXT: crate::decimal::Decimals = crate::decimal::decimals!(b"");

/// A marker's call index as its `tl:call` value: static text below 1 000
/// (every page of the corpus; no formatting, no allocation per marker),
/// formatted above.
pub(crate) fn call_index(index: usize) -> AttrValue {
    match INDEX_TEXT.get(index) {
        Some(text) => AttrValue::from(text),
        None => AttrValue::from(index.to_string()),
    }
}

/// Behaviour switches (`__NOTOC__`), as MediaWiki's magic word list.
const SWITCHES: &[&str] = &[
    "NOTOC",
    "FORCETOC",
    "TOC",
    "NOEDITSECTION",
    "NEWSECTIONLINK",
    "NONEWSECTIONLINK",
    "NOGALLERY",
    "HIDDENCAT",
    "EXPECTUNUSEDCATEGORY",
    "NOCONTENTCONVERT",
    "NOCC",
    "NOTITLECONVERT",
    "NOTC",
    "INDEX",
    "NOINDEX",
    "STATICREDIRECT",
    "EXPECTUNUSEDTEMPLATE",
    "NOGLOBAL",
    "DISAMBIG",
];

impl<'a> Tokenizer<'a> {
    pub(crate) fn rest(&self) -> &'a str {
        self.src.get(self.pos..self.limit).unwrap_or("")
    }

    pub(crate) fn peek(&self) -> Option<u8> {
        if self.pos < self.limit {
            self.src.as_bytes().get(self.pos).copied()
        } else {
            None
        }
    }

    /// Adds `s` (read from `start..`) to the pending text.
    pub(crate) fn push_text(&mut self, s: &str, start: usize) {
        let end = start + s.len();
        if s.is_empty() {
            return;
        }
        if self.src.as_bytes().get(start..end) == Some(s.as_bytes()) {
            self.push_src(start, end);
        } else {
            self.append_copy(s, start);
        }
    }

    /// Adds the source's `start..end` to the pending text (inline: every
    /// text run ends here).
    #[inline]
    fn push_src(&mut self, start: usize, end: usize) {
        match &mut self.text {
            _ if start >= end => {}
            Pending::None => self.text = Pending::Src(start, end),
            Pending::Src(_, e) if *e == start => *e = end,
            _ => {
                let src = self.src;
                self.append_copy(src.get(start..end).unwrap_or(""), start);
            }
        }
    }

    /// Adds a copy of `s` to the pending text (`start`: where it was read).
    fn append_copy(&mut self, s: &str, start: usize) {
        self.text = match std::mem::replace(&mut self.text, Pending::None) {
            Pending::None => Pending::Copied(start, s.to_owned()),
            Pending::Src(from, to) => {
                let mut text = String::with_capacity(to - from + s.len());
                text.push_str(self.src.get(from..to).unwrap_or(""));
                text.push_str(s);
                Pending::Copied(from, text)
            }
            Pending::Copied(from, mut text) => {
                text.push_str(s);
                Pending::Copied(from, text)
            }
        };
    }

    /// Emits the pending text, if any, as a text token. Inline: every token
    /// emitted asks, and after a token there is no text yet.
    #[inline]
    pub(crate) fn flush_text(&mut self) {
        if !matches!(self.text, Pending::None) {
            self.flush_pending();
        }
    }

    fn flush_pending(&mut self) {
        let (text, start) = match std::mem::replace(&mut self.text, Pending::None) {
            Pending::None => return,
            Pending::Src(s, e) => (self.src.get(s..e).unwrap_or("").to_owned(), s),
            Pending::Copied(s, text) => (text, s),
        };
        let end = start + text.len();
        self.out
            .push(WikiToken::at(Tok::Html(OwnedToken::text(text)), start, end));
    }

    /// Emits a token read from `start..self.pos`. Inline: the token is then
    /// built where it is pushed, not moved through a call.
    #[inline]
    pub(crate) fn emit(&mut self, tok: Tok, start: usize) {
        self.flush_text();
        self.out.push(WikiToken::at(tok, start, self.pos));
    }

    #[inline]
    pub(crate) fn emit_html(&mut self, token: OwnedToken, start: usize) {
        self.emit(Tok::Html(token), start);
    }

    /// The main loop: inline syntax up to `limit`, block syntax after newlines.
    pub(crate) fn scan(&mut self) {
        while let Some(b) = self.peek() {
            let start = self.pos;
            match b {
                b'\n' => {
                    self.end_of_line();
                    self.pos += 1;
                    self.emit(Tok::Newline, start);
                    self.dd_pending = false;
                    self.dd_depth = 0;
                    self.dd_quotes = (false, false);
                    self.cell_line = None;
                    self.start_of_line();
                }
                b'\'' if self.rest().starts_with("''") => self.quotes(),
                b'<' => self.angle(),
                b'&' => self.entity(),
                b'_' if self.rest().starts_with("__") => self.switch(),
                b'{' if self.rest().starts_with("{{") => self.template(),
                b'[' if self.rest().starts_with("[[") && !self.in_wiki_link => self.wikilink(),
                b'[' if !self.in_ext_link && self.bracketed_link() => {}
                b'A'..=b'Z' | b'a'..=b'z' if self.autolink() => {}
                b'|' | b'!' if self.cell_line.is_some() && self.double_bar().is_some() => {
                    self.next_cell();
                }
                0xEE if self.cell_line.is_some()
                    && self.rest().starts_with(crate::transclusion::START)
                    && self.double_bar().is_some() =>
                {
                    self.next_cell();
                }
                0xEE if self.marker() => {}
                b':' if self.dd_pending
                    && (self.dd_depth > 0 || self.dd_quotes != (false, false)) =>
                {
                    self.pos += 1;
                    self.push_text(":", start);
                }
                b':' if self.dd_pending => {
                    self.pos += 1;
                    self.dd_pending = false;
                    let bullets = self.dd_bullets();
                    self.emit(Tok::ListItem(bullets.into()), start);
                }
                _ => self.text_run(),
            }
        }
    }

    /// A transclusion marker here: its meta tag. False if there is none.
    pub(crate) fn marker(&mut self) -> bool {
        use crate::transclusion::{END, INDEX_END, START};
        let start = self.pos;
        let rest = self.rest();
        if let Some(after) = rest.strip_prefix(START) {
            let Some(end) =
                crate::preprocess::find_from(after, 0, INDEX_END.encode_utf8(&mut [0; 4]))
            else {
                return false;
            };
            let Some((index, call)) = after
                .get(..end)
                .and_then(|n| n.parse::<usize>().ok())
                .and_then(|i| Some((i, self.calls.get(i)?)))
            else {
                return false;
            };
            // A template argument of the page is a parameter (Parsoid's
            // mw:Param), whose markers paragraphs do not move around.
            self.param_open = call.data_mw.starts_with("{\"parts\":[{\"templatearg\"");
            let kind = if self.param_open {
                "mw:Param"
            } else {
                "mw:Transclusion"
            };
            // Distinct new attributes: pushed in order, room made once.
            let mut tag = OwnedTag::new(atom::META);
            let attrs = tag.attrs_mut();
            attrs.reserve_exact(4);
            attrs.push(OwnedAttribute::new(atom::TYPEOF, kind));
            attrs.push(OwnedAttribute::new(atom::DATA_MW, call.data_mw.clone()));
            attrs.push(OwnedAttribute::new(atom::TL_CALL, call_index(index)));
            if call.empty {
                attrs.push(OwnedAttribute::new(
                    crate::dom::encapsulate::EMPTY_OUTPUT,
                    "",
                ));
            }
            self.open_call = Some(index);
            self.cell_marker_attrs(&mut tag, true, start);
            self.pos += START.len_utf8() + end + INDEX_END.len_utf8();
            self.emit_html(OwnedToken::StartTag(tag), start);
            return true;
        }
        if rest.starts_with(END) {
            self.pos += END.len_utf8();
            if self.hold_end(self.pos) {
                return true;
            }
            let end = if std::mem::take(&mut self.param_open) {
                "mw:Param/End"
            } else {
                "mw:Transclusion/End"
            };
            let mut tag = OwnedTag::new(atom::META);
            let call = self.open_call.take();
            let attrs = tag.attrs_mut();
            attrs.reserve_exact(2);
            attrs.push(OwnedAttribute::new(atom::TYPEOF, end));
            if let Some(index) = call {
                attrs.push(OwnedAttribute::new(atom::TL_CALL, call_index(index)));
            }
            self.cell_marker_attrs(&mut tag, false, start);
            self.emit_html(OwnedToken::StartTag(tag), start);
            return true;
        }
        false
    }

    /// The bullets of the list item this line opened, with the `;` turned to `:`.
    fn dd_bullets(&self) -> String {
        let mut bullets = self
            .out
            .iter()
            .rev()
            .find_map(|t| match &t.tok {
                Tok::ListItem(b) => Some(b.to_string()),
                _ => None,
            })
            .unwrap_or_default();
        bullets.pop();
        bullets.push(':');
        bullets
    }

    /// Plain text from the current position (whatever its first byte is) to
    /// the next byte where syntax may start. Bytes that cannot end a run are
    /// skipped by one table look-up each; a free URL or magic link is looked
    /// for only where one can start: a `RFC`/`PMID`/`ISBN` at its capital, a
    /// protocol from the `:` that ends it, back over its letters.
    fn text_run(&mut self) {
        let start = self.pos;
        let bytes = self.src.as_bytes();
        let run = bytes.get(..self.limit).unwrap_or(bytes);
        let mut end = start + 1;
        loop {
            // The bytes that cannot end the run, skipped in one search.
            let at = skip::next_stop(run, end, &STOP);
            if at >= run.len() {
                end = end.max(run.len());
                break;
            }
            end = at;
            let Some(&b) = run.get(end) else { break };
            let next = run.get(end + 1).copied();
            match b {
                b':' if self.dd_pending => break,
                b':' => {
                    if !self.in_ext_link
                        && let Some(at) = self.url_start_before(start, end)
                    {
                        end = at;
                        break;
                    }
                }
                b'R' | b'P' | b'I' => {
                    if !self.in_ext_link && self.autolink_candidate(end) {
                        break;
                    }
                }
                // Only doubled, or in a cell line, do these start syntax.
                b'\'' | b'_' | b'{' if next != Some(b) => {}
                b'|' | b'!' if self.cell_line.is_none() => {}
                _ => break,
            }
            end += 1;
        }
        // Never split a character.
        while !self.src.is_char_boundary(end) {
            end += 1;
        }
        self.pos = end;
        self.push_src(start, end);
    }

    fn quotes(&mut self) {
        let start = self.pos;
        let n = self.rest().bytes().take_while(|&b| b == b'\'').count();
        self.pos += n;
        if self.dd_pending {
            let (bold, italic) = &mut self.dd_quotes;
            match n {
                2 => *italic = !*italic,
                3 | 4 => *bold = !*bold,
                _ => {
                    *bold = !*bold;
                    *italic = !*italic;
                }
            }
        }
        self.emit(Tok::Quote(u32::try_from(n).unwrap_or(u32::MAX)), start);
    }

    fn entity(&mut self) {
        let start = self.pos;
        match entity::reference(self.rest()) {
            Some((len, text)) => {
                self.pos += len;
                self.emit_html(
                    OwnedToken::StartTag(
                        OwnedTag::new(atom::SPAN).with_attr(atom::TYPEOF, "mw:Entity"),
                    ),
                    start,
                );
                self.out.push(WikiToken::text(text));
                self.out.push(WikiToken::end(atom::SPAN));
            }
            None => {
                self.pos += 1;
                self.push_text("&", start);
            }
        }
    }

    fn switch(&mut self) {
        let start = self.pos;
        let rest = self.rest();
        let word = rest
            .get(2..)
            .and_then(|r| r.find("__").map(|e| (e, r)))
            .and_then(|(e, r)| r.get(..e));
        if let Some(word) = word
            && SWITCHES.iter().any(|s| s.eq_ignore_ascii_case(word))
        {
            self.pos += word.len() + 4;
            let tag = OwnedTag::new(atom::META).with_attr(
                atom::PROPERTY,
                format!("mw:PageProp/{}", word.to_ascii_lowercase()),
            );
            self.emit_html(OwnedToken::StartTag(tag), start);
            return;
        }
        self.pos += 1;
        self.push_text("_", start);
    }

    /// The end of the `}}` matching the `{{` at `at`, if any (pairs found once,
    /// innermost first, in one pass over the page).
    pub(crate) fn brace_end(&mut self, at: usize) -> Option<usize> {
        let src = self.src.as_bytes();
        let braces = self.braces.get_or_insert_with(|| {
            let mut map = std::collections::HashMap::new();
            let mut open = Vec::new();
            let mut i = 0;
            while i + 1 < src.len() {
                // Bytes other than braces skipped in one vector search.
                match src.get(i..).and_then(|r| memchr::memchr2(b'{', b'}', r)) {
                    Some(at) => i += at,
                    None => break,
                }
                match (src.get(i), src.get(i + 1)) {
                    (Some(b'{'), Some(b'{')) => {
                        open.push(i);
                        i += 2;
                    }
                    (Some(b'}'), Some(b'}')) => {
                        if let Some(o) = open.pop() {
                            map.insert(o, i + 2);
                        }
                        i += 2;
                    }
                    _ => i += 1,
                }
            }
            map
        });
        braces.get(&at).copied()
    }

    /// `{{…}}` or `{{{…}}}` with balanced braces: a pseudo-token for the
    /// expansion hook; unbalanced braces are text.
    fn template(&mut self) {
        let start = self.pos;
        let Some(mut end) = self.brace_end(start).filter(|&e| e <= self.limit) else {
            self.pos += 2;
            self.push_text("{{", start);
            return;
        };
        let rest = self.rest();
        let arg = rest.starts_with("{{{") && self.src.as_bytes().get(end) == Some(&b'}');
        if arg && end < self.limit {
            end += 1;
        }
        if !arg {
            // A call left unexpanded is text, and what it holds is parsed
            // as usual (`{{a<b>b</b>|x}}` shows bold text), as in Parsoid.
            self.pos += 2;
            self.push_text("{{", start);
            return;
        }
        let raw = self.src.get(start..end).unwrap_or("");
        self.pos = end;
        self.emit(Tok::TemplateArg(raw.into()), start);
    }
}

#[cfg(test)]
mod tests {
    use super::call_index;

    /// Every index's value is its decimal text; below 1 000 it is static.
    #[test]
    fn call_index_is_the_decimal_text() {
        for i in (0..2000).chain([9_999, usize::MAX]) {
            let value = call_index(i);
            assert_eq!(&*value, i.to_string(), "{i}");
            assert_eq!(value.is_static(), i < 1000, "{i}");
        }
    }
}
