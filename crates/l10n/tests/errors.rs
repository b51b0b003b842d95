//! Acceptance 5: bad input gets a clear error and nothing is lost — no panic, no
//! partial output file, no skeleton temp file left behind.

mod support;

use support::{FailingWriter, extract_opts, files_in, merge_opts};

use std::path::{Path, PathBuf};

use tagloom_l10n::L10nError;
use tagloom_l10n::flow::{self, Common, ExtractOptions, MergeOptions, PartialMerge};
use tagloom_l10n::writer::{NoTranslations, WriterMode, WriterOptions};

fn write(dir: &Path, name: &str, bytes: &[u8]) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, bytes).unwrap();
    p
}

fn round_trip(input: &Path, dir: &Path) -> Vec<u8> {
    let xlf = dir.join("rt.xlf");
    let out = dir.join("rt.html");
    flow::extract(input, &xlf, &extract_opts()).unwrap();
    flow::merge(input, &xlf, &out, &merge_opts()).unwrap();
    std::fs::read(out).unwrap()
}

#[test]
fn truncated_inputs_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let full = b"<!DOCTYPE html><html lang=en><body><p title=\"A tip\">Hello <b>bold</b> &amp; <!-- c --> world</p></body></html>";
    let mut n = 0;
    for cut in 0..full.len() {
        let input = write(dir.path(), "cut.html", &full[..cut]);
        assert_eq!(round_trip(&input, dir.path()), &full[..cut], "cut at {cut}");
        n += 1;
    }
    println!("truncations: {n} byte-identical");
}

#[test]
fn invalid_bytes_survive() {
    let dir = tempfile::tempdir().unwrap();
    let cases: [&[u8]; 4] = [
        b"<p>caf\xc3 \xff\xfe text <b title=\"x\xffy\">b</b></p>\xe2\x82",
        b"\xef\xbb\xbf<p>bom then \x80 bad</p>",
        b"<meta charset=windows-1252><p>\x81\x8d\x8f\x90\x9d caf\xe9</p>",
        b"<meta charset=shift_jis><p>\x82<b>x</b>\x82\xa0 \xff</p>",
    ];
    for (i, bytes) in cases.iter().enumerate() {
        let input = write(dir.path(), &format!("bad{i}.html"), bytes);
        assert_eq!(round_trip(&input, dir.path()), *bytes, "case {i}");
        // The XLIFF is still well-formed (U+FFFD stands for the bad bytes).
        let xlf = std::fs::read_to_string(dir.path().join("rt.xlf")).unwrap();
        let mut r = quick_xml::Reader::from_str(&xlf);
        while !matches!(r.read_event().unwrap(), quick_xml::events::Event::Eof) {}
    }
}

#[test]
fn mismatched_xliff_ids_are_reported_and_strict_fails_without_output() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.html", b"<p>One</p><p>Two</p>");
    let b = write(dir.path(), "b.html", b"<h1 id=x>Other</h1>");
    let xlf = dir.path().join("a.xlf");
    flow::extract(&a, &xlf, &extract_opts()).unwrap();
    let text = std::fs::read_to_string(&xlf)
        .unwrap()
        .replace("</source>", "</source><target>Un</target>");
    let xlf = write(dir.path(), "a.xlf", text.as_bytes());
    // Units the page lacks are stale, not a hard error: the output is written (the
    // page as it was), each is reported, the file is partial.
    let out = dir.path().join("out.html");
    let report = flow::merge(&b, &xlf, &out, &merge_opts()).unwrap();
    let issues: Vec<String> = report.issues().map(|(_, i)| i.to_string()).collect();
    assert_eq!(
        issues,
        [
            "id.x: block not in file",
            "p-1: unit not in page",
            "p-2: unit not in page"
        ],
        "{issues:?}"
    );
    assert!(report.partial());
    assert_eq!(std::fs::read(&out).unwrap(), b"<h1 id=x>Other</h1>");
    // Strict: an error, and no output file.
    std::fs::remove_file(&out).unwrap();
    let strict = MergeOptions {
        partial: PartialMerge::Fail,
        ..merge_opts()
    };
    let err = flow::merge(&b, &xlf, &out, &strict).unwrap_err();
    assert!(
        matches!(err, L10nError::NotApplied { count: 3, .. }),
        "{err}"
    );
    println!("mismatch: {err}");
    assert!(!out.exists());
    assert_eq!(files_in(dir.path()), ["a.html", "a.xlf", "b.html"]);
}

