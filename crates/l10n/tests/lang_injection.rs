//! Issue 8, point 1: no value from a translation file reaches the page as markup.
//!
//! Language values (XLIFF `srcLang`/`trgLang`, the PO `Language:` and
//! `X-Source-Language:` headers) must be well-formed BCP 47 tags: anything else is
//! an error before any output is written. Valid ones are written into `lang`,
//! `xml:lang` and `http-equiv=content-language` values escaped for their quote.
//! Inline codes are always the page's markup: a file's `<originalData>`, its code
//! data references or PO markers cannot add markup.

mod support;

use support::{extract_opts, merge_opts};

use std::path::{Path, PathBuf};

use tagloom_l10n::L10nError;
use tagloom_l10n::flow::{self, ExtractOptions};
use tagloom_l10n::writer::IssueKind;

const PAGE: &str = "<!DOCTYPE html><html lang=\"en\"><head>\
<meta http-equiv=\"content-language\" content=en>\
<meta http-equiv=Content-Language content='en'></head>\
<body><p xml:lang='en'>Hello <b lang=en>big</b> world</p>\
<svg><text xml:lang=\"en\">Hi</text></svg></body></html>";

const UNIT: &str = "html-1.body-1.p-1";

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Extracts PAGE as `ext`, translates the paragraph, and lets `edit` change the file.
fn translated_file(dir: &Path, ext: &str, edit: impl Fn(String) -> String) -> PathBuf {
    let page = write(dir, "page.html", PAGE);
    let file = dir.join(format!("page.{ext}"));
    let opts = extract_opts();
    flow::extract(&page, &file, &opts).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let text = if ext == "xlf" {
        text.replacen(
            "</pc> world</source>",
            "</pc> world</source><target>Bonjour <pc id=\"1\">grand</pc> monde</target>",
            1,
        )
    } else {
        text.replacen(
            "msgid \"Hello <1>big</1> world\"\nmsgstr \"\"",
            "msgid \"Hello <1>big</1> world\"\nmsgstr \"Bonjour <1>grand</1> monde\"",
            1,
        )
    };
    write(dir, &format!("fr.{ext}"), &edit(text))
}

fn merge(dir: &Path, file: &Path) -> (tagloom_l10n::Result<flow::Report>, PathBuf) {
    let out = dir.join("out.html");
    let page = dir.join("page.html");
    (flow::merge(&page, file, &out, &merge_opts()), out)
}

fn assert_language_error(dir: &Path, file: &Path, what: &str) {
    let (result, out) = merge(dir, file);
    let err = result.unwrap_err();
    assert!(matches!(err, L10nError::Language { .. }), "{what}: {err}");
    assert!(err.to_string().contains("BCP 47"), "{err}");
    println!("{what}: {err}");
    assert!(!out.exists(), "{what}: output written");
}

#[test]
fn xliff_trglang_reproducer_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let file = translated_file(dir.path(), "xlf", |t| {
        t.replace(
            "trgLang=\"fr\"",
            "trgLang=\"fr&quot; onmouseover=&quot;alert(1)\"",
        )
    });
    assert_language_error(dir.path(), &file, "trgLang");
    for bad in ["fr&gt;&lt;script&gt;", "fr'", "fr fr", "fr&#10;", "en_US"] {
        let file = translated_file(dir.path(), "xlf", |t| {
            t.replace("trgLang=\"fr\"", &format!("trgLang=\"{bad}\""))
        });
        assert_language_error(dir.path(), &file, bad);
    }
}

#[test]
fn xliff_srclang_is_checked_too() {
    let dir = tempfile::tempdir().unwrap();
    let file = translated_file(dir.path(), "xlf", |t| {
        t.replace("srcLang=\"en\"", "srcLang=\"en&quot;&gt;\"")
    });
    assert_language_error(dir.path(), &file, "srcLang");
}

