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

#[derive(Default)]
pub(crate) struct ParagraphWrapper {
    has_open_p: bool,
    in_block_elem: bool,
    in_blockquote: bool,
    token_buffer: Vec<WikiToken>,
    nl_ws: Vec<WikiToken>,
    newlines: usize,
    line: Vec<WikiToken>,
    line_wrappable: bool,
    line_block_seen: bool,
    line_block_open: bool,
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

/// Moves all of `src` to the end of `dst`. A paragraph's line can hold
/// hundreds of thousands of tokens: when `dst` is empty its buffer is taken
/// over instead of copied, so a long line is not held twice.
fn move_all(dst: &mut Vec<WikiToken>, src: &mut Vec<WikiToken>) {
    if dst.is_empty() {
        std::mem::swap(dst, src);
    } else {
        dst.append(src);
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

    fn reset_buffers(&mut self) {
        self.newlines = 0;
    }

    fn open_p(&mut self, out: &mut Vec<WikiToken>) {
        if self.has_open_p {
            return;
        }
        let mut at = out
            .iter()
            .position(|t| !transparent(t))
            .unwrap_or(out.len());
        // A template's output starting here goes inside the paragraph
        // (Parsoid: the `<p>` goes before the transclusion's start meta).
        if let Some(tpl) = out.get(..at).and_then(|head| {
            head.iter()
                .rposition(|t| transclusion_meta(t) == Some(true))
        }) {
            at = tpl;
        }
        out.insert(at, WikiToken::start(atom::P));
        self.has_open_p = true;
    }

    fn close_p(&mut self, out: &mut Vec<WikiToken>) {
        if !self.has_open_p {
            return;
        }
        let mut at = out
            .iter()
            .rposition(|t| !transparent(t))
            .map_or(0, |i| i + 1);
        // A template's output ending here stays inside the paragraph.
        if let Some(end) = out.get(at..).and_then(|tail| {
            tail.iter()
                .position(|t| transclusion_meta(t) == Some(false))
        }) {
            at += end + 1;
        }
        out.insert(at, WikiToken::end(atom::P));
        self.has_open_p = false;
    }

    /// Moves `nl_ws` tokens into `out` up to and including the next newline.
    fn one_newline(&mut self, out: &mut Vec<WikiToken>, offset: &mut usize) -> Option<WikiToken> {
        while let Some(t) = self.nl_ws.get(*offset) {
            *offset += 1;
            if t.is_newline() {
                return Some(t.clone());
            }
            out.push(t.clone());
        }
        None
    }

    fn pending_newlines(&mut self) -> Vec<WikiToken> {
        let mut res = std::mem::take(&mut self.token_buffer);
        let mut n = self.newlines;
        let mut offset = 0;
        if n >= 2 && !self.in_block_elem {
            self.close_p(&mut res);
            if let Some(nl) = self.one_newline(&mut res, &mut offset) {
                res.push(nl);
            }
            n -= 1;
            let remainder = n % 2;
            while n > 0 {
                let nl = self.one_newline(&mut res, &mut offset);
                if n % 2 == remainder {
                    if self.has_open_p {
                        res.push(WikiToken::end(atom::P));
                        self.has_open_p = false;
                    }
                    if n > 1 {
                        res.push(WikiToken::start(atom::P));
                        self.has_open_p = true;
                    }
                } else {
                    res.push(WikiToken::start(atom::BR));
                }
                res.extend(nl);
                n -= 1;
            }
        }
        if self.line_block_seen {
            self.close_p(&mut res);
            if n == 1
                && let Some(nl) = self.one_newline(&mut res, &mut offset)
            {
                res.push(nl);
            }
        }
        res.extend(self.nl_ws.drain(..).skip(offset));
        self.reset_buffers();
        res
    }

    /// Moves the pending newlines to `out`, keeping the buffers of both.
    fn emit_pending(&mut self, out: &mut Vec<WikiToken>) {
        let mut pending = self.pending_newlines();
        move_all(out, &mut pending);
        if self.token_buffer.capacity() == 0 {
            self.token_buffer = pending;
        }
    }

    /// Whether [`pending_newlines`](Self::pending_newlines) would give back
    /// nothing (the usual case within a line): no newline, no buffered token,
    /// no paragraph a block on this line must close.
    fn nothing_pending(&self) -> bool {
        self.newlines == 0
            && self.token_buffer.is_empty()
            && self.nl_ws.is_empty()
            && !(self.line_block_seen && self.has_open_p)
    }

    /// Inlined: the path of most tokens (no move of the token into a call).
    #[inline(always)]
    fn process(&mut self, token: WikiToken, flush_line: bool, out: &mut Vec<WikiToken>) {
        if !self.nothing_pending() {
            self.emit_pending(out);
        }
        self.line.push(token);
        if flush_line {
            move_all(out, &mut self.line);
            self.reset_line();
        }
    }

    fn flush(&mut self, token: WikiToken, out: &mut Vec<WikiToken>) {
        self.line.push(token);
        move_all(out, &mut self.token_buffer);
        out.append(&mut self.nl_ws);
        self.reset_buffers();
    }

    fn newline_or_end(&mut self, token: WikiToken, out: &mut Vec<WikiToken>) {
        if self.line_block_seen {
            let mut line = std::mem::take(&mut self.line);
            self.close_p(&mut line);
            self.line = line;
        } else if !self.in_block_elem && !self.has_open_p && self.line_wrappable {
            let mut line = std::mem::take(&mut self.line);
            self.open_p(&mut line);
            self.line = line;
        }
        move_all(&mut self.token_buffer, &mut self.line);
        if token.is_end() {
            self.nl_ws.push(token);
            let mut buffer = std::mem::take(&mut self.token_buffer);
            self.close_p(&mut buffer);
            self.token_buffer = buffer;
            move_all(out, &mut self.pending_newlines());
            *self = ParagraphWrapper::default();
        } else {
            self.reset_line();
            self.newlines += 1;
            self.nl_ws.push(token);
        }
    }
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

    fn push(&mut self, token: WikiToken, out: &mut Vec<WikiToken>) {
        if token.is_newline() || token.is_end() {
            return self.newline_or_end(token, out);
        }
        // Text that is not only blanks (most tokens): inline content, none of
        // the tag checks below apply.
        if token
            .as_text()
            .is_some_and(|t| t.bytes().any(|b| b != b' ' && b != b'\t'))
        {
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
                    move_all(&mut self.token_buffer, &mut self.nl_ws);
                    move_all(&mut self.token_buffer, &mut self.line);
                    self.newlines = 0;
                    self.reset_line();
                    self.line.push(token);
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
