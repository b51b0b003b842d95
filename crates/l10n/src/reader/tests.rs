//! Nesting and depth: the reader follows the tree builder (through the text-type
//! simulator) and caps the depth, so ids and paths stay bounded.

use std::path::Path;

use super::*;

/// `(id, path, text)` of every block, with structural ids (what these tests are
/// about; they are also the key past `ids::MAX_CONTENT_IDS`).
fn units(html: &str, rules: &Rules) -> Vec<(String, String, String)> {
    let mut rules = rules.clone();
    rules.ids = crate::rules::IdScheme::Structural;
    content_units(html, &rules)
}

fn content_units(html: &str, rules: &Rules) -> Vec<(String, String, String)> {
    let mut out = Vec::new();
    let mut sink = |b: &Block| {
        out.push((b.id.clone(), b.path.clone(), b.plain_text()));
        Ok(())
    };
    read_document(
        html.as_bytes(),
        Path::new("t.html"),
        &ReadOptions::new(rules),
        None,
        Some(&mut sink),
    )
    .unwrap();
    out
}

fn ids(html: &str) -> Vec<String> {
    units(html, &Rules::default())
        .into_iter()
        .map(|(id, _, _)| id)
        .collect()
}

#[test]
fn implied_ends_make_siblings() {
    assert_eq!(ids("<body><p>a<p>b"), ["body-1.p-1", "body-1.p-2"]);
    assert_eq!(
        ids("<body><ul><li>a<li>b</ul>"),
        ["body-1.ul-1.li-1", "body-1.ul-1.li-2"]
    );
    // A select in a select closes it (and opens nothing): the options are siblings.
    assert_eq!(
        ids("<body><select><option>a<select><option>b"),
        ["body-1.select-1.option-1", "body-1.option-1"]
    );
    // A table in a table (outside a cell) closes it.
    assert_eq!(
        ids("<body><table><tr><td>a</td></tr><table><tr><td>b"),
        ["body-1.table-1.tr-1.td-1", "body-1.table-2.tr-1.td-1"]
    );
    // `</div>` does not cross a cell: the text after it stays in the cell's div.
    assert_eq!(
        ids("<body><div><table><tr><td><div>a</div></div>b</td></tr></table>c</div>"),
        [
            "body-1.div-1.table-1.tr-1.td-1.div-1",
            "body-1.div-1.table-1.tr-1.td-1.text-1",
            "body-1.div-1.text-1"
        ]
    );
}

#[test]
fn nested_containers_nest() {
    assert_eq!(
        ids("<body><ul><li><ul><li>a</ul></ul>"),
        ["body-1.ul-1.li-1.ul-1.li-1"]
    );
    assert_eq!(
        ids("<template>a<template>b"),
        ["template-1.text-1", "template-1.template-1"]
    );
}

