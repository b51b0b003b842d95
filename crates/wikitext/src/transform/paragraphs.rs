//! Paragraphs (Parsoid's ParagraphWrapper, mimicking MediaWiki's "visual
//! newlines"): a line with inline content and no block tag opens a `<p>`; a
//! blank line closes it; each further pair of blank lines adds a `<p><br></p>`
//! step (an odd extra blank line starts the next paragraph with `<br>`).
//! Start-of-line transparent tokens (whitespace, comments, metas) stay outside
//! paragraphs. Lines after an unclosed block tag are not wrapped.

use tagloom_html::atom;
use tagloom_html::token::OwnedToken;

use super::{Transform, is_anti_block, is_block_elem, is_never_block, is_wikitext_block};
use crate::token::{Tok, WikiToken};

/// The wrapper streams: a line's tokens go on to the chain's output as they
/// come (most of them through [`Transform::pass`], not moved into the stage at
/// all), and the stage keeps hold of the output's last tokens, the previous
/// lines whose newlines are still pending and the current line
/// ([`Transform::held`]), so that the `<p>` and `</p>` it decides at a line's
/// end (or at the next line's first content) go in among them. It is the
/// chain's last stage: nothing else appends to the output while it holds.
#[derive(Default)]
pub(crate) struct ParagraphWrapper {
    has_open_p: bool,
    in_block_elem: bool,
    in_blockquote: bool,
    /// The tokens of the lines whose newlines are pending (Parsoid's token
    /// buffer): the `tb_len` output tokens before the current line's.
    tb_len: usize,
    nl_ws: Vec<WikiToken>,
    newlines: usize,
    /// The current line: the output's last `line_len` tokens.
    line_len: usize,
    line_wrappable: bool,
    line_block_seen: bool,
    line_block_open: bool,
    /// A reused buffer for the current line while something goes before it.
    aside: Vec<WikiToken>,
}

/// `Some(true)` for a transclusion's start meta, `Some(false)` for its end.
fn transclusion_meta(t: &WikiToken) -> Option<bool> {
    if t.start_name() != Some("meta") {
        return None;
    }
    let Tok::Html(html) = &t.tok else { return None };
    match html.as_tag().and_then(|tag| tag.attr("typeof")) {
        Some("mw:Transclusion") => Some(true),
        Some("mw:Transclusion/End") => Some(false),
        _ => None,
    }
}

fn transparent(t: &WikiToken) -> bool {
    t.is_newline() || t.is_sol_transparent()
}

/// Text that is not only blanks: inline content, which opens no block and
/// makes its line wrappable.
fn inline_text(token: &WikiToken) -> bool {
    token.as_text().is_some_and(non_blank)
}

fn non_blank(text: &str) -> bool {
    text.bytes().any(|b| b != b' ' && b != b'\t')
}

/// What a token does to its line when nothing is pending, for the tokens
/// that only join it: `Some(true)` for inline content (text that is not only
/// blanks, a tag that is no wikitext block, meta, link or style),
/// `Some(false)` for what is start-of-line transparent (blank text, a
/// comment); `None` for the others, which go through `push`.
fn joins_line(token: &WikiToken) -> Option<bool> {
    match &token.tok {
        Tok::Html(OwnedToken::Characters(t)) => Some(non_blank(t.text())),
        Tok::Html(OwnedToken::Comment(_)) => Some(false),
        Tok::Html(OwnedToken::StartTag(t) | OwnedToken::EndTag(t)) => match t.name().atom() {
            Some(name)
                if is_wikitext_block(name)
                    || matches!(name, atom::META | atom::LINK | atom::STYLE) =>
            {
                None
            }
            _ => Some(true),
        },
        _ => None,
    }
}

impl ParagraphWrapper {
    fn reset_line(&mut self) {
        if self.line_block_seen {
            self.in_block_elem = self.line_block_open;
        }
        self.line_wrappable = false;
        self.line_block_seen = false;
        self.line_block_open = false;
    }

    /// Where the current line starts in `out`.
    fn line_start(&self, out: &[WikiToken]) -> usize {
        out.len().saturating_sub(self.line_len)
    }

    /// Runs `f`, which appends to `out`, as if the current line were not
    /// there yet: what `f` appends goes before the line's tokens.
    fn before_line(
        &mut self,
        out: &mut Vec<WikiToken>,
        f: impl FnOnce(&mut Self, &mut Vec<WikiToken>),
    ) {
        if self.line_len == 0 {
            return f(self, out);
        }
        let at = self.line_start(out);
        let mut line = std::mem::take(&mut self.aside);
        line.extend(out.drain(at..));
        let line_len = std::mem::take(&mut self.line_len);
        f(self, out);
        debug_assert_eq!(self.line_len, 0);
        self.line_len = line_len;
        out.append(&mut line);
        self.aside = line;
    }

