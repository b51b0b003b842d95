//! `tagloom l10n` through the binary (issue 10): unconfirmed translations skipped
//! unless `--include-fuzzy`, the unambiguous PO code syntax (look-alikes round-trip,
//! stray codes reported), `-` for standard input and output, `--format` checked
//! against the extension, complete PO headers, directory totals.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

fn tagloom_in(dir: &Path, args: &[&str], stdin: Option<&[u8]>) -> Output {
    let mut command = support::tagloom();
    command
        .args(args)
        .current_dir(dir)
        .env("SOURCE_DATE_EPOCH", "1700000000");
    match stdin {
        Some(bytes) => support::feed(&mut command, bytes),
        None => command
            .stdin(Stdio::null())
            .output()
            .expect("the binary runs"),
    }
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    if let Some(parent) = p.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    std::fs::write(&p, text).unwrap();
    p
}

fn read(dir: &Path, name: &str) -> String {
    std::fs::read_to_string(dir.join(name)).unwrap()
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

fn code(out: &Output) -> Option<i32> {
    out.status.code()
}

const PAGE: &str = "<html lang=en><meta charset=utf-8><body>\n<p>One</p>\n<p>Two <a href=/x>links</a></p>\n</body></html>\n";

/// Extracts `page.html` to `name` (by extension).
fn extract(dir: &Path, name: &str) {
    let out = tagloom_in(
        dir,
        &["l10n", "extract", "page.html", "--target", "fr", "-o", name],
        None,
    );
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
}

#[test]
fn fuzzy_po_entries_are_skipped_unless_include_fuzzy() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "page.html", PAGE);
    extract(d, "page.po");
    let po = read(d, "page.po")
        .replacen(
            "msgid \"One\"\nmsgstr \"\"",
            "msgid \"One\"\nmsgstr \"Un\"",
            1,
        )
        .split("\n\n")
        .map(|entry| {
            // Mark the entry of "One" fuzzy (its flag line goes before msgctxt).
            if entry.contains("msgid \"One\"") {
                entry.replacen("msgctxt", "#, fuzzy\nmsgctxt", 1)
            } else {
                entry.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join("\n\n")
        .replacen(
            "msgid \"Two <1>links</1>\"\nmsgstr \"\"",
            "msgid \"Two <1>links</1>\"\nmsgstr \"Deux <1>liens</1>\"",
            1,
        );
    write(d, "fr.po", &po);
    let out = tagloom_in(
        d,
        &["l10n", "merge", "page.html", "fr.po", "-o", "out.html"],
        None,
    );
    assert_eq!(code(&out), Some(0), "not an error: {}", stderr(&out));
    assert!(
        stderr(&out).contains("1 unconfirmed translation(s) skipped"),
        "{}",
        stderr(&out)
    );
    let html = read(d, "out.html");
    assert!(
        html.contains("<p>One</p>") && html.contains("Deux <a href=/x>liens</a>"),
        "{html}"
    );
    let out = tagloom_in(
        d,
        &[
            "l10n",
            "merge",
            "page.html",
            "fr.po",
            "-o",
            "out.html",
            "--include-fuzzy",
        ],
        None,
    );
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert!(!stderr(&out).contains("unconfirmed"), "{}", stderr(&out));
    assert!(read(d, "out.html").contains("<p>Un</p>"));
}

#[test]
fn initial_xliff_segments_are_skipped_unless_include_fuzzy() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(
        d,
        "page.html",
        "<html lang=en><body><p>One</p><p>Two</p><p>Three</p></body></html>",
    );
    extract(d, "page.xlf");
    // p-1: state="initial" (unconfirmed); p-2: no state (a target is a translation,
    // as Weblate and hand edits write it); p-3: state="translated".
    let xlf = read(d, "page.xlf")
        .replace(
            "<segment><source>One</source>",
            "<segment state=\"initial\"><source>One</source><target>Un</target>",
        )
        .replace(
            "<source>Two</source>",
            "<source>Two</source><target>Deux</target>",
        )
        .replace(
            "<segment><source>Three</source>",
            "<segment state=\"translated\"><source>Three</source><target>Trois</target>",
        );
    write(d, "fr.xlf", &xlf);
    let out = tagloom_in(
        d,
        &["l10n", "merge", "page.html", "fr.xlf", "-o", "out.html"],
        None,
    );
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("1 unconfirmed translation(s) skipped"),
        "{}",
        stderr(&out)
    );
    assert_eq!(
        read(d, "out.html"),
        "<html lang=\"fr\"><body><p>One</p><p>Deux</p><p>Trois</p></body></html>"
    );
    let out = tagloom_in(
        d,
        &[
            "l10n",
            "merge",
            "page.html",
            "fr.xlf",
            "-o",
            "out.html",
            "--include-fuzzy",
        ],
        None,
    );
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert!(read(d, "out.html").contains("<p>Un</p>"));
}

