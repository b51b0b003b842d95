//! `''italic''` and `'''bold'''`, resolved one line at a time as MediaWiki's
//! `doQuotes` does: runs of 4 give an apostrophe and bold, runs over 5 give
//! apostrophes and bold italic; an odd number of both bold and italic runs
//! turns one bold run into an apostrophe and italic (preferring one after a
//! single-letter word, then after a longer word, then after a space); tags left
//! open close at the end of the line.

use tagloom_html::atom::{self, Atom};
use tagloom_html::token::OwnedToken;

use super::Transform;
use crate::token::{Tok, WikiToken};

/// Resolves quotes per line; the text of a link (between `<a>` and `</a>`) is
/// resolved on its own, as Parsoid does.
///
/// Until a quote run comes, nothing a line holds can change, so tokens go
/// straight on (each level keeps only the class of its last token, which the
/// resolution reads before a bold run). From a quote run on, its line (or
/// link text) is held and resolved whole.
#[derive(Default)]
pub(crate) struct QuoteTransformer {
    /// The current line, then the text of each open link: the first
    /// `depth` levels. Those past them are closed ones kept for their
    /// (emptied) buffers, so opening a link's text allocates nothing and
    /// closing one frees nothing.
    stack: Vec<Level>,
    /// How many levels of `stack` are open (0: no line yet).
    depth: usize,
    /// The outermost level of `stack` that holds a quote run (`None`: none
    /// does; every level's `held` is empty and tokens stream).
    quoted: Option<usize>,
}

/// A line, or the text of a link.
struct Level {
    /// The tokens from the level's first quote run on (while some level
    /// holds one).
    held: Vec<WikiToken>,
    /// [`before`] of the last token that went on before `held`.
    lead: u8,
}

impl QuoteTransformer {
    /// A new level (a closed one's emptied buffer reused when there is one).
    fn open(&mut self) {
        match self.stack.get_mut(self.depth) {
            Some(level) => level.lead = NO_TEXT,
            None => self.stack.push(Level {
                held: Vec::new(),
                lead: NO_TEXT,
            }),
        }
        self.depth += 1;
    }

    /// The innermost open level.
    fn top(&mut self) -> Option<&mut Level> {
        let at = self.depth.checked_sub(1)?;
        self.stack.get_mut(at)
    }

    /// A link's start (`start`) or end tag going on while no level holds a
    /// quote run (every level's `held` is empty): as `push` would, the link
    /// text's level closed (nothing to resolve) or opened, the tag noted as
    /// the last token of its level (a tag's class is that of no text).
    #[inline]
    fn stream_link_tag(&mut self, start: bool) {
        if start {
            if self.depth == 0 {
                self.open();
            } else if let Some(level) = self.top() {
                level.lead = NO_TEXT;
            }
            self.open();
        } else {
            if self.depth >= 2 {
                self.depth -= 1;
            }
            if self.depth == 0 {
                self.open();
            } else if let Some(level) = self.top() {
                level.lead = NO_TEXT;
            }
        }
    }

    /// Closes the innermost open link's text: resolved into its parent when the
    /// parent is held, else into `out`.
    fn close_link(&mut self, out: &mut Vec<WikiToken>) {
        if self.depth < 2 {
            return;
        }
        self.depth -= 1;
        let index = self.depth;
        let parent_held = self.quoted.is_some_and(|q| q < index);
        if self.quoted == Some(index) {
            // The link text held the only quote runs.
            self.quoted = None;
        }
        let (outer, inner) = self.stack.split_at_mut(index);
        let Some(inner) = inner.first_mut() else {
            return;
        };
        let target = match outer.last_mut() {
            Some(parent) if parent_held => &mut parent.held,
            _ => out,
        };
        let held = std::mem::take(&mut inner.held);
        inner.held = resolve(held, inner.lead, target);
    }

