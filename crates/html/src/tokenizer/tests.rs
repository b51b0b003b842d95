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

/// The tokens of a whole run, compactly: adjacent character tokens joined, each
/// token one string (`T:` text, `C:` comment, `<name attr=value>`, `</name>`,
/// `D:name|public|system`).
fn render_all(tok: &mut Tokenizer, out: &mut Vec<String>) {
    while let Some(token) = tok.next_token().unwrap() {
        let item = match token {
            Token::Characters(t) => {
                if let Some(last) = out.last_mut().filter(|l| l.starts_with("T:")) {
                    last.push_str(t.text);
                    continue;
                }
                format!("T:{}", t.text)
            }
            Token::Comment(t) => format!("C:{}", t.text),
            Token::StartTag(t) => {
                let attrs: String = t
                    .attrs
                    .iter()
                    .map(|a| format!(" {}={}", t.atoms().name(a.name), a.value))
                    .collect();
                format!("<{}{attrs}>", t.name_str())
            }
            Token::EndTag(t) => format!("</{}>", t.name_str()),
            Token::Doctype(d) => format!(
                "D:{}|{}|{}",
                d.name.unwrap_or("-"),
                d.public_id.unwrap_or("-"),
                d.system_id.unwrap_or("-")
            ),
            Token::ProcessingInstruction(pi) => format!("P:{}|{}", pi.target, pi.data),
            Token::Eof => "EOF".to_owned(),
        };
        out.push(item);
    }
}

/// One context a run of NULs can sit in: how to get there, what comes out.
struct NulContext {
    name: &'static str,
    state: State,
    last_start_tag: Option<&'static str>,
    cdata: bool,
    prefix: &'static str,
    suffix: &'static str,
    /// The expected tokens, with `{}` standing for the run as the token carries it.
    expected: &'static [&'static str],
    /// Whether the run comes out as U+FFFD (else as NUL).
    replaced: bool,
    /// Whether each NUL is an unexpected-null-character error.
    errors: bool,
    /// The other errors, in order.
    other_errors: &'static [ErrorCode],
}

const NUL_CONTEXTS: &[NulContext] = {
    const fn ctx(name: &'static str, prefix: &'static str, suffix: &'static str) -> NulContext {
        NulContext {
            name,
            state: State::Data,
            last_start_tag: None,
            cdata: false,
            prefix,
            suffix,
            expected: &[],
            replaced: true,
            errors: true,
            other_errors: &[],
        }
    }
    &[
        NulContext {
            expected: &["T:{}", "EOF"],
            replaced: false,
            ..ctx("data", "", "")
        },
        NulContext {
            expected: &["C:{}", "EOF"],
            ..ctx("comment", "<!--", "-->")
        },
        NulContext {
            expected: &["C:?{}", "EOF"],
            other_errors: &[ErrorCode::UnexpectedQuestionMarkInsteadOfTagName],
            ..ctx("bogus comment", "<?", ">")
        },
        NulContext {
            expected: &["<a title={}>", "EOF"],
            ..ctx("double-quoted value", "<a title=\"", "\">")
        },
        NulContext {
            expected: &["<a title={}>", "EOF"],
            ..ctx("single-quoted value", "<a title='", "'>")
        },
        NulContext {
            expected: &["<a title={}>", "EOF"],
            ..ctx("unquoted value", "<a title=", ">")
        },
        NulContext {
            expected: &["<a{}>", "EOF"],
            ..ctx("tag name", "<a", ">")
        },
        NulContext {
            expected: &["<a b{}=>", "EOF"],
            ..ctx("attribute name", "<a b", ">")
        },
        NulContext {
            expected: &["D:a{}|-|-", "EOF"],
            ..ctx("doctype name", "<!DOCTYPE a", ">")
        },
        NulContext {
            expected: &["D:html|{}|-", "EOF"],
            ..ctx("doctype public id", "<!DOCTYPE html PUBLIC \"", "\">")
        },
        NulContext {
            expected: &["D:html|-|{}", "EOF"],
            ..ctx("doctype system id", "<!DOCTYPE html SYSTEM '", "'>")
        },
        NulContext {
            expected: &["D:a|-|-", "EOF"],
            other_errors: &[ErrorCode::InvalidCharacterSequenceAfterDoctypeName],
            ..ctx("bogus doctype", "<!DOCTYPE a b", ">")
        },
        NulContext {
            state: State::ScriptData,
            last_start_tag: Some("script"),
            expected: &["T:{}", "</script>", "EOF"],
            ..ctx("script data", "", "</script>")
        },
        NulContext {
            state: State::ScriptData,
            last_start_tag: Some("script"),
            expected: &["T:<!--{}-->", "</script>", "EOF"],
            ..ctx("script data escaped", "<!--", "--></script>")
        },
        NulContext {
            state: State::ScriptData,
            last_start_tag: Some("script"),
            expected: &["T:<!--<script>{}</script>-->", "</script>", "EOF"],
            ..ctx(
                "script data double escaped",
                "<!--<script>",
                "</script>--></script>",
            )
        },
        NulContext {
            state: State::Rawtext,
            last_start_tag: Some("style"),
            expected: &["T:{}", "</style>", "EOF"],
            ..ctx("rawtext", "", "</style>")
        },
        NulContext {
            state: State::Rcdata,
            last_start_tag: Some("textarea"),
            expected: &["T:{}", "</textarea>", "EOF"],
            ..ctx("rcdata", "", "</textarea>")
        },
        NulContext {
            state: State::Plaintext,
            expected: &["T:{}", "EOF"],
            ..ctx("plaintext", "", "")
        },
        NulContext {
            cdata: true,
            expected: &["T:{}", "EOF"],
            replaced: false,
            errors: false,
            ..ctx("cdata section", "<![CDATA[", "]]>")
        },
    ]
};

