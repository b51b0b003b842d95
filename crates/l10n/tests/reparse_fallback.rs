//! The re-parse writer fallback (tree builder + fragment serializer), forced by a
//! skeleton store that cannot be written (`Common::skeleton_limit`).

mod support;

use std::path::Path;

use tagloom_l10n::flow::{self, Common, PseudoOptions};
use tagloom_l10n::pseudo::pseudo_text;
use tagloom_l10n::writer::WriterMode;
use tagloom_testdata::Shared;

fn forced(skeleton_dir: &Path) -> Common {
    Common {
        temp_dir: Some(skeleton_dir.to_path_buf()),
        skeleton_limit: Some(0),
        ..Common::default()
    }
}

fn pseudo(input: &Path, out: &Path, common: Common) -> flow::FileReport {
    let opts = PseudoOptions {
        source_lang: "en".parse().unwrap(),
        target_lang: Some("fr".parse().unwrap()),
        common,
    };
    flow::pseudo(input, out, &opts).unwrap().files.remove(0)
}

#[test]
fn reparse_writes_translated_document_in_its_encoding() {
    let dir = tempfile::tempdir().unwrap();
    let skeleton_dir = tempfile::tempdir().unwrap();
    let page = "<!DOCTYPE html><html lang=en><head><meta charset=windows-1252>\
        <title>Hello world</title><meta name=description content='A page'></head>\
        <body><p>Click <a href=/x title='Go there'>here</a> now — caf\u{e9}</p>\
        <div>Loose <b>text</b><p>Para</p></div><img src=a.png alt='A cat'>\
        <p lang=de>Deutsch</p><p translate=no>Keep</p><script>var s = 'x';</script>\
        <table><tr><td>Cell</td></tr></table></body></html>";
    let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(page);
    let input = dir.path().join("page.html");
    std::fs::write(&input, &bytes).unwrap();
    let out = dir.path().join("out.html");
    let report = pseudo(&input, &out, forced(skeleton_dir.path()));
    assert_eq!(report.mode, Some(WriterMode::Reparse));
    assert_eq!(report.encoding, "windows-1252");
    assert!(report.issues.is_empty(), "{:?}", report.issues);
    assert!(
        std::fs::read_dir(skeleton_dir.path())
            .unwrap()
            .next()
            .is_none(),
        "skeleton temp left behind"
    );
    let written = std::fs::read(&out).unwrap();
    // windows-1252 throughout: é is one byte, characters it lacks are references.
    assert!(
        written.windows(4).any(|w| w == b"\xe7\xe0f\xe9"),
        "çàfé in cp1252"
    );
    let text = String::from_utf8_lossy(&written);
    assert!(
        text.contains("&#x124;"),
        "Ĥ as a character reference: {text}"
    );
    assert!(text.contains("<meta charset=\"windows-1252\">"), "{text}");
    // The tree builder reads it back: same structure, translated text.
    let a = support::parse(&bytes);
    let b = support::parse(&written);
    let names = |els: &[support::El]| -> Vec<(String, usize, Vec<String>)> {
        els.iter()
            .map(|e| {
                let attrs = e.attrs.iter().map(|(_, n, _)| n.clone()).collect();
                (e.name.clone(), e.depth, attrs)
            })
            .collect()
    };
    let (ea, eb) = (support::elements(&a), support::elements(&b));
    assert_eq!(names(&ea), names(&eb));
    let all = support::all_text(&b);
    for source in [
        "Hello world",
        "Click ",
        "here",
        " now — café",
        "Loose ",
        "text",
        "Para",
        "Deutsch",
        "Cell",
    ] {
        assert!(
            all.contains(&pseudo_text(source, true)),
            "{source:?} translated: {all}"
        );
    }
    assert!(all.contains("Keep"), "translate=no kept");
    assert!(all.contains("var s = 'x';"), "script kept");
    check_attributes(&eb);
}

/// The re-parsed output's attributes: `lang` retargeted, translatable attributes
/// translated, the rest (`href`, another language) untouched.
fn check_attributes(eb: &[support::El]) {
    let attr = |name: &str, attr: &str| {
        eb.iter()
            .find(|e| e.name == name)
            .and_then(|e| e.attrs.iter().find(|(_, n, _)| n == attr))
            .map(|(_, _, v)| v.clone())
            .unwrap()
    };
    assert_eq!(attr("html", "lang"), "fr");
    assert_eq!(
        attr("a", "title"),
        format!("[{}]", pseudo_text("Go there", true))
    );
    assert_eq!(
        attr("img", "alt"),
        format!("[{}]", pseudo_text("A cat", true))
    );
    assert_eq!(attr("a", "href"), "/x");
    let de = eb
        .iter()
        .find(|e| e.attrs.iter().any(|(_, n, v)| n == "lang" && v == "de"));
    assert!(de.is_some(), "lang=de untouched");
}

/// Over the l10n samples and the bench corpus: the re-parse fallback's output
/// parses to the same element structure as the input, and every block is found.
#[test]
fn reparse_over_corpora() {
    let root = support::manifest();
    let work = tempfile::tempdir().unwrap();
    let skeleton_dir = tempfile::tempdir().unwrap();
    let mut files = support::corpus(&root.join("tests/data/l10n-samples"), &["html", "phtml"]);
    files.extend(Shared::BenchCorpus.files("the bench pages of reparse_fallback", &["html"]));
    let (mut same, mut blocks, mut translated, mut not_found) = (0, 0, 0, 0);
    let mut failures = Vec::new();
    for f in &files {
        let out = work.path().join("out.html");
        let report = pseudo(f, &out, forced(skeleton_dir.path()));
        assert_eq!(report.mode, Some(WriterMode::Reparse), "{}", f.display());
        blocks += report.blocks;
        translated += report.translated;
        not_found += report.issues.len();
        let input = std::fs::read(f).unwrap();
        let written = std::fs::read(&out).unwrap();
        let shape = |bytes: &[u8]| -> Vec<(String, usize, Vec<String>)> {
            support::elements(&support::parse(bytes))
                .into_iter()
                .map(|e| (e.name, e.depth, e.attrs.into_iter().map(|a| a.1).collect()))
                .collect()
        };
        if shape(&input) == shape(&written) {
            same += 1;
        } else {
            failures.push(f.display().to_string());
        }
    }
    println!(
        "reparse fallback: {same}/{} files same structure; {translated} of {blocks} blocks translated, {not_found} not found in the tree",
        files.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
}
