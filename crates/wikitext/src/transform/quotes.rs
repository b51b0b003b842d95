//! `''italic''` and `'''bold'''`, resolved one line at a time as MediaWiki's
//! `doQuotes` does: runs of 4 give an apostrophe and bold, runs over 5 give
//! apostrophes and bold italic; an odd number of both bold and italic runs
//! turns one bold run into an apostrophe and italic (preferring one after a
//! single-letter word, then after a longer word, then after a space); tags left
//! open close at the end of the line.

use super::Transform;
use crate::token::{Tok, WikiToken};

/// Resolves quotes per line; the text of a link (between `<a>` and `</a>`) is
/// resolved on its own, as Parsoid does.
#[derive(Default)]
pub(crate) struct QuoteTransformer {
    /// The current line, then the text of each open link.
    stack: Vec<Vec<WikiToken>>,
    /// The last line's buffer, emptied, for the next line.
    spare: Vec<WikiToken>,
}

impl QuoteTransformer {
    fn append(&mut self, mut tokens: Vec<WikiToken>) {
        match self.stack.last_mut() {
            Some(line) => line.append(&mut tokens),
            None => self.stack.push(tokens),
        }
    }

    /// Closes the innermost open link's text into its parent.
    fn close_link(&mut self) {
        if self.stack.len() > 1
            && let Some(inner) = self.stack.pop()
        {
            let mut resolved = Vec::with_capacity(inner.len());
            resolve(inner, &mut resolved);
            self.append(resolved);
        }
    }
}

impl Transform for QuoteTransformer {
    fn push(&mut self, token: WikiToken, out: &mut Vec<WikiToken>) {
        let token = match token.tok {
            Tok::IndentPre(inner) => WikiToken {
                tok: Tok::IndentPre(resolve_nested(inner)),
                span: token.span,
            },
            _ => token,
        };
        // A `||`/`!!` table cell starts a new quote context, as a line does
        // (Parsoid).
        if token.is_newline() || token.is_end() || crate::tokenize::is_inline_cell(&token) {
            while self.stack.len() > 1 {
                self.close_link();
            }
            if let Some(mut line) = self.stack.pop() {
                if line.iter().any(|t| matches!(t.tok, Tok::Quote(_))) {
                    resolve(line, out);
                } else {
                    // No quotes (most lines): the line as it is, its buffer kept.
                    out.append(&mut line);
                    self.spare = line;
                }
            }
            out.push(token);
            return;
        }
        let opens = token.start_name() == Some("a");
        let closes = token.end_name() == Some("a");
        if closes {
            self.close_link();
        }
        match self.stack.last_mut() {
            Some(line) => line.push(token),
            None => {
                let mut line = std::mem::take(&mut self.spare);
                line.push(token);
                self.stack.push(line);
            }
        }
        if opens {
            self.stack.push(Vec::new());
        }
    }
}

/// Quotes inside an indent-pre, line by line.
fn resolve_nested(tokens: Vec<WikiToken>) -> Vec<WikiToken> {
    let mut out = Vec::with_capacity(tokens.len());
    let mut line = Vec::new();
    for t in tokens {
        if t.is_newline() {
            resolve(std::mem::take(&mut line), &mut out);
            out.push(t);
        } else {
            line.push(t);
        }
    }
    resolve(line, &mut out);
    out
}

fn apostrophes(n: u32) -> WikiToken {
    WikiToken::text("'".repeat(n as usize))
}

/// The character class before a bold run: 0 after a space, 1 after a
/// single-letter word, 2 otherwise.
fn before(prev: Option<&WikiToken>) -> u8 {
    let text = prev.and_then(WikiToken::as_text).unwrap_or("");
    let mut chars = text.chars().rev();
    let x1 = chars.next();
    let x2 = chars.next().or(x1);
    if x1 == Some(' ') {
        0
    } else if x2 == Some(' ') {
        1
    } else {
        2
    }
}

/// Resolves one line's quotes into `<i>`/`<b>` tags.
fn resolve(line: Vec<WikiToken>, out: &mut Vec<WikiToken>) {
    if !line.iter().any(|t| matches!(t.tok, Tok::Quote(_))) {
        // No quotes: the line as it is (most lines).
        out.extend(line);
        return;
    }
    // Normalize run lengths (4 → ' + 3, >5 → ' * (n-5) + 5), count.
    let mut toks: Vec<WikiToken> = Vec::with_capacity(line.len() + 4);
    let (mut italics, mut bolds) = (0usize, 0usize);
    for t in line {
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
            match before(i.checked_sub(1).and_then(|p| toks.get(p))) {
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

fn emit(toks: Vec<WikiToken>, out: &mut Vec<WikiToken>) {
    let start_len = out.len();
    // Where a tag was reopened by a transition (`</b></i><b>`); if the line ends
    // right after it, the reopened pair is empty and dropped (as Parsoid does).
    let mut reopened: Option<usize> = None;
    let mut state = State::None;
    let mut both: Vec<WikiToken> = Vec::new();
    let s = WikiToken::start;
    let e = WikiToken::end;
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
            |out: &mut Vec<WikiToken>, both: &mut Vec<WikiToken>, outer: &str, inner: &str| {
                out.push(s(outer));
                out.push(s(inner));
                out.append(both);
                out.push(e(inner));
            };
        state = match (n, state) {
            (2, State::I) => {
                out.push(e("i"));
                State::None
            }
            (2, State::Bi) => {
                out.push(e("i"));
                State::B
            }
            (2, State::Ib) => {
                out.extend([e("b"), e("i"), s("b")]);
                reopened = Some(out.len() - 1);
                State::B
            }
            (2, State::Both) => {
                flush_both(out, &mut both, "b", "i");
                State::B
            }
            (2, State::B) => {
                out.push(s("i"));
                State::Bi
            }
            (2, _) => {
                out.push(s("i"));
                State::I
            }
            (3, State::B) => {
                out.push(e("b"));
                State::None
            }
            (3, State::Bi) => {
                out.extend([e("i"), e("b"), s("i")]);
                reopened = Some(out.len() - 1);
                State::I
            }
            (3, State::Ib) => {
                out.push(e("b"));
                State::I
            }
            (3, State::Both) => {
                flush_both(out, &mut both, "i", "b");
                State::I
            }
            (3, State::I) => {
                out.push(s("b"));
                State::Ib
            }
            (3, _) => {
                out.push(s("b"));
                State::B
            }
            (_, State::B) => {
                out.extend([e("b"), s("i")]);
                State::I
            }
            (_, State::I) => {
                out.extend([e("i"), s("b")]);
                State::B
            }
            (_, State::Bi) => {
                out.extend([e("i"), e("b")]);
                State::None
            }
            (_, State::Ib) => {
                out.extend([e("b"), e("i")]);
                State::None
            }
            (_, State::Both) => {
                out.push(s("i"));
                out.push(s("b"));
                out.append(&mut both);
                out.extend([e("b"), e("i")]);
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
        State::B | State::Ib => out.push(e("b")),
        _ => {}
    }
    match state {
        State::I | State::Bi | State::Ib => out.push(e("i")),
        _ => {}
    }
    if state == State::Bi {
        out.push(e("b"));
    }
    if state == State::Both {
        out.extend([s("b"), s("i")]);
        out.append(&mut both);
        out.extend([e("i"), e("b")]);
    }
}
