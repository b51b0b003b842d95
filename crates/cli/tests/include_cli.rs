//! `tagloom include`: byte-preserving output, stdin/stdout, directories, errors.

mod support;

use std::io::Write;
use std::process::Stdio;
use support::tagloom;

fn site() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join("site/parts")).unwrap();
    std::fs::write(dir.path().join("site/parts/nav.html"), "<nav>N</nav>").unwrap();
    std::fs::write(
        dir.path().join("site/index.html"),
        "<!doctype html>\n<P CLASS=x>a<include src=\"parts/nav.html\"></include><esi:include src=\"/etc/passwd\"/>",
    )
    .unwrap();
    dir
}

const EXPECTED: &str = "<!doctype html>\n<P CLASS=x>a<nav>N</nav><span class=\"tagloom-error\" data-tagloom-error=\"bad-path\">include path not allowed: /etc/passwd</span>";

#[test]
fn a_file_to_stdout_and_stdin_to_a_file() {
    let dir = site();
    let out = tagloom()
        .args(["include"])
        .arg(dir.path().join("site/index.html"))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8(out.stdout).unwrap(), EXPECTED);

    let page = std::fs::read(dir.path().join("site/index.html")).unwrap();
    let target = dir.path().join("out.html");
    let mut child = tagloom()
        .args(["include", "-", "--root"])
        .arg(dir.path().join("site"))
        .arg("-o")
        .arg(&target)
        .stdin(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&page).unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(std::fs::read_to_string(&target).unwrap(), EXPECTED);
}

#[test]
fn a_directory_in_parallel() {
    let dir = site();
    let status = tagloom()
        .args(["include", "-q"])
        .arg(dir.path().join("site"))
        .arg("-o")
        .arg(dir.path().join("out"))
        .status()
        .unwrap();
    assert!(status.success());
    let index = std::fs::read_to_string(dir.path().join("out/index.html")).unwrap();
    assert_eq!(index, EXPECTED);
    assert!(dir.path().join("out/parts/nav.html").exists());
}

#[test]
fn bad_input_exits_2_without_output() {
    let dir = site();
    std::fs::write(dir.path().join("latin1.html"), b"caf\xe9").unwrap();
    let target = dir.path().join("never.html");
    let out = tagloom()
        .args(["include"])
        .arg(dir.path().join("latin1.html"))
        .arg("-o")
        .arg(&target)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert!(
        stderr.starts_with("tagloom: error: ") && stderr.contains("not UTF-8"),
        "{stderr}"
    );
    assert!(!target.exists());
}

#[test]
fn sanitize_ends_the_pipeline() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("part.html"),
        "<b>in</b><script>alert(1)</script><a href=\"javascript:alert(2)\">x</a>",
    )
    .unwrap();
    std::fs::write(
        dir.path().join("index.html"),
        "<p onclick=x>a <include src=\"part.html\"></include></p>",
    )
    .unwrap();
    let out = tagloom()
        .args(["include", "--sanitize"])
        .arg(dir.path().join("index.html"))
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        "<p>a <b>in</b><a rel=\"noopener noreferrer\">x</a></p>"
    );
    let bad = tagloom()
        .args(["include", "--sanitize", "--policy"])
        .arg(dir.path().join("missing.json"))
        .arg(dir.path().join("index.html"))
        .output()
        .unwrap();
    assert_eq!(bad.status.code(), Some(2));
    assert!(bad.stdout.is_empty());
}