/// What [`tokenize_nul_run`] saw: tokens, errors kept, errors dropped.
type NulRun = (Vec<String>, Vec<ParseError>, usize);

/// Tokenizes `prefix`, `n` NULs and `suffix` in `context`, pushed in pieces of
/// `chunk` bytes, keeping at most `max_errors` errors.
fn tokenize_nul_run(context: &NulContext, n: usize, chunk: usize, max_errors: usize) -> NulRun {
    let mut tok = Tokenizer::new(TokenizerConfig {
        initial_state: context.state,
        last_start_tag: context.last_start_tag.map(str::to_owned),
        max_errors,
        ..Default::default()
    });
    tok.set_cdata_allowed(context.cdata);
    let input = format!("{}{}{}", context.prefix, "\0".repeat(n), context.suffix);
    let mut out = Vec::new();
    for piece in input.as_bytes().chunks(chunk) {
        tok.push_bytes(piece);
        render_all(&mut tok, &mut out);
    }
    tok.finish();
    render_all(&mut tok, &mut out);
    let dropped = tok.errors_dropped();
    (out, tok.take_errors(), dropped)
}

/// Runs of NULs used to cost a scan to the end of the input per NUL. Whatever the
/// state, a long run must give exactly the tokens and errors the spec asks for,
/// whole or in chunks, with and without a bound on the errors kept (time is not
/// asserted).
#[test]
fn long_nul_runs_in_every_context_give_the_spec_tokens_and_errors() {
    const N: usize = 1 << 16;
    for context in NUL_CONTEXTS {
        let run = if context.replaced { "\u{FFFD}" } else { "\0" }.repeat(N);
        let expected: Vec<String> = context
            .expected
            .iter()
            .map(|e| e.replace("{}", &run))
            .collect();
        let (tokens, errors, dropped) = tokenize_nul_run(context, N, usize::MAX, usize::MAX);
        assert!(tokens == expected, "{}: tokens differ", context.name);
        assert_eq!(dropped, 0);

        let start = context.prefix.len();
        let (nul_errors, other): (Vec<&ParseError>, Vec<&ParseError>) =
            errors.iter().partition(|e| {
                e.code == ErrorCode::UnexpectedNullCharacter
                    && (start..start + N).contains(&e.offset)
            });
        let other: Vec<ErrorCode> = other.iter().map(|e| e.code).collect();
        assert_eq!(other, context.other_errors, "{}", context.name);
        let expected_nul_errors = if context.errors { N } else { 0 };
        assert_eq!(nul_errors.len(), expected_nul_errors, "{}", context.name);
        for (i, e) in nul_errors.iter().enumerate() {
            let at = start + i;
            assert!(
                e.offset == at && e.line == 1 && e.col as usize == at + 1,
                "{}: error {i} is {e:?}",
                context.name
            );
        }

        let (chunked_tokens, chunked_errors, _) = tokenize_nul_run(context, N, 4093, usize::MAX);
        assert!(
            chunked_tokens == tokens,
            "{}: chunked tokens differ",
            context.name
        );
        assert!(
            chunked_errors == errors,
            "{}: chunked errors differ",
            context.name
        );

        // With a bound, the first errors are kept and the rest counted, whole
        // or chunked.
        let max = 1000;
        for chunk in [usize::MAX, 777] {
            let (capped_tokens, kept, dropped) = tokenize_nul_run(context, N, chunk, max);
            assert!(
                capped_tokens == tokens,
                "{}: capped tokens differ",
                context.name
            );
            let all = errors.len();
            assert_eq!(kept.len(), all.min(max), "{} {chunk}", context.name);
            assert!(kept[..] == errors[..kept.len()], "{} {chunk}", context.name);
            assert_eq!(dropped, all - kept.len(), "{} {chunk}", context.name);
        }
    }
}

