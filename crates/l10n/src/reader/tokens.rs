//! Owned tokens with lookahead over the tagloom tokenizer. No tree builder runs
//! here: the shared [`TextTypeSimulator`] of tagloom-html answers what one would do —
//! the tokenizer state after a start tag (RCDATA, RAWTEXT, script data, PLAINTEXT;
//! none in foreign content), whether CDATA sections are allowed, and which open
//! elements each tag closes. Each token records the latter ([`Tok::kept`],
//! [`Tok::opened_at`]) so the reader can follow the tree builder's nesting when it
//! gets to the token.
//!
//! The switch must happen right after the start tag is tokenized, before the next
//! token, so it is made here when the token is fetched — not when the reader gets
//! to it, which may be later because of the forward scan.

use std::collections::VecDeque;
use std::io::Read;

use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
use tagloom_html::token::Token;
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};

use super::input::SourceWindow;
use crate::error::{IoContext, L10nError, Result};
use crate::rules::Rules;

/// What a token is.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Kind {
    Start,
    End,
    Text,
    Comment,
    Doctype,
    Eof,
}

/// One attribute, with absolute decoded offsets.
#[derive(Clone, Debug)]
pub(crate) struct Attr {
    pub(crate) name: String,
    pub(crate) value: String,
    pub(crate) value_start: u64,
    pub(crate) value_end: u64,
    pub(crate) has_value: bool,
}

/// An owned token: absolute decoded span, name, attributes, decoded text.
#[derive(Clone, Debug)]
pub(crate) struct Tok {
    pub(crate) kind: Kind,
    pub(crate) name: String,
    pub(crate) self_closing: bool,
    pub(crate) attrs: Vec<Attr>,
    pub(crate) text: String,
    pub(crate) start: u64,
    pub(crate) end: u64,
    /// The open elements below this simulated stack index survived the token; the
    /// ones at or above it were closed by it (see [`TextTypeSimulator`]).
    pub(crate) kept: usize,
    /// The simulated stack index of the element this start tag opened (`None`:
    /// not a start tag, void, ignored, or past the depth limit).
    pub(crate) opened_at: Option<usize>,
}

impl Tok {
    pub(crate) fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|a| a.name == name)
            .map(|a| a.value.as_str())
    }
}

/// The token source of the reader.
pub(crate) struct TokenStream<R: Read> {
    tokenizer: Tokenizer,
    pub(crate) window: SourceWindow<R>,
    queue: VecDeque<Tok>,
    eof_queued: bool,
    sim: TextTypeSimulator,
    path: std::path::PathBuf,
}

impl<R: Read> TokenStream<R> {
    pub(crate) fn new(window: SourceWindow<R>, rules: &Rules, path: &std::path::Path) -> Self {
        let config = TokenizerConfig {
            report_errors: false,
            max_token_bytes: rules.max_token_bytes,
            ..TokenizerConfig::default()
        };
        let mut tokenizer = Tokenizer::new(config);
        tokenizer.push_str(window.text_from(0));
        if window.is_eof() {
            tokenizer.finish();
        }
        TokenStream {
            tokenizer,
            window,
            queue: VecDeque::new(),
            eof_queued: false,
            sim: TextTypeSimulator::new(SimulatorConfig {
                scripting: rules.noscript_rawtext,
                max_depth: rules.max_depth,
                ..SimulatorConfig::default()
            }),
            path: path.to_path_buf(),
        }
    }

    /// A token already buffered by [`TokenStream::peek`].
    pub(crate) fn buffered_token(&self, i: usize) -> Option<&Tok> {
        self.queue.get(i)
    }

    /// Drops the next `n` buffered tokens.
    pub(crate) fn skip(&mut self, n: usize) {
        let n = n.min(self.queue.len());
        self.queue.drain(..n);
    }

    /// The token `i` places ahead (0: the next one); `None` past EOF.
    pub(crate) fn peek(&mut self, i: usize) -> Result<Option<&Tok>> {
        while self.queue.len() <= i {
            if !self.fetch()? {
                return Ok(None);
            }
        }
        Ok(self.queue.get(i))
    }

    /// The next token.
    pub(crate) fn next(&mut self) -> Result<Option<Tok>> {
        if self.queue.is_empty() && !self.fetch()? {
            return Ok(None);
        }
        Ok(self.queue.pop_front())
    }

    fn fetch(&mut self) -> Result<bool> {
        if self.eof_queued {
            return Ok(false);
        }
        loop {
            let token = self
                .tokenizer
                .next_token()
                .map_err(|source| L10nError::Tokenizer {
                    path: self.path.clone(),
                    source,
                })?;
            if let Some(token) = token {
                let mut tok = convert(&token);
                let effect = match &token {
                    Token::StartTag(tag) => Some(self.sim.start_tag(tag)),
                    Token::EndTag(tag) => Some(self.sim.end_tag(tag)),
                    Token::Characters(text) => Some(self.sim.characters(text.text)),
                    _ => None,
                };
                match effect {
                    Some(effect) => {
                        tok.kept = effect.kept;
                        tok.opened_at = effect.opened_at;
                        if let Some(state) = effect.switch {
                            self.tokenizer.set_state(state.into());
                        }
                        self.tokenizer.set_cdata_allowed(self.sim.cdata_allowed());
                    }
                    None => tok.kept = self.sim.depth(),
                }
                if tok.kind == Kind::Eof {
                    self.eof_queued = true;
                }
                self.queue.push_back(tok);
                return Ok(true);
            }
            let path = &self.path;
            match self
                .window
                .fill()
                .ctx(|| format!("reading {}", path.display()))?
            {
                Some(start) => {
                    self.tokenizer.push_str(self.window.text_from(start));
                    if self.window.is_eof() {
                        self.tokenizer.finish();
                    }
                }
                None => self.tokenizer.finish(),
            }
        }
    }
}

fn convert(token: &Token<'_>) -> Tok {
    let span = token.span();
    let mut tok = Tok {
        kind: Kind::Eof,
        name: String::new(),
        self_closing: false,
        attrs: Vec::new(),
        text: String::new(),
        start: span.start as u64,
        end: span.end as u64,
        kept: 0,
        opened_at: None,
    };
    match token {
        Token::StartTag(tag) | Token::EndTag(tag) => {
            tok.kind = if matches!(token, Token::StartTag(_)) {
                Kind::Start
            } else {
                Kind::End
            };
            tok.name = tag.name_str().to_string();
            tok.self_closing = tag.self_closing;
            let atoms = tag.atoms();
            tok.attrs = tag
                .attrs
                .iter()
                .map(|a| Attr {
                    name: atoms.name(a.name).to_string(),
                    value: a.value.to_string(),
                    value_start: a.value_span.start as u64,
                    value_end: a.value_span.end as u64,
                    has_value: !(a.value_span.is_empty() && a.value_span.start == a.name_span.end),
                })
                .collect();
        }
        Token::Characters(text) => {
            tok.kind = Kind::Text;
            tok.text = text.text.to_string();
        }
        Token::Comment(text) => {
            tok.kind = Kind::Comment;
            tok.text = text.text.to_string();
        }
        Token::Doctype(_) => tok.kind = Kind::Doctype,
        // The reader's tokenizer leaves processing instructions off (`<?` is a
        // bogus comment), so this never happens; kept as the comment it would be.
        Token::ProcessingInstruction(pi) => {
            tok.kind = Kind::Comment;
            tok.text = format!("?{} {}", pi.target, pi.data);
        }
        Token::Eof => {
            tok.kind = Kind::Eof;
        }
    }
    tok
}