    /// `<p>` into the output from `from` on (the current line): before its
    /// first content. Whether it went in.
    fn open_p(&mut self, out: &mut Vec<WikiToken>, from: usize) -> bool {
        if self.has_open_p {
            return false;
        }
        let region = out.get(from..).unwrap_or(&[]);
        let mut at = region
            .iter()
            .position(|t| !transparent(t))
            .unwrap_or(region.len());
        // A template's output starting here goes inside the paragraph
        // (Parsoid: the `<p>` goes before the transclusion's start meta).
        if let Some(tpl) = region.get(..at).and_then(|head| {
            head.iter()
                .rposition(|t| transclusion_meta(t) == Some(true))
        }) {
            at = tpl;
        }
        out.insert(from + at, WikiToken::start(atom::P));
        self.has_open_p = true;
        true
    }

    /// `</p>` into the output from `from` on: after its last content.
    /// Whether it went in.
    fn close_p(&mut self, out: &mut Vec<WikiToken>, from: usize) -> bool {
        if !self.has_open_p {
            return false;
        }
        let region = out.get(from..).unwrap_or(&[]);
        let mut at = region
            .iter()
            .rposition(|t| !transparent(t))
            .map_or(0, |i| i + 1);
        // A template's output ending here stays inside the paragraph.
        if let Some(end) = region.get(at..).and_then(|tail| {
            tail.iter()
                .position(|t| transclusion_meta(t) == Some(false))
        }) {
            at += end + 1;
        }
        out.insert(from + at, WikiToken::end(atom::P));
        self.has_open_p = false;
        true
    }

    /// Releases the pending lines with their newlines (the paragraph breaks
    /// they make) at the end of `out`, where the pending lines must end (no
    /// current line).
    fn pending_newlines(&mut self, out: &mut Vec<WikiToken>) {
        debug_assert_eq!(self.line_len, 0);
        let from = out.len().saturating_sub(self.tb_len);
        let breaks = self.newlines >= 2 && !self.in_block_elem;
        if !(breaks || self.line_block_seen && self.has_open_p) {
            // No paragraph break, no paragraph to close (most calls): the
            // newlines and what came with them, as they are, in one append.
            out.append(&mut self.nl_ws);
            self.newlines = 0;
            self.tb_len = 0;
            return;
        }
        let mut n = self.newlines;
        // Taken out while drained (its room kept): `close_p` borrows `self`.
        let mut ws = std::mem::take(&mut self.nl_ws);
        let mut rest = ws.drain(..);
        if breaks {
            self.close_p(out, from);
            if let Some(nl) = one_newline(&mut rest, out) {
                out.push(nl);
            }
            n -= 1;
            let remainder = n % 2;
            while n > 0 {
                let nl = one_newline(&mut rest, out);
                if n % 2 == remainder {
                    if self.has_open_p {
                        out.push(WikiToken::end(atom::P));
                        self.has_open_p = false;
                    }
                    if n > 1 {
                        out.push(WikiToken::start(atom::P));
                        self.has_open_p = true;
                    }
                } else {
                    out.push(WikiToken::start(atom::BR));
                }
                out.extend(nl);
                n -= 1;
            }
        }
        if self.line_block_seen {
            self.close_p(out, from);
            if n == 1
                && let Some(nl) = one_newline(&mut rest, out)
            {
                out.push(nl);
            }
        }
        out.extend(rest);
        self.nl_ws = ws;
        self.newlines = 0;
        self.tb_len = 0;
    }

    /// Releases the pending lines and newlines, before the current line.
    fn emit_pending(&mut self, out: &mut Vec<WikiToken>) {
        self.before_line(out, Self::pending_newlines);
    }

    /// Whether [`pending_newlines`](Self::pending_newlines) would release
    /// nothing (the usual case within a line): no newline, no pending line,
    /// no paragraph a block on this line must close.
    fn nothing_pending(&self) -> bool {
        self.newlines == 0
            && self.tb_len == 0
            && self.nl_ws.is_empty()
            && !(self.line_block_seen && self.has_open_p)
    }

    /// Inlined: the path of most tokens (no move of the token into a call).
    #[inline(always)]
    fn process(&mut self, token: WikiToken, flush_line: bool, out: &mut Vec<WikiToken>) {
        if !self.nothing_pending() {
            self.emit_pending(out);
        }
        out.push(token);
        self.line_len += 1;
        if flush_line {
            // Pending lines were released above: the line goes too.
            self.line_len = 0;
            self.reset_line();
        }
    }

    /// `token` onto the current line, the pending lines and newlines
    /// released before it as they are.
    fn flush(&mut self, token: WikiToken, out: &mut Vec<WikiToken>) {
        if !self.nl_ws.is_empty() {
            self.before_line(out, |s, out| out.append(&mut s.nl_ws));
        }
        self.tb_len = 0;
        out.push(token);
        self.line_len += 1;
        self.newlines = 0;
    }