#[test]
fn stream_errors_past_the_bound_are_counted() {
    let mut tok = Tokenizer::new(TokenizerConfig {
        max_errors: 10,
        ..Default::default()
    });
    tok.push_str(&"\u{1}\0".repeat(100));
    tok.finish();
    while tok.next_token().unwrap().is_some() {}
    let codes: Vec<ErrorCode> = tok.errors().iter().map(|e| e.code).collect();
    let pair = [
        ErrorCode::ControlCharacterInInputStream,
        ErrorCode::UnexpectedNullCharacter,
    ];
    assert_eq!(codes, pair.repeat(5));
    assert_eq!(tok.errors_dropped(), 190);
    // Taking the errors makes room again.
    let mut tok = Tokenizer::new(TokenizerConfig {
        max_errors: 1,
        ..Default::default()
    });
    tok.push_str("<a b b b>");
    while tok.next_token().unwrap().is_some() {}
    assert_eq!(tok.take_errors().len(), 1);
    tok.push_str("<a b b>");
    tok.finish();
    while tok.next_token().unwrap().is_some() {}
    assert_eq!(tok.errors().len(), 1);
    assert_eq!(tok.errors_dropped(), 1);
}

#[test]
fn nul_beside_every_stop_byte() {
    let cases: &[(State, &str, &[&str], usize)] = &[
        (
            State::Data,
            "\0<\0&amp;\0\r\n\0\r\0",
            &["T:\0<\0&\0\n\0\n\0", "EOF"],
            5,
        ),
        (
            State::Rcdata,
            "\0&lt;\0<\0\r\0",
            &["T:\u{FFFD}<\u{FFFD}<\u{FFFD}\n\u{FFFD}", "EOF"],
            4,
        ),
        (
            State::Rawtext,
            "\0&lt;\0<\0\r",
            &["T:\u{FFFD}&lt;\u{FFFD}<\u{FFFD}\n", "EOF"],
            3,
        ),
        (
            State::Plaintext,
            "\r\0\r\n\0<&",
            &["T:\n\u{FFFD}\n\u{FFFD}<&", "EOF"],
            2,
        ),
        (
            State::Data,
            "<!--\0-\0--\0<\0!\0-->",
            &["C:\u{FFFD}-\u{FFFD}--\u{FFFD}<\u{FFFD}!\u{FFFD}", "EOF"],
            5,
        ),
        (
            State::Data,
            "<a x=\"\0&amp;\0'\0\r\">",
            &["<a x=\u{FFFD}&\u{FFFD}'\u{FFFD}\n>", "EOF"],
            3,
        ),
        (
            State::Data,
            "<a x='\0\"\0&\0'>",
            &["<a x=\u{FFFD}\"\u{FFFD}&\u{FFFD}>", "EOF"],
            3,
        ),
        (State::Data, "<?\0>", &["C:?\u{FFFD}", "EOF"], 1),
        (State::Data, "<A\0B\r>", &["<a\u{FFFD}b>", "EOF"], 1),
        (
            State::ScriptData,
            "<!--\0-\0--\0<\0\r-->",
            &["T:<!--\u{FFFD}-\u{FFFD}--\u{FFFD}<\u{FFFD}\n-->", "EOF"],
            4,
        ),
    ];
    for &(state, input, expected, nuls) in cases {
        let mut tok = Tokenizer::new(TokenizerConfig {
            initial_state: state,
            ..Default::default()
        });
        tok.push_str(input);
        tok.finish();
        let mut out = Vec::new();
        render_all(&mut tok, &mut out);
        assert_eq!(out, expected, "{input:?}");
        let nul_errors = tok
            .errors()
            .iter()
            .filter(|e| e.code == ErrorCode::UnexpectedNullCharacter)
            .count();
        assert_eq!(nul_errors, nuls, "{input:?}");
    }
}

