//! `tagloom l10n` outputs through the binary: the exit status and warning of a
//! fallback writer, `--no-fallback`, output modes under a umask and in place, and
//! SIGINT/SIGTERM/SIGKILL at random points of extract, merge and pseudo on a large
//! page leaving no file behind.

#![cfg(unix)]

use std::collections::hash_map::RandomState;
use std::hash::{BuildHasher, Hasher};
use std::os::unix::fs::PermissionsExt;
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::Duration;

const BIN: &str = env!("CARGO_BIN_EXE_tagloom");

/// Runs the binary with `args` under `umask`.
fn tagloom_umask(umask: &str, args: &[&str]) -> Output {
    Command::new("sh")
        .arg("-c")
        .arg(format!("umask {umask} && exec \"$0\" \"$@\""))
        .arg(BIN)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn tagloom(args: &[&str]) -> Output {
    Command::new(BIN)
        .args(args)
        .output()
        .expect("the binary runs")
}

fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

fn s(path: &Path) -> &str {
    path.to_str().unwrap()
}

fn mode(path: &Path) -> u32 {
    std::fs::metadata(path).unwrap().permissions().mode() & 0o777
}

fn small_page(dir: &Path) -> PathBuf {
    let path = dir.join("page.html");
    std::fs::write(
        &path,
        // Declared: an undeclared all-ASCII page is windows-1252, as browsers read it.
        "<!DOCTYPE html><html lang=en><meta charset=utf-8><title>Hi</title><p>Hello <b>big</b> world</p>",
    )
    .unwrap();
    path
}

#[test]
fn a_fallback_writer_warns_in_one_line_and_exits_3() {
    let dir = tempfile::tempdir().unwrap();
    let input = small_page(dir.path());
    let out = dir.path().join("out.html");
    let missing = dir.path().join("no-such-dir");
    let run = tagloom(&[
        "l10n",
        "pseudo",
        s(&input),
        "-o",
        s(&out),
        "--temp-dir",
        s(&missing),
        "--quiet",
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(3), "{stderr}");
    let warnings: Vec<&str> = stderr
        .lines()
        .filter(|l| l.starts_with("tagloom: warning:"))
        .collect();
    assert_eq!(warnings.len(), 1, "{stderr}");
    assert!(warnings[0].contains("reparse mode"), "{stderr}");
    assert!(warnings[0].contains("not byte-identical"), "{stderr}");
    assert!(warnings[0].contains("no-such-dir"), "{stderr}");
    assert!(std::fs::read_to_string(&out).unwrap().contains("<b>"));
    // Over the re-parse limit: block-only, still exit 3.
    let run = tagloom(&[
        "l10n",
        "pseudo",
        s(&input),
        "-o",
        s(&out),
        "--temp-dir",
        s(&missing),
        "--reparse-limit",
        "10",
    ]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("block-only mode"), "{stderr}");
    // The skeleton path: exit 0, no warning.
    let run = tagloom(&["l10n", "pseudo", s(&input), "-o", s(&out)]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(0), "{stderr}");
    assert!(!stderr.contains("warning"), "{stderr}");
}

#[test]
fn no_fallback_makes_a_skeleton_failure_an_error_that_leaves_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let input = small_page(dir.path());
    let xlf = dir.path().join("page.xlf");
    let run = tagloom(&["l10n", "extract", s(&input), "-o", s(&xlf)]);
    assert_eq!(run.status.code(), Some(0));
    let missing = dir.path().join("no-such-dir");
    let out = dir.path().join("out.html");
    for args in [
        vec!["l10n", "pseudo", s(&input), "-o", s(&out)],
        vec!["l10n", "merge", s(&input), s(&xlf), "-o", s(&out)],
    ] {
        let mut args = args.clone();
        args.extend(["--temp-dir", s(&missing), "--no-fallback"]);
        let run = tagloom(&args);
        let stderr = String::from_utf8_lossy(&run.stderr);
        assert_eq!(run.status.code(), Some(2), "{stderr}");
        assert_eq!(stderr.lines().count(), 1, "{stderr}");
        assert!(stderr.contains("no-such-dir"), "{stderr}");
        assert_eq!(files_in(dir.path()), ["page.html", "page.xlf"]);
    }
}

#[test]
fn new_outputs_follow_the_umask_and_in_place_keeps_the_mode() {
    let dir = tempfile::tempdir().unwrap();
    let input = small_page(dir.path());
    for (umask, expected) in [("022", 0o644), ("077", 0o600), ("002", 0o664)] {
        let xlf = dir.path().join(format!("page-{umask}.xlf"));
        let out = dir.path().join(format!("page-{umask}.html"));
        let run = tagloom_umask(umask, &["l10n", "extract", s(&input), "-o", s(&xlf)]);
        assert_eq!(run.status.code(), Some(0));
        assert_eq!(mode(&xlf), expected, "extract under umask {umask}");
        let run = tagloom_umask(umask, &["l10n", "pseudo", s(&input), "-o", s(&out)]);
        assert_eq!(run.status.code(), Some(0));
        assert_eq!(mode(&out), expected, "pseudo under umask {umask}");
        let merged = dir.path().join(format!("merged-{umask}.html"));
        let run = tagloom_umask(
            umask,
            &["l10n", "merge", s(&input), s(&xlf), "-o", s(&merged)],
        );
        assert_eq!(run.status.code(), Some(0));
        assert_eq!(mode(&merged), expected, "merge under umask {umask}");
    }
    // In place: the page keeps its mode whatever the umask.
    for keep in [0o644, 0o640, 0o604] {
        std::fs::set_permissions(&input, std::fs::Permissions::from_mode(keep)).unwrap();
        let run = tagloom_umask("077", &["l10n", "pseudo", s(&input), "-o", s(&input)]);
        assert_eq!(run.status.code(), Some(0));
        assert_eq!(mode(&input), keep);
        assert!(std::fs::read_to_string(&input).unwrap().contains("Ĥ"));
    }
    assert!(!files_in(dir.path()).iter().any(|n| n.starts_with('.')));
}

/// A page of about `bytes` bytes, dense with blocks.
fn large_page(path: &Path, bytes: usize) {
    let mut html =
        String::from("<!DOCTYPE html><html lang=en><head><title>Big</title></head><body>\n");
    let mut i = 0;
    while html.len() < bytes {
        html.push_str(&format!(
            "<h2 title='Section {i}'>Heading {i}</h2><p>Paragraph {i} with <a href='/x/{i}'>a link</a> \
             and <b>bold</b> text.</p><ul><li>One {i}</li><li>Two</li></ul>\
             <img src=i{i}.png alt='Image {i}'><!-- c {i} --><script>var x{i}=1;</script>\n"
        ));
        i += 1;
    }
    html.push_str("</body></html>\n");
    std::fs::write(path, html).unwrap();
}

/// A random number below `n` (no dependency: the std hasher's random keys).
fn random_below(n: u64) -> u64 {
    let mut h = RandomState::new().build_hasher();
    h.write_u64(n);
    h.finish() % n
}

/// What a file may hold after an interrupted run: its old bytes (or nothing), or
/// the finished output (the signal came after the rename).
struct Outcome<'a> {
    path: &'a Path,
    old: Option<&'a [u8]>,
    finished: &'a [u8],
}

