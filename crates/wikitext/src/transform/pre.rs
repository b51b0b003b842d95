//! Indent-pre (Parsoid's PreHandler state machine): a line whose first
//! character is a space, with content and no block tag, goes into a `<pre>`
//! (the space removed); following such lines join it. Lines of only spaces,
//! comments and metas are start-of-line transparent.

use tagloom_html::atom;

use super::{Transform, is_wikitext_block};
use crate::token::{Tok, WikiToken};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    Sol,
    Pre,
    PreCollect,
    SolAfterPre,
    MultilinePre,
    Ignore,
}

/// A token, or the marker where a line's leading space was.
enum Item {
    Token(WikiToken),
    Space,
}

pub(crate) struct PreHandler {
    state: State,
    tokens: Vec<Item>,
    line: Vec<Item>,
}

impl Default for PreHandler {
    fn default() -> Self {
        PreHandler {
            state: State::Sol,
            tokens: Vec::new(),
            line: Vec::new(),
        }
    }
}

fn is_category_link(token: &WikiToken) -> bool {
    token.start_name() == Some("link")
        && matches!(&token.tok, Tok::Html(t) if t.as_tag().and_then(|t| t.attr("rel")) == Some("mw:PageProp/Category"))
}

fn space() -> WikiToken {
    WikiToken::text(" ")
}

/// `items` as tokens into `out`; `items` is left empty, its room kept.
fn unmark(items: &mut Vec<Item>, out: &mut Vec<WikiToken>) {
    out.extend(items.drain(..).map(|i| match i {
        Item::Token(t) => t,
        Item::Space => space(),
    }));
}

fn transparent(item: &Item) -> bool {
    match item {
        Item::Token(t) => t.is_newline() || t.is_sol_transparent(),
        Item::Space => true,
    }
}

impl PreHandler {
    fn process_line(&mut self, token: Option<WikiToken>) {
        self.tokens.append(&mut self.line);
        if let Some(t) = token {
            self.tokens.push(Item::Token(t));
        }
    }

    fn purge(&mut self, token: Option<WikiToken>, out: &mut Vec<WikiToken>) {
        // Nothing held (a line's first token, most newlines): `token` straight
        // on, not through the held list.
        if self.tokens.is_empty() && self.line.is_empty() {
            out.extend(token);
            return;
        }
        self.process_line(token);
        unmark(&mut self.tokens, out);
    }

    fn gen_pre(&mut self, out: &mut Vec<WikiToken>) {
        if self.tokens.is_empty() {
            return;
        }
        let mut tokens = std::mem::take(&mut self.tokens);
        let mut last = tokens.len() - 1;
        while last > 0 && tokens.get(last).is_some_and(transparent) {
            last -= 1;
        }
        let mut after = tokens.split_off(last + 1);
        let mut inner = vec![WikiToken::start(atom::PRE)];
        inner.extend(tokens.into_iter().map(|i| match i {
            Item::Token(t) => t,
            Item::Space => WikiToken::made(Tok::IndentPreWs),
        }));
        inner.push(WikiToken::end(atom::PRE));
        out.push(WikiToken::made(Tok::IndentPre(inner)));
        unmark(&mut after, out);
    }

    fn discard_line_pre(&mut self, token: Option<WikiToken>, out: &mut Vec<WikiToken>) {
        self.gen_pre(out);
        self.purge(token, out);
    }

    /// [`Transform::pass`] at a line's start with nothing held: what `push`
    /// would do when it only lets `token` on (`purge` of nothing).
    #[inline(never)]
    fn pass_sol(&mut self, token: &WikiToken) -> bool {
        if token.is_newline() || token.is_end() {
            return true;
        }
        if token.as_text().is_some_and(|t| t.starts_with(' '))
            || (token.is_sol_transparent() && !is_category_link(token))
        {
            // A pre may start, or the token is held.
            return false;
        }
        self.state = State::Ignore;
        true
    }

