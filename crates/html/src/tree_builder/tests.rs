//! Unit tests of the tree builder and the session: limits, suspension, keys,
//! and "change the encoding". The html5lib suite lives in
//! `tests/tree_construction.rs`.

use crate::dom::{self, DomStore};
use crate::dom_patch::DomPatch;
use crate::session::{Html5ParseSession, PumpStatus, SessionConfig};
use crate::tree_builder::SuspendReason;

/// Parses `input` (UTF-8, certain) and returns the store and all batches.
fn parse_with(config: SessionConfig, input: &[u8]) -> (DomStore, Vec<crate::batch::PatchBatch>) {
    let config = crate::driver::ParseConfig {
        session: config,
        chunk_size: usize::MAX,
    };
    let mut batches = Vec::new();
    crate::driver::drive(input, &config, |batch| {
        batches.push(batch);
        Ok::<_, std::convert::Infallible>(())
    })
    .unwrap();
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
    config.tree.max_depth = 3;
    let (store, _) = parse_with(config, b"<div><span><i>x</i></span>y</div>");
    // html, body, div fill the limit; `span` (3 open, not more than 3) still
    // goes into the div; `i` (4 open) goes to the span's parent, but is opened,
    // so "x" is inside it; "y" (after the span closed) is in the div.
    assert_eq!(
        dom::dump_document(&store),
        "| <html>\n|   <head>\n|   <body>\n|     <div>\n|       <span>\n|       <i>\n|         \"x\"\n|       \"y\"\n"
    );
}

/// A dump line at `level` (0 = `html`).
fn line_at(level: usize, what: &str) -> String {
    format!("| {}{what}", "  ".repeat(level))
}

#[test]
fn depth_limit_matches_chromium_at_511_divs() {
    // Issue 8 reproducer: 511 nested divs then text. html, body and 510 divs
    // are 512 open elements, not more than Chromium's 512: the 511th div nests
    // and the text goes into it.
    let input = format!("{}x", "<div>".repeat(511));
    let (store, _) = parse_with(utf8_config(), input.as_bytes());
    let dump = dom::dump_document(&store);
    let lines: Vec<&str> = dump.lines().collect();
    assert_eq!(lines.len(), 3 + 511 + 1);
    for (k, line) in lines[3..3 + 511].iter().enumerate() {
        assert_eq!(*line, line_at(k + 2, "<div>"));
    }
    assert_eq!(lines.last().copied(), Some(line_at(513, "\"x\"").as_str()));
}