#[test]
fn malformed_translation_files_fail_cleanly() {
    let dir = tempfile::tempdir().unwrap();
    let a = write(dir.path(), "a.html", b"<p>One</p>");
    let out = dir.path().join("out.html");
    let bad_xml = write(
        dir.path(),
        "bad.xlf",
        b"<xliff version=\"2.1\"><file><unit id=\"x\"><segment>",
    );
    let err = flow::merge(&a, &bad_xml, &out, &merge_opts()).unwrap_err();
    assert!(err.to_string().contains("bad.xlf"), "{err}");
    let v1 = write(dir.path(), "v1.xlf", b"<xliff version=\"1.2\"></xliff>");
    let err = flow::merge(&a, &v1, &out, &merge_opts()).unwrap_err();
    assert!(err.to_string().contains("2.0 or 2.1"), "{err}");
    let bad_po = write(dir.path(), "bad.po", b"msgid \"x\nmsgstr \"\"\n");
    let err = flow::merge(&a, &bad_po, &out, &merge_opts()).unwrap_err();
    assert!(err.to_string().contains("bad.po:1"), "{err}");
    let missing = flow::extract(
        &dir.path().join("nope.html"),
        &dir.path().join("x.xlf"),
        &ExtractOptions::new("en", None).unwrap(),
    );
    assert!(missing.unwrap_err().to_string().contains("nope.html"));
    assert!(!out.exists());
    assert!(!dir.path().join("x.xlf").exists());
}

#[test]
fn full_disk_for_the_skeleton_falls_back_to_reparse() {
    let dir = tempfile::tempdir().unwrap();
    let skeleton_dir = tempfile::tempdir().unwrap();
    let mut page = String::from("<html><body>");
    for i in 0..2000 {
        page.push_str(&format!("<p>Paragraph {i}</p>\n"));
    }
    let input = write(dir.path(), "page.html", page.as_bytes());
    let xlf = dir.path().join("page.xlf");
    flow::extract(&input, &xlf, &extract_opts()).unwrap();
    let out = dir.path().join("out.html");
    let opts = MergeOptions {
        common: Common {
            temp_dir: Some(skeleton_dir.path().to_path_buf()),
            skeleton_limit: Some(10_000),
            ..Common::default()
        },
        ..merge_opts()
    };
    // The skeleton store fills up: the re-parse fallback writes the page instead.
    let report = flow::merge(&input, &xlf, &out, &opts).unwrap();
    assert_eq!(report.files[0].mode, Some(WriterMode::Reparse));
    assert_eq!(report.files[0].blocks, 2000);
    assert!(
        files_in(skeleton_dir.path()).is_empty(),
        "skeleton temp left behind"
    );
    assert_eq!(files_in(dir.path()), ["out.html", "page.html", "page.xlf"]);
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(
        html.starts_with("<html><head></head><body><p>Paragraph 0</p>"),
        "{html:.80}"
    );
}

#[test]
fn failing_output_writer_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let skeleton_dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "p.html", "<p>x</p>".repeat(50_000).as_bytes());
    let common = Common {
        temp_dir: Some(skeleton_dir.path().to_path_buf()),
        ..Common::default()
    };
    let options = WriterOptions {
        source_lang: "en".parse().unwrap(),
        target_lang: None,
    };
    let mut out = FailingWriter::new(1000);
    let err = flow::merge_to_writer(&input, &mut NoTranslations, &mut out, &options, &common)
        .unwrap_err();
    assert!(err.to_string().contains("disk full"), "{err}");
    assert!(files_in(skeleton_dir.path()).is_empty());
}

