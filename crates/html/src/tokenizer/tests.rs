//! Unit tests of the tokenizer's API contracts (the spec behaviour itself is covered
//! by the html5lib suite in `tests/tokenizer_suite.rs`).

use super::*;
use crate::atom;

fn tokens(input: &str) -> Vec<String> {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    tok.push_str(input);
    tok.finish();
    let mut out = Vec::new();
    while let Some(token) = tok.next_token().unwrap() {
        out.push(format!("{token:?}"));
    }
    out
}

#[test]
fn text_is_borrowed_unless_normalized() {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    tok.push_str("plain text<b>a&amp;b</b>x\r\ny");
    tok.finish();
    let mut seen = Vec::new();
    while let Some(token) = tok.next_token().unwrap() {
        if let Token::Characters(t) = token {
            seen.push((t.text.to_owned(), t.borrowed, t.span));
        }
    }
    assert_eq!(
        seen,
        vec![
            ("plain text".to_owned(), true, Span::new(0, 10)),
            ("a&b".to_owned(), false, Span::new(13, 20)),
            ("x\ny".to_owned(), false, Span::new(24, 28)),
        ]
    );
}

#[test]
fn attribute_spans_address_the_source() {
    let src = r#"<a href="x&amp;y" title='t' checked data-x=1>"#;
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    tok.push_str(src);
    tok.finish();
    let Some(Token::StartTag(tag)) = tok.next_token().unwrap() else {
        panic!("a start tag")
    };
    assert_eq!(tag.name, atom::A);
    assert_eq!(tag.span, Span::new(0, src.len()));
    let attrs: Vec<_> = tag.attrs.iter().collect();
    let slice = |s: Span| &src[s.start..s.end];
    assert_eq!(attrs.len(), 4);
    assert_eq!(
        (
            slice(attrs[0].name_span),
            slice(attrs[0].value_span),
            attrs[0].value
        ),
        ("href", "x&amp;y", "x&y")
    );
    assert!(!attrs[0].value_borrowed);
    assert_eq!(
        (slice(attrs[1].name_span), slice(attrs[1].value_span)),
        ("title", "t")
    );
    assert!(attrs[1].value_borrowed);
    assert_eq!(
        (
            slice(attrs[2].name_span),
            attrs[2].value_span.len(),
            attrs[2].value
        ),
        ("checked", 0, "")
    );
    assert_eq!(
        (slice(attrs[3].name_span), slice(attrs[3].value_span)),
        ("data-x", "1")
    );
    assert_eq!(tag.atoms().name(attrs[3].name), "data-x");
}

#[test]
fn duplicate_attributes_are_dropped_even_past_the_linear_check() {
    let mut src = String::from("<p");
    for i in 0..40 {
        src.push_str(&format!(" a{i}=1 a{}=2", i / 2));
    }
    src.push('>');
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    tok.push_str(&src);
    tok.finish();
    let Some(Token::StartTag(tag)) = tok.next_token().unwrap() else {
        panic!("a start tag")
    };
    let names: Vec<String> = tag
        .attrs
        .iter()
        .map(|a| tag.atoms().name(a.name).to_owned())
        .collect();
    assert_eq!(names.len(), 40);
    assert!(
        tag.attrs.iter().all(|a| a.value == "1"),
        "the first attribute of a name wins"
    );
    let duplicates = tok
        .errors()
        .iter()
        .filter(|e| e.code == ErrorCode::DuplicateAttribute)
        .count();
    assert_eq!(duplicates, 40);
}

#[test]
fn a_token_past_the_limit_is_an_error_not_a_panic() {
    let mut tok = Tokenizer::new(TokenizerConfig {
        max_token_bytes: 64,
        ..Default::default()
    });
    tok.push_str("<!-- ");
    for _ in 0..10 {
        tok.push_str("0123456789");
        let _ = tok.next_token();
    }
    let err = loop {
        tok.push_str("0123456789");
        match tok.next_token() {
            Err(e) => break e,
            Ok(_) => continue,
        }
    };
    assert_eq!(
        err,
        TokenizerError::TokenTooLarge {
            offset: 0,
            limit: 64
        }
    );
}

#[test]
fn text_is_never_held_back_and_memory_stays_bounded() {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    let chunk = "<p class=x>some text &amp; more</p>\n".repeat(100);
    let mut text_bytes = 0;
    for _ in 0..2_000 {
        tok.push_str(&chunk);
        while let Some(token) = tok.next_token().unwrap() {
            if let Token::Characters(t) = token {
                text_bytes += t.text.len();
            }
        }
        assert!(
            tok.buffered_len() < 64 * 1024,
            "buffer grew to {}",
            tok.buffered_len()
        );
    }
    assert_eq!(text_bytes, 2_000 * 100 * "some text & more\n".len());
}

#[test]
fn state_switches_take_effect_at_the_next_token() {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    tok.push_str("<title><b>&amp;</title><script><!--</script>--></script>");
    tok.finish();
    let mut out = Vec::new();
    while let Some(token) = tok.next_token().unwrap() {
        let switch = match token {
            Token::StartTag(t) if t.name == atom::TITLE => Some(State::Rcdata),
            Token::StartTag(t) if t.name == atom::SCRIPT => Some(State::ScriptData),
            _ => None,
        };
        out.push(match token {
            Token::StartTag(t) => format!("<{}>", t.name_str()),
            Token::EndTag(t) => format!("</{}>", t.name_str()),
            Token::Characters(t) => t.text.to_owned(),
            other => format!("{other:?}"),
        });
        if let Some(state) = switch {
            tok.set_state(state);
        }
    }
    assert_eq!(
        out.concat(),
        "<title><b>&</title><script><!--</script>--></script>Eof"
    );
}

#[test]
fn invalid_utf8_becomes_replacement_characters() {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    tok.push_bytes(b"a\xFF\xC3");
    tok.push_bytes(b"\xA9<b \xE2\x82>");
    tok.finish();
    let mut text = String::new();
    while let Some(token) = tok.next_token().unwrap() {
        match token {
            Token::Characters(t) => text.push_str(t.text),
            Token::StartTag(t) => text.push_str(&format!("[{}]", t.attrs.iter().count())),
            _ => {}
        }
    }
    assert_eq!(text, "a\u{FFFD}é[1]");
}

#[test]
fn eof_is_emitted_once_and_input_after_finish_is_ignored() {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    tok.push_str("x");
    tok.finish();
    tok.push_str("y");
    assert!(matches!(tok.next_token().unwrap(), Some(Token::Characters(t)) if t.text == "x"));
    assert!(matches!(tok.next_token().unwrap(), Some(Token::Eof)));
    assert!(tok.next_token().unwrap().is_none());
    assert!(tok.next_token().unwrap().is_none());
}

#[test]
fn errors_can_be_switched_off() {
    let mut tok = Tokenizer::new(TokenizerConfig {
        report_errors: false,
        ..Default::default()
    });
    tok.push_str("<a b=1 b=2>\u{1}&#0;</");
    tok.finish();
    while tok.next_token().unwrap().is_some() {}
    assert!(tok.errors().is_empty());
    assert_eq!(tokens("</>").len(), 1);
}
