//! Streaming through the binary: `sniff` reads only the prefix that decides, `tokens`
//! writes the very bytes a whole-array serialization would, and a late `<meta>` in a
//! long document counts for `sniff` and `parse` alike.

mod support;

use std::fs::File;
use std::io::{Seek, Write};
use std::path::{Path, PathBuf};
use support::tagloom;

fn scratch(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("tagloom-stream-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `head` then `filler` up to `len` bytes.
fn write_page(path: &Path, head: &[u8], len: usize) {
    let mut page = head.to_vec();
    let line = b"Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n";
    while page.len() < len {
        page.extend_from_slice(line);
    }
    page.truncate(len.max(head.len()));
    File::create(path).unwrap().write_all(&page).unwrap();
}

/// Runs `tagloom sniff -` with `path` as standard input; returns what it printed and
/// how far it read (the child shares the file offset).
fn sniff_stdin(path: &Path, extra: &[&str]) -> (String, u64) {
    let mut file = File::open(path).unwrap();
    let out = tagloom()
        .args(["sniff", "-"])
        .args(extra)
        .stdin(file.try_clone().unwrap())
        .output()
        .unwrap();
    assert!(out.status.success());
    let read = file.stream_position().unwrap();
    (String::from_utf8(out.stdout).unwrap(), read)
}

#[test]
fn sniff_reads_only_the_prefix_that_decides() {
    let dir = scratch("sniff");
    let page = dir.join("page.html");
    let len = 16 << 20;
    let slack = 256 * 1024;
    // Confirmed by the tree builder at the <meta>: the first piece decides.
    write_page(&page, b"<!DOCTYPE html><meta charset=utf-8><pre>\n", len);
    let (name, read) = sniff_stdin(&page, &[]);
    assert_eq!(name, "UTF-8\n");
    assert!(read <= slack, "read {read}");
    // A transport charset decides at once.
    let (name, read) = sniff_stdin(&page, &["--transport-charset", "latin2"]);
    assert_eq!(name, "ISO-8859-2\n");
    assert!(read <= slack, "read {read}");
    // Nothing declared: the restart window (1 MiB) is read, and no more.
    write_page(&page, b"<!DOCTYPE html><pre>\n", len);
    let (name, read) = sniff_stdin(&page, &[]);
    assert_eq!(name, "windows-1252\n");
    assert!(read >= 1 << 20 && read <= (1 << 20) + slack, "read {read}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_late_meta_in_a_long_document_counts_for_sniff_and_parse() {
    let dir = scratch("late");
    let page = dir.join("page.html");
    // After the pre-scan's 1024 bytes, inside the restart window; 3 MB in all.
    let mut head = b"<!DOCTYPE html><title>".to_vec();
    head.resize(2000, b'x');
    head.extend_from_slice(b"</title><meta charset=iso-8859-2><p>\xB1</p><pre>\n");
    write_page(&page, &head, 3 << 20);
    let (name, _) = sniff_stdin(&page, &[]);
    assert_eq!(name, "ISO-8859-2\n");
    let out = tagloom()
        .arg("parse")
        .arg(&page)
        .args(["--format", "html"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let html = String::from_utf8(out.stdout).unwrap();
    assert!(html.contains("<p>\u{105}</p>"), "{}", &html[..200]);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tokens_output_is_what_serializing_the_whole_array_gives() {
    let dir = scratch("tokens");
    let page = dir.join("page.html");
    let mut html = String::from("<!DOCTYPE html><title>a \"quoted\" \\ title</title>");
    for i in 0..3000 {
        html.push_str(&format!(
            "<p class=c{i} id='x\t{i}'>text\u{1} &amp; <b>{i}</b>\r\n\u{e9}\u{1F600}<!--c--></p>"
        ));
    }
    std::fs::write(&page, &html).unwrap();
    let run = |extra: &[&str]| {
        let out = tagloom()
            .arg("tokens")
            .arg(&page)
            .args(extra)
            .output()
            .unwrap();
        assert!(out.status.success());
        out.stdout
    };
    let whole = run(&[]);
    // serde_json (without `preserve_order`) sorts attributes, as the tokens did.
    let value: serde_json::Value = serde_json::from_slice(&whole).unwrap();
    let mut reserialized = serde_json::to_vec(&value).unwrap();
    reserialized.push(b'\n');
    assert!(reserialized == whole, "the streamed JSON differs");
    assert!(value.as_array().is_some_and(|a| a.len() > 3000 * 5));
    for chunk in ["1", "7", "4096"] {
        assert!(
            run(&["--chunk-size", chunk]) == whole,
            "--chunk-size {chunk}"
        );
    }
    // With --errors: the same tokens, and the errors.
    let with_errors: serde_json::Value = serde_json::from_slice(&run(&["--errors"])).unwrap();
    assert_eq!(with_errors["output"], value);
    assert!(
        with_errors["errors"]
            .as_array()
            .is_some_and(|e| !e.is_empty())
    );
    let _ = std::fs::remove_dir_all(&dir);
}