/// Starts `args`, sends `signal` after a random delay, and checks what is left: no
/// temp file in the output or temp directory, the conventional status, and the
/// output as it was or finished, never partial.
fn interrupt(
    args: &[&str],
    signal: &str,
    out_dir: &Path,
    temp_dir: &Path,
    output: Option<Outcome<'_>>,
) {
    let mut child = Command::new(BIN)
        .args(args)
        .env("TMPDIR", temp_dir)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the binary starts");
    let delay = 20 + random_below(2000);
    std::thread::sleep(Duration::from_millis(delay));
    let sent = Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap();
    assert!(sent.success());
    let status = child.wait().unwrap();
    let what = format!("{args:?} after {delay} ms of {signal}: {status:?}");
    let conventional = match signal {
        "INT" => (130, 2),
        "TERM" => (143, 15),
        _ => (137, 9),
    };
    // Exit 130/143 from the handler; killed by the signal itself if it came before
    // the handler was installed; 0 if the run was over first.
    assert!(
        status.code() == Some(conventional.0)
            || status.signal() == Some(conventional.1)
            || status.code() == Some(0),
        "{what}"
    );
    let finished = status.code() == Some(0);
    let left: Vec<String> = files_in(out_dir)
        .into_iter()
        .filter(|n| n.starts_with(".tagloom"))
        .collect();
    assert!(left.is_empty(), "{what}: left {left:?}");
    assert!(files_in(temp_dir).is_empty(), "{what}: temp dir not empty");
    if let Some(o) = output {
        let now = std::fs::read(o.path).ok();
        let ok = now.as_deref() == o.old || now.as_deref() == Some(o.finished);
        assert!(ok, "{what}: {:?} neither as it was nor finished", o.path);
        if finished {
            assert_eq!(now.as_deref(), Some(o.finished), "{what}");
        }
    }
}

