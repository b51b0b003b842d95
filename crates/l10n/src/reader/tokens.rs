//! Owned tokens with lookahead over the tagloom tokenizer, and the tokenizer state
//! switches a tree builder would make (no tree builder runs here): RCDATA after
//! `<title>`/`<textarea>`, RAWTEXT after `<style>`, `<xmp>`, `<iframe>`, `<noembed>`,
//! `<noframes>` (and `<noscript>` when the rules say scripting is on), script data
//! after `<script>`, PLAINTEXT after `<plaintext>`; CDATA sections are allowed inside
//! `<svg>`/`<math>`, where no switch happens.
//!
//! The switch must happen right after the start tag is tokenized, before the next
//! token, so it is made here when the token is fetched — not when the reader gets
//! to it, which may be later because of the forward scan.

use std::collections::VecDeque;
use std::io::Read;

use tagloom_html::token::Token;
use tagloom_html::tokenizer::{State, Tokenizer, TokenizerConfig};

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
    foreign_depth: usize,
    noscript_rawtext: bool,
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
            foreign_depth: 0,
            noscript_rawtext: rules.noscript_rawtext,
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
                let tok = convert(&token);
                self.after_token(&tok);
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

    fn after_token(&mut self, tok: &Tok) {
        let foreign_root = matches!(tok.name.as_str(), "svg" | "math");
        match tok.kind {
            Kind::Start if self.foreign_depth > 0 && foreign_root && !tok.self_closing => {
                self.foreign_depth += 1;
            }
            Kind::Start if self.foreign_depth > 0 => {}
            Kind::End if self.foreign_depth > 0 && foreign_root => {
                self.foreign_depth -= 1;
                if self.foreign_depth == 0 {
                    self.tokenizer.set_cdata_allowed(false);
                }
            }
            Kind::End if self.foreign_depth > 0 => {}
            Kind::Start => {
                let state = match tok.name.as_str() {
                    "title" | "textarea" => Some(State::Rcdata),
                    "style" | "xmp" | "iframe" | "noembed" | "noframes" => Some(State::Rawtext),
                    "noscript" if self.noscript_rawtext => Some(State::Rawtext),
                    "script" => Some(State::ScriptData),
                    "plaintext" => Some(State::Plaintext),
                    "svg" | "math" if !tok.self_closing => {
                        self.foreign_depth = 1;
                        self.tokenizer.set_cdata_allowed(true);
                        None
                    }
                    _ => None,
                };
                if let Some(state) = state {
                    self.tokenizer.set_state(state);
                }
            }
            _ => {}
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