    /// [`Transform::push`] but for a held line's text and quote runs.
    #[inline(never)]
    fn push_other(&mut self, mut token: WikiToken, out: &mut Vec<WikiToken>) {
        // In place: no move of every token to rebuild it.
        if let Tok::IndentPre(inner) = &mut token.tok {
            *inner = resolve_nested(std::mem::take(inner));
        }
        // A `||`/`!!` table cell starts a new quote context, as a line does
        // (Parsoid).
        if token.is_newline() || token.is_end() || crate::tokenize::is_inline_cell(&token) {
            if self.quoted.is_some() {
                while self.depth > 1 {
                    self.close_link(out);
                }
                if let Some(line) = self.top() {
                    let held = std::mem::take(&mut line.held);
                    let lead = line.lead;
                    let back = resolve(held, lead, out);
                    if let Some(line) = self.top() {
                        line.held = back;
                    }
                }
                self.quoted = None;
            }
            // Nothing held (most lines): the levels close, nothing to resolve.
            self.depth = 0;
            out.push(token);
            return;
        }
        let opens = token.start_atom() == Some(atom::A);
        if token.end_atom() == Some(atom::A) {
            self.close_link(out);
        }
        if self.depth == 0 {
            self.open();
        }
        if self.quoted.is_none() && matches!(token.tok, Tok::Quote(_)) {
            self.quoted = Some(self.depth - 1);
        }
        let quoted = self.quoted.is_some();
        if let Some(level) = self.top() {
            if quoted {
                level.held.push(token);
            } else {
                level.lead = before(Some(&token));
                out.push(token);
            }
        }
        if opens {
            self.open();
        }
    }
}

impl Transform for QuoteTransformer {
    fn reset(&mut self) {
        self.depth = 0;
        self.quoted = None;
        for level in &mut self.stack {
            level.held.clear();
        }
    }

    /// While no quote run is held, every token passes (noting the class of
    /// its end, opening the line's level or a link text's, closing a link
    /// text's, closing the levels at what ends a line or starts a cell) but
    /// a quote run or an indent-pre.
    fn pass(&mut self, token: &WikiToken) -> bool {
        if self.quoted.is_some() {
            return false;
        }
        // Text in an open level, the most common token: its class noted, in
        // a path that calls nothing (no registers saved per token).
        if let Tok::Html(OwnedToken::Characters(t)) = &token.tok
            && let Some(level) = self
                .depth
                .checked_sub(1)
                .and_then(|at| self.stack.get_mut(at))
        {
            level.lead = class_of(t.text());
            return true;
        }
        self.pass_other(token)
    }

    /// A held line's tokens but those [`held_as_is`] leaves to
    /// [`push_other`](Self::push_other) are held here.
    fn push(&mut self, token: WikiToken, out: &mut Vec<WikiToken>) {
        if self.quoted.is_some()
            && held_as_is(&token)
            && let Some(level) = self.top()
        {
            level.held.push(token);
            return;
        }
        self.push_other(token, out);
    }
}

impl QuoteTransformer {
    /// [`Transform::pass`] but for text in an open level, with no quote run
    /// held.
    #[inline(never)]
    fn pass_other(&mut self, token: &WikiToken) -> bool {
        // What ends a line or starts a `||` cell: with nothing held, its
        // levels close (nothing to resolve), as `push` would.
        if token.is_newline() || token.is_end() || crate::tokenize::is_inline_cell(token) {
            self.depth = 0;
            return true;
        }
        // A line's first token opens its level here, as `push` would (a
        // token that goes on to `push` finds it open).
        if self.depth == 0 {
            self.open();
        }
        let streams = match &token.tok {
            // Text, the most common token: its class noted.
            Tok::Html(OwnedToken::Characters(t)) => {
                if let Some(level) = self.top() {
                    level.lead = class_of(t.text());
                }
                return true;
            }
            // A link's text starts or ends with nothing held: what `push`
            // does, without the resolution of an empty level.
            // (An inline cell is a `td`/`th`, returned above.)
            Tok::Html(OwnedToken::StartTag(t)) if t.name().is(atom::A) => {
                self.stream_link_tag(true);
                return true;
            }
            Tok::Html(OwnedToken::EndTag(t)) if t.name().is(atom::A) => {
                self.stream_link_tag(false);
                return true;
            }
            // Line ends and cells returned above.
            Tok::Quote(_) | Tok::IndentPre(_) => false,
            Tok::Html(OwnedToken::StartTag(t)) => !t.name().is(atom::A),
            Tok::Html(OwnedToken::EndTag(t)) => !t.name().is(atom::A),
            _ => true,
        };
        match self.top() {
            // Text returned above: this token's class is that of no text.
            Some(level) if streams => {
                level.lead = NO_TEXT;
                true
            }
            _ => false,
        }
    }
}

