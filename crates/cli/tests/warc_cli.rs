//! `tagloom warc` through the binary: each job on a directory of WARC files (plain,
//! gzip per record, whole-file gzip) written by the reader's test support, rows in
//! order, error rows for bad records with a summary on stderr, `-o` and `-j`, and
//! exit 2 with nothing written for an input that cannot be read.

mod support;
#[path = "../../warc/tests/support/mod.rs"]
mod warc_support;

use std::path::Path;
use std::process::Output;

use support::{run as tagloom, run_with_stdin};
use warc_support::Compression;

fn rows(out: &Output) -> Vec<serde_json::Value> {
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect()
}

/// Three files: one per compression, each with a Russian page whose charset is
/// only in the HTTP header, and one whose last record is cut short.
fn archives(dir: &Path) {
    let (cp1251, _, _) =
        encoding_rs::WINDOWS_1251.encode("<title>Заголовок</title><p>Привет, <a href='/b'>мир</a>");
    for (i, compression) in [
        Compression::None,
        Compression::PerRecord,
        Compression::Whole,
    ]
    .into_iter()
    .enumerate()
    {
        let records = vec![
            warc_support::warcinfo(),
            warc_support::record(
                "response",
                &format!("http://ru.example/{i}/a"),
                &warc_support::html_response(&cp1251, Some("windows-1251")),
            ),
            warc_support::record(
                "response",
                &format!("http://img.example/{i}"),
                &warc_support::http(&[("Content-Type", "image/png")], b"\x89PNG"),
            ),
        ];
        let mut bytes = warc_support::file(&records, compression);
        if i == 2 {
            let mut plain = warc_support::file(&records, Compression::None);
            plain.extend(warc_support::record(
                "response",
                "http://cut.example/",
                &warc_support::html_response(b"<p>never complete", None),
            ));
            plain.truncate(plain.len() - 12);
            bytes = warc_support::gzip(&plain);
        }
        let name = match compression {
            Compression::None => "a.warc",
            Compression::PerRecord => "b.warc.gz",
            Compression::Whole => "sub/c.warc.gz",
        };
        let path = dir.join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, bytes).unwrap();
    }
    std::fs::write(dir.join("notes.txt"), "not an archive").unwrap();
}

#[test]
fn text_over_a_directory() {
    let dir = tempfile::tempdir().unwrap();
    archives(dir.path());
    let out = tagloom(&["warc", "text", dir.path().to_str().unwrap(), "-j", "2"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let rows = rows(&out);
    let uris: Vec<_> = rows
        .iter()
        .map(|r| r["uri"].as_str().unwrap_or("-"))
        .collect();
    assert_eq!(
        uris,
        [
            "http://ru.example/0/a",
            "http://ru.example/1/a",
            "http://ru.example/2/a",
            "-"
        ]
    );
    for row in &rows[..3] {
        assert_eq!(row["text"], "Привет, мир");
        assert_eq!(row["title"], "Заголовок");
        assert_eq!(row["encoding"], "windows-1251");
        assert_eq!(row["status"], 200);
    }
    assert_eq!(rows[3]["error"]["kind"], "truncated");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("3 file(s), 10 record(s), 3 page(s), 1 error(s), 6 skipped"),
        "{stderr}"
    );
}

#[test]
fn links_words_and_sanitize_to_a_file() {
    let dir = tempfile::tempdir().unwrap();
    archives(dir.path());
    let file = dir.path().join("b.warc.gz");
    let file = file.to_str().unwrap();
    let out = tagloom(&["warc", "links", file]);
    assert_eq!(
        rows(&out)[0]["links"],
        serde_json::json!(["http://ru.example/b"])
    );
    let out = tagloom(&["warc", "l10n-words", file]);
    let row = &rows(&out)[0];
    assert_eq!(
        (row["units"].as_u64(), row["words"].as_u64()),
        (Some(2), Some(3))
    );
    let dest = dir.path().join("out.jsonl");
    let out = tagloom(&["warc", "sanitize", file, "-o", dest.to_str().unwrap(), "-q"]);
    assert!(out.status.success());
    assert!(out.stdout.is_empty());
    let written = std::fs::read_to_string(&dest).unwrap();
    let row: serde_json::Value = serde_json::from_str(written.trim()).unwrap();
    assert_eq!(
        row["html"],
        "<p>Привет, <a href=\"/b\" rel=\"noopener noreferrer\">мир</a></p>"
    );
}

#[test]
fn an_unreadable_input_is_exit_2_and_no_output() {
    let dir = tempfile::tempdir().unwrap();
    archives(dir.path());
    let dest = dir.path().join("out.jsonl");
    let missing = dir.path().join("missing.warc");
    let out = tagloom(&[
        "warc",
        "text",
        dir.path().join("a.warc").to_str().unwrap(),
        missing.to_str().unwrap(),
        "-o",
        dest.to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("tagloom: error: cannot read") && stderr.lines().count() == 1,
        "{stderr}"
    );
    assert!(!dest.exists());
    let out = tagloom(&["warc", "nonsense", "x.warc"]);
    assert_eq!(out.status.code(), Some(2));
    let empty = tempfile::tempdir().unwrap();
    let out = tagloom(&["warc", "text", empty.path().to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn standard_input_gives_the_rows_of_the_same_file() {
    let dir = tempfile::tempdir().unwrap();
    archives(dir.path());
    for name in ["a.warc", "b.warc.gz", "sub/c.warc.gz"] {
        let path = dir.path().join(name);
        let from_file = tagloom(&["warc", "text", path.to_str().unwrap()]);
        let from_stdin = run_with_stdin(&["warc", "text", "-"], &std::fs::read(&path).unwrap());
        assert!(from_stdin.status.success(), "{name}");
        let (mut a, b) = (rows(&from_file), rows(&from_stdin));
        assert!(!b.is_empty(), "{name}");
        for row in &mut a {
            row["file"] = serde_json::json!("-");
        }
        assert_eq!(a, b, "{name}");
    }
    // Standard input is one archive among the others, read once.
    let a = dir.path().join("a.warc");
    let out = run_with_stdin(
        &["warc", "links", a.to_str().unwrap(), "-"],
        &std::fs::read(dir.path().join("b.warc.gz")).unwrap(),
    );
    let rows = rows(&out);
    assert_eq!(rows.len(), 2);
    assert_eq!(rows[1]["file"], "-");
    let out = run_with_stdin(&["warc", "text", "-", "-"], b"");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("only once"));
}