#[test]
fn po_look_alike_codes_round_trip() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // Literal `<1>` text beside a real code 1, and a backslash before a code.
    let page = "<html lang=en><meta charset=utf-8><body><p>Type &lt;1&gt;x&lt;/1&gt; or <b>bold</b> C:\\<i>dir</i></p>\
                <p>a &lt;2/&gt; b</p></body></html>";
    write(d, "page.html", page);
    extract(d, "page.po");
    let po = read(d, "page.po");
    assert!(
        po.contains(r#"msgid "Type \\<1>x\\</1> or <1>bold</1> C:\\\\<2>dir</2>""#),
        "{po}"
    );
    assert!(po.contains(r#"msgid "a \\<2/> b""#), "{po}");
    // Untranslated: byte-identical.
    let out = tagloom_in(
        d,
        &["l10n", "merge", "page.html", "page.po", "-o", "same.html"],
        None,
    );
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert_eq!(read(d, "same.html"), page);
    // Translated keeping the escapes: the look-alikes stay text, the codes codes.
    let po = po
        .replace(
            "msgstr \"\"\n\n",
            "msgstr \"Tapez \\\\<1>x\\\\</1> ou <1>gras</1> C:\\\\\\\\<2>rép</2>\"\n\n",
        )
        .replacen(
            "msgid \"a \\\\<2/> b\"\nmsgstr \"\"",
            "msgid \"a \\\\<2/> b\"\nmsgstr \"un \\\\<2/> b\"",
            1,
        );
    write(d, "fr.po", &po);
    let out = tagloom_in(
        d,
        &["l10n", "merge", "page.html", "fr.po", "-o", "fr.html"],
        None,
    );
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert_eq!(
        read(d, "fr.html"),
        "<html lang=\"fr\"><meta charset=utf-8><body><p>Tapez &lt;1&gt;x&lt;/1&gt; or <b>gras</b> C:\\<i>rép</i></p>\
         <p>un &lt;2/&gt; b</p></body></html>"
            .replace(" or ", " ou ")
    );
}

#[test]
fn stray_codes_are_reported_not_escaped_into_text() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "page.html", PAGE);
    extract(d, "page.po");
    for (target, why) in [
        ("Un <1>x</1>", "stray code <1> </1>"), // a unit without codes
        ("Deux <3/>", "stray code <3/>"),       // placed in p-2 below
        ("Deux <1>liens</1> </1/>", "malformed"), // a malformed marker
        ("Deux <1>liens", "code 1 is never closed"), // unbalanced
    ] {
        let po = read(d, "page.po");
        let po = if target.starts_with("Un") {
            po.replacen(
                "msgid \"One\"\nmsgstr \"\"",
                &format!("msgid \"One\"\nmsgstr \"{target}\""),
                1,
            )
        } else {
            po.replacen(
                "msgid \"Two <1>links</1>\"\nmsgstr \"\"",
                &format!("msgid \"Two <1>links</1>\"\nmsgstr \"{target}\""),
                1,
            )
        };
        write(d, "fr.po", &po);
        let out = tagloom_in(
            d,
            &["l10n", "merge", "page.html", "fr.po", "-o", "fr.html"],
            None,
        );
        assert_eq!(code(&out), Some(1), "{target}: {}", stderr(&out));
        let err = stderr(&out);
        assert!(
            err.contains("inline codes broken") && err.contains(why),
            "{target}: {err}"
        );
        let html = read(d, "fr.html");
        assert!(
            html.contains("<p>One</p>") && html.contains("Two <a href=/x>links</a>"),
            "{html}"
        );
    }
}