    /// A text token starting with a space at the start of a line.
    fn start_pre(&mut self, token: WikiToken) -> State {
        self.line.push(Item::Space);
        let rest = token.as_text().and_then(|t| t.get(1..)).unwrap_or("");
        if rest.is_empty() {
            return State::Pre;
        }
        let rest = WikiToken {
            tok: WikiToken::text(rest).tok,
            span: token.span,
        };
        let collect = !rest.is_sol_transparent();
        self.line.push(Item::Token(rest));
        if collect {
            State::PreCollect
        } else {
            State::Pre
        }
    }
}

impl Transform for PreHandler {
    fn reset(&mut self) {
        *self = Self::default();
    }

    /// Within a line that cannot be an indent-pre, every token but a newline
    /// and end of input passes.
    /// At a line's start with nothing held, a newline, the end of input
    /// and a first token that cannot start a pre or be held go on too.
    fn pass(&mut self, token: &WikiToken) -> bool {
        match self.state {
            // What `push` does: the token on, and a newline or the end back
            // to a line's start.
            State::Ignore => {
                if token.is_newline() || token.is_end() {
                    self.state = State::Sol;
                }
                true
            }
            State::Sol if self.tokens.is_empty() && self.line.is_empty() => self.pass_sol(token),
            _ => false,
        }
    }

    fn push(&mut self, token: WikiToken, out: &mut Vec<WikiToken>) {
        if token.is_end() {
            match self.state {
                State::Sol | State::Pre => self.purge(Some(token), out),
                State::SolAfterPre | State::MultilinePre => self.discard_line_pre(Some(token), out),
                State::PreCollect => {
                    self.process_line(None);
                    self.gen_pre(out);
                    out.push(token);
                }
                State::Ignore => out.push(token),
            }
            self.state = State::Sol;
            return;
        }
        if token.is_newline() {
            self.state = match self.state {
                State::Sol | State::Pre => {
                    self.purge(Some(token), out);
                    State::Sol
                }
                State::MultilinePre | State::PreCollect => {
                    self.process_line(Some(token));
                    State::SolAfterPre
                }
                State::SolAfterPre => {
                    self.discard_line_pre(Some(token), out);
                    State::Sol
                }
                State::Ignore => {
                    out.push(token);
                    State::Sol
                }
            };
            return;
        }
        let leading_space = token.as_text().is_some_and(|t| t.starts_with(' '));
        // Asked only inside a would-be pre (not of a line's first token, most
        // of what comes here).
        let block = |token: &WikiToken| token.tag_atom().is_some_and(is_wikitext_block);
        self.state = match self.state {
            State::Ignore => {
                out.push(token);
                State::Ignore
            }
            State::Sol if leading_space => {
                unmark(&mut self.tokens, out);
                self.start_pre(token)
            }
            // A category link first on the line ends the chance of an
            // indent-pre (Parsoid's pre handler still sees it as a link).
            State::Sol if token.is_sol_transparent() && !is_category_link(&token) => {
                self.tokens.push(Item::Token(token));
                State::Sol
            }
            State::Sol => {
                self.purge(Some(token), out);
                State::Ignore
            }
            State::Pre if block(&token) => {
                self.purge(Some(token), out);
                State::Ignore
            }
            State::PreCollect | State::MultilinePre if block(&token) => {
                self.discard_line_pre(Some(token), out);
                State::Ignore
            }
            State::Pre | State::PreCollect | State::MultilinePre => {
                let transparent = token.is_sol_transparent();
                self.line.push(Item::Token(token));
                match (self.state, transparent) {
                    (State::Pre, true) => State::Pre,
                    (State::MultilinePre, true) => State::MultilinePre,
                    _ => State::PreCollect,
                }
            }
            State::SolAfterPre if leading_space => match self.start_pre(token) {
                State::Pre => State::MultilinePre,
                s => s,
            },
            State::SolAfterPre if token.is_sol_transparent() => {
                self.line.push(Item::Token(token));
                State::SolAfterPre
            }
            State::SolAfterPre => {
                self.discard_line_pre(Some(token), out);
                State::Ignore
            }
        };
    }
}
