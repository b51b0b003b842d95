//! Unit tests of the tree builder and the session: limits, suspension, keys,
//! and "change the encoding". The html5lib suite lives in
//! `tests/tree_construction.rs`.

use crate::dom::{self, DomStore};
use crate::dom_patch::DomPatch;
use crate::session::{Html5ParseSession, PumpStatus, SessionConfig};
use crate::tree_builder::SuspendReason;

/// Parses `input` (UTF-8, certain) and returns the store and all batches.
fn parse_with(config: SessionConfig, input: &[u8]) -> (DomStore, Vec<Vec<DomPatch>>) {
    let mut session = Html5ParseSession::new(config);
    session.push_bytes(input).unwrap();
    while session.finish().unwrap() != PumpStatus::Finished {}
    let batches = session.take_batches();
    let mut store = DomStore::new();
    for batch in &batches {
        store.apply(batch).unwrap();
    }
    (store, batches)
}

fn utf8_config() -> SessionConfig {
    SessionConfig {
        decoder: crate::decoder::DecoderConfig::with_transport(encoding_rs::UTF_8),
        ..SessionConfig::default()
    }
}

#[test]
fn hundred_thousand_unclosed_divs() {
    let input = "<div>".repeat(100_000);
    let (store, _) = parse_with(utf8_config(), input.as_bytes());
    // html, head, body and every div.
    assert_eq!(store.len(), 1 + 3 + 100_000);
    assert!(dom::dump_document(&store).lines().count() > 100_000);
}

#[test]
fn past_max_depth_elements_become_siblings() {
    let mut config = utf8_config();
    config.tree.max_depth = 4;
    let (store, _) = parse_with(config, b"<div><span><i>x</i></span></div>");
    // html, body, div, span fill the stack; `i` is inserted into the span
    // without being opened, so "x" follows it.
    assert_eq!(
        dom::dump_document(&store),
        "| <html>\n|   <head>\n|   <body>\n|     <div>\n|       <span>\n|         <i>\n|         \"x\"\n"
    );
}

#[test]
fn suspends_after_script_and_resumes_there() {
    let mut config = utf8_config();
    config.tree.suspend_at_script = true;
    let mut session = Html5ParseSession::new(config);
    session
        .push_bytes(b"<script>a</script><p>b<script></script>c")
        .unwrap();
    assert_eq!(
        session.pump().unwrap(),
        PumpStatus::Suspended(SuspendReason::Script)
    );
    assert_eq!(
        session.pump().unwrap(),
        PumpStatus::Suspended(SuspendReason::Script)
    );
    assert_eq!(session.pump().unwrap(), PumpStatus::NeedInput);
    assert_eq!(session.finish().unwrap(), PumpStatus::Finished);
    let mut store = DomStore::new();
    for batch in session.take_batches() {
        store.apply(&batch).unwrap();
    }
    assert_eq!(
        dom::dump_document(&store),
        "| <html>\n|   <head>\n|     <script>\n|       \"a\"\n|   <body>\n|     <p>\n|       \"b\"\n|       <script>\n|       \"c\"\n"
    );
}

#[test]
fn keys_increase_in_creation_order() {
    let (_, batches) = parse_with(
        utf8_config(),
        b"<!DOCTYPE html><table>x<tr><td><b>1<p>2</b>3<template>t</template>",
    );
    let mut last = 0;
    for patch in batches.iter().flatten() {
        let key = match patch {
            DomPatch::CreateDocument { key }
            | DomPatch::CreateDoctype { key, .. }
            | DomPatch::CreateElement { key, .. }
            | DomPatch::CreateText { key, .. }
            | DomPatch::CreateComment { key, .. } => key.get(),
            _ => continue,
        };
        assert!(key > last, "key {key} after {last}");
        last = key;
        if let DomPatch::CreateElement {
            contents: Some(c), ..
        } = patch
        {
            assert!(c.get() > key);
            last = c.get();
        }
    }
}

#[test]
fn late_meta_charset_restarts_with_clear_and_higher_keys() {
    // No transport encoding, no BOM, no <meta> in the first 1024 bytes: the
    // encoding is a tentative guess, and the late <meta> changes it.
    let mut input = b"<!DOCTYPE html><title>".to_vec();
    input.extend_from_slice(&[b'a'; 1100]);
    input.extend_from_slice("é</title><meta charset=utf-8><p>é".as_bytes());
    let config = SessionConfig::default();
    let mut session = Html5ParseSession::new(config);
    let mut store = DomStore::new();
    let mut all = Vec::new();
    for chunk in input.chunks(300) {
        session.push_bytes(chunk).unwrap();
        session.pump().unwrap();
        all.extend(session.take_batches());
    }
    while session.finish().unwrap() != PumpStatus::Finished {}
    all.extend(session.take_batches());
    for batch in &all {
        store.apply(batch).unwrap();
    }
    let dump = dom::dump_document(&store);
    assert_eq!(session.restarts(), 1);
    {
        let clear_batch = all
            .iter()
            .position(|b| b.first() == Some(&DomPatch::Clear))
            .expect("a batch starting with Clear");
        assert!(
            all.iter()
                .flatten()
                .filter(|p| **p == DomPatch::Clear)
                .count()
                == 1
        );
        assert!(clear_batch > 0);
        assert!(dump.contains("\"é\""), "{dump}");
    }
    assert!(dump.ends_with("|     <p>\n|       \"é\"\n"), "{dump}");
}