    fn newline_or_end(&mut self, token: WikiToken, out: &mut Vec<WikiToken>) {
        let line = self.line_start(out);
        if self.line_block_seen {
            if self.close_p(out, line) {
                self.line_len += 1;
            }
        } else if !self.in_block_elem
            && !self.has_open_p
            && self.line_wrappable
            && self.open_p(out, line)
        {
            self.line_len += 1;
        }
        self.tb_len += self.line_len;
        self.line_len = 0;
        if token.is_end() {
            self.nl_ws.push(token);
            let from = out.len().saturating_sub(self.tb_len);
            self.close_p(out, from);
            self.tb_len = out.len() - from;
            self.pending_newlines(out);
            *self = ParagraphWrapper::default();
        } else {
            self.reset_line();
            self.newlines += 1;
            self.nl_ws.push(token);
        }
    }
}

/// Moves the tokens `rest` gives into `out` up to the next newline, which
/// it gives back.
fn one_newline(
    rest: &mut std::vec::Drain<'_, WikiToken>,
    out: &mut Vec<WikiToken>,
) -> Option<WikiToken> {
    for t in rest.by_ref() {
        if t.is_newline() {
            return Some(t);
        }
        out.push(t);
    }
    None
}

impl ParagraphWrapper {
    fn undo_pre(&mut self, inner: Vec<WikiToken>, out: &mut Vec<WikiToken>) {
        if self.newlines == 0 {
            self.flush(WikiToken::text(""), out);
        }
        let last = inner.len().saturating_sub(1);
        for (i, t) in inner.into_iter().enumerate() {
            let pre_tag = (i == 0 && t.start_name() == Some("pre"))
                || (i == last && t.end_name() == Some("pre"));
            if pre_tag {
                continue;
            }
            match t.tok {
                Tok::IndentPreWs => self.nl_ws.push(WikiToken::text(" ")),
                _ if t.is_newline() => self.newline_or_end(t, out),
                _ => self.push(t, out),
            }
        }
    }
}

impl Transform for ParagraphWrapper {
    fn reset(&mut self) {
        *self = Self::default();
    }

    fn held(&self) -> usize {
        self.tb_len + self.line_len
    }

    /// Inline content and transparent tokens while nothing is pending (most
    /// tokens): they join the current line where the chain puts them.
    fn pass(&mut self, token: &WikiToken) -> bool {
        if !self.nothing_pending() {
            return false;
        }
        let Some(inline) = joins_line(token) else {
            return false;
        };
        self.line_wrappable |= inline;
        self.line_len += 1;
        true
    }

    fn push(&mut self, token: WikiToken, out: &mut Vec<WikiToken>) {
        if token.is_newline() || token.is_end() {
            return self.newline_or_end(token, out);
        }
        // Text that is not only blanks (most tokens): inline content, none of
        // the tag checks below apply.
        if inline_text(&token) {
            self.line_wrappable = true;
            return self.process(token, false, out);
        }
        let behaviour_switch = matches!(&token.tok, Tok::Html(OwnedToken::StartTag(t))
            if t.name().is(atom::META)
                && t.attr("property").is_some_and(|p| p.starts_with("mw:PageProp/")));
        let whitespace = token
            .as_text()
            .is_some_and(|t| t.bytes().all(|b| b == b' ' || b == b'\t'));
        if whitespace
            || token.is_comment()
            || behaviour_switch
            || matches!(token.tok, Tok::EmptyLine(_))
        {
            if self.newlines == 0 {
                self.flush(token, out);
            } else {
                self.nl_ws.push(token);
            }
            return;
        }
        let name = token.tag_atom();
        // What a wikitext block tag does to the line (read before `token` moves):
        // whether it leaves a block open, and whether it opens (`Some(true)`) or
        // closes a blockquote.
        let block = name.filter(|&n| is_wikitext_block(n)).map(|name| {
            let end = token.end_name().is_some();
            let open = !((is_block_elem(name) && end)
                || (is_anti_block(name) && !end)
                || is_never_block(name));
            (open, (name == atom::BLOCKQUOTE).then_some(!end))
        });
        if token.is_meta_or_link() || name == Some(atom::STYLE) {
            match self.newlines {
                0 => self.flush(token, out),
                1 => {
                    // The newline (and what followed it) joins the pending
                    // lines, the current line too: the token starts a line.
                    self.before_line(out, |s, out| {
                        s.tb_len += s.nl_ws.len();
                        out.append(&mut s.nl_ws);
                    });
                    self.tb_len += self.line_len;
                    self.line_len = 0;
                    self.newlines = 0;
                    self.reset_line();
                    out.push(token);
                    self.line_len = 1;
                }
                _ => self.process(token, false, out),
            }
            return;
        }
        if let Tok::IndentPre(inner) = token.tok {
            if self.in_block_elem || self.in_blockquote {
                // Indent-pre is not allowed here (MediaWiki's "in block
                // element"): the lines come back as they were.
                return self.undo_pre(inner, out);
            }
            self.line_block_seen = true;
            let token = WikiToken {
                tok: Tok::IndentPre(inner),
                span: token.span,
            };
            return self.process(token, true, out);
        }
        if let Some((open, blockquote)) = block {
            self.line_block_seen = true;
            self.line_block_open = open;
            if let Some(inside) = blockquote {
                self.in_blockquote = inside;
            }
        }
        self.line_wrappable = true;
        self.process(token, false, out);
    }
}
