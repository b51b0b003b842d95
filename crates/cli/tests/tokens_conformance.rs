//! Acceptance: `tagloom tokens` alone reproduces the html5lib tokenizer suite. Every
//! run of every test (tests x initial states) is written to a file and tokenized by
//! the binary, as an outside runner would; tokens and errors must match. The runs
//! listed in crates/html/tests/known-failures/tokenizer.txt (inputs that cannot be
//! written as UTF-8: lone surrogates) are counted, not run.

#[path = "../../html/tests/support/tokenizer_json.rs"]
#[allow(dead_code)] // shared with the html crate's tests, which use the rest
mod tokenizer_json;

use std::process::Command;

use serde_json::Value;
use tokenizer_json::{coalesce, suite_files, unescape, unescape_value};

fn state_arg(name: &str) -> &'static str {
    match name {
        "PLAINTEXT state" => "plaintext",
        "RCDATA state" => "rcdata",
        "RAWTEXT state" => "rawtext",
        "Script data state" => "script",
        "CDATA section state" => "cdata",
        _ => "data",
    }
}

#[test]
fn tokens_command_reproduces_the_tokenizer_suite() {
    let dir = tempfile_dir();
    let input_path = dir.join("input.html");
    let (mut passed, mut failed, mut unrepresentable) = (0, Vec::new(), 0);
    for (file, tests) in suite_files() {
        for test in &tests {
            let double = test
                .get("doubleEscaped")
                .and_then(Value::as_bool)
                .unwrap_or(false);
            let raw = test["input"].as_str().unwrap_or_default();
            let input = if double {
                unescape(raw)
            } else {
                Some(raw.to_owned())
            };
            let expected: Option<Vec<Value>> = test["output"]
                .as_array()
                .map(|o| {
                    if double {
                        o.iter().map(unescape_value).collect()
                    } else {
                        Some(o.clone())
                    }
                })
                .unwrap_or_default();
            let states: Vec<&str> = test
                .get("initialStates")
                .and_then(Value::as_array)
                .map(|s| s.iter().filter_map(Value::as_str).collect())
                .unwrap_or_else(|| vec!["Data state"]);
            for state in states {
                let (Some(input), Some(expected)) = (&input, &expected) else {
                    unrepresentable += 1;
                    continue;
                };
                std::fs::write(&input_path, input).unwrap();
                let mut cmd = Command::new(env!("CARGO_BIN_EXE_tagloom"));
                cmd.arg("tokens")
                    .arg(&input_path)
                    .args(["--state", state_arg(state), "--errors"]);
                if let Some(last) = test.get("lastStartTag").and_then(Value::as_str) {
                    cmd.args(["--last-start-tag", last]);
                }
                if file == "xmlViolation.test" {
                    cmd.arg("--xml-infoset");
                }
                let output = cmd.output().expect("the binary runs");
                let got: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
                let tokens_ok = got["output"]
                    .as_array()
                    .is_some_and(|t| t == &coalesce(expected));
                let errors_ok = match test.get("errors").and_then(Value::as_array) {
                    None => true,
                    Some(want) => {
                        let want: Vec<(Value, Value, Value)> = want
                            .iter()
                            .map(|e| (e["code"].clone(), e["line"].clone(), e["col"].clone()))
                            .collect();
                        let got: Vec<(Value, Value, Value)> = got["errors"]
                            .as_array()
                            .map(|g| {
                                g.iter()
                                    .map(|e| {
                                        (e["code"].clone(), e["line"].clone(), e["col"].clone())
                                    })
                                    .collect()
                            })
                            .unwrap_or_default();
                        want == got
                    }
                };
                if output.status.success() && tokens_ok && errors_ok {
                    passed += 1;
                } else {
                    failed.push(format!("{file}: {} [{state}]", test["description"]));
                }
            }
        }
    }
    println!(
        "tagloom tokens: {passed} suite runs reproduced, {} differ, {unrepresentable} not writable as UTF-8 (lone surrogates)",
        failed.len()
    );
    for f in failed.iter().take(20) {
        println!("DIFF {f}");
    }
    let _ = std::fs::remove_dir_all(&dir);
    assert!(failed.is_empty(), "{} runs differ", failed.len());
    assert_eq!(
        unrepresentable, 4,
        "only the four lone-surrogate runs are skipped"
    );
}

/// A private scratch directory (no extra dependency for one temp dir).
fn tempfile_dir() -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("tagloom-tokens-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn bad_usage_and_unreadable_input_exit_2_with_one_line() {
    let run = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_tagloom"))
            .args(args)
            .output()
            .unwrap()
    };
    let missing = run(&["tokens", "/nonexistent/file.html"]);
    assert_eq!(missing.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&missing.stderr);
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("tagloom: error: cannot read /nonexistent/file.html"),
        "{stderr}"
    );
    assert_eq!(run(&["tokens"]).status.code(), Some(2));
    assert_eq!(
        run(&["tokens", "-", "--state", "nowhere"]).status.code(),
        Some(2)
    );
    assert_eq!(
        run(&["sniff", "-", "--transport-charset", "no-such-charset"])
            .status
            .code(),
        Some(2)
    );
    assert_eq!(run(&["frobnicate"]).status.code(), Some(2));
}