#[test]
fn standard_input_and_output_in_every_l10n_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "page.html", PAGE);
    // extract - -o - (XLIFF by default; PO with --format)
    let out = tagloom_in(
        d,
        &["l10n", "extract", "-", "-o", "-"],
        Some(PAGE.as_bytes()),
    );
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let xlf = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(
        xlf.starts_with("<?xml") && xlf.contains("original=\"-\""),
        "{xlf}"
    );
    assert!(stderr(&out).starts_with("- -> -:"), "{}", stderr(&out));
    let out = tagloom_in(
        d,
        &["l10n", "extract", "page.html", "--format", "po", "-o", "-"],
        None,
    );
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let po = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(po.contains("msgid \"Two <1>links</1>\""), "{po}");
    write(
        d,
        "t.po",
        &po.replacen(
            "msgid \"One\"\nmsgstr \"\"",
            "msgid \"One\"\nmsgstr \"Un\"",
            1,
        ),
    );
    // merge: page on stdin, translations on stdin (format sniffed), output on stdout
    let out = tagloom_in(
        d,
        &["l10n", "merge", "-", "t.po", "-o", "-"],
        Some(PAGE.as_bytes()),
    );
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let merged = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(merged.contains("<p>Un</p>"), "{merged}");
    let t = std::fs::read(d.join("t.po")).unwrap();
    let out = tagloom_in(d, &["l10n", "merge", "page.html", "-", "-o", "-"], Some(&t));
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert_eq!(String::from_utf8(out.stdout.clone()).unwrap(), merged);
    let out = tagloom_in(
        d,
        &["l10n", "merge", "page.html", "-", "-o", "-"],
        Some(xlf.as_bytes()),
    );
    assert_eq!(code(&out), Some(0), "XLIFF sniffed: {}", stderr(&out));
    assert_eq!(out.stdout, PAGE.as_bytes(), "untranslated: byte-identical");
    // pseudo - -o -
    let out = tagloom_in(
        d,
        &["l10n", "pseudo", "-", "-o", "-"],
        Some(PAGE.as_bytes()),
    );
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let pseudo = String::from_utf8(out.stdout.clone()).unwrap();
    assert!(
        pseudo.starts_with("<html lang=en><meta charset=utf-8><body>\n<p>[") && pseudo != PAGE,
        "{pseudo}"
    );
    // Errors: both inputs on stdin; a directory to stdout; nothing on stdout.
    let out = tagloom_in(
        d,
        &["l10n", "merge", "-", "-", "-o", "-"],
        Some(PAGE.as_bytes()),
    );
    assert_eq!(code(&out), Some(2), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
    std::fs::create_dir(d.join("site")).unwrap();
    write(d, "site/a.html", PAGE);
    let out = tagloom_in(d, &["l10n", "pseudo", "site", "-o", "-"], None);
    assert_eq!(code(&out), Some(2), "{}", stderr(&out));
    assert!(stderr(&out).starts_with("tagloom: error: ") && out.stdout.is_empty());
    // A failed merge writes nothing to stdout.
    let out = tagloom_in(
        d,
        &["l10n", "merge", "-", "t.po", "-o", "-", "--strict"],
        Some(b"<p>Changed</p>"),
    );
    assert_eq!(code(&out), Some(2), "{}", stderr(&out));
    assert!(out.stdout.is_empty());
}