/// Whether a held level takes `token` as it is: anything but what ends a
/// line or cell, a link's start or end tag, or an indent-pre (text and quote
/// runs first, the most common).
fn held_as_is(token: &WikiToken) -> bool {
    match &token.tok {
        Tok::Html(OwnedToken::Characters(_)) | Tok::Quote(_) => true,
        Tok::Newline | Tok::Eof | Tok::Html(OwnedToken::Eof) | Tok::IndentPre(_) => false,
        Tok::Html(OwnedToken::StartTag(t)) => {
            !t.name().is(atom::A) && !crate::tokenize::is_inline_cell(token)
        }
        Tok::Html(OwnedToken::EndTag(t)) => !t.name().is(atom::A),
        _ => true,
    }
}

/// Quotes inside an indent-pre, line by line.
fn resolve_nested(tokens: Vec<WikiToken>) -> Vec<WikiToken> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut line = Vec::new();
    for t in tokens {
        if t.is_newline() {
            line = resolve(line, before(None), &mut out);
            out.push(t);
        } else {
            line.push(t);
        }
    }
    resolve(line, before(None), &mut out);
    out
}

fn apostrophes(n: u32) -> WikiToken {
    WikiToken::text("'".repeat(n as usize))
}

/// [`before`] a token that is no text (or none): as after a longer word.
const NO_TEXT: u8 = 2;

/// The character class before a bold run: 0 after a space, 1 after a
/// single-letter word, 2 otherwise.
fn before(prev: Option<&WikiToken>) -> u8 {
    class_of(prev.and_then(WikiToken::as_text).unwrap_or(""))
}

/// [`before`] for a token that is `text` (a tag: empty text).
#[inline]
fn class_of(text: &str) -> u8 {
    let bytes = text.as_bytes();
    // Where the last character starts: its last byte that is not a UTF-8
    // continuation byte (no decoding); then that character and the byte
    // before it (a space is one byte, never part of another character).
    let Some(at) = bytes.iter().rposition(|&b| b & 0xC0 != 0x80) else {
        return 2;
    };
    if bytes.get(at) == Some(&b' ') {
        0
    } else if at > 0 && bytes.get(at - 1) == Some(&b' ') {
        1
    } else {
        2
    }
}

