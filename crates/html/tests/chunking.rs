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

/// A token as skim mode must keep it: tags by name, flag and span (and
/// attributes where they are read), everything else whole; character runs
/// coalesced.
fn skim_tokens(
    doc: &str,
    state: State,
    mode: &tagloom_html::tokenizer::AttributeMode,
    chunks: &[usize],
) -> Vec<String> {
    skim_tokens_in(doc, state, mode, Default::default(), chunks)
}

fn skim_tokens_in(
    doc: &str,
    state: State,
    mode: &tagloom_html::tokenizer::AttributeMode,
    text: tagloom_html::tokenizer::TextMode,
    chunks: &[usize],
) -> Vec<String> {
    use tagloom_html::token::Token;
    use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
    let mut tok = Tokenizer::new(TokenizerConfig {
        initial_state: state,
        last_start_tag: Some("title".to_owned()),
        ..TokenizerConfig::default()
    });
    tok.set_attribute_mode(mode.clone());
    tok.set_text_mode(text);
    let mut out = Vec::new();
    // Character runs by text only: where a CDATA section's `]]>` ends up depends
    // on the chunking in full mode too (the existing checks compare text only).
    let mut text: Option<String> = None;
    let mut drain = |tok: &mut Tokenizer, out: &mut Vec<String>| {
        while let Some(token) = tok.next_token().expect("no limit") {
            if let Token::Characters(t) = &token {
                text.get_or_insert_with(String::new).push_str(t.text);
                continue;
            }
            if let Some(t) = text.take() {
                out.push(format!("C {t:?}"));
            }
            let line = match &token {
                Token::StartTag(tag) | Token::EndTag(tag) => {
                    let attrs: Vec<_> = tag
                        .attrs
                        .iter()
                        .map(|a| format!("{}={:?}", tag.atoms().name(a.name), a.value))
                        .collect();
                    format!(
                        "{} {} /{} {:?} {attrs:?}",
                        if matches!(token, Token::StartTag(_)) {
                            "S"
                        } else {
                            "E"
                        },
                        tag.name_str(),
                        tag.self_closing,
                        tag.span,
                    )
                }
                other => format!("{other:?}"),
            };
            out.push(line);
        }
    };
    let bytes = doc.as_bytes();
    let mut at = 0;
    for &len in chunks {
        let end = (at + len).min(bytes.len());
        tok.push_bytes(&bytes[at..end]);
        at = end;
        drain(&mut tok, &mut out);
    }
    tok.push_bytes(&bytes[at..]);
    tok.finish();
    drain(&mut tok, &mut out);
    if let Some(t) = text.take() {
        out.push(format!("C {t:?}"));
    }
    out
}

/// What full tokenization becomes when the tags outside `keep` are skimmed: the
/// same lines with no attributes on skimmed tags (and on every end tag).
fn expected_skim(full: &[String], keep: &[&str]) -> Vec<String> {
    full.iter()
        .map(|line| {
            let mut parts = line.splitn(3, ' ');
            let (kind, name) = (parts.next().unwrap_or(""), parts.next().unwrap_or(""));
            let skimmed = kind == "E" || (kind == "S" && !keep.contains(&name));
            match (skimmed, line.rfind(" [")) {
                (true, Some(at)) => format!("{} []", &line[..at]),
                _ => line.clone(),
            }
        })
        .collect()
}

fn skim_mode(keep: &[&str]) -> tagloom_html::tokenizer::AttributeMode {
    use tagloom_html::atom::Atom;
    use tagloom_html::tokenizer::{AttributeMode, TagSet};
    AttributeMode::Only(TagSet::from_atoms(
        keep.iter()
            .filter_map(|n| Atom::lookup_static(n.as_bytes())),
    ))
}

/// More tag shapes for the skim property: quotes that hide `>` and `/`, values
/// that hold quotes, `=` and `/` in odd places.
const SKIM_PIECES: &[&str] = &[
    "<div",
    "<a",
    "<font",
    "</a",
    "</p",
    " title=\"a>b\"",
    " x='/>'",
    " y=a'b",
    " z=/",
    "\"x\"",
    "'y'",
    " = ",
    "/ ",
    "/>",
    "a\"b",
    "=",
    "'",
    "\"",
    ">",
    "\r",
    " ",
    "/",
    "&gt;",
];

