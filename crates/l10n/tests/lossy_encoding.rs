//! A translation merged into a page whose encoding cannot represent it (Japanese
//! into an undeclared windows-1252 page): the characters are written as numeric
//! character references, which browsers show, and the report counts them (the
//! CLI warns, `crates/cli/tests/l10n_merge_cli.rs`); in UTF-8 nothing is counted.

mod support;

use tagloom_l10n::flow::{self, ExtractOptions, MergeOptions};

/// `Café` in windows-1252 bytes, no declaration.
const PAGE: &[u8] = b"<html><head><title>Caf\xe9 menu</title></head>\
<body><p>Hello world</p><p>Fresh coffee \xe9 tea</p></body></html>";

fn merged(page: &[u8], targets: &[(&str, &str)]) -> (Vec<u8>, flow::Report) {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("page.html");
    std::fs::write(&input, page).unwrap();
    let xlf = dir.path().join("page.xlf");
    flow::extract(
        &input,
        &xlf,
        &ExtractOptions::new("en", Some("ja")).unwrap(),
    )
    .unwrap();
    let mut text = std::fs::read_to_string(&xlf).unwrap();
    for (source, target) in targets {
        let from = format!("<source>{source}</source>");
        assert!(text.contains(&from), "{text}");
        text = text.replace(&from, &format!("{from}<target>{target}</target>"));
    }
    std::fs::write(&xlf, text).unwrap();
    let out = dir.path().join("out.html");
    let report = flow::merge(&input, &xlf, &out, &MergeOptions::default()).unwrap();
    (std::fs::read(&out).unwrap(), report)
}

#[test]
fn characters_the_encoding_lacks_become_references_and_are_counted() {
    let (out, report) = merged(
        PAGE,
        &[
            ("Hello world", "こんにちは世界"),
            ("Café menu", "カフェ menu"),
            ("Fresh coffee é tea", "Café frais"),
        ],
    );
    let file = &report.files[0];
    assert_eq!(file.encoding, "windows-1252");
    // 7 + 3 Japanese characters; `é` is in windows-1252 and stays a byte.
    assert_eq!(file.char_references, 10);
    let out = String::from_utf8_lossy(&out).into_owned();
    assert!(
        out.contains("<p>&#x3053;&#x3093;&#x306B;&#x3061;&#x306F;&#x4E16;&#x754C;</p>"),
        "{out}"
    );
    assert!(
        out.contains("<title>&#x30AB;&#x30D5;&#x30A7; menu</title>"),
        "{out}"
    );
    assert!(out.contains("<p>Caf\u{FFFD} frais</p>"), "{out}");

    // The same page in UTF-8: no references.
    let utf8 = String::from_utf8_lossy(PAGE)
        .replace('\u{FFFD}', "é")
        .replace("<head>", "<head><meta charset=\"utf-8\">");
    let (out, report) = merged(utf8.as_bytes(), &[("Hello world", "こんにちは世界")]);
    assert_eq!(report.files[0].char_references, 0);
    assert!(
        String::from_utf8(out)
            .unwrap()
            .contains("<p>こんにちは世界</p>")
    );
}