#[test]
fn depth_is_capped_and_ids_stay_bounded() {
    let rules = Rules::from_json_str(r#"{"max_depth": 8}"#).unwrap();
    let html = "<div>x".repeat(100);
    let got = units(&html, &rules);
    assert_eq!(got.len(), 100);
    let mut seen = std::collections::HashSet::new();
    for (id, path, text) in &got {
        assert_eq!(text, "x");
        assert!(id.split('.').count() <= 9, "{id}");
        assert!(path.matches('/').count() <= 9, "{path}");
        assert!(seen.insert(id.clone()), "duplicate {id}");
    }
    // The implied body takes one level (the tree builder counts `html` too); past
    // the limit the divs are siblings inside the deepest open one.
    let deepest = "div-1.".repeat(7);
    assert_eq!(got[7].0, format!("{deepest}text-2"));
    assert_eq!(got[99].0, format!("{deepest}text-94"));
}

#[test]
fn unclosed_divs_keep_the_default_limit() {
    let html = format!("{}x", "<div>".repeat(20_000));
    let got = units(&html, &Rules::default());
    assert_eq!(got.len(), 1);
    // 511 open divs and the text: past 64 segments the leading ones are one
    // digest segment, the last 32 stay as they are, then the text's own.
    let id = &got[0].0;
    let segments: Vec<&str> = id.split('.').collect();
    assert_eq!(segments.len(), 1 + 32 + 1, "{id}");
    assert_eq!(segments[33], "text-1");
    assert!(
        segments[0].starts_with('~') && segments[0].len() == 17,
        "{id}"
    );
    assert_eq!(segments[1..32], ["div-1"; 31]);
    let path = &got[0].1;
    assert!(path.matches('/').count() <= 1 + 32 + 1, "{path}");
    assert!(path.starts_with("/~"), "{path}");
}

#[test]
fn deep_units_keep_distinct_folded_ids() {
    // Two deep units that differ only above their last 32 segments keep distinct
    // ids (the digest covers the folded part), and shallow ones are unchanged.
    let deep = "<div>".repeat(80);
    let html = format!("<section>{deep}a</section><article>{deep}b</article><p>c</p>");
    let got = units(&html, &Rules::default());
    let ids: Vec<&str> = got.iter().map(|(id, _, _)| id.as_str()).collect();
    assert_eq!(ids.len(), 3, "{ids:?}");
    assert_ne!(ids[0], ids[1]);
    assert!(ids[0].starts_with('~') && ids[1].starts_with('~'));
    assert_eq!(
        ids[0].split('.').skip(1).collect::<Vec<_>>(),
        ids[1].split('.').skip(1).collect::<Vec<_>>()
    );
    assert_eq!(ids[2], "p-1");
}

#[test]
fn deep_documents_round_trip() {
    use crate::flow::{self, ExtractOptions, MergeOptions};
    let work = tempfile::tempdir().unwrap();
    for html in [
        "<div>x".repeat(2000),
        "<table><tr><td>x<table>y".repeat(300),
        "<select><optgroup>x".repeat(500),
        "<template>x".repeat(600),
        "<b>x".repeat(3000),
        "<a>x<p>".repeat(800),
    ] {
        let (input, xlf, out) = (
            work.path().join("in.html"),
            work.path().join("t.xlf"),
            work.path().join("out.html"),
        );
        std::fs::write(&input, &html).unwrap();
        flow::extract(
            &input,
            &xlf,
            &ExtractOptions::new("en", Some("fr")).unwrap(),
        )
        .unwrap();
        flow::merge(&input, &xlf, &out, &MergeOptions::default()).unwrap();
        assert!(std::fs::read(&out).unwrap() == html.as_bytes());
    }
}

#[test]
fn content_ids_survive_inserted_and_moved_blocks() {
    let page = r#"<body><div id="main"><h1 id="top">Hi</h1><p>One</p><p>Two</p><p title="T">Two</p></div>"#;
    let edited = r#"<body><p>New</p><div id="main"><p>Two</p><h1 id="top">Hi there</h1><p>One</p><p title="T">Two</p></div>"#;
    let ids = |html: &str| -> Vec<(String, String)> {
        content_units(html, &Rules::default())
            .into_iter()
            .map(|(id, _, text)| (text, id))
            .collect()
    };
    let before = ids(page);
    let after = ids(edited);
    let id_of = |list: &[(String, String)], text: &str| {
        list.iter()
            .find(|(t, _)| t == text)
            .map(|(_, id)| id.clone())
    };
    assert_eq!(id_of(&before, "Hi").as_deref(), Some("id.top"));
    assert_eq!(id_of(&after, "Hi there").as_deref(), Some("id.top"));
    assert_eq!(id_of(&before, "One"), id_of(&after, "One"));
    assert!(id_of(&before, "One").is_some_and(|id| id.starts_with("c.")));
    // The repeated "Two" keeps its counter; the attribute has its own id.
    let twos: Vec<&String> = before
        .iter()
        .filter(|(t, _)| t == "Two")
        .map(|(_, id)| id)
        .collect();
    assert_eq!(twos.len(), 2);
    assert_eq!(*twos[1], format!("{}.2", twos[0]));
    assert_eq!(before.len() + 1, after.len());
}

#[test]
fn element_ids_become_portable_nmtokens() {
    // `²`, `ª` and `⁰` are letters or digits to Unicode but not XML 1.0 (4th
    // edition) name characters: libxml2 rejects such a unit id.
    assert_eq!(
        super::sanitize("a/b c\u{b2}\u{aa}\u{2070}-\u{fc}\u{6982}\u{8981}.\u{416}:x"),
        "a_b_c___-\u{fc}\u{6982}\u{8981}.\u{416}:x"
    );
}

/// `Seg::push_key_to` copies a static name as it is: every name the tokenizer
/// may give as a static atom must be portable already.
#[test]
fn static_names_are_portable() {
    for name in tagloom_html::atom::STATIC_NAMES {
        assert!(super::is_portable_ascii(name), "{name}");
        assert_eq!(super::sanitize(name), *name);
    }
}

#[test]
fn folded_digests_render_as_formatted() {
    for state in [0u64, 1, FNV_START, u64::MAX, 0x0123_4567_89ab_cdef] {
        for prefix in ["~", "/~"] {
            let mut s = String::from("x.");
            push_digest(&mut s, prefix, state);
            assert_eq!(s, format!("x.{prefix}{state:016x}"));
        }
    }
}

#[test]
fn text_tokens_read_the_same_as_ranges_or_copies() {
    // Plain text is kept as a range of the window; text the tokenizer changed
    // (a character reference, CR LF, NUL) as a copy: both read as the tokenizer's.
    let html = "<p>plain words</p><p>a &amp; b</p><p>x\r\ny z</p><p>n\0ul text</p>\
                <div>loose <b>bold</b> text<p>after</p></div>";
    let got: Vec<String> = content_units(html, &Rules::default())
        .into_iter()
        .map(|(_, _, text)| text)
        .collect();
    assert_eq!(
        got,
        [
            "plain words",
            "a & b",
            "x y z",
            "n\0ul text",
            "loose bold text",
            "after"
        ]
    );
}

/// A token too large for the tokenizer, met while tokens are fetched ahead: the
/// blocks before it are read and handed on first, then the read fails with the
/// tokenizer's error, as when each token is fetched when the reader gets to it.
#[test]
fn a_tokenizer_error_fetched_ahead_comes_after_the_blocks_before_it() {
    let mut rules = Rules::default();
    rules.max_token_bytes = 64;
    // The comment runs across the end of the first read (`CHUNK`): the tokenizer
    // fails when it needs the input after it.
    let mut html = String::from("<meta charset=\"utf-8\"><body>");
    let mut n = 0;
    while html.len() < CHUNK - 100 {
        html.push_str(&format!("<p>Paragraph {n}.</p>\n"));
        n += 1;
    }
    html.push_str(&format!("<!--{}--><p>After.</p>", "x".repeat(200)));
    let mut texts = Vec::new();
    let mut sink = |b: &Block| {
        texts.push(b.plain_text());
        Ok(())
    };
    let result = read_document(
        html.as_bytes(),
        Path::new("t.html"),
        &ReadOptions::new(&rules),
        None,
        Some(&mut sink),
    );
    assert!(
        matches!(result, Err(crate::error::L10nError::Tokenizer { .. })),
        "{result:?}"
    );
    let expected: Vec<String> = (0..n).map(|i| format!("Paragraph {i}.")).collect();
    assert!(
        texts == expected,
        "{} of the {n} blocks before the error",
        texts.len()
    );
}

#[test]
fn kept_frame_names_agree_with_the_walk() {
    // Units at every depth up to past MAX_NAME_SEGMENTS, some below element ids,
    // with attribute blocks and implicit blocks: `Reader::names` checks each key
    // and path made from a frame's kept ones against the walk over the frames
    // (debug assertions), on both sides of the fold.
    let mut html = String::new();
    for i in 0..70 {
        if i % 7 == 3 {
            html.push_str(&format!("<div id=d{i}>"));
        } else {
            html.push_str("<div>");
        }
        html.push_str(&format!("<p title='Title {i}'>Text {i}</p>Loose {i}"));
    }
    for rules in [Rules::default(), {
        let mut r = Rules::default();
        r.ids = crate::rules::IdScheme::Structural;
        r
    }] {
        let got = content_units(&html, &rules);
        assert_eq!(got.len(), 70 * 3, "{got:?}");
        let mut ids: Vec<&str> = got.iter().map(|(id, _, _)| id.as_str()).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), 70 * 3);
    }
}

