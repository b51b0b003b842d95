//! The html5lib-tests `encoding/` suite, run through `sniff::sniff_encoding` (the
//! function `tagloom sniff` calls) and, for the pre-scan part, through the
//! streaming decoder at several chunk sizes.
//!
//! Fixtures: `tests/data/html5lib/encoding/` (see its `SOURCE.md`). Expected
//! failures: `tests/encoding_known_failures.txt`. Per-file counts are always
//! printed (see them with `cargo test --test encoding_suite -- --nocapture`).

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

use tagloom_html::decoder::{Autodetect, ByteStreamDecoder, DecoderConfig, EncodingSource, sniff};
use tagloom_html::sniff::sniff_encoding_with;

const FILES: [&str; 4] = [
    "tests1.dat",
    "tests2.dat",
    "test-yahoo-jp.dat",
    "scripted/tests1.dat",
];

struct Case {
    data: Vec<u8>,
    expected: String,
}

fn data_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/html5lib/encoding")
}

/// Splits a `.dat` file into its `#data` / `#encoding` blocks (other sections, such
/// as `#description`, are skipped). The data is the bytes between the `#data` line
/// and the next section line, without the newline that precedes that line.
fn parse_dat(bytes: &[u8]) -> Result<Vec<Case>, String> {
    let mut cases = Vec::new();
    let mut section: Option<&[u8]> = None;
    let mut data: Vec<&[u8]> = Vec::new();
    let mut expected: Option<String> = None;
    let flush = |data: &mut Vec<&[u8]>, expected: &mut Option<String>, cases: &mut Vec<Case>| {
        if data.is_empty() && expected.is_none() {
            return Ok(());
        }
        let expected = expected
            .take()
            .ok_or_else(|| format!("a #data block without #encoding ({} lines)", data.len()))?;
        cases.push(Case {
            data: data.join(&b"\n"[..]),
            expected,
        });
        data.clear();
        Ok::<(), String>(())
    };
    for line in bytes.split(|&b| b == b'\n') {
        if line.first() == Some(&b'#') {
            if line == b"#data" {
                flush(&mut data, &mut expected, &mut cases)?;
            }
            section = Some(line);
            continue;
        }
        match section {
            Some(b"#data") => data.push(line),
            Some(b"#encoding") if expected.is_none() && !line.is_empty() => {
                expected = Some(String::from_utf8_lossy(line).trim().to_string());
            }
            _ => {}
        }
    }
    flush(&mut data, &mut expected, &mut cases)?;
    Ok(cases)
}

fn known_failures() -> BTreeMap<String, String> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/encoding_known_failures.txt");
    let text = fs::read_to_string(&path).unwrap_or_default();
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(|l| match l.split_once(char::is_whitespace) {
            Some((id, reason)) => (id.to_string(), reason.trim().to_string()),
            None => (l.to_string(), String::new()),
        })
        .collect()
}

/// The encoding the streaming decoder settles on before any tree builder runs,
/// with `chunk`-byte pushes.
fn streamed_encoding(data: &[u8], chunk: usize) -> Option<&'static str> {
    let mut dec = ByteStreamDecoder::new(DecoderConfig::default());
    let mut out = String::new();
    for piece in data.chunks(chunk) {
        dec.push(piece, &mut out).ok()?;
    }
    dec.finish(&mut out).ok()?;
    dec.encoding().map(|e| e.name())
}

#[test]
fn html5lib_encoding_suite() {
    let known = known_failures();
    let mut problems = Vec::new();
    let mut seen_known = 0usize;
    let (mut total, mut total_passed) = (0usize, 0usize);
    for file in FILES {
        let bytes = match fs::read(data_dir().join(file)) {
            Ok(b) => b,
            Err(e) => {
                problems.push(format!("{file}: cannot read: {e}"));
                continue;
            }
        };
        let cases = match parse_dat(&bytes) {
            Ok(c) => c,
            Err(e) => {
                problems.push(format!("{file}: {e}"));
                continue;
            }
        };
        let (mut passed, mut expected_fail, mut by_parser_meta) = (0usize, 0usize, 0usize);
        for (index, case) in cases.iter().enumerate() {
            let id = format!("{file}#{index}");
            let result = tagloom_html::sniff::sniff_encoding(&case.data, None);
            let got = result.encoding.name();
            if result.source == EncodingSource::ParserMeta {
                by_parser_meta += 1;
            }
            let ok = got.eq_ignore_ascii_case(&case.expected);
            // What the CLI does (it guesses undeclared encodings): the same answer
            // on every case of the suite, none of which has undeclared non-ASCII.
            let guessing = sniff_encoding_with(
                &case.data,
                DecoderConfig {
                    autodetect: Autodetect::Statistical,
                    ..DecoderConfig::default()
                },
            );
            if guessing.encoding != result.encoding {
                problems.push(format!(
                    "{id}: with autodetection {}, without {got}",
                    guessing.encoding.name()
                ));
            }
            // The streaming decoder must agree with `sniff` on the first pass.
            let first_pass = sniff(&case.data, None).encoding.name();
            for chunk in [1, 7, 1024, case.data.len().max(1)] {
                let streamed = streamed_encoding(&case.data, chunk);
                if streamed != Some(first_pass) {
                    problems.push(format!(
                        "{id}: streaming decoder (chunk {chunk}) gave {streamed:?}, sniff gave {first_pass}"
                    ));
                }
            }
            match (ok, known.get(&id)) {
                (true, None) => passed += 1,
                (false, Some(_)) => expected_fail += 1,
                (true, Some(_)) => problems.push(format!(
                    "{id}: listed as a known failure but passes; remove it from the list"
                )),
                (false, None) => problems.push(format!(
                    "{id}: expected {}, got {got}; data {:?}",
                    case.expected,
                    String::from_utf8_lossy(&case.data)
                )),
            }
        }
        seen_known += expected_fail;
        total += cases.len();
        total_passed += passed;
        println!(
            "encoding/{file}: {passed}/{} passed{} ({by_parser_meta} decided by a <meta> after the pre-scan)",
            cases.len(),
            if expected_fail > 0 {
                format!(", {expected_fail} known failure(s)")
            } else {
                String::new()
            }
        );
    }
    for (id, reason) in &known {
        println!("known failure {id}: {reason}");
    }
    if seen_known != known.len() {
        problems.push(format!(
            "{} known failure(s) listed, {seen_known} seen: the list names missing tests",
            known.len()
        ));
    }
    println!(
        "encoding suite: {total_passed}/{total} passed, {seen_known} known failure(s) (scripting), {} problem(s)",
        problems.len()
    );
    for p in &problems {
        println!("  {p}");
    }
    assert!(
        problems.is_empty(),
        "{} problem(s), see output",
        problems.len()
    );
    assert_eq!(total_passed + seen_known, total);
}

#[test]
fn dat_parser_handles_descriptions_and_multiline_data() {
    let cases = parse_dat(
        b"#description\nx\n#data\na\n\nb\n#encoding\nUTF-8\n\n#data\n<\n#encoding\nwindows-1252\n",
    )
    .expect("parse");
    assert_eq!(cases.len(), 2);
    assert_eq!(cases[0].data, b"a\n\nb");
    assert_eq!(cases[0].expected, "UTF-8");
    assert_eq!(cases[1].data, b"<");
}