/// Resolves one line's quotes into `<i>`/`<b>` tags; `lead` is [`before`] of
/// the token before the line's first. Gives back the line's buffer, emptied.
fn resolve(mut line: Vec<WikiToken>, lead: u8, out: &mut Vec<WikiToken>) -> Vec<WikiToken> {
    // What the runs ask for: whether any is a 4 or over 5 (normalized
    // below), and the parity of the italic and bold runs.
    let (mut quotes, mut odd_runs, mut italics, mut bolds) = (false, false, false, false);
    for t in &line {
        if let Tok::Quote(n) = t.tok {
            quotes = true;
            odd_runs |= n == 4 || n > 5;
            italics ^= n != 3;
            bolds ^= n != 2;
        }
    }
    if !quotes {
        // No quotes: the line as it is (most lines).
        out.append(&mut line);
        return line;
    }
    if !(odd_runs || italics && bolds) {
        // Nothing to normalize or turn: the runs as they are, straight from
        // the line (no second list).
        emit(line.drain(..), out);
        return line;
    }
    // Normalize run lengths (4 → ' + 3, >5 → ' * (n-5) + 5), count.
    let mut toks: Vec<WikiToken> = Vec::with_capacity(line.len() + 4);
    let (mut italics, mut bolds) = (0usize, 0usize);
    for t in line.drain(..) {
        if let Tok::Quote(n) = t.tok {
            let (extra, n) = match n {
                4 => (1, 3),
                n if n > 5 => (n - 5, 5),
                n => (0, n),
            };
            if extra > 0 {
                toks.push(apostrophes(extra));
            }
            match n {
                2 => italics += 1,
                3 => bolds += 1,
                _ => {
                    italics += 1;
                    bolds += 1;
                }
            }
            toks.push(WikiToken {
                tok: Tok::Quote(n),
                span: t.span,
            });
        } else {
            toks.push(t);
        }
    }
    if italics % 2 == 1 && bolds % 2 == 1 {
        let (mut single, mut multi, mut space) = (None, None, None);
        for (i, t) in toks.iter().enumerate() {
            if t.tok != Tok::Quote(3) {
                continue;
            }
            let class = match i.checked_sub(1).and_then(|p| toks.get(p)) {
                Some(prev) => before(Some(prev)),
                None => lead,
            };
            match class {
                0 => {
                    space.get_or_insert(i);
                }
                1 => {
                    single = Some(i);
                    break;
                }
                _ => {
                    multi.get_or_insert(i);
                }
            }
        }
        if let Some(i) = single.or(multi).or(space)
            && let Some(t) = toks.get_mut(i)
        {
            t.tok = Tok::Quote(2);
            toks.insert(i, apostrophes(1));
        }
    }
    emit(toks, out);
    line
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum State {
    None,
    B,
    I,
    Bi,
    Ib,
    Both,
}

fn emit(toks: impl IntoIterator<Item = WikiToken>, out: &mut Vec<WikiToken>) {
    let start_len = out.len();
    // Where a tag was reopened by a transition (`</b></i><b>`); if the line ends
    // right after it, the reopened pair is empty and dropped (as Parsoid does).
    let mut reopened: Option<usize> = None;
    let mut state = State::None;
    let mut both: Vec<WikiToken> = Vec::new();
    let s = |name: Atom| WikiToken::start(name);
    let e = |name: Atom| WikiToken::end(name);
    for t in toks {
        let Tok::Quote(n) = t.tok else {
            if state == State::Both {
                both.push(t);
            } else {
                out.push(t);
            }
            continue;
        };
        let flush_both =
            |out: &mut Vec<WikiToken>, both: &mut Vec<WikiToken>, outer: Atom, inner: Atom| {
                out.push(s(outer));
                out.push(s(inner));
                out.append(both);
                out.push(e(inner));
            };
        state = match (n, state) {
            (2, State::I) => {
                out.push(e(atom::I));
                State::None
            }
            (2, State::Bi) => {
                out.push(e(atom::I));
                State::B
            }
            (2, State::Ib) => {
                out.extend([e(atom::B), e(atom::I), s(atom::B)]);
                reopened = Some(out.len() - 1);
                State::B
            }
            (2, State::Both) => {
                flush_both(out, &mut both, atom::B, atom::I);
                State::B
            }
            (2, State::B) => {
                out.push(s(atom::I));
                State::Bi
            }
            (2, _) => {
                out.push(s(atom::I));
                State::I
            }
            (3, State::B) => {
                out.push(e(atom::B));
                State::None
            }
            (3, State::Bi) => {
                out.extend([e(atom::I), e(atom::B), s(atom::I)]);
                reopened = Some(out.len() - 1);
                State::I
            }
            (3, State::Ib) => {
                out.push(e(atom::B));
                State::I
            }
            (3, State::Both) => {
                flush_both(out, &mut both, atom::I, atom::B);
                State::I
            }
            (3, State::I) => {
                out.push(s(atom::B));
                State::Ib
            }
            (3, _) => {
                out.push(s(atom::B));
                State::B
            }
            (_, State::B) => {
                out.extend([e(atom::B), s(atom::I)]);
                State::I
            }
            (_, State::I) => {
                out.extend([e(atom::I), s(atom::B)]);
                State::B
            }
            (_, State::Bi) => {
                out.extend([e(atom::I), e(atom::B)]);
                State::None
            }
            (_, State::Ib) => {
                out.extend([e(atom::B), e(atom::I)]);
                State::None
            }
            (_, State::Both) => {
                out.push(s(atom::I));
                out.push(s(atom::B));
                out.append(&mut both);
                out.extend([e(atom::B), e(atom::I)]);
                State::None
            }
            (_, State::None) => State::Both,
        };
    }
    if let Some(at) = reopened
        && at + 1 == out.len()
        && at >= start_len
        && matches!(state, State::B | State::I)
    {
        out.pop();
        return;
    }
    match state {
        State::B | State::Ib => out.push(e(atom::B)),
        _ => {}
    }
    match state {
        State::I | State::Bi | State::Ib => out.push(e(atom::I)),
        _ => {}
    }
    if state == State::Bi {
        out.push(e(atom::B));
    }
    if state == State::Both {
        out.extend([s(atom::B), s(atom::I)]);
        out.append(&mut both);
        out.extend([e(atom::I), e(atom::B)]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn show(tokens: &[WikiToken]) -> String {
        tokens
            .iter()
            .map(|t| match (t.as_text(), t.start_name(), t.end_name()) {
                (Some(text), _, _) => text.to_owned(),
                (_, Some(name), _) => format!("<{name}>"),
                (_, _, Some(name)) => format!("</{name}>"),
                _ if t.is_newline() => "\n".to_owned(),
                _ => "?".to_owned(),
            })
            .collect()
    }

    /// Tokens one at a time: what each push released, in order.
    fn run(tokens: Vec<WikiToken>) -> Vec<String> {
        let mut q = QuoteTransformer::default();
        tokens
            .into_iter()
            .map(|t| {
                let mut out = Vec::new();
                q.push(t, &mut out);
                show(&out)
            })
            .collect()
    }

    #[test]
    fn the_class_of_a_text_end() {
        for (text, class) in [
            ("", 2),
            ("a ", 0),
            (" a", 1),
            ("x a", 1),
            ("ab", 2),
            (" é", 1),
            ("aé", 2),
            ("é ", 0),
            (" 日本", 2),
            (" 日", 1),
        ] {
            assert_eq!(class_of(text), class, "{text:?}");
            let old = match text.char_indices().next_back() {
                Some((_, ' ')) => 0,
                Some((at, _)) if at > 0 && text.as_bytes().get(at - 1) == Some(&b' ') => 1,
                _ => 2,
            };
            assert_eq!(class_of(text), old, "{text:?}");
        }
        assert_eq!(before(None), NO_TEXT);
        assert_eq!(before(Some(&WikiToken::start(atom::A))), NO_TEXT);
    }

    #[test]
    fn a_line_streams_until_its_first_quote_run() {
        let got = run(vec![
            WikiToken::text("x"),
            WikiToken::text(" a"),
            WikiToken::made(Tok::Quote(3)),
            WikiToken::text("b"),
            WikiToken::made(Tok::Quote(2)),
            WikiToken::text("c"),
            WikiToken::made(Tok::Newline),
        ]);
        // " a" went on, its class kept: an odd bold after the single-letter
        // word "a" becomes an apostrophe and italic.
        assert_eq!(got, ["x", " a", "", "", "", "", "'<i>b</i>c\n"]);
    }

    #[test]
    fn a_line_without_quotes_goes_straight_on_links_too() {
        let got = run(vec![
            WikiToken::text("a"),
            WikiToken::text("b"),
            WikiToken::start(atom::A),
            WikiToken::text("c"),
            WikiToken::end(atom::A),
            WikiToken::text("d"),
            WikiToken::made(Tok::Newline),
        ]);
        assert_eq!(got, ["a", "b", "<a>", "c", "</a>", "d", "\n"]);
    }

    #[test]
    fn link_text_with_quotes_is_held_and_resolved_on_its_own() {
        let got = run(vec![
            WikiToken::text("x"),
            WikiToken::start(atom::A),
            WikiToken::text("a"),
            WikiToken::made(Tok::Quote(3)),
            WikiToken::text("b"),
            WikiToken::made(Tok::Quote(2)),
            WikiToken::end(atom::A),
            WikiToken::text("y"),
            WikiToken::made(Tok::Newline),
        ]);
        // The odd bold after "a" (a word, not a single letter: the token before
        // the run went on) still becomes an apostrophe and italic.
        assert_eq!(
            got,
            ["x", "<a>", "a", "", "", "", "'<i>b</i></a>", "y", "\n"]
        );
    }
}
