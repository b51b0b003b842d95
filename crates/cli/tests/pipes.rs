//! Standard output that goes away, and bad usage, through the binary: every command
//! writing to a pipe whose reader has closed (before the first byte, or after one
//! line of a long output) ends quietly with exit status 0; usage errors are one line
//! on standard error with exit status 2; `--help` and `--version` still print.

mod support;

use std::io::{BufRead, BufReader};
use std::path::PathBuf;
use std::process::{Output, Stdio};
use support::tagloom;

/// A private scratch directory (one per test: they run in parallel) with a long, tag-dense page (its tokens, patches and
/// dumps are far larger than a pipe's buffer).
fn scratch(test: &str) -> (PathBuf, PathBuf) {
    let dir = std::env::temp_dir().join(format!("tagloom-pipes-{test}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let page = dir.join("page.html");
    let mut html = String::from("<!DOCTYPE html><meta charset=utf-8><title>t</title>\n");
    for i in 0..20_000 {
        html.push_str(&format!("<p class=c{i}>text <b>{i}</b> &amp; more</p>\n"));
    }
    std::fs::write(&page, html).unwrap();
    (dir, page)
}

/// Every command line that writes to standard output.
fn commands(page: &str) -> Vec<Vec<String>> {
    let mut all: Vec<Vec<&str>> = vec![
        vec!["tokens", page],
        vec!["tokens", page, "--errors"],
        vec![
            "tokens",
            page,
            "--encoding",
            "windows-1252",
            "--chunk-size",
            "1000",
        ],
        vec!["sniff", page],
        vec!["demo"],
        vec!["demo", page],
        vec!["l10n", "rules"],
        vec!["--help"],
        vec!["parse", "--help"],
        vec!["--version"],
    ];
    for format in ["html5lib", "html", "patches", "none"] {
        all.push(vec!["parse", page, "--format", format]);
    }
    all.into_iter()
        .map(|args| args.into_iter().map(str::to_owned).collect())
        .collect()
}

fn assert_quiet(args: &[String], out: &Output) {
    assert_eq!(out.status.code(), Some(0), "{args:?}");
    assert!(
        out.stderr.is_empty(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn a_closed_stdout_ends_every_command_quietly() {
    let (dir, page) = scratch("closed");
    for args in commands(page.to_str().unwrap()) {
        // The reader is gone before the first write: every write fails with EPIPE.
        let (reader, writer) = std::io::pipe().unwrap();
        drop(reader);
        let out = tagloom()
            .args(&args)
            .stdout(writer)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        assert_quiet(&args, &out);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_reader_that_stops_after_one_line_ends_every_command_quietly() {
    let (dir, page) = scratch("head");
    for args in commands(page.to_str().unwrap()) {
        let mut child = tagloom()
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut line = String::new();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        stdout.read_line(&mut line).unwrap();
        let silent = args.iter().any(|a| a == "none");
        assert_eq!(line.is_empty(), silent, "{args:?}");
        drop(stdout);
        let out = child.wait_with_output().unwrap();
        assert_quiet(&args, &out);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_usage_is_one_line_and_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["parse", "--foo", "x.html"],
            "tagloom: error: unexpected argument '--foo' found",
        ),
        (
            &["parse", "x.html", "--format", "xml"],
            "tagloom: error: invalid value 'xml' for '--format <FORMAT>' [possible values:",
        ),
        (
            &["tokens"],
            "tagloom: error: the following required arguments were not provided: <FILE>",
        ),
        (&["frobnicate"], "tagloom: error: unrecognized subcommand"),
        (
            &[],
            "tagloom: error: a subcommand is required: tokens, sniff",
        ),
        (
            &["l10n"],
            "tagloom: error: a subcommand is required: extract",
        ),
        (
            &["l10n", "extract", "in.html"],
            "tagloom: error: the following required arguments were not provided: --output <OUT>",
        ),
    ];
    for (args, start) in cases {
        let out = tagloom().args(*args).output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(out.stdout.is_empty(), "{args:?}");
        assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
        assert!(stderr.starts_with(start), "{args:?}: {stderr}");
        // Where to read more: the subcommand the user was in.
        let path = match args.first() {
            Some(&"parse") => "tagloom parse",
            Some(&"tokens") => "tagloom tokens",
            Some(&"l10n") if args.len() > 1 => "tagloom l10n extract",
            Some(&"l10n") => "tagloom l10n",
            _ => "tagloom",
        };
        assert!(
            stderr
                .trim_end()
                .ends_with(&format!("(try '{path} --help')")),
            "{args:?}: {stderr}"
        );
    }
}

#[test]
fn help_and_version_still_print() {
    for args in [
        &["--help"][..],
        &["parse", "--help"],
        &["--version"],
        &["help", "sniff"],
    ] {
        let out = tagloom().args(args).output().unwrap();
        assert_eq!(out.status.code(), Some(0), "{args:?}");
        assert!(out.stdout.len() > 10, "{args:?}");
        assert!(out.stderr.is_empty(), "{args:?}");
    }
}

#[test]
fn an_unreadable_file_writes_nothing() {
    for command in ["tokens", "sniff", "parse"] {
        let out = tagloom()
            .args([command, "/nonexistent/page.html"])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{command}");
        assert!(out.stdout.is_empty(), "{command}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(stderr.lines().count(), 1, "{command}: {stderr}");
        assert!(
            stderr.starts_with("tagloom: error: cannot read /nonexistent/page.html"),
            "{stderr}"
        );
    }
}
