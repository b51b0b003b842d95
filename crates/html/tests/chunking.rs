//! Chunk boundaries never matter: every tokenizer-suite input, and random HTML, gives
//! the same tokens (adjacent characters coalesced) and the same errors whether it
//! arrives whole, one byte at a time, or in random pieces.

mod support;

use proptest::prelude::*;
use serde_json::Value;
use support::tokenizer_json::{run, state_from_name, suite_files, unescape};
use tagloom_html::tokenizer::State;

const STATES: [State; 6] = [
    State::Data,
    State::Rcdata,
    State::Rawtext,
    State::ScriptData,
    State::Plaintext,
    State::CdataSection,
];

/// Every (input, state, last start tag) of the suite.
fn suite_inputs() -> Vec<(String, State, Option<String>)> {
    let mut out = Vec::new();
    for (_, tests) in suite_files() {
        for test in &tests {
            let raw = test["input"].as_str().unwrap();
            let double = test
                .get("doubleEscaped")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let Some(input) = (if double {
                unescape(raw)
            } else {
                Some(raw.to_owned())
            }) else {
                continue;
            };
            let last = test
                .get("lastStartTag")
                .and_then(Value::as_str)
                .map(str::to_owned);
            let states = test
                .get("initialStates")
                .and_then(Value::as_array)
                .map(|s| {
                    s.iter()
                        .filter_map(|v| state_from_name(v.as_str()?))
                        .collect()
                })
                .unwrap_or_else(|| vec![State::Data]);
            for state in states {
                out.push((input.clone(), state, last.clone()));
            }
        }
    }
    out
}

/// A deterministic pseudo-random chunk plan (xorshift), lengths 1..=max.
fn plan(seed: u64, total: usize, max: usize) -> Vec<usize> {
    let mut x = seed | 1;
    let mut out = Vec::new();
    let mut sum = 0;
    while sum < total {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let len = 1 + (x as usize) % max;
        out.push(len);
        sum += len;
    }
    out
}

#[test]
fn suite_inputs_split_anywhere_tokenize_the_same() {
    let inputs = suite_inputs();
    let mut checked = 0;
    for (i, (input, state, last)) in inputs.iter().enumerate() {
        let whole = run(input, *state, last.as_deref(), &[]);
        let bytewise = run(input, *state, last.as_deref(), &vec![1; input.len()]);
        assert_eq!(
            whole, bytewise,
            "1-byte chunks differ for {input:?} in {state:?}"
        );
        for seed in 0..3u64 {
            let chunks = plan(seed * 7919 + i as u64, input.len(), 8);
            let random = run(input, *state, last.as_deref(), &chunks);
            assert_eq!(
                whole, random,
                "chunks {chunks:?} differ for {input:?} in {state:?}"
            );
        }
        checked += 1;
    }
    println!("chunking: {checked} suite inputs x (1-byte + 3 random plans) identical to whole");
}

/// Pieces random documents are made of: every syntax the tokenizer treats specially.
const PIECES: &[&str] = &[
    "<",
    ">",
    "/",
    "!",
    "?",
    "-",
    "--",
    "<!--",
    "-->",
    "--!>",
    "<!",
    "<!DOCTYPE",
    "doctype",
    " PUBLIC",
    " SYSTEM",
    "\"",
    "'",
    "=",
    "`",
    "&",
    "&amp",
    "&amp;",
    "&notin;",
    "&not",
    "&#",
    "&#x",
    "&#X1F600;",
    "&#128512",
    "&#0;",
    "&#x80;",
    ";",
    "[CDATA[",
    "<![CDATA[",
    "]]>",
    "]",
    "<script>",
    "</script>",
    "<script",
    "</scr",
    "<title>",
    "</title>",
    "<a",
    " href",
    "=x",
    "<div class='c'>",
    "</div>",
    "<br/>",
    "\r",
    "\n",
    "\r\n",
    "\t",
    "\u{C}",
    " ",
    "\0",
    "é",
    "😀",
    "\u{FFFF}",
    "\u{1}",
    "text",
    "A",
    "Z",
];

fn random_doc() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..40).prop_map(|p| p.concat())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_html_split_anywhere_tokenizes_the_same(
        doc in random_doc(),
        state_index in 0..STATES.len(),
        last in prop::sample::select(&["script", "title", "style", "textarea"][..]),
        sizes in prop::collection::vec(1usize..12, 1..64),
    ) {
        let state = STATES[state_index];
        let whole = run(&doc, state, Some(last), &[]);
        let bytewise = run(&doc, state, Some(last), &vec![1; doc.len()]);
        prop_assert_eq!(&whole, &bytewise);
        let chunked = run(&doc, state, Some(last), &sizes);
        prop_assert_eq!(&whole, &chunked);
    }
}

/// Token spans tile the input: each starts where the previous one ended, and the
/// last ends at the end of the input unless an unfinished tag was dropped at EOF.
fn check_spans_tile(doc: &str, chunk: usize) -> Result<(), String> {
    use tagloom_html::token::Token;
    use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    let mut at = 0;
    let mut check = |tok: &mut Tokenizer| -> Result<(), String> {
        while let Some(token) = tok.next_token().map_err(|e| e.to_string())? {
            if matches!(token, Token::Eof) {
                continue;
            }
            let span = token.span();
            if span.start != at || span.end < span.start {
                return Err(format!("{token:?} at {span:?}, expected start {at}"));
            }
            at = span.end;
        }
        Ok(())
    };
    for piece in doc.as_bytes().chunks(chunk.max(1)) {
        tok.push_bytes(piece);
        check(&mut tok)?;
    }
    tok.finish();
    check(&mut tok)?;
    let rest = &doc[at..];
    if !rest.is_empty() && !rest.starts_with('<') {
        return Err(format!("untokenized tail {rest:?}"));
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn token_spans_tile_the_input(doc in random_doc(), chunk in 1usize..16) {
        prop_assert_eq!(check_spans_tile(&doc, chunk), Ok(()));
        prop_assert_eq!(check_spans_tile(&doc, usize::MAX), Ok(()));
    }
}