#[test]
fn repeated_names_hit_the_name_cache_with_the_right_atoms() {
    // Short names (cached), 8, 9, 16 and 17-byte ones (the last not cached),
    // dynamic ones (cached too), in every case, each twice.
    let input = "<a><A><br x=1 X=2><textarea></textarea><progress>\
                 <noscript><noscript><x-y><x-y><abcdefgh><abcdefgh>\
                 <p aria-activedescendant=1 ARIA-ACTIVEDESCENDANT=2 aria-autocomplete=3 \
                 Aria-Autocomplete=4 accept-charset=5 accept-charseT=6 \
                 aria-describedby aria-describedby>";
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    tok.push_str(input);
    tok.finish();
    let mut names = Vec::new();
    while let Some(token) = tok.next_token().unwrap() {
        if let Token::StartTag(t) | Token::EndTag(t) = &token {
            names.push((t.name_str().to_owned(), t.name.is_static()));
            for a in t.attrs.iter() {
                names.push((t.atoms().name(a.name).to_owned(), a.name.is_static()));
            }
        }
    }
    let expected: Vec<(String, bool)> = [
        ("a", true),
        ("a", true),
        ("br", true),
        ("x", true),
        ("textarea", true),
        ("textarea", true),
        ("progress", true),
        ("noscript", true),
        ("noscript", true),
        ("x-y", false),
        ("x-y", false),
        ("abcdefgh", false),
        ("abcdefgh", false),
        ("p", true),
        ("aria-activedescendant", true),
        ("aria-autocomplete", true),
        ("accept-charset", true),
        ("aria-describedby", true),
    ]
    .iter()
    .map(|&(n, s)| (n.to_owned(), s))
    .collect();
    assert_eq!(names, expected);
    assert_eq!(short_name_key(b""), 0);
    assert_eq!(short_name_key(b"abcdefghijklmnopq"), 0);
    // The one-load key is the same as the byte-by-byte one, near the end of the
    // buffer or not.
    let buf = b"abcdefghijklmnopqrstuvwxyz0123456789";
    for start in 0..buf.len() {
        for end in start..=buf.len() {
            assert_eq!(name_key(buf, start, end), short_name_key(&buf[start..end]));
        }
    }
    assert_ne!(short_name_key(b"abcdefghi"), short_name_key(b"abcdefgh"));
    assert_ne!(
        short_name_key(b"abcdefghijklmnop"),
        short_name_key(b"abcdefghijklmnoq")
    );
    assert_ne!(short_name_key(b"ab"), short_name_key(b"ba"));
}