#[test]
fn child_counts_number_each_name_past_the_short_list() {
    let mut counts = ChildCounts::default();
    let names: Vec<Name> = (0..40).map(|i| Name::new(&format!("x-{i}"))).collect();
    for round in 1..=3 {
        for name in &names {
            assert_eq!(counts.bump(name), round);
        }
    }
    assert_eq!(counts.bump(&Name::new("p")), 1);
    assert!(counts.reusable() || counts.many.capacity() > MAX_SPARE_COUNT_CAPACITY);
    counts.clear();
    assert_eq!(counts.bump(&names[39]), 1);
}

#[test]
fn notes_are_collapsed_and_cut_at_a_character_count() {
    assert_eq!(note_of("  a \n\t b  "), "a b");
    assert_eq!(note_of(" \n "), "");
    // Short in bytes: kept whole.
    let short = "é".repeat(MAX_NOTE_CHARS / 2);
    assert_eq!(note_of(&short), short);
    // Long in bytes, not in characters: kept whole too.
    let wide = "日".repeat(MAX_NOTE_CHARS);
    assert_eq!(note_of(&wide), wide);
    // Past the count: the first characters, as a character copy keeps them.
    for long in ["x".repeat(3 * MAX_NOTE_CHARS), "日x".repeat(MAX_NOTE_CHARS)] {
        let by_chars: String = long.chars().take(MAX_NOTE_CHARS).collect();
        assert_eq!(note_of(&long), by_chars);
    }
}
