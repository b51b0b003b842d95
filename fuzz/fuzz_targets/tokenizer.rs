//! Chunk-boundary differential fuzzing of the tokenizer.
//!
//! The first byte picks a chunk size (1..=64); the rest is the document. It is
//! tokenized once pushed whole and once pushed in chunks (draining after every
//! push); the token streams (with adjacent character runs coalesced, since a run
//! may be split where a chunk ended) and the parse errors must be identical. Every
//! token's text, attributes and spans are touched and checked against the decoded
//! input on the way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use tagloom_html::ParseError;
use tagloom_html::span::Span;
use tagloom_html::token::Token;
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};

/// The owned rendering of a token stream, built as tokens arrive.
struct Stream<'d> {
    /// The input as the tokenizer decodes it (WHATWG UTF-8, U+FFFD for errors).
    decoded: &'d str,
    out: Vec<String>,
    /// Pending coalesced character run: text and span.
    chars: Option<(String, Span)>,
    /// End of the previous token's span.
    last_end: usize,
    saw_eof: bool,
}

impl<'d> Stream<'d> {
    fn new(decoded: &'d str) -> Self {
        Stream {
            decoded,
            out: Vec::new(),
            chars: None,
            last_end: 0,
            saw_eof: false,
        }
    }

    fn check_span(&self, what: &str, span: Span) {
        assert!(
            span.start <= span.end && span.end <= self.decoded.len(),
            "{what} span {span:?} outside the input of {} bytes",
            self.decoded.len()
        );
        assert!(
            self.decoded.is_char_boundary(span.start) && self.decoded.is_char_boundary(span.end),
            "{what} span {span:?} not on character boundaries"
        );
    }

    fn flush_chars(&mut self) {
        if let Some((text, span)) = self.chars.take() {
            self.out.push(format!("Characters {text:?} {span:?}"));
        }
    }

    fn token(&mut self, token: Token<'_>) {
        assert!(!self.saw_eof, "token after Eof: {token:?}");
        if let Token::Eof = token {
            self.flush_chars();
            self.out.push("Eof".to_owned());
            self.saw_eof = true;
            return;
        }
        let span = token.span();
        self.check_span("token", span);
        assert!(
            span.start == self.last_end,
            "token span {span:?} does not start at the previous token's end {} (spans tile the input)",
            self.last_end
        );
        assert!(
            span.start < span.end,
            "empty token span {span:?}: {token:?}"
        );
        self.last_end = span.end;
        match token {
            Token::Characters(text) => {
                // The span may be wider than the text: an ignored `</>` before it is
                // folded into it (`regressions/tokenizer-empty-end-tag-span.bin`,
                // `A5 3C 2F 3E FF`: text "\u{FFFD}", span 0..6 over "</>\u{FFFD}").
                if text.borrowed {
                    assert!(
                        self.decoded[span.start..span.end].ends_with(text.text),
                        "borrowed character text {:?} is not the end of its source {:?}",
                        text.text,
                        &self.decoded[span.start..span.end]
                    );
                }
                match &mut self.chars {
                    Some((pending, pending_span)) => {
                        assert_eq!(pending_span.end, span.start, "gap inside a character run");
                        pending.push_str(text.text);
                        pending_span.end = span.end;
                    }
                    None => self.chars = Some((text.text.to_owned(), span)),
                }
                return;
            }
            _ => self.flush_chars(),
        }
        let rendered = match token {
            Token::Comment(text) => {
                if text.borrowed {
                    assert!(
                        self.decoded[span.start..span.end].contains(text.text),
                        "borrowed comment text not in its source"
                    );
                }
                format!("Comment {:?} {span:?}", text.text)
            }
            Token::ProcessingInstruction(pi) => {
                format!("ProcessingInstruction {:?} {:?} {span:?}", pi.target, pi.data)
            }
            Token::Doctype(d) => format!(
                "Doctype {:?} {:?} {:?} {} {span:?}",
                d.name, d.public_id, d.system_id, d.force_quirks
            ),
            Token::StartTag(tag) | Token::EndTag(tag) => {
                let kind = if matches!(token, Token::StartTag(_)) {
                    "StartTag"
                } else {
                    "EndTag"
                };
                let mut s = format!(
                    "{kind} {:?} self_closing={} {span:?}",
                    tag.name_str(),
                    tag.self_closing
                );
                assert_eq!(tag.attrs.len(), tag.attrs.iter().len());
                for (i, attr) in tag.attrs.iter().enumerate() {
                    self.check_span("attribute name", attr.name_span);
                    self.check_span("attribute value", attr.value_span);
                    assert!(
                        span.start <= attr.name_span.start
                            && attr.name_span.end <= attr.value_span.start
                            && attr.value_span.end <= span.end,
                        "attribute spans {:?} {:?} outside the tag {span:?}",
                        attr.name_span,
                        attr.value_span
                    );
                    if attr.value_borrowed {
                        assert_eq!(
                            attr.value,
                            &self.decoded[attr.value_span.start..attr.value_span.end],
                            "borrowed attribute value differs from its source"
                        );
                    }
                    let name = tag.atoms().name(attr.name);
                    assert_eq!(tag.attrs.get(i).map(|a| a.value), Some(attr.value));
                    assert_eq!(tag.attrs.value_of(attr.name), Some(attr.value));
                    s.push_str(&format!(
                        " [{name:?}={:?} {:?} {:?}]",
                        attr.value, attr.name_span, attr.value_span
                    ));
                }
                s
            }
            Token::Characters(_) | Token::Eof => unreachable!(),
        };
        self.out.push(rendered);
    }
}

