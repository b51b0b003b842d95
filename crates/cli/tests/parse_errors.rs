//! `tagloom parse --errors`: every parse error (tokenizer and tree construction) on
//! standard error, one line each in source order; standard output unchanged.

use std::io::Write;
use std::process::{Command, Output, Stdio};

fn parse(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_tagloom"))
        .arg("parse")
        .args(args)
        .arg("-")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // A child that fails on its arguments may exit before reading: a closed pipe
    // is fine here.
    let _ = child.stdin.take().unwrap().write_all(input);
    child.wait_with_output().unwrap()
}

const PAGE: &[u8] = b"<p>a</b>\n<x y y>\r\n<table>x</table>";

#[test]
fn errors_are_listed_in_source_order_and_the_output_is_unchanged() {
    let plain = parse(&[], PAGE);
    let listed = parse(&["--errors"], PAGE);
    assert!(listed.status.success());
    assert_eq!(listed.stdout, plain.stdout);
    assert!(plain.stderr.is_empty());
    assert_eq!(
        String::from_utf8(listed.stderr).unwrap(),
        "1:1: missing-doctype\n\
         1:5: end-tag-without-open-element\n\
         2:7: duplicate-attribute\n\
         3:8: foster-parented-content\n\
         3:17: eof-with-open-elements\n"
    );
}

#[test]
fn json_lines_and_chunking() {
    let whole = parse(&["--errors=json", "--format", "none"], PAGE);
    assert!(whole.status.success());
    assert!(whole.stdout.is_empty());
    let stderr = String::from_utf8(whole.stderr).unwrap();
    let lines: Vec<&str> = stderr.lines().collect();
    assert_eq!(lines.len(), 5);
    assert_eq!(
        lines[2],
        r#"{"line":2,"col":7,"offset":15,"code":"duplicate-attribute","stage":"tokenizer"}"#
    );
    assert!(lines[0].ends_with(r#""code":"missing-doctype","stage":"tree"}"#));
    // Fed 3 bytes at a time: the same errors (none here is inside a text run).
    let chunked = parse(
        &["--errors=json", "--format", "none", "--chunk-size", "3"],
        PAGE,
    );
    assert_eq!(String::from_utf8(chunked.stderr).unwrap(), stderr);
}

#[test]
fn errors_before_a_late_meta_are_listed_once() {
    // The <meta> after the first 1024 bytes restarts the parse (the non-ASCII byte
    // before it decodes differently); the errors before it are listed once.
    let mut page = b"<p>a</b><title>\xE9".to_vec();
    page.resize(3000, b'x');
    page.extend_from_slice(b"</title><meta charset=iso-8859-2></y>");
    let out = parse(
        &["--errors", "--format", "none", "--chunk-size", "500"],
        &page,
    );
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stderr).unwrap(),
        "1:1: missing-doctype\n1:5: end-tag-without-open-element\n1:3034: end-tag-without-open-element\n"
    );
}

#[test]
fn a_bad_errors_format_is_a_usage_error() {
    let out = parse(&["--errors=xml"], b"<p>");
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
}
