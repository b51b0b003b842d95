//! html5ever's tokenizer with a counting sink: the reference of the peer bench
//! (`peers.rs`) and of the localization bench (`l10n_speed.rs`), one copy for both
//! (included with `#[path]`).

use std::cell::Cell;
use std::hint::black_box;

use html5ever::TokenizerResult;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{BufferQueue, TokenSink, TokenSinkResult, TokenizerOpts};

/// Splits `bytes` into pieces of about `chunk` bytes ending on UTF-8 character
/// boundaries (html5ever's tokenizer takes `str` pieces).
fn str_pieces(bytes: &[u8], chunk: usize) -> Vec<&str> {
    let Ok(text) = std::str::from_utf8(bytes) else {
        return Vec::new();
    };
    let mut pieces = Vec::new();
    let mut rest = text;
    while !rest.is_empty() {
        let mut end = chunk.min(rest.len());
        while !rest.is_char_boundary(end) {
            end += 1;
        }
        let (piece, tail) = rest.split_at(end);
        pieces.push(piece);
        rest = tail;
    }
    pieces
}

#[derive(Default)]
struct CountingSink {
    seen: Cell<usize>,
}

impl TokenSink for CountingSink {
    type Handle = ();

    fn process_token(&self, token: html5ever::tokenizer::Token, _line: u64) -> TokenSinkResult<()> {
        use html5ever::tokenizer::Token as T;
        let add = match black_box(&token) {
            T::CharacterTokens(text) | T::CommentToken(text) => text.len(),
            T::TagToken(tag) => {
                for attr in &tag.attrs {
                    black_box(&attr.value);
                }
                tag.attrs.len() + 1
            }
            T::DoctypeToken(doctype) => black_box(&doctype.name).as_ref().map_or(0, |n| n.len()),
            T::NullCharacterToken | T::ParseError(_) => 1,
            T::EOFToken => 0,
        };
        self.seen.set(self.seen.get() + add);
        TokenSinkResult::Continue
    }
}

/// html5ever's tokenizer fed piece by piece: [`html5ever_tokenize`] for bytes in
/// memory, `l10n_speed` for a file read in pieces as it goes (a streaming
/// consumer's use, with no copy of the whole input).
pub struct Html5everTok {
    input: BufferQueue,
    tokenizer: html5ever::tokenizer::Tokenizer<CountingSink>,
}

impl Html5everTok {
    pub fn new() -> Html5everTok {
        Html5everTok {
            input: BufferQueue::default(),
            tokenizer: html5ever::tokenizer::Tokenizer::new(
                CountingSink::default(),
                TokenizerOpts::default(),
            ),
        }
    }

    /// Tokenizes the next piece of the input.
    pub fn feed(&self, piece: &str) {
        self.input.push_back(StrTendril::from_slice(piece));
        while let TokenizerResult::Script(()) = self.tokenizer.feed(&self.input) {}
    }

    /// Ends the input; the count of what the sink saw (kept alive by the caller's
    /// `black_box`).
    pub fn finish(self) -> usize {
        self.tokenizer.end();
        self.tokenizer.sink.seen.get()
    }
}

pub fn html5ever_tokenize(bytes: &[u8], chunk: usize) -> usize {
    let tok = Html5everTok::new();
    for piece in str_pieces(bytes, chunk) {
        tok.feed(piece);
    }
    tok.finish()
}