#[test]
fn signals_at_random_points_leave_no_file_behind() {
    let dir = tempfile::tempdir().unwrap();
    let temp = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.html");
    // Tens of MB in a release build; a test build is ~10× slower, so a few MB
    // already take seconds per run.
    large_page(&input, 4 << 20);
    let page = std::fs::read(&input).unwrap();
    let xlf = dir.path().join("big.xlf");
    let run = tagloom(&["l10n", "extract", s(&input), "-o", s(&xlf)]);
    assert_eq!(run.status.code(), Some(0));
    let out_dir = dir.path().join("out");
    std::fs::create_dir(&out_dir).unwrap();
    let out = out_dir.join("big.fr.html");
    let out_xlf = out_dir.join("big.xlf");
    let finished = dir.path().join("big.pseudo.html");
    let run = tagloom(&["l10n", "pseudo", s(&input), "-o", s(&finished)]);
    assert_eq!(run.status.code(), Some(0));
    let finished = std::fs::read(&finished).unwrap();
    let (input_s, xlf_s, out_s, out_xlf_s) = (s(&input), s(&xlf), s(&out), s(&out_xlf));
    // KILL cannot be handled: nothing is left because no temp file has a name
    // while it is written (Linux: O_TMPFILE for outputs and the skeleton alike).
    let signals: &[&str] = if cfg!(target_os = "linux") {
        &["INT", "TERM", "KILL"]
    } else {
        &["INT", "TERM"]
    };
    for &signal in signals {
        interrupt(
            &["l10n", "extract", input_s, "-o", out_xlf_s],
            signal,
            &out_dir,
            temp.path(),
            None,
        );
        // Untranslated: the finished merge is the page itself.
        interrupt(
            &["l10n", "merge", input_s, xlf_s, "-o", out_s],
            signal,
            &out_dir,
            temp.path(),
            Some(Outcome {
                path: &out,
                old: None,
                finished: &page,
            }),
        );
        std::fs::remove_file(&out).ok();
        interrupt(
            &["l10n", "pseudo", input_s, "-o", out_s],
            signal,
            &out_dir,
            temp.path(),
            Some(Outcome {
                path: &out,
                old: None,
                finished: &finished,
            }),
        );
        // In place: the page is either untouched or the finished output.
        interrupt(
            &["l10n", "pseudo", input_s, "-o", input_s],
            signal,
            dir.path(),
            temp.path(),
            Some(Outcome {
                path: &input,
                old: Some(&page),
                finished: &finished,
            }),
        );
        std::fs::write(&input, &page).unwrap();
        // Through the re-parse fallback.
        let missing = dir.path().join("no-such-dir");
        interrupt(
            &[
                "l10n",
                "pseudo",
                input_s,
                "-o",
                out_s,
                "--temp-dir",
                s(&missing),
            ],
            signal,
            &out_dir,
            temp.path(),
            None,
        );
        for name in files_in(&out_dir) {
            std::fs::remove_file(out_dir.join(name)).unwrap();
        }
    }
}

