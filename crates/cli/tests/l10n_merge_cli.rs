//! `tagloom l10n` through the binary (issue 8, points 1 and 4): language options and
//! translation-file languages must be BCP 47 tags (exit 2, no output); a stale
//! translation file merges with exit 1 (output written, each translation not
//! applied on stderr), 0 with `--allow-partial`, 2 with `--strict` (no output).

mod support;

use std::path::{Path, PathBuf};
use std::process::Output;

fn tagloom(args: &[&str], dir: &Path) -> Output {
    support::tagloom()
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs")
}

/// A fresh directory under the system temp dir, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(name: &str) -> Self {
        let dir =
            std::env::temp_dir().join(format!("tagloom-l10n-merge-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        TempDir(dir)
    }
    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

const PAGE: &str =
    "<html lang=en><body>\n<p>One</p>\n<p>Two <a href=/x>links</a></p>\n</body></html>\n";

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn hostile_language_options_exit_2_without_output() {
    let dir = TempDir::new("hostile");
    let d = dir.path();
    write(d, "p.html", PAGE);
    let evil = "fr\"><script>alert(1)</script>";
    for args in [
        vec![
            "l10n", "pseudo", "p.html", "--target", evil, "-o", "out.html",
        ],
        vec![
            "l10n", "pseudo", "p.html", "--source", evil, "-o", "out.html",
        ],
        vec![
            "l10n", "extract", "p.html", "--target", evil, "-o", "out.xlf",
        ],
        vec![
            "l10n", "extract", "p.html", "--source", "en'", "-o", "out.xlf",
        ],
    ] {
        let out = tagloom(&args, d);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains("BCP 47"), "{}", stderr(&out));
        assert!(!d.join("out.html").exists() && !d.join("out.xlf").exists());
    }
    // The XLIFF reproducer.
    let out = tagloom(
        &["l10n", "extract", "p.html", "--target", "fr", "-o", "p.xlf"],
        d,
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let xlf = std::fs::read_to_string(d.join("p.xlf")).unwrap().replace(
        "trgLang=\"fr\"",
        "trgLang=\"fr&quot; onmouseover=&quot;alert(1)\"",
    );
    write(d, "evil.xlf", &xlf);
    let out = tagloom(
        &["l10n", "merge", "p.html", "evil.xlf", "-o", "out.html"],
        d,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).contains("trgLang"), "{}", stderr(&out));
    assert!(!d.join("out.html").exists());
    // And a --target of merge.
    let out = tagloom(
        &[
            "l10n", "merge", "p.html", "p.xlf", "--target", "fr fr", "-o", "out.html",
        ],
        d,
    );
    assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
    assert!(!d.join("out.html").exists());
}

#[test]
fn stale_merge_exit_codes() {
    let dir = TempDir::new("stale");
    let d = dir.path();
    write(d, "p.html", PAGE);
    for ext in ["xlf", "po"] {
        let file = format!("p.{ext}");
        let out = tagloom(
            &["l10n", "extract", "p.html", "--target", "fr", "-o", &file],
            d,
        );
        assert!(out.status.success(), "{}", stderr(&out));
        // Untranslated: 0, byte-identical.
        let out = tagloom(&["l10n", "merge", "p.html", &file, "-o", "same.html"], d);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert_eq!(std::fs::read_to_string(d.join("same.html")).unwrap(), PAGE);
        // Translate "One", then insert a paragraph before it in the page.
        let text = std::fs::read_to_string(d.join(&file)).unwrap();
        let text = if ext == "xlf" {
            text.replacen("One</source>", "One</source><target>Un</target>", 1)
        } else {
            text.replacen(
                "msgid \"One\"\nmsgstr \"\"",
                "msgid \"One\"\nmsgstr \"Un\"",
                1,
            )
        };
        let fr = format!("fr.{ext}");
        write(d, &fr, &text);
        let out = tagloom(&["l10n", "merge", "p.html", &fr, "-o", "fr.html"], d);
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(
            std::fs::read_to_string(d.join("fr.html"))
                .unwrap()
                .contains("<p>Un</p>")
        );
        write(d, "v2.html", &PAGE.replace("<p>One", "<p>Zero</p>\n<p>One"));
        let out = tagloom(&["l10n", "merge", "v2.html", &fr, "-o", "v2.fr.html"], d);
        assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
        // Content ids: "One" keeps its id and its translation; the new paragraph
        // has no unit in the file, which makes the merge partial.
        let err = stderr(&out);
        assert!(err.contains(": block not in file"), "{err}");
        let html = std::fs::read_to_string(d.join("v2.fr.html")).unwrap();
        assert!(html.contains("<p>Zero</p>\n<p>Un</p>"), "{html}");
        let out = tagloom(
            &[
                "l10n",
                "merge",
                "v2.html",
                &fr,
                "-o",
                "v2.fr.html",
                "--allow-partial",
            ],
            d,
        );
        assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
        assert!(stderr(&out).contains("block not in file"));
        std::fs::remove_file(d.join("v2.fr.html")).unwrap();
        let out = tagloom(
            &[
                "l10n",
                "merge",
                "v2.html",
                &fr,
                "-o",
                "v2.fr.html",
                "--strict",
            ],
            d,
        );
        assert_eq!(out.status.code(), Some(2), "{}", stderr(&out));
        assert!(!d.join("v2.fr.html").exists());
    }
}

/// Japanese merged into an undeclared windows-1252 page: exit 0, the characters
/// written as numeric character references, and a warning on stderr that says
/// how many, why, and to declare UTF-8. A UTF-8 page gets no warning.
#[test]
fn lossy_merge_into_a_legacy_encoding_warns() {
    let dir = TempDir::new("lossy");
    let page = dir.path().join("page.html");
    std::fs::write(
        &page,
        b"<html><head><title>Caf\xe9</title></head><body><p>Hello world</p></body></html>",
    )
    .unwrap();
    let out = tagloom(
        &[
            "l10n",
            "extract",
            "page.html",
            "--target",
            "ja",
            "-o",
            "page.xlf",
        ],
        dir.path(),
    );
    assert!(out.status.success(), "{}", stderr(&out));
    let xlf = std::fs::read_to_string(dir.path().join("page.xlf")).unwrap();
    let xlf = xlf.replace(
        "<source>Hello world</source>",
        "<source>Hello world</source><target>こんにちは世界</target>",
    );
    write(dir.path(), "page.ja.xlf", &xlf);
    let out = tagloom(
        &["l10n", "merge", "page.html", "page.ja.xlf", "-o", "ja.html"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains(
            "tagloom: warning: ja.html: 7 character(s) the page's encoding (windows-1252) \
             cannot represent were written as numeric character references"
        ) && err.contains("declare UTF-8"),
        "{err}"
    );
    let html = std::fs::read(dir.path().join("ja.html")).unwrap();
    assert!(
        String::from_utf8_lossy(&html)
            .contains("<p>&#x3053;&#x3093;&#x306B;&#x3061;&#x306F;&#x4E16;&#x754C;</p>")
    );

    // The page in UTF-8: the text as it is, no warning.
    std::fs::write(
        &page,
        "<html><head><meta charset=\"utf-8\"><title>Café</title></head>\
         <body><p>Hello world</p></body></html>",
    )
    .unwrap();
    let out = tagloom(
        &["l10n", "merge", "page.html", "page.ja.xlf", "-o", "ja.html"],
        dir.path(),
    );
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("numeric character references"));
    let html = std::fs::read_to_string(dir.path().join("ja.html")).unwrap();
    assert!(html.contains("<p>こんにちは世界</p>"), "{html}");
}
