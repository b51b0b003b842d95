//! The writer's fallback chain (skeleton → re-parse → block-only): never silent,
//! `Common::fallback = false` makes a skeleton failure the error, the re-parse
//! writer refuses inputs over its limit, and a fallback that fails while writing
//! ends the chain.

mod support;

use std::path::{Path, PathBuf};

use support::{FailingWriter, files_in};

use tagloom_l10n::L10nError;
use tagloom_l10n::flow::{self, Common, ExtractOptions, MergeOptions, PseudoOptions};
use tagloom_l10n::writer::{NoTranslations, WriterMode, WriterOptions};

fn page(dir: &Path) -> PathBuf {
    let mut html = String::from("<!DOCTYPE html><html lang=en><body>\n");
    for i in 0..200 {
        html.push_str(&format!("<p title='T{i}'>Paragraph <b>{i}</b></p>\n"));
    }
    let path = dir.join("page.html");
    std::fs::write(&path, html).unwrap();
    path
}

/// A skeleton store that cannot be created: its directory does not exist.
fn broken_skeleton(dir: &Path) -> Common {
    Common {
        temp_dir: Some(dir.join("no-such-dir")),
        ..Common::default()
    }
}

fn pseudo(input: &Path, out: &Path, common: Common) -> tagloom_l10n::Result<flow::Report> {
    let opts = PseudoOptions {
        target_lang: Some("fr".parse().unwrap()),
        common,
        ..PseudoOptions::default()
    };
    flow::pseudo(input, out, &opts)
}

#[test]
fn a_skeleton_failure_is_reported_with_the_mode_and_the_reason() {
    let dir = tempfile::tempdir().unwrap();
    let input = page(dir.path());
    let out = dir.path().join("out.html");
    let report = pseudo(&input, &out, broken_skeleton(dir.path())).unwrap();
    let file = &report.files[0];
    assert_eq!(file.mode, Some(WriterMode::Reparse));
    assert!(file.is_fallback());
    assert_eq!(report.fallbacks().count(), 1);
    let reason = file.fallback_reason.as_deref().unwrap();
    assert!(reason.contains("no-such-dir"), "{reason}");
    assert_eq!(file.blocks, 400);
    assert_eq!(file.translated, 400);
    assert_eq!(file.bytes_out, std::fs::metadata(&out).unwrap().len());
    // The skeleton path, for comparison: no fallback, no reason.
    let report = pseudo(&input, &out, Common::default()).unwrap();
    assert_eq!(report.files[0].mode, Some(WriterMode::Skeleton));
    assert!(report.files[0].fallback_reason.is_none());
    assert_eq!(report.fallbacks().count(), 0);
    // Extraction has no writer.
    let xlf = dir.path().join("page.xlf");
    let report = flow::extract(
        &input,
        &xlf,
        &ExtractOptions::new("en", Some("fr")).unwrap(),
    )
    .unwrap();
    assert_eq!(report.files[0].mode, None);
}

#[test]
fn without_fallbacks_a_skeleton_failure_is_an_error_that_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = page(dir.path());
    let xlf = dir.path().join("page.xlf");
    flow::extract(
        &input,
        &xlf,
        &ExtractOptions::new("en", Some("fr")).unwrap(),
    )
    .unwrap();
    let out = dir.path().join("out.html");
    let common = Common {
        fallback: false,
        ..broken_skeleton(dir.path())
    };
    let err = pseudo(&input, &out, common.clone()).unwrap_err();
    assert!(err.to_string().contains("no-such-dir"), "{err}");
    let opts = MergeOptions {
        common: Common {
            // A full disk this time.
            temp_dir: None,
            skeleton_limit: Some(100),
            ..common
        },
        ..MergeOptions::default()
    };
    let err = flow::merge(&input, &xlf, &out, &opts).unwrap_err();
    assert!(err.to_string().contains("no space left"), "{err}");
    assert_eq!(files_in(dir.path()), ["page.html", "page.xlf"]);
}

#[test]
fn over_its_limit_the_reparse_fallback_hands_over_to_block_only() {
    let dir = tempfile::tempdir().unwrap();
    let input = page(dir.path());
    let out = dir.path().join("out.html");
    let common = Common {
        reparse_limit: 1000,
        ..broken_skeleton(dir.path())
    };
    let report = pseudo(&input, &out, common).unwrap();
    let file = &report.files[0];
    assert_eq!(file.mode, Some(WriterMode::BlockOnly));
    let reason = file.fallback_reason.as_deref().unwrap();
    assert!(reason.contains("no-such-dir"), "{reason}");
    assert!(reason.contains("limit of 1000 bytes"), "{reason}");
    let text = std::fs::read_to_string(&out).unwrap();
    assert!(!text.contains("<p"), "{text:.200}");
    assert_eq!(text.lines().count(), 400);
}

#[test]
fn a_fallback_that_fails_while_writing_ends_the_chain() {
    let dir = tempfile::tempdir().unwrap();
    let input = page(dir.path());
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
        &broken_skeleton(dir.path()),
    )
    .unwrap_err();
    // The re-parse writer's own failure, not the block-only writer appending its
    // text after a partial document, nor the skeleton's error.
    assert!(
        matches!(&err, L10nError::Io { source, .. } if source.to_string() == "disk full"),
        "{err}"
    );
    assert!(out.written <= 1000);
    // With room enough, the same call succeeds through the re-parse writer.
    let mut out = FailingWriter::new(usize::MAX);
    let report = flow::merge_to_writer(
        &input,
        &mut NoTranslations,
        &mut out,
        &options,
        &broken_skeleton(dir.path()),
    )
    .unwrap();
    assert_eq!(report.mode, Some(WriterMode::Reparse));
    assert_eq!(report.bytes_out, out.written as u64);
}

#[test]
fn an_unreadable_input_is_not_retried_by_the_fallbacks() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("out.html");
    let common = Common {
        encoding: Some("no-such-encoding".into()),
        ..broken_skeleton(dir.path())
    };
    let err = pseudo(&page(dir.path()), &out, common).unwrap_err();
    assert!(matches!(err, L10nError::UnknownEncoding(_)), "{err}");
    assert_eq!(files_in(dir.path()), ["page.html"]);
}