#[test]
fn a_fallback_wins_over_a_partial_merge_and_both_are_reported() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("page.html");
    std::fs::write(&input, "<html lang=en><p>One</p><p>Two</p></html>").unwrap();
    let xlf = dir.path().join("page.xlf");
    let run = tagloom(&[
        "l10n",
        "extract",
        s(&input),
        "--target",
        "fr",
        "-o",
        s(&xlf),
    ]);
    assert_eq!(run.status.code(), Some(0));
    let units = std::fs::read_to_string(&xlf).unwrap();
    let translated = units
        .replace(
            "<source>One</source>",
            "<source>One</source><target>Un</target>",
        )
        .replace(
            "<source>Two</source>",
            "<source>Two</source><target>Deux</target>",
        );
    assert_ne!(translated, units);
    std::fs::write(&xlf, translated).unwrap();
    // The page changed since: "Two" is stale.
    std::fs::write(&input, "<html lang=en><p>One</p><p>Three</p></html>").unwrap();
    let out = dir.path().join("out.html");
    let merge = |extra: &[&str]| {
        let mut args = vec!["l10n", "merge", s(&input), s(&xlf), "-o", s(&out)];
        args.extend(extra);
        tagloom(&args)
    };
    let run = merge(&[]);
    assert_eq!(run.status.code(), Some(1), "{:?}", run);
    let missing = dir.path().join("no-such-dir");
    let run = merge(&["--temp-dir", s(&missing)]);
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(3), "{stderr}");
    // Content ids: "Three" has no unit, the "Two" unit is not in the page.
    assert!(stderr.contains("block not in file"), "{stderr}");
    assert!(stderr.contains("unit not in page"), "{stderr}");
    assert!(stderr.contains("tagloom: warning:"), "{stderr}");
    let html = std::fs::read_to_string(&out).unwrap();
    assert!(
        html.contains("<p>Un</p>") && html.contains("<p>Three</p>"),
        "{html}"
    );
}

#[test]
fn every_output_io_writes_the_same_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("big.html");
    // Several of the direct writer's 256 KiB buffers and a tail.
    large_page(&input, (1 << 20) + 12_345);
    let page = std::fs::read(&input).unwrap();
    let mut first: Option<(Vec<u8>, Vec<u8>, Vec<u8>)> = None;
    for io in ["buffered", "direct", "auto"] {
        let xlf = dir.path().join(format!("{io}.xlf"));
        let merged = dir.path().join(format!("{io}.html"));
        let pseudo = dir.path().join(format!("{io}.pseudo.html"));
        let (i, x, m, p) = (s(&input), s(&xlf), s(&merged), s(&pseudo));
        for args in [
            ["l10n", "extract", i, "-o", x, "--output-io", io].as_slice(),
            &["l10n", "merge", i, x, "-o", m, "--output-io", io],
            &["l10n", "pseudo", i, "-o", p, "--output-io", io],
        ] {
            let run = tagloom(args);
            assert_eq!(run.status.code(), Some(0), "{args:?}: {run:?}");
        }
        let outputs = (
            std::fs::read(&xlf).unwrap(),
            std::fs::read(&merged).unwrap(),
            std::fs::read(&pseudo).unwrap(),
        );
        // Untranslated: the merge gives the page back.
        assert!(outputs.1 == page, "{io}: the round trip changed the page");
        match &first {
            None => first = Some(outputs),
            Some(first) => assert!(*first == outputs, "{io}: other bytes than buffered"),
        }
    }
    let run = tagloom(&[
        "l10n",
        "pseudo",
        s(&input),
        "-o",
        "x.html",
        "--output-io",
        "fast",
    ]);
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("buffered"));
}
