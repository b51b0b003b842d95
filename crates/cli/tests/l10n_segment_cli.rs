//! `tagloom l10n … --segment sentences` through the binary (issue 10): XLIFF
//! segments and PO sentence entries, translated sentences merged in place, the
//! untranslated round trip byte-exact, `count` per sentence, bad values rejected.

mod support;

use std::path::Path;
use std::process::{Command, Output, Stdio};

fn tagloom_in(dir: &Path, args: &[&str]) -> Output {
    support::tagloom()
        .args(args)
        .current_dir(dir)
        .env("SOURCE_DATE_EPOCH", "1700000000")
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn ok(out: &Output) {
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

const PAGE: &str = "<html lang=en><meta charset=utf-8><body>\n\
<p>First sentence. Second <a href=/x>one</a>!  Third?</p>\n<p>Alone.</p>\n</body></html>\n";

#[test]
fn segment_sentences_extract_merge_count() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("page.html"), PAGE).unwrap();
    let extract = |name: &str| {
        ok(&tagloom_in(
            d,
            &[
                "l10n",
                "extract",
                "page.html",
                "--target",
                "fr",
                "--segment",
                "sentences",
                "-o",
                name,
            ],
        ))
    };
    extract("page.xlf");
    extract("page.po");
    let xlf = std::fs::read_to_string(d.join("page.xlf")).unwrap();
    assert!(
        xlf.contains("<segment id=\"s2\"><source>Second <pc id=\"1\""),
        "{xlf}"
    );
    assert_eq!(xlf.matches("<ignorable>").count(), 2, "{xlf}");
    let po = std::fs::read_to_string(d.join("page.po")).unwrap();
    assert!(po.contains("#s3\"\nmsgid \"Third?\""), "{po}");
    assert!(po.contains("msgid \"Alone.\""), "{po}");
    // gettext reads it (when installed).
    if let Ok(check) = Command::new("msgfmt")
        .args(["-c", "-o", "/dev/null", "page.po"])
        .current_dir(d)
        .output()
    {
        assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stderr)
        );
    }
    // Untranslated: byte for byte.
    for name in ["page.xlf", "page.po"] {
        ok(&tagloom_in(
            d,
            &["l10n", "merge", "page.html", name, "-o", "same.html"],
        ));
        assert_eq!(std::fs::read_to_string(d.join("same.html")).unwrap(), PAGE);
    }
    // Translated per sentence: in place, the page's whitespace between.
    let po = po
        .replace(
            "msgid \"First sentence.\"\nmsgstr \"\"",
            "msgid \"First sentence.\"\nmsgstr \"Première phrase.\"",
        )
        .replace(
            "msgid \"Third?\"\nmsgstr \"\"",
            "msgid \"Third?\"\nmsgstr \"Troisième ?\"",
        );
    std::fs::write(d.join("page.po"), po).unwrap();
    ok(&tagloom_in(
        d,
        &["l10n", "merge", "page.html", "page.po", "-o", "fr.html"],
    ));
    let fr = std::fs::read_to_string(d.join("fr.html")).unwrap();
    assert!(
        fr.contains("<p>Première phrase. Second <a href=/x>one</a>! Troisième ?</p>"),
        "{fr}"
    );
    // count: sentences are units.
    let out = tagloom_in(d, &["l10n", "count", "page.html", "--segment", "sentences"]);
    ok(&out);
    let units = |out: &Output| -> String {
        let text = String::from_utf8_lossy(&out.stdout).into_owned();
        let total = text.lines().find(|l| l.ends_with(" total")).unwrap_or("");
        total.split_whitespace().next().unwrap_or("").to_string()
    };
    assert_eq!(units(&out), "4");
    let out = tagloom_in(d, &["l10n", "count", "page.html"]);
    assert_eq!(units(&out), "2");
    let out = tagloom_in(d, &["l10n", "count", "page.xlf"]);
    assert_eq!(units(&out), "4");
    // A bad value is a usage error.
    let out = tagloom_in(
        d,
        &[
            "l10n",
            "extract",
            "page.html",
            "--segment",
            "words",
            "-o",
            "x.xlf",
        ],
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(!d.join("x.xlf").exists());
}