#[test]
fn depth_limit_past_it_siblings_are_still_opened() {
    // 513 divs: the 512th and 513th are inserted into the 510th (the current
    // node's parent) but opened, so the text, a comment and what follows the
    // end tags land as in Chromium.
    let input = format!("{}x<!--c--></div>y", "<div>".repeat(513));
    let (store, _) = parse_with(utf8_config(), input.as_bytes());
    let dump = dom::dump_document(&store);
    let lines: Vec<&str> = dump.lines().collect();
    let tail: Vec<String> = lines[3 + 510..].iter().map(|l| l.to_string()).collect();
    assert_eq!(
        tail,
        vec![
            line_at(512, "<div>"),
            line_at(512, "<div>"),
            line_at(513, "\"y\""),
            line_at(512, "<div>"),
            line_at(513, "\"x\""),
            line_at(512, "<!-- c -->"),
        ]
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
            .position(crate::batch::PatchBatch::starts_with_clear)
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

/// The html5lib dump of `input` parsed as a document.
fn dump_of(input: &str) -> String {
    let (store, _) = parse_with(utf8_config(), input.as_bytes());
    dom::dump_document(&store)
}

#[test]
fn selectedcontent_inside_an_option_is_disabled() {
    // Issue 8 reproducer (Chromium 156): nothing is cloned into a
    // selectedcontent with an `option` ancestor.
    assert_eq!(
        dump_of("<select><option>a<selectedcontent></selectedcontent></option></select>"),
        "| <html>\n|   <head>\n|   <body>\n|     <select>\n|       <option>\n|         \"a\"\n|         <selectedcontent>\n"
    );
    assert_eq!(
        dump_of("<select><option><selectedcontent>"),
        "| <html>\n|   <head>\n|   <body>\n|     <select>\n|       <option>\n|         <selectedcontent>\n"
    );
    // The first selectedcontent is the select's one: a later enabled one gets
    // nothing either.
    assert_eq!(
        dump_of(
            "<select><option>a<selectedcontent></selectedcontent></option><button><selectedcontent></selectedcontent></button></select>"
        ),
        "| <html>\n|   <head>\n|   <body>\n|     <select>\n|       <option>\n|         \"a\"\n|         <selectedcontent>\n|       <button>\n|         <selectedcontent>\n"
    );
}

#[test]
fn selectedcontent_under_two_selects_is_disabled_and_a_plain_one_clones() {
    // Enabled: the selected option's contents are cloned.
    assert_eq!(
        dump_of(
            "<select><button><selectedcontent></selectedcontent></button><option>a</option></select>"
        ),
        "| <html>\n|   <head>\n|   <body>\n|     <select>\n|       <button>\n|         <selectedcontent>\n|           \"a\"\n|       <option>\n|         \"a\"\n"
    );
}

#[test]
fn column_group_ignores_non_whitespace_one_character_at_a_time() {
    // Issue 8 reproducer: in "in column group" with a `template` (not a
    // `colgroup`) as current node, "x" and "y" are ignored, the space between
    // them inserted.
    assert_eq!(
        dump_of("<template><col>x y"),
        "| <html>\n|   <head>\n|     <template>\n|       content\n|         <col>\n|         \" \"\n|   <body>\n"
    );
    assert_eq!(
        dump_of("<template><col> a\tb\nc"),
        "| <html>\n|   <head>\n|     <template>\n|       content\n|         <col>\n|         \" \t\n\"\n|   <body>\n"
    );
}

#[test]
fn frameset_modes_keep_whitespace_between_ignored_characters() {
    assert_eq!(
        dump_of("<frameset>a b</frameset>c d"),
        "| <html>\n|   <head>\n|   <frameset>\n|     \" \"\n|   \" \"\n"
    );
}

#[test]
fn the_list_of_active_formatting_elements_keeps_its_latest_entries() {
    // With room for three entries, pushing a fourth distinct one drops the
    // earliest: after `</p>` only b2, b3, b4 are reconstructed around "x".
    let input = b"<p><b id=1><b id=2><b id=3><b id=4></p>x";
    let mut config = utf8_config();
    config.tree.max_active_formatting = 3;
    let (store, _) = parse_with(config, input);
    let dump = dom::dump_document(&store);
    let after_p: Vec<&str> = dump
        .lines()
        .skip_while(|l| *l != "|     <p>")
        .skip(9)
        .collect();
    assert_eq!(
        after_p,
        [
            "|     <b>",
            "|       id=\"2\"",
            "|       <b>",
            "|         id=\"3\"",
            "|         <b>",
            "|           id=\"4\"",
            "|           \"x\"",
        ],
        "{dump}"
    );
    // With the default room, all four are reconstructed (the spec's tree).
    let (store, _) = parse_with(utf8_config(), input);
    assert!(
        dom::dump_document(&store)
            .contains("|     <b>\n|       id=\"1\"\n|       <b>\n|         id=\"2\"")
    );
}

#[test]
fn distinct_unclosed_formatting_elements_stay_linear() {
    // 20 000 distinct `<b>`s: every push used to compare with every entry.
    let input: String = (0..20_000).map(|i| format!("<b id={i}>")).collect();
    let (store, _) = parse_with(utf8_config(), input.as_bytes());
    assert_eq!(store.len(), 1 + 3 + 20_000);
}

/// On the store path the builder keeps no copy of a formatting element's
/// attributes: clones (reconstruction, the adoption agency) and the Noah's Ark
/// clause read them back from the store — and from the builder's own copy once
/// the store was handed back between two pushes.
#[test]
fn formatting_attributes_are_read_from_the_store_and_kept_across_pushes() {
    let input = "<p><b class=x id=1><i lang=en>one</p>two<b class=x id=1><b class=x id=1>\
                 <b class=x id=1><b class=y>three</p><a href=u>four<div>five</a></div>";
    let expected = dump_of(input);
    assert!(expected.contains("lang=\"en\""), "{expected}");
    let config = crate::driver::ParseConfig {
        session: utf8_config(),
        chunk_size: usize::MAX,
    };
    // Whole, then pushed a few bytes at a time (the store is detached and
    // attached again between pushes, with formatting elements open).
    let whole = crate::driver::parse_document(input.as_bytes(), &config).unwrap();
    assert_eq!(dom::dump_document(&whole), expected);
    for piece in [1, 3, 7, 16] {
        let mut store = DomStore::new();
        let mut driver = crate::driver::Driver::new(&config);
        for chunk in input.as_bytes().chunks(piece) {
            driver.push_into(chunk, &mut store).unwrap();
        }
        driver.finish_into(&mut store).unwrap();
        assert_eq!(dom::dump_document(&store), expected, "pieces of {piece}");
    }
}
