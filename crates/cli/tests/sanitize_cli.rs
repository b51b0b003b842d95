//! `tagloom sanitize` through the binary: standard input to standard output, `-o`,
//! a policy file, a bad policy file (exit 2, one line, no output file), input
//! that is not HTML or not even UTF-8 (exit 0), and a directory.

mod support;

use support::run_with_stdin as run;

#[test]
fn stdin_to_stdout() {
    let out = run(
        &["sanitize", "-"],
        b"<p onclick=x>Hi<script>alert(1)</script><img src=javascript:x>",
    );
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "<p>Hi<img></p>");
}

#[test]
fn any_bytes_exit_0() {
    let out = run(
        &["sanitize", "-"],
        b"\xff\xfe\x00<\x80svg><![CDATA[\x00]]><!--",
    );
    assert!(out.status.success(), "{out:?}");
    let again = run(&["sanitize", "-"], &out.stdout);
    assert_eq!(again.stdout, out.stdout);
}

#[test]
fn policy_file_and_output_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let policy = dir.path().join("p.json");
    std::fs::write(&policy, r#"{"tags": ["b"], "link_rel": null}"#).expect("write policy");
    let input = dir.path().join("in.html");
    std::fs::write(&input, "<p><b>bold</b><i>it</i></p>").expect("write input");
    let output = dir.path().join("out.html");
    let out = run(
        &[
            "sanitize",
            input.to_str().unwrap_or_default(),
            "--policy",
            policy.to_str().unwrap_or_default(),
            "-o",
            output.to_str().unwrap_or_default(),
        ],
        b"",
    );
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        std::fs::read_to_string(&output).expect("output"),
        "<b>bold</b>it"
    );
}

#[test]
fn bad_policy_exits_2_with_one_line_and_no_output() {
    let dir = tempfile::tempdir().expect("temp dir");
    let policy = dir.path().join("p.json");
    std::fs::write(&policy, r#"{"max_depth": 0}"#).expect("write policy");
    let output = dir.path().join("out.html");
    let out = run(
        &[
            "sanitize",
            "-",
            "--policy",
            policy.to_str().unwrap_or_default(),
            "-o",
            output.to_str().unwrap_or_default(),
        ],
        b"<p>x",
    );
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("tagloom: error: bad policy"), "{err}");
    assert!(!output.exists());
}

#[test]
fn directories_are_sanitized_file_by_file() {
    let dir = tempfile::tempdir().expect("temp dir");
    let input = dir.path().join("in");
    std::fs::create_dir_all(input.join("sub")).expect("mkdir");
    std::fs::write(input.join("a.html"), "<p onclick=x>a<script>x</script>").expect("write");
    std::fs::write(input.join("sub/b.htm"), "<b>b</b><img src=javascript:x>").expect("write");
    std::fs::write(input.join("c.txt"), "<script>").expect("write");
    let output = dir.path().join("out");
    let out = run(
        &[
            "sanitize",
            input.to_str().unwrap_or_default(),
            "-o",
            output.to_str().unwrap_or_default(),
        ],
        b"",
    );
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        std::fs::read_to_string(output.join("a.html")).expect("a"),
        "<p>a</p>"
    );
    assert_eq!(
        std::fs::read_to_string(output.join("sub/b.htm")).expect("b"),
        "<b>b</b><img>"
    );
    assert!(!output.join("c.txt").exists());
    let no_out = run(&["sanitize", input.to_str().unwrap_or_default()], b"");
    assert_eq!(no_out.status.code(), Some(2));
}