fn skim_doc() -> impl Strategy<Value = String> {
    let pieces: Vec<&str> = PIECES.iter().chain(SKIM_PIECES).copied().collect();
    prop::collection::vec(prop::sample::select(pieces), 0..40).prop_map(|p| p.concat())
}

#[test]
fn suite_inputs_skimmed_keep_names_spans_and_flags() {
    let mut checked = 0;
    for (i, (input, state, _)) in suite_inputs().iter().enumerate() {
        let full = skim_tokens(input, *state, &Default::default(), &[]);
        for keep in [&[][..], &["a", "font"][..]] {
            let expected = expected_skim(&full, keep);
            let whole = skim_tokens(input, *state, &skim_mode(keep), &[]);
            assert_eq!(whole, expected, "skimming {keep:?} changed {input:?}");
            let chunks = plan(i as u64 * 31 + 7, input.len(), 5);
            let split_full = skim_tokens(input, *state, &Default::default(), &chunks);
            let split = skim_tokens(input, *state, &skim_mode(keep), &chunks);
            assert_eq!(
                split,
                expected_skim(&split_full, keep),
                "chunks {chunks:?} of {input:?}"
            );
        }
        checked += 1;
    }
    println!("skim: {checked} suite inputs, full vs skimmed, whole and split");
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    /// Skim mode gives full mode's names, flags, spans and everything between the
    /// tags, under any chunking.
    #[test]
    fn skimmed_tags_keep_names_spans_and_flags_under_any_chunking(
        doc in skim_doc(),
        state_index in 0..STATES.len(),
        keep_a in any::<bool>(),
        sizes in prop::collection::vec(1usize..12, 1..64),
    ) {
        let state = STATES[state_index];
        use tagloom_html::tokenizer::TextMode;
        let keep: &[&str] = if keep_a { &["a"] } else { &[] };
        let mode = skim_mode(keep);
        // Against full mode under the same chunking: in the CDATA section state
        // the span of the token after `]]>` depends on the chunking in full mode
        // too (a known difference, listed in `known-failures/README.md`).
        for chunks in [vec![], vec![1; doc.len()], sizes] {
            let full = skim_tokens(&doc, state, &Default::default(), &chunks);
            let expected = expected_skim(&full, keep);
            prop_assert_eq!(&skim_tokens(&doc, state, &mode, &chunks), &expected);
            // Raw text changes the text only, never where tags are.
            let raw = skim_tokens_in(&doc, state, &mode, TextMode::Raw, &chunks);
            let no_text = |lines: &[String]| -> Vec<String> {
                lines.iter().filter(|l| !l.starts_with("C ")).cloned().collect()
            };
            prop_assert_eq!(no_text(&raw), no_text(&expected));
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// `AttributeMode::OnlyWith`: every tag is what full mode or skim mode makes
    /// of it (names, flags, spans, all that follows, whatever the chunking), and
    /// a start tag with a trigger attribute always gets its attributes.
    #[test]
    fn tags_with_a_trigger_attribute_are_read_in_full_under_any_chunking(
        doc in skim_doc(),
        state_index in 0..STATES.len(),
        sizes in prop::collection::vec(1usize..12, 1..64),
    ) {
        use tagloom_html::tokenizer::{AttributeMode, TagSet};
        let state = STATES[state_index];
        let triggers = ["title", "x"];
        let mode = AttributeMode::OnlyWith {
            tags: TagSet::new(),
            attributes: triggers.iter().map(|t| (*t).to_owned()).collect(),
        };
        for chunks in [vec![], vec![1; doc.len()], sizes] {
            let full = skim_tokens(&doc, state, &Default::default(), &chunks);
            let skimmed = expected_skim(&full, &[]);
            let got = skim_tokens(&doc, state, &mode, &chunks);
            prop_assert_eq!(got.len(), full.len());
            for ((g, f), s) in got.iter().zip(&full).zip(&skimmed) {
                prop_assert!(g == f || g == s, "{:?}: neither {:?} nor {:?}", g, f, s);
                // An attribute's rendering starts a list element (`["name=` or
                // `, "name=`); inside a value a quote is escaped (`\"`), so a value
                // holding `title=` does not count.
                let has_trigger = f.starts_with("S ")
                    && triggers.iter().any(|t| {
                        f.contains(&format!("[\"{t}=")) || f.contains(&format!(", \"{t}="))
                    });
                prop_assert!(!has_trigger || g == f, "{:?} not read in full", f);
            }
        }
    }
}