/// Names that share a slot of the name cache (`p` and `class`, `a` and `pre`,
/// `b` and `id`, `section` and `href`, `h2` and `nav`), in turn and with
/// dynamic ones between them: each name keeps its own atom, and the pairs that
/// alternate stay cached (the second lookup finds the partner slot).
#[test]
fn names_of_one_cache_slot_in_turn_keep_their_atoms() {
    let pairs = [
        ("p", "class"),
        ("a", "pre"),
        ("b", "id"),
        ("section", "href"),
        ("h2", "nav"),
    ];
    for (one, other) in pairs {
        assert_eq!(
            name_cache_slot(short_name_key(one.as_bytes())),
            name_cache_slot(short_name_key(other.as_bytes())),
            "{one} {other}"
        );
    }
    let mut input = String::new();
    for round in 0..3 {
        for (one, other) in pairs {
            input.push_str(&format!(
                "<{one} {other}=1><{other} {one}=2></{one}><x-{round}>"
            ));
        }
    }
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    tok.push_str(&input);
    tok.finish();
    let mut seen = Vec::new();
    while let Some(token) = tok.next_token().unwrap() {
        if let Token::StartTag(t) | Token::EndTag(t) = &token {
            seen.push(t.name_str().to_owned());
            for a in t.attrs.iter() {
                seen.push(t.atoms().name(a.name).to_owned());
            }
        }
    }
    let mut expected = Vec::new();
    for round in 0..3 {
        for (one, other) in pairs {
            for name in [one, other, other, one, one] {
                expected.push(name.to_owned());
            }
            expected.push(format!("x-{round}"));
        }
    }
    assert_eq!(seen, expected);
    // The pairs' slots are ten different ones: after the pairs alone, every
    // name of them is cached.
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    for (one, other) in pairs {
        tok.push_str(&format!("<{one} {other}=1>"));
    }
    tok.finish();
    while tok.next_token().unwrap().is_some() {}
    for (one, other) in pairs {
        for name in [one, other] {
            let key = short_name_key(name.as_bytes());
            assert!(
                tok.cached_name(key, name_cache_slot(key)).is_some(),
                "{name}"
            );
        }
    }
}

#[test]
fn raw_text_mode_keeps_the_source_and_switches_between_tokens() {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    tok.set_text_mode(TextMode::Raw);
    tok.push_str("a&amp;b\r\n<p>c&amp;d");
    tok.finish();
    let mut seen = Vec::new();
    while let Some(token) = tok.next_token().unwrap() {
        seen.push(match token {
            Token::Characters(t) => t.text.to_owned(),
            Token::StartTag(t) => {
                // Back to decoding from the next token on.
                let name = format!("<{}>", t.name_str());
                tok.set_text_mode(TextMode::Decoded);
                name
            }
            other => format!("{other:?}"),
        });
    }
    assert_eq!(seen, ["a&amp;b\r\n", "<p>", "c&d", "Eof"]);
}

#[test]
fn skimmed_tags_end_where_the_attribute_states_say() {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    tok.set_attribute_mode(AttributeMode::Only(TagSet::new()));
    tok.push_str("<div title=\"a > b\" x='/>'/><p a=b/><br/ ><i =\"x>\">");
    tok.finish();
    let mut seen = Vec::new();
    while let Some(token) = tok.next_token().unwrap() {
        if let Token::StartTag(t) = token {
            assert!(t.attrs.is_empty());
            seen.push((
                t.name_str().to_owned(),
                t.self_closing,
                t.span.start,
                t.span.end,
            ));
        }
    }
    assert_eq!(
        seen,
        [
            // The quotes hide `>` and `/>`; `/` then `>` after a quoted value
            // closes it.
            ("div".to_owned(), true, 0, 27),
            // `b/` is an unquoted value: not self-closing.
            ("p".to_owned(), false, 27, 35),
            // `/` not followed by `>` is dropped.
            ("br".to_owned(), false, 35, 41),
            // `="x` is an attribute *name* (a quote there opens nothing): the
            // tag ends at the first `>`.
            ("i".to_owned(), false, 41, 48),
        ]
    );
}

#[test]
fn split_sequences_decode_as_whole_input_and_the_decoder_is_dropped_after() {
    let text = "a\u{e9}b\u{20ac}c\u{1F600}d<p title='\u{e9}\u{1F600}'>x\u{e9}</p>";
    let mut bytes = text.as_bytes().to_vec();
    // Invalid sequences too: a stray continuation, a cut 3-byte sequence, a bad lead.
    bytes.extend_from_slice(b"\x80z\xE2\x82y\xFFw\xF0\x9F");
    let render = |chunk: usize| {
        let mut tok = Tokenizer::new(TokenizerConfig::default());
        let mut out = Vec::new();
        for piece in bytes.chunks(chunk) {
            tok.push_bytes(piece);
            render_all(&mut tok, &mut out);
        }
        tok.finish();
        render_all(&mut tok, &mut out);
        out
    };
    let whole = render(bytes.len());
    assert!(whole.iter().any(|t| t.contains('\u{FFFD}')), "{whole:?}");
    for chunk in 1..=12 {
        assert_eq!(render(chunk), whole, "chunks of {chunk}");
    }

    let mut tok = Tokenizer::new(TokenizerConfig::default());
    tok.push_bytes(b"ab\xC3");
    assert!(tok.utf8.is_some(), "the split character is pending");
    tok.push_bytes(b"\xA9cd");
    assert!(
        tok.utf8.is_none(),
        "back at a boundary: the fast path again"
    );
    tok.push_bytes(b"xy\xF0\x9F\x98");
    assert!(tok.utf8.is_some());
    tok.push_bytes(b"\x80");
    assert!(tok.utf8.is_some(), "a short chunk keeps the decoder");
    tok.push_bytes(b"zzz");
    assert!(tok.utf8.is_none());
    tok.finish();
    let mut out = Vec::new();
    render_all(&mut tok, &mut out);
    assert_eq!(
        out,
        vec!["T:ab\u{e9}cdxy\u{1F600}zzz".to_owned(), "EOF".to_owned()]
    );
}

