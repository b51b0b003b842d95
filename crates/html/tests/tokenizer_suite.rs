//! html5lib-tests tokenizer suite (tests/data/html5lib/tokenizer, copied from
//! html5lib-tests): every test, in every initial state it lists, must produce the
//! expected tokens and the expected errors (code, line and column). Prints pass
//! counts per file. Known failures are listed in tests/known-failures/tokenizer.txt
//! with their reasons; any other failure fails the test.

mod support;

use std::collections::BTreeSet;
use std::path::Path;

use serde_json::Value;
use support::tokenizer_json::{
    coalesce, run, state_from_name, suite_files, unescape, unescape_value,
};
use tagloom_html::xml_infoset::{coerce_comment, coerce_name, coerce_text};

/// Applies §13.2.9 to one token in the suite's JSON form.
fn coerce_to_infoset(token: &Value) -> Value {
    let text = |v: &Value| Value::String(coerce_text(v.as_str().unwrap_or("")).into_owned());
    let mut token = token.clone();
    match token.get(0).and_then(Value::as_str) {
        Some("Character") => token[1] = text(&token[1]),
        Some("Comment") => {
            token[1] = Value::String(coerce_comment(token[1].as_str().unwrap_or("")).into_owned())
        }
        Some("StartTag") => {
            token[1] = Value::String(coerce_name(token[1].as_str().unwrap_or("")).into_owned());
            if let Some(attrs) = token[2].as_object() {
                let coerced = attrs
                    .iter()
                    .map(|(k, v)| (coerce_name(k).into_owned(), text(v)))
                    .collect();
                token[2] = Value::Object(coerced);
            }
        }
        _ => {}
    }
    token
}

struct Case {
    file: String,
    description: String,
    input: Option<String>,
    state_name: String,
    last_start_tag: Option<String>,
    output: Option<Vec<Value>>,
    /// `None` when the test gives no error list (the xmlViolation tests).
    errors: Option<Vec<(String, u32, u32)>>,
    /// The test expects §13.2.9 "coercing an HTML DOM into an infoset".
    xml_infoset: bool,
}

fn load_cases() -> Vec<Case> {
    let mut cases = Vec::new();
    for (file, tests) in suite_files() {
        let xml_infoset = file == "xmlViolation.test";
        for test in &tests {
            let double = test
                .get("doubleEscaped")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let raw_input = test["input"].as_str().unwrap();
            let input = if double {
                unescape(raw_input)
            } else {
                Some(raw_input.to_owned())
            };
            let output = test["output"].as_array().unwrap();
            let output = if double {
                output
                    .iter()
                    .map(unescape_value)
                    .collect::<Option<Vec<_>>>()
            } else {
                Some(output.clone())
            };
            let errors: Option<Vec<(String, u32, u32)>> =
                test.get("errors").and_then(Value::as_array).map(|errs| {
                    errs.iter()
                        .map(|e| {
                            (
                                e["code"].as_str().unwrap().to_owned(),
                                e["line"].as_u64().unwrap() as u32,
                                e["col"].as_u64().unwrap() as u32,
                            )
                        })
                        .collect()
                });
            let states: Vec<String> = test
                .get("initialStates")
                .and_then(Value::as_array)
                .map(|s| s.iter().map(|v| v.as_str().unwrap().to_owned()).collect())
                .unwrap_or_else(|| vec!["Data state".to_owned()]);
            for state_name in states {
                cases.push(Case {
                    file: file.clone(),
                    description: test["description"].as_str().unwrap().to_owned(),
                    input: input.clone(),
                    state_name,
                    last_start_tag: test
                        .get("lastStartTag")
                        .and_then(Value::as_str)
                        .map(str::to_owned),
                    output: output.as_ref().map(|o| coalesce(o)),
                    errors: errors.clone(),
                    xml_infoset,
                });
            }
        }
    }
    cases
}

fn known_failures() -> BTreeSet<String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/known-failures/tokenizer.txt");
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| l.split(" | ").next().map(|k| k.trim().to_owned()))
        .collect()
}

fn key(case: &Case) -> String {
    format!("{}: {} [{}]", case.file, case.description, case.state_name)
}

#[test]
fn html5lib_tokenizer_suite() {
    let cases = load_cases();
    let known = known_failures();
    let mut per_file: std::collections::BTreeMap<String, (usize, usize, usize, usize)> =
        Default::default();
    let mut unexpected = Vec::new();
    let mut known_hit = 0;
    for case in &cases {
        let entry = per_file.entry(case.file.clone()).or_default();
        entry.0 += 1;
        let (tokens_ok, errors_ok, detail) = match (&case.input, &case.output) {
            (Some(input), Some(output)) => {
                let state = state_from_name(&case.state_name).expect("known state");
                let mut got = run(input, state, case.last_start_tag.as_deref(), &[]);
                if case.xml_infoset {
                    got.tokens = got.tokens.iter().map(coerce_to_infoset).collect();
                }
                let tokens_ok = &got.tokens == output;
                let errors_ok = case.errors.as_ref().is_none_or(|want| &got.errors == want);
                (
                    tokens_ok,
                    errors_ok,
                    format!(
                        "\n  input {input:?}\n  want {output:?}\n  got  {:?}\n  want errors {:?}\n  got errors  {:?}",
                        got.tokens, case.errors, got.errors
                    ),
                )
            }
            _ => (
                false,
                false,
                "input or output not representable as a Rust string".to_owned(),
            ),
        };
        if tokens_ok {
            entry.1 += 1;
        }
        if errors_ok {
            entry.2 += 1;
        }
        if tokens_ok && errors_ok {
            entry.3 += 1;
        } else if known.contains(&key(case)) {
            known_hit += 1;
        } else {
            unexpected.push(format!("{}{}", key(case), detail));
        }
    }
    println!("html5lib tokenizer suite (runs = tests x initial states):");
    let mut total = (0, 0, 0, 0);
    for (file, (n, tok, err, both)) in &per_file {
        println!("  {file:28} {both:5}/{n:<5} pass  (tokens {tok}/{n}, errors {err}/{n})");
        total = (total.0 + n, total.1 + tok, total.2 + err, total.3 + both);
    }
    println!(
        "  {:28} {:5}/{:<5} pass  (tokens {}/{}, errors {}/{}); known failures: {known_hit}",
        "TOTAL", total.3, total.0, total.1, total.0, total.2, total.0
    );
    println!("tokenizer suite: {} of {} runs pass", total.3, total.0);
    for u in unexpected.iter().take(40) {
        println!("FAIL {u}");
    }
    assert!(
        unexpected.is_empty(),
        "{} unexpected failures",
        unexpected.len()
    );
}