fn drain(tokenizer: &mut Tokenizer, stream: &mut Stream<'_>) {
    loop {
        match tokenizer.next_token() {
            Ok(Some(token)) => stream.token(token),
            Ok(None) => return,
            Err(err) => panic!("tokenizer error on a small input: {err}"),
        }
    }
}

fn run(decoded: &str, chunks: &[&[u8]]) -> (Vec<String>, Vec<ParseError>) {
    let mut tokenizer = Tokenizer::new(TokenizerConfig::default());
    let mut stream = Stream::new(decoded);
    for chunk in chunks {
        tokenizer.push_bytes(chunk);
        drain(&mut tokenizer, &mut stream);
    }
    tokenizer.finish();
    drain(&mut tokenizer, &mut stream);
    assert!(stream.saw_eof, "no Eof after finish");
    assert!(
        tokenizer.next_token().expect("after Eof").is_none(),
        "a token after Eof"
    );
    let errors = tokenizer.take_errors();
    for pair in errors.windows(2) {
        assert!(
            pair[0].offset <= pair[1].offset,
            "errors out of order: {pair:?}"
        );
    }
    for error in &errors {
        assert!(
            error.offset <= decoded.len(),
            "error offset past the input: {error:?}"
        );
    }
    (stream.out, errors)
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, raw)) = data.split_first() else {
        return;
    };
    let chunk = usize::from(first % 64) + 1;
    let (decoded, _) = encoding_rs::UTF_8.decode_without_bom_handling(raw);
    // Raw bytes, invalid UTF-8 included: `push_bytes` must take anything, split
    // anywhere (`regressions/tokenizer-push-bytes-*.bin` once lost input here).
    let input = raw;

    let (whole_tokens, whole_errors) = run(&decoded, &[input]);
    let chunks: Vec<&[u8]> = input.chunks(chunk).collect();
    let (chunked_tokens, chunked_errors) = run(&decoded, &chunks);
    assert_eq!(
        whole_tokens, chunked_tokens,
        "tokens differ between whole input and chunks of {chunk}"
    );
    assert_eq!(
        whole_errors, chunked_errors,
        "errors differ between whole input and chunks of {chunk}"
    );
});