/// The pipelined merge (page reader on a second thread, no temp file): a failing
/// output is the writer's error, not the reader's stop behind it, and the reader
/// does not wait forever on a full channel (the page's skeleton is larger than it).
#[test]
fn failing_output_writer_stops_the_pipelined_merge() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(dir.path(), "p.html", "<p>x</p>".repeat(500_000).as_bytes());
    let options = WriterOptions {
        source_lang: "en".parse().unwrap(),
        target_lang: None,
    };
    let mut out = FailingWriter::new(1000);
    let err = flow::merge_to_writer(
        &input,
        &mut NoTranslations,
        &mut out,
        &options,
        &Common::default(),
    )
    .unwrap_err();
    assert!(
        matches!(&err, L10nError::Io { source, .. } if source.to_string() == "disk full"),
        "{err}"
    );
    assert!(out.written <= 1000);
}

/// The pipelined merge writes what the temp-file merge writes (translated, with
/// language values retargeted), with the same report.
#[test]
fn pipelined_and_temp_file_merges_agree() {
    let dir = tempfile::tempdir().unwrap();
    let page = "<html lang=en><p title=\"T\">One <b>two</b></p><p lang=en>Three</p>".repeat(20_000);
    let input = write(dir.path(), "p.html", page.as_bytes());
    let xlf = dir.path().join("p.xlf");
    flow::extract(&input, &xlf, &extract_opts()).unwrap();
    let text = std::fs::read_to_string(&xlf).unwrap();
    std::fs::write(
        &xlf,
        text.replace("</source>", "</source><target>Un</target>"),
    )
    .unwrap();
    let mut outputs = Vec::new();
    for temp_dir in [None, Some(dir.path().to_path_buf())] {
        let out = dir.path().join("out.html");
        let mut options = merge_opts();
        options.common.temp_dir = temp_dir;
        let report = flow::merge(&input, &xlf, &out, &options).unwrap();
        let file = &report.files[0];
        assert_eq!(file.mode, Some(WriterMode::Skeleton));
        let summary = format!(
            "{} {} {} {} {} {}",
            file.blocks,
            file.words,
            file.translated,
            file.lang_retargeted,
            file.bytes_in,
            file.bytes_out
        );
        outputs.push((std::fs::read(&out).unwrap(), summary));
    }
    assert!(outputs[0].0.windows(9).any(|w| w == b"lang=\"fr\""));
    assert_eq!(outputs[0].1, outputs[1].1);
    assert!(outputs[0].0 == outputs[1].0);
}

#[test]
fn unmappable_translations_become_character_references() {
    let dir = tempfile::tempdir().unwrap();
    let input = write(
        dir.path(),
        "w.html",
        b"<html lang=\"en\"><head><meta charset=\"windows-1252\"></head><p>caf\xe9</p></html>",
    );
    let xlf = dir.path().join("w.xlf");
    flow::extract(
        &input,
        &xlf,
        &ExtractOptions::new("en", Some("ja")).unwrap(),
    )
    .unwrap();
    let text = std::fs::read_to_string(&xlf).unwrap();
    assert!(text.contains("<source>café</source>"), "{text}");
    let text = text.replace(
        "<source>café</source>",
        "<source>café</source><target>カフェ é</target>",
    );
    let xlf_ja = write(dir.path(), "ja.xlf", text.as_bytes());
    let out = dir.path().join("ja.html");
    flow::merge(&input, &xlf_ja, &out, &merge_opts()).unwrap();
    assert_eq!(
        std::fs::read(&out).unwrap(),
        b"<html lang=\"ja\"><head><meta charset=\"windows-1252\"></head><p>&#x30AB;&#x30D5;&#x30A7; \xe9</p></html>"
    );
}