#[test]
fn a_format_disagreeing_with_the_extension_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "page.html", PAGE);
    let out = tagloom_in(
        d,
        &[
            "l10n",
            "extract",
            "page.html",
            "--format",
            "po",
            "-o",
            "x.xlf",
        ],
        None,
    );
    assert_eq!(code(&out), Some(2), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("--format po disagrees with x.xlf"),
        "{}",
        stderr(&out)
    );
    assert!(!d.join("x.xlf").exists());
    let out = tagloom_in(
        d,
        &[
            "l10n",
            "extract",
            "page.html",
            "--format",
            "xliff",
            "-o",
            "x.po",
        ],
        None,
    );
    assert_eq!(code(&out), Some(2), "{}", stderr(&out));
    assert!(!d.join("x.po").exists());
    // Agreeing, or an extension that names no format: fine.
    let out = tagloom_in(
        d,
        &[
            "l10n",
            "extract",
            "page.html",
            "--format",
            "po",
            "-o",
            "x.po",
        ],
        None,
    );
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let out = tagloom_in(
        d,
        &[
            "l10n",
            "extract",
            "page.html",
            "--format",
            "po",
            "-o",
            "x.txt",
        ],
        None,
    );
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert!(read(d, "x.txt").contains("msgid"));
    let out = tagloom_in(
        d,
        &[
            "l10n",
            "merge",
            "page.html",
            "x.po",
            "--format",
            "xliff",
            "-o",
            "o.html",
        ],
        None,
    );
    assert_eq!(code(&out), Some(2), "{}", stderr(&out));
    assert!(!d.join("o.html").exists());
    let out = tagloom_in(
        d,
        &[
            "l10n",
            "merge",
            "page.html",
            "x.txt",
            "--format",
            "po",
            "-o",
            "o.html",
        ],
        None,
    );
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
}

#[test]
fn po_headers_are_complete_and_overridable() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "page.html", PAGE);
    let out = tagloom_in(
        d,
        &[
            "l10n",
            "extract",
            "page.html",
            "--target",
            "de",
            "-o",
            "de.po",
            "--po-header",
            "Last-Translator: Jana <jana@example.org>",
            "--po-header",
            "Project-Id-Version: site 2.0",
        ],
        None,
    );
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let po = read(d, "de.po");
    for field in [
        "\"Project-Id-Version: site 2.0\\n\"",
        "\"POT-Creation-Date: 2023-11-14 22:13+0000\\n\"",
        "\"PO-Revision-Date: 2023-11-14 22:13+0000\\n\"",
        "\"Last-Translator: Jana <jana@example.org>\\n\"",
        "\"Language-Team: \\n\"",
        "\"Language: de\\n\"",
        "\"MIME-Version: 1.0\\n\"",
        "\"Content-Type: text/plain; charset=UTF-8\\n\"",
        "\"Content-Transfer-Encoding: 8bit\\n\"",
        "\"Plural-Forms: nplurals=2; plural=(n != 1);\\n\"",
        "\"X-Generator: tagloom ",
    ] {
        assert!(po.contains(field), "{field} in {po}");
    }
    // gettext's own checker accepts it, where installed.
    if let Ok(check) = Command::new("msgfmt")
        .args(["-c", "-o", "/dev/null", "de.po"])
        .current_dir(d)
        .output()
    {
        assert!(
            check.status.success(),
            "{}",
            String::from_utf8_lossy(&check.stderr)
        );
    }
    for bad in [
        "Last-Translator",
        "Bad Name: x",
        "Content-Type: text/plain; charset=latin1",
    ] {
        let out = tagloom_in(
            d,
            &[
                "l10n",
                "extract",
                "page.html",
                "-o",
                "bad.po",
                "--po-header",
                bad,
            ],
            None,
        );
        assert_eq!(code(&out), Some(2), "{bad}: {}", stderr(&out));
        assert!(!d.join("bad.po").exists());
    }
}

#[test]
fn directory_runs_print_totals() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write(d, "site/a.html", PAGE);
    write(d, "site/sub/b.html", "<p>日本語 and three words</p>");
    let out = tagloom_in(
        d,
        &["l10n", "extract", "site", "-o", "xlf", "--quiet"],
        None,
    );
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    let err = stderr(&out);
    let last = err.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("total: 2 file(s), 3 unit(s), 9 word(s), 0 translated, 0 issue(s), "),
        "{err}"
    );
    let out = tagloom_in(
        d,
        &["l10n", "pseudo", "site", "-o", "pseudo", "--quiet"],
        None,
    );
    assert_eq!(code(&out), Some(0), "{}", stderr(&out));
    assert!(
        stderr(&out).contains("total: 2 file(s), 3 unit(s), 9 word(s), 3 translated"),
        "{}",
        stderr(&out)
    );
    // A single file prints no totals.
    let out = tagloom_in(d, &["l10n", "extract", "site/a.html", "-o", "a.xlf"], None);
    assert!(!stderr(&out).contains("total:"), "{}", stderr(&out));
}
