//! The l10n round trip: arbitrary bytes as an HTML page are extracted to XLIFF and to
//! PO, and each file is merged back untranslated: the output must be the input, byte
//! for byte (whatever the encoding, invalid bytes included), written by the skeleton
//! writer, with no issue. Pseudo-translation must not panic (errors are values).
//!
//! The first byte forces an encoding (most often none: BOM, `<meta>`, UTF-8 or
//! windows-1252 as the reader decides); the rest is the page.
#![no_main]

mod l10n_common;

use libfuzzer_sys::fuzz_target;
use tagloom_l10n::flow::{self, ExtractOptions, Format, MergeOptions, PseudoOptions};
use tagloom_l10n::writer::WriterMode;

use l10n_common::{common, scratch_file};

const ENCODINGS: [Option<&str>; 8] = [
    None,
    None,
    None,
    None,
    Some("windows-1252"),
    Some("shift_jis"),
    Some("utf-16le"),
    Some("gb18030"),
];

fuzz_target!(|data: &[u8]| {
    let Some((&first, page)) = data.split_first() else {
        return;
    };
    let encoding = ENCODINGS[usize::from(first % 8)];
    let common = common(encoding);
    let input = scratch_file("page.html");
    std::fs::write(&input, page).expect("scratch write");

    for (format, name) in [(Format::Xliff, "page.xlf"), (Format::Po, "page.po")] {
        let file = scratch_file(name);
        let mut options = ExtractOptions::new("en", Some("fr")).expect("valid language tags");
        options.format = Some(format);
        options.common = common.clone();
        if let Err(err) = flow::extract(&input, &file, &options) {
            panic!("extract to {format:?} failed: {err}");
        }
        let output = scratch_file("out.html");
        let options = MergeOptions {
            common: common.clone(),
            ..MergeOptions::default()
        };
        let report = match flow::merge(&input, &file, &output, &options) {
            Ok(r) => r,
            Err(err) => panic!("merging the untranslated {format:?} failed: {err}"),
        };
        let file_report = &report.files[0];
        assert_eq!(
            file_report.mode,
            Some(WriterMode::Skeleton),
            "{format:?}: a fallback writer ran"
        );
        assert_eq!(file_report.translated, 0, "{format:?}: blocks translated");
        assert!(
            file_report.issues.is_empty(),
            "{format:?}: issues on an untranslated merge: {:?}",
            file_report.issues
        );
        let back = std::fs::read(&output).expect("scratch read");
        assert!(
            back == page,
            "{format:?}: the untranslated round trip changed the page\n in: {:?}\nout: {:?}",
            String::from_utf8_lossy(page),
            String::from_utf8_lossy(&back)
        );
    }

    let options = PseudoOptions {
        target_lang: Some("fr".parse().expect("valid language tag")),
        common,
        ..PseudoOptions::default()
    };
    let _ = flow::pseudo(&input, &scratch_file("pseudo.html"), &options);
});