#[test]
fn cached_dynamic_names_follow_a_replaced_atom_table() {
    let names = |tok: &mut Tokenizer, input: &str| {
        tok.push_str(input);
        let mut out = Vec::new();
        while let Some(token) = tok.next_token().unwrap() {
            if let Token::StartTag(t) = &token {
                out.push((t.name_str().to_owned(), t.name.is_static()));
                for a in t.attrs.iter() {
                    out.push((t.atoms().name(a.name).to_owned(), a.name.is_static()));
                }
            }
        }
        out
    };
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    let first = names(&mut tok, "<x-y data-k=1><x-y data-k=2>");
    let dynamic = |n: &str| (n.to_owned(), false);
    assert_eq!(
        first,
        [
            dynamic("x-y"),
            dynamic("data-k"),
            dynamic("x-y"),
            dynamic("data-k")
        ]
    );
    // A new table where the old atoms mean other names (or nothing).
    let table = tok.atoms_mut();
    *table = AtomTable::new();
    table.intern("other-one");
    table.intern("other-two");
    let again = names(&mut tok, "<x-y data-k=3>");
    assert_eq!(again, [dynamic("x-y"), dynamic("data-k")]);
}

/// Every token is moved through `Flow` and `RawToken` a few times on its way
/// out: the rare tokens' fields stay in the tokenizer so the common ones are small.
#[test]
fn raw_tokens_stay_small() {
    assert!(std::mem::size_of::<super::RawToken>() <= 48);
    assert!(std::mem::size_of::<super::Flow>() <= 48);
}

