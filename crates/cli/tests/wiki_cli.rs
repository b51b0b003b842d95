//! `tagloom wiki`: standard input and output, files, templates, the clock, and
//! the exit status on bad usage.

mod support;

use support::{outcome, run_with_stdin, tagloom};

fn run_stdin(args: &[&str], input: &str) -> (i32, String, String) {
    outcome(&run_with_stdin(args, input.as_bytes()))
}

#[test]
fn stdin_to_stdout() {
    let (code, out, _) = run_stdin(&["wiki", "-"], "''hi''");
    assert_eq!(code, 0);
    assert_eq!(out, "<p><i>hi</i></p>");
}

#[test]
fn templates_title_and_time() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(dir.path().join("Template%3AGreet.wikitext"), "Hi {{{1}}}").expect("write");
    let dir_arg = dir.path().to_str().expect("utf-8 path");
    let (code, out, err) = run_stdin(
        &[
            "wiki",
            "-",
            "--templates",
            dir_arg,
            "--title",
            "Some page",
            "--time",
            "1970-01-01T00:02:03Z",
        ],
        "{{greet|you}} {{PAGENAME}} {{CURRENTYEAR}} [[Nowhere]]",
    );
    assert_eq!(code, 0, "{err}");
    for text in [">Hi you</span>", ">Some page</span>", ">1970</span>"] {
        assert!(out.contains(text), "{text} in {out}");
    }
    assert!(out.contains("class=\"new\""), "{out}");
}

#[test]
fn file_to_file() {
    let dir = tempfile::tempdir().expect("tempdir");
    let input = dir.path().join("page.wikitext");
    let output = dir.path().join("page.html");
    std::fs::write(&input, "== H ==").expect("write");
    let status = tagloom()
        .args([
            "wiki",
            input.to_str().expect("path"),
            "-o",
            output.to_str().expect("path"),
        ])
        .status()
        .expect("run");
    assert!(status.success());
    assert_eq!(
        std::fs::read_to_string(&output).expect("read"),
        "<h2 id=\"H\"> H </h2>"
    );
}

#[test]
fn bad_usage_exits_2() {
    let (code, out, err) = run_stdin(&["wiki", "-", "--time", "yesterday"], "x");
    assert_eq!(code, 2);
    assert!(out.is_empty());
    assert!(err.starts_with("tagloom: error:"), "{err}");
    let (code, _, err) = run_stdin(&["wiki", "/nonexistent/page.wikitext"], "");
    assert_eq!(code, 2);
    assert!(err.contains("cannot read"), "{err}");
}