#[test]
fn po_language_headers_are_checked() {
    let dir = tempfile::tempdir().unwrap();
    let file = translated_file(dir.path(), "po", |t| {
        t.replace(
            "\"Language: fr\\n\"",
            "\"Language: fr\\\" onmouseover=\\\"alert(1)\\n\"",
        )
    });
    assert_language_error(dir.path(), &file, "Language");
    let file = translated_file(dir.path(), "po", |t| {
        t.replace(
            "\"Language: fr\\n\"",
            "\"Language: fr\\\"><script>alert(1)</script>\\n\"",
        )
    });
    assert_language_error(dir.path(), &file, "Language <script>");
    let file = translated_file(dir.path(), "po", |t| {
        t.replace(
            "\"X-Source-Language: en\\n\"",
            "\"X-Source-Language: en'\\n\"",
        )
    });
    assert_language_error(dir.path(), &file, "X-Source-Language");
}

#[test]
fn po_gettext_language_form_is_read_as_bcp47() {
    let dir = tempfile::tempdir().unwrap();
    let file = translated_file(dir.path(), "po", |t| {
        t.replace("\"Language: fr\\n\"", "\"Language: sr_RS@latin\\n\"")
    });
    let (result, out) = merge(dir.path(), &file);
    result.unwrap();
    let html = std::fs::read_to_string(out).unwrap();
    assert!(
        html.starts_with("<!DOCTYPE html><html lang=\"sr-Latn-RS\">"),
        "{html}"
    );
}

#[test]
fn valid_targets_reach_every_language_attribute_escaped_for_its_quote() {
    for ext in ["xlf", "po"] {
        let dir = tempfile::tempdir().unwrap();
        let file = translated_file(dir.path(), ext, |t| {
            t.replace("trgLang=\"fr\"", "trgLang=\"zh-Hant-TW\"")
                .replace("\"Language: fr\\n\"", "\"Language: zh-Hant-TW\\n\"")
        });
        let (result, out) = merge(dir.path(), &file);
        let report = result.unwrap();
        assert_eq!(report.issues().count(), 0);
        let html = std::fs::read_to_string(out).unwrap();
        // lang, both content-language metas (an unquoted value gets quotes), xml:lang
        // in single quotes, lang inside an inline code of the translated block; the
        // svg's xml:lang (opaque subtree) is kept.
        let expected = "<!DOCTYPE html><html lang=\"zh-Hant-TW\"><head>\
<meta http-equiv=\"content-language\" content=\"zh-Hant-TW\">\
<meta http-equiv=Content-Language content='zh-Hant-TW'></head>\
<body><p xml:lang='zh-Hant-TW'>Bonjour <b lang=\"zh-Hant-TW\">grand</b> monde</p>\
<svg><text xml:lang=\"en\">Hi</text></svg></body></html>";
        assert_eq!(html, expected, "{ext}");
    }
}