#[test]
fn attributes_has_tests_presence_without_the_value() {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    tok.push_str(r#"<a href="" checked title=t>"#);
    tok.finish();
    let Some(Token::StartTag(tag)) = tok.next_token().unwrap() else {
        panic!("a start tag")
    };
    for name in [atom::HREF, atom::CHECKED, atom::TITLE] {
        assert!(tag.attrs.has(name));
        assert!(tag.attrs.value_of(name).is_some());
    }
    assert!(!tag.attrs.has(atom::ID));
    assert_eq!(tag.attrs.value_of(atom::ID), None);
}

#[test]
fn long_names_hit_the_long_name_cache_with_the_right_atoms() {
    // Names of 17 to 32 bytes are cached by first and last 16 bytes and length:
    // names sharing both ends but not the length, or one end only, stay apart;
    // 33 bytes is past the cache.
    let names = [
        "aaaaaaaaaaaaaaaaa",                 // 17
        "aaaaaaaaaaaaaaaaaa",                // 18: same ends as the 17
        "data-tracking-category",            // 22
        "data-tracking-label-x",             // 21
        "data-tracking-category-of-the-pag", // 33
        "aria-activedescendant",             // static, 21
        "abcdefghijklmnopqrstuvwxyz012345",  // 32
        "abcdefghijklmnopqrstuvwxyz01234x",  // 32, last byte differs
    ];
    let mut input = String::from("<p");
    for round in 0..3 {
        for n in names {
            let n = if round == 1 {
                n.to_ascii_uppercase()
            } else {
                n.to_owned()
            };
            input.push_str(&format!(" {n}=1"));
        }
    }
    input.push('>');
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    tok.push_str(&input);
    tok.finish();
    let Some(Token::StartTag(t)) = tok.next_token().unwrap() else {
        panic!("a start tag")
    };
    // Duplicates are dropped: each name once, in first-seen order.
    let got: Vec<(String, bool)> = t
        .attrs
        .iter()
        .map(|a| (t.atoms().name(a.name).to_owned(), a.name.is_static()))
        .collect();
    let expected: Vec<(String, bool)> = names
        .iter()
        .map(|&n| (n.to_owned(), n == "aria-activedescendant"))
        .collect();
    assert_eq!(got, expected);
    assert_eq!(tok.errors().len(), names.len() * 2, "{:?}", tok.errors());
}

/// A stream of 64 KiB chunks: once its buffer has room for the text held and
/// the next chunk, releasing consumed text no longer shrinks it (each shrink
/// was grown back by the next push), and the buffer stays about two chunks.
#[test]
fn a_streams_buffer_keeps_room_for_the_next_chunk() {
    let chunk = "<p class=x>some text &amp; more</p>\n".repeat(1800);
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    let mut capacities = Vec::new();
    let mut tokens = 0;
    for _ in 0..40 {
        tok.push_str(&chunk);
        let pushed = tok.input.buf.capacity();
        while tok.next_token().unwrap().is_some() {
            tokens += 1;
        }
        capacities.push((pushed, tok.input.buf.capacity()));
    }
    tok.finish();
    while tok.next_token().unwrap().is_some() {
        tokens += 1;
    }
    // Each line makes a start tag, its text, an end tag and a newline; then EOF.
    assert_eq!(tokens, 40 * 1800 * 4 + 1);
    let settled = capacities.get(4..).unwrap_or_default();
    assert!(
        settled.iter().all(|&(pushed, read)| pushed == read),
        "{capacities:?}"
    );
    assert!(
        settled.iter().all(|&(_, read)| read <= 4 * chunk.len()),
        "{capacities:?}"
    );
}

/// A token without its tag's view of the input buffer (which holds more input
/// when some is held).
fn summary(token: &Token<'_>) -> String {
    match token {
        Token::StartTag(t) | Token::EndTag(t) => format!(
            "tag {:?} {:?} {} {:?}",
            t.name,
            t.span,
            t.attrs.len(),
            t.attrs.iter().map(|a| a.name).collect::<Vec<_>>()
        ),
        other => format!("{other:?}"),
    }
}

/// Input held for the caller ([`Tokenizer::hold_from`]) stays readable by
/// offset while the tokenizer reads on; the tokens are those of a tokenizer
/// without a hold; input before the hold goes once the hold moves.
#[test]
fn held_input_is_kept_and_read_back_by_offset() {
    let line = "<p class=x>caf\u{e9} &amp; more</p>\r\n";
    let page = line.repeat(6000);
    let chunks: Vec<&str> = page
        .as_bytes()
        .chunks(64 * 1024)
        .map(|c| std::str::from_utf8(c).unwrap_or_default())
        .collect();
    assert_eq!(chunks.concat(), page, "the line is ASCII but one character");
    let read = |hold: bool| {
        let mut tok = Tokenizer::new(TokenizerConfig::default());
        if hold {
            tok.hold_from(0);
        }
        let mut seen = Vec::new();
        for chunk in &chunks {
            tok.push_str(chunk);
            while let Some(token) = tok.next_token().unwrap() {
                seen.push(summary(&token));
            }
        }
        tok.finish();
        while let Some(token) = tok.next_token().unwrap() {
            seen.push(summary(&token));
        }
        (tok, seen)
    };
    let (free, free_tokens) = read(false);
    let (mut held, held_tokens) = read(true);
    assert_eq!(held_tokens, free_tokens);
    assert!(free.held_text(0, 10).is_none(), "released as usual");
    assert_eq!(held.held_text(0, page.len()), Some(page.as_str()));
    assert_eq!(held.held_text(3, 14), Some("class=x>caf"));
    assert_eq!(held.held_text(15, 16), None, "inside a character");
    let from = page.len() / 2;
    let from = (from..).find(|&i| page.is_char_boundary(i)).unwrap_or(from);
    held.hold_from(from);
    held.compact();
    assert!(held.held_text(0, 10).is_none());
    assert_eq!(held.held_text(from, page.len()), page.get(from..));
}
