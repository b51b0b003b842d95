//! `tagloom view`: the server starts on a free port, serves the viewer page and the
//! batch applier, streams a document's batches as server-sent events that chain by
//! version and carry the same patches as `tagloom parse --format patches`, ends the
//! stream; a directory gets an index and per-file streams confined to it; bad
//! arguments exit 2 with one line.

mod view_support;

use std::path::Path;

use serde_json::Value;
use view_support::{Server, chained_batches, tagloom};

/// `tagloom parse --format patches --scripting off FILE`, one JSON value a line.
fn parse_patches(file: &Path) -> Vec<Value> {
    let out = tagloom()
        .args(["parse", "--format", "patches", "--scripting", "off"])
        .arg(file)
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

const PAGE: &str = "<!DOCTYPE html><title>t</title><table><tr><td>a<b>b<p>c</b>d</table>\
    <svg foo:bar=1 xlink:href=#x><a<b/></svg><p =d>x<template><i>t</i></template>\
    <noscript><p>n</noscript><script>document.write('no')</script>tail";

#[test]
fn a_file_is_served_and_streamed_as_chained_batches_with_the_parse_patches() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("page.html");
    std::fs::write(&file, PAGE.repeat(40)).unwrap();
    let server = Server::start(&[file.to_str().unwrap()]);

    let (status, head, page) = server.get("/");
    assert_eq!(status, 200);
    assert!(head.contains("text/html"), "{head}");
    assert!(page.contains("/apply_batch.js") && page.contains("sandbox=\"allow-same-origin\""));
    let (status, _, js) = server.get("/apply_batch.js");
    assert_eq!(status, 200);
    assert!(js.contains("function applyBatch(doc, batch)"));

    let (status, head, body) = server.get("/events");
    assert_eq!(status, 200);
    assert!(head.contains("text/event-stream"), "{head}");
    let (batches, end) = chained_batches(&body);
    assert_eq!(end["bytes"], PAGE.len() as u64 * 40);
    let streamed: Vec<Value> = batches
        .iter()
        .flat_map(|b| b["patches"].as_array().unwrap().clone())
        .collect();
    assert_eq!(streamed, parse_patches(&file));

    // A second stream is a new document (a fresh handle), from version 0 again.
    let (_, _, again) = server.get("/events");
    let (second, _) = chained_batches(&again);
    assert_ne!(second[0]["doc"], batches[0]["doc"]);
    assert_eq!(server.get("/elsewhere").0, 404);
}

#[test]
fn a_throttled_stream_sends_a_batch_per_piece() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("list.html");
    let page = "<ul>".to_owned() + &"<li>item".repeat(600);
    std::fs::write(&file, &page).unwrap();
    // 8 KiB/s: 512-byte pieces, each parsed and sent as it is read (the first
    // 1024 bytes wait for the encoding prescan).
    let server = Server::start(&[file.to_str().unwrap(), "--throttle", "8"]);
    let (_, _, body) = server.get("/events");
    let (batches, _) = chained_batches(&body);
    assert!(
        batches.len() >= page.len() / 512 - 2,
        "{} batches for {} bytes",
        batches.len(),
        page.len()
    );
}

#[test]
fn a_directory_gets_an_index_and_streams_confined_to_it() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    std::fs::write(dir.path().join("sub/a b.html"), "<p>one").unwrap();
    std::fs::write(dir.path().join("z.html"), "<p>two").unwrap();
    std::fs::write(dir.path().join(".hidden"), "x").unwrap();
    let server = Server::start(&[dir.path().to_str().unwrap()]);
    let (status, _, index) = server.get("/");
    assert_eq!(status, 200);
    assert!(index.contains("href=\"/view/sub/a%20b.html\""), "{index}");
    assert!(index.contains("href=\"/view/z.html\""), "{index}");
    assert!(!index.contains(".hidden"));
    let (status, _, viewer) = server.get("/view/sub/a%20b.html");
    assert_eq!(status, 200);
    assert!(viewer.contains("/apply_batch.js"));
    let (_, _, body) = server.get("/events/sub/a%20b.html");
    let (batches, _) = chained_batches(&body);
    assert!(body.contains("\"text\":\"one\""), "{batches:?}");
    for bad in [
        "/events/../etc/passwd",
        "/events/sub/..%2F..%2Fz.html",
        "/events/nope.html",
        "/events/sub",
    ] {
        assert_eq!(server.get(bad).0, 404, "{bad}");
    }
}

#[test]
fn bad_arguments_exit_2_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("p.html");
    std::fs::write(&file, "<p>").unwrap();
    let missing = dir.path().join("missing.html");
    let file = file.to_str().unwrap();
    for args in [
        vec![missing.to_str().unwrap()],
        vec!["-"],
        vec![file, "--throttle", "0"],
        vec![file, "--port", "http"],
        vec![],
    ] {
        let out = tagloom().arg("view").args(&args).output().unwrap();
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert!(stderr.starts_with("tagloom: error: "), "{args:?}: {stderr}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(out.stdout.is_empty(), "{args:?}");
    }
}