#[test]
fn inline_codes_are_the_pages_markup_never_the_files() {
    let dir = tempfile::tempdir().unwrap();
    // 1. Extra data in <originalData>, named by the target's code: ignored, the
    // page's <b> is written.
    let file = translated_file(dir.path(), "xlf", |t| {
        t.replace(
            "</originalData>",
            "<data id=\"evil\">&lt;script&gt;alert(1)&lt;/script&gt;</data></originalData>",
        )
        .replace(
            "<target>Bonjour <pc id=\"1\">",
            "<target>Bonjour <pc id=\"1\" dataRefStart=\"evil\" dataRefEnd=\"evil\">",
        )
    });
    let (result, out) = merge(dir.path(), &file);
    assert_eq!(result.unwrap().issues().count(), 0);
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(html.contains("<p xml:lang='fr'>Bonjour <b lang=\"fr\">grand</b> monde</p>"));
    assert!(!html.contains("<script"), "{html}");
    // 2. The code's own data rewritten in the file: the source no longer matches
    // the page, the translation is not applied and is reported.
    let file = translated_file(dir.path(), "xlf", |t| {
        t.replace(
            "<data id=\"d2\">&lt;b lang=en&gt;</data>",
            "<data id=\"d2\">&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;</data>",
        )
    });
    let (result, out) = merge(dir.path(), &file);
    let report = result.unwrap();
    let kinds: Vec<IssueKind> = report.issues().map(|(_, i)| i.kind).collect();
    assert_eq!(kinds, [IssueKind::SourceChanged]);
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(!html.contains("<script"), "{html}");
    assert!(html.contains("Hello <b lang=en>big</b> world"), "{html}");
    // 3. A code the page does not have, markup as text: rejected / escaped.
    let file = translated_file(dir.path(), "xlf", |t| {
        t.replace("monde</target>", "monde<ph id=\"7\"/></target>")
    });
    let (result, _) = merge(dir.path(), &file);
    let kinds: Vec<IssueKind> = result.unwrap().issues().map(|(_, i)| i.kind).collect();
    assert_eq!(kinds, [IssueKind::Codes]);
    let file = translated_file(dir.path(), "xlf", |t| {
        t.replace(
            "monde</target>",
            "&lt;script&gt;alert(1)&lt;/script&gt;</target>",
        )
    });
    let (result, out) = merge(dir.path(), &file);
    assert_eq!(result.unwrap().issues().count(), 0);
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(
        html.contains("&lt;script&gt;alert(1)&lt;/script&gt;</p>"),
        "{html}"
    );
}

#[test]
fn po_markers_and_code_comments_cannot_add_markup() {
    let dir = tempfile::tempdir().unwrap();
    // A marker for a code the block lacks is a stray code: reported, not applied.
    let file = translated_file(dir.path(), "po", |t| {
        t.replace(
            "msgstr \"Bonjour <1>grand</1> monde\"",
            "msgstr \"Bonjour <1>grand</1> <9/>\"",
        )
    });
    let (result, out) = merge(dir.path(), &file);
    let kinds: Vec<IssueKind> = result.unwrap().issues().map(|(_, i)| i.kind).collect();
    assert_eq!(kinds, [IssueKind::Codes]);
    assert!(!std::fs::read_to_string(&out).unwrap().contains("Bonjour"));
    // An escaped look-alike is text (escaped in the page); markup in msgstr too.
    let file = translated_file(dir.path(), "po", |t| {
        t.replace(
            "msgstr \"Bonjour <1>grand</1> monde\"",
            "msgstr \"Bonjour <1>grand</1> \\\\<9/><script>alert(1)</script>\"",
        )
    });
    let (result, out) = merge(dir.path(), &file);
    assert_eq!(result.unwrap().issues().count(), 0);
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(
        html.contains("Bonjour <b lang=\"fr\">grand</b> &lt;9/&gt;&lt;script&gt;"),
        "{html}"
    );
    // A code comment rewritten: stale, reported, not applied.
    let file = translated_file(dir.path(), "po", |t| {
        t.replace(
            "#. code 1: <b lang=en>",
            "#. code 1: <script>alert(1)</script>",
        )
    });
    let (result, out) = merge(dir.path(), &file);
    let report = result.unwrap();
    let issues: Vec<String> = report.issues().map(|(_, i)| i.to_string()).collect();
    assert_eq!(
        issues,
        [format!(
            "{UNIT}: source changed (the markup of code 1 differs)"
        )]
    );
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(!html.contains("<script"), "{html}");
}

#[test]
fn command_line_languages_are_typed() {
    assert!(ExtractOptions::new("en", Some("fr\"><script>alert(1)</script>")).is_err());
    assert!(ExtractOptions::new("en\" x=\"", None).is_err());
    let err = ExtractOptions::new("en", Some("fr\"")).unwrap_err();
    assert!(err.to_string().starts_with("target language: "), "{err}");
}
