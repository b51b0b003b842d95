//! `tagloom l10n update` and `tagloom l10n count` through the binary: a changed
//! page keeps its unchanged translations (XLIFF and PO, file and directory), the
//! summary says what changed (text and JSON), counts per file and total, bad
//! usage exits 2 without output.

mod support;

use std::path::{Path, PathBuf};
use support::{run as tagloom, run_with_stdin as tagloom_with_stdin};

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

const V1: &str = "<html lang=\"en\"><body><h1 id=\"top\">Welcome</h1>\n\
<p>The quick brown fox jumps over the lazy dog near the river bank.</p>\n\
<p>Second paragraph with a <a href=\"/x\">link</a> inside.</p>\n\
<p>Third one is going away.</p>\n\
</body></html>\n";

/// V1 with a word edited, a paragraph inserted and one deleted.
fn v2() -> String {
    V1.replace("lazy dog", "sleepy dog").replace(
        "<p>Third one is going away.</p>\n",
        "<p>Brand new text here.</p>\n",
    )
}

/// `dir/name.html` (V1) extracted and translated (source + ` FR`) into `old.xlf`;
/// the page replaced by its new version.
fn setup(dir: &Path, name: &str) -> (PathBuf, PathBuf) {
    let page = dir.join(format!("{name}.html"));
    std::fs::write(&page, V1).unwrap();
    let xlf = dir.join(format!("{name}.xlf"));
    let out = tagloom(&[
        "l10n",
        "extract",
        s(&page),
        "--target",
        "fr",
        "-o",
        s(&xlf),
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Each target: its source (codes kept) and ` FR`.
    let text = std::fs::read_to_string(&xlf).unwrap();
    let mut fr = String::new();
    let mut rest = text.as_str();
    while let Some(at) = rest.find("<source>") {
        let end = rest[at..].find("</source>").unwrap() + at;
        let inner = &rest[at + "<source>".len()..end];
        fr.push_str(&rest[..end + "</source>".len()]);
        fr.push_str(&format!("<target>{inner} FR</target>"));
        rest = &rest[end + "</source>".len()..];
    }
    fr.push_str(rest);
    std::fs::write(&xlf, fr).unwrap();
    std::fs::write(&page, v2()).unwrap();
    (page, xlf)
}

#[test]
fn update_a_file_to_xliff_and_po_then_merge() {
    let dir = tempfile::tempdir().unwrap();
    let (page, old) = setup(dir.path(), "page");
    let new = dir.path().join("new.xlf");
    let out = tagloom(&[
        "l10n",
        "update",
        s(&page),
        s(&old),
        "-o",
        s(&new),
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        stdout.contains(
            "2 unchanged (7 words, 2 translations carried over), 1 fuzzy (13 words, 1 \
             suggestions), 1 new (4 words), 1 removed (5 words)"
        ),
        "{stdout}"
    );
    let xlf = std::fs::read_to_string(&new).unwrap();
    assert_eq!(xlf.matches(" FR</target>").count(), 2);
    assert!(xlf.contains("<segment state=\"initial\">"));
    // The merge applies the two carried translations, nothing else, exit 0.
    let html = dir.path().join("fr.html");
    let out = tagloom(&[
        "l10n",
        "merge",
        s(&page),
        s(&new),
        "-o",
        s(&html),
        "--quiet",
    ]);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let html = std::fs::read_to_string(&html).unwrap();
    assert!(html.contains("<h1 id=\"top\">Welcome FR</h1>"));
    assert!(html.contains("sleepy dog near the river bank.</p>"));
    assert!(html.contains("<p>Brand new text here.</p>"));
    // PO from the XLIFF, with gettext's fuzzy flag and previous msgid; JSON report.
    let po = dir.path().join("new.po");
    let out = tagloom(&[
        "l10n",
        "update",
        s(&page),
        s(&old),
        "-o",
        s(&po),
        "--report",
        "json",
        "--quiet",
    ]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["total"]["carried"], 2);
    assert_eq!(json["total"]["fuzzy"]["units"], 1);
    assert_eq!(json["files"][0]["counts"]["new"]["words"], 4);
    let po = std::fs::read_to_string(&po).unwrap();
    assert!(po.contains(
        "#, fuzzy\n#| msgid \"The quick brown fox jumps over the lazy dog near the river bank.\"\n"
    ));
    assert_eq!(po.matches(" FR\"\n").count(), 3, "{po}");
}

#[test]
fn update_a_directory_prints_totals() {
    let dir = tempfile::tempdir().unwrap();
    let (pages, old) = (dir.path().join("site"), dir.path().join("old"));
    std::fs::create_dir_all(&pages).unwrap();
    std::fs::create_dir_all(&old).unwrap();
    for name in ["a", "b"] {
        let (page, xlf) = setup(&pages, name);
        std::fs::rename(&xlf, old.join(format!("{name}.html.xlf"))).unwrap();
        assert!(page.exists());
    }
    // A page without an old file: all new.
    std::fs::write(pages.join("c.html"), "<p>Only new.</p>").unwrap();
    let new = dir.path().join("new");
    let out = tagloom(&[
        "l10n",
        "update",
        s(&pages),
        s(&old),
        "-o",
        s(&new),
        "--quiet",
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.contains("total: 4 unchanged"), "{stdout}");
    assert!(stdout.contains("3 new"), "{stdout}");
    for name in ["a", "b", "c"] {
        assert!(new.join(format!("{name}.html.xlf")).is_file());
    }
}

#[test]
fn count_files_directories_and_against_an_old_file() {
    let dir = tempfile::tempdir().unwrap();
    let (page, old) = setup(dir.path(), "page");
    let out = tagloom(&["l10n", "count", s(&page)]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("       4        24        109  total"),
        "{text}"
    );
    // A directory: the page and the XLIFF, per file and total; JSON.
    let out = tagloom(&["l10n", "count", s(dir.path()), "--report", "json"]);
    assert!(out.status.success());
    let json: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(json["files"].as_array().unwrap().len(), 2);
    assert_eq!(json["total"]["units"], 8);
    // Against the old file: the breakdown update would find.
    let out = tagloom(&["l10n", "count", s(&page), "--old", s(&old)]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("2 unchanged") && text.contains("1 fuzzy") && text.contains("1 new"),
        "{text}"
    );
}

#[test]
fn bad_usage_exits_2_without_output() {
    let dir = tempfile::tempdir().unwrap();
    let (page, old) = setup(dir.path(), "page");
    let new = dir.path().join("new.xlf");
    let out = tagloom(&[
        "l10n",
        "update",
        s(&page),
        s(&old),
        "-o",
        s(&new),
        "--fuzzy-threshold",
        "2",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let missing = dir.path().join("missing.xlf");
    let out = tagloom(&[
        "l10n",
        "update",
        s(&page),
        s(&missing),
        "-o",
        s(&new),
        "--quiet",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("tagloom: error:") && stderr.lines().count() == 1,
        "{stderr}"
    );
    assert!(!new.exists());
    let out = tagloom(&["l10n", "count", s(&missing)]);
    assert_eq!(out.status.code(), Some(2));
}

/// `tagloom ARGS` with `stdin` on standard input.
const SUMMARY: &str = "2 unchanged (7 words, 2 translations carried over), 1 fuzzy (13 words, 1 \
                       suggestions), 1 new (4 words), 1 removed (5 words)";

#[test]
fn update_reads_the_page_from_stdin_and_writes_po_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let (page, old) = setup(dir.path(), "page");
    let html = std::fs::read(&page).unwrap();
    // PAGE `-`, NEW a file: the summary names the page `-`.
    let new = dir.path().join("new.xlf");
    let out = tagloom_with_stdin(&["l10n", "update", "-", s(&old), "-o", s(&new)], &html);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(stdout.starts_with("- -> "), "{stdout}");
    assert!(stdout.contains(SUMMARY), "{stdout}");
    assert_eq!(
        std::fs::read_to_string(&new)
            .unwrap()
            .matches(" FR</target>")
            .count(),
        2
    );
    // `-o -` with --format po: PO on standard output, the summary on standard error.
    let out = tagloom_with_stdin(
        &["l10n", "update", "-", s(&old), "--format", "po", "-o", "-"],
        &html,
    );
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let po = String::from_utf8(out.stdout).unwrap();
    assert!(
        po.contains("msgid \"Welcome\"") && po.contains("msgstr \"Welcome FR\""),
        "{po}"
    );
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.contains("- -> -: ") && stderr.contains(SUMMARY),
        "{stderr}"
    );
}

#[test]
fn update_reads_old_from_stdin_and_writes_its_format_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let (page, old) = setup(dir.path(), "page");
    let xlf = std::fs::read(&old).unwrap();
    let out = tagloom_with_stdin(&["l10n", "update", s(&page), "-", "-o", "-"], &xlf);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let new = String::from_utf8(out.stdout).unwrap();
    assert!(new.starts_with("<?xml"), "{new}");
    assert_eq!(new.matches(" FR</target>").count(), 2);
    assert!(String::from_utf8(out.stderr).unwrap().contains(SUMMARY));
    // `count --old -` too.
    let out = tagloom_with_stdin(&["l10n", "count", s(&page), "--old", "-"], &xlf);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8(out.stdout).unwrap().contains(SUMMARY));
}

#[test]
fn count_reads_a_page_from_stdin() {
    let out = tagloom_with_stdin(&["l10n", "count", "-"], V1.as_bytes());
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let row = stdout.lines().nth(1).unwrap_or_default();
    assert!(
        row.ends_with("  -") && row.trim_start().starts_with("4 "),
        "{stdout}"
    );
}

#[test]
fn update_with_both_inputs_on_stdin_or_a_disagreeing_format_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let (page, old) = setup(dir.path(), "page");
    let new = dir.path().join("new.xlf");
    let out = tagloom_with_stdin(&["l10n", "update", "-", "-", "-o", s(&new)], V1.as_bytes());
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(stderr.lines().count(), 1, "{stderr}");
    assert!(
        stderr.starts_with("tagloom: error: only one input can be `-`"),
        "{stderr}"
    );
    let out = tagloom(&[
        "l10n",
        "update",
        s(&page),
        s(&old),
        "--format",
        "po",
        "-o",
        s(&new),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr).unwrap().contains("disagrees"));
    assert!(out.stdout.is_empty());
    assert!(!new.exists());
}

/// Updating twice without confirming anything (XLIFF, then PO from it): the
/// second update finds the same fuzzy unit, keeps its suggestion (XLIFF notes;
/// PO `#, fuzzy`, `#| msgid` and the old msgstr) and writes the same file.
#[test]
fn a_second_update_keeps_the_fuzzy_suggestions() {
    let dir = tempfile::tempdir().unwrap();
    let (page, old) = setup(dir.path(), "page");
    for ext in ["xlf", "po"] {
        let once = dir.path().join(format!("once.{ext}"));
        let twice = dir.path().join(format!("twice.{ext}"));
        let mut summaries = Vec::new();
        for (from, to) in [(&old, &once), (&once, &twice)] {
            let out = tagloom(&["l10n", "update", s(&page), s(from), "-o", s(to), "--quiet"]);
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            summaries.push(String::from_utf8(out.stdout).unwrap());
        }
        assert!(
            summaries[1].contains("1 fuzzy (13 words, 1 suggestions)"),
            "{ext}: {}",
            summaries[1]
        );
        let (a, b) = (
            std::fs::read_to_string(&once).unwrap(),
            std::fs::read_to_string(&twice).unwrap(),
        );
        assert_eq!(a, b, "{ext}");
        let kept = if ext == "xlf" {
            "<note category=\"update-old-source\">The quick brown fox jumps over the lazy dog \
             near the river bank.</note>"
        } else {
            "#, fuzzy\n#| msgid \"The quick brown fox jumps over the lazy dog near the river bank.\"\n"
        };
        assert!(b.contains(kept), "{ext}: {b}");
    }
}
