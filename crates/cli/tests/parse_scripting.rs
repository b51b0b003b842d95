//! `tagloom parse --scripting execute`: with the `scripting` feature, the
//! html5lib `scripted/` cases through the binary; without it, a clear error.

use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

fn parse(args: &[&str], page: &str) -> Output {
    static CALLS: AtomicUsize = AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!(
        "tagloom-parse-scripting-{}-{call}",
        std::process::id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join(format!("{}.html", page.len()));
    std::fs::write(&input, page).unwrap();
    let output = Command::new(env!("CARGO_BIN_EXE_tagloom"))
        .arg("parse")
        .args(args)
        .arg(&input)
        .output()
        .unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    output
}

#[cfg(feature = "scripting")]
#[path = "../../html/tests/support/tree_dat.rs"]
#[allow(dead_code)] // shared with the html crate's tests
mod tree_dat;

#[cfg(feature = "scripting")]
#[test]
fn execute_passes_the_scripted_tree_construction_cases() {
    let dir = format!("{}/scripted", tree_dat::DATA_DIR);
    let mut ran = 0;
    for (path, tests) in tree_dat::load_dir(&dir).unwrap() {
        for (index, test) in tests.iter().enumerate() {
            for chunk in ["1", "65536"] {
                let out = parse(
                    &["--scripting", "execute", "--chunk-size", chunk],
                    &test.data,
                );
                assert_eq!(out.status.code(), Some(0), "{}:{index}", path.display());
                assert_eq!(
                    String::from_utf8_lossy(&out.stdout),
                    test.document,
                    "{}:{index} chunk {chunk}",
                    path.display()
                );
            }
            ran += 1;
        }
    }
    assert_eq!(ran, 4);
}

#[cfg(feature = "scripting")]
#[test]
fn a_failing_script_is_a_warning() {
    let out = parse(&["--scripting", "execute"], "a<script>nope(</script>b");
    assert_eq!(out.status.code(), Some(0));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.starts_with("tagloom: warning: ") && stderr.contains("script"),
        "{stderr}"
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("\"b\""));
}

#[cfg(not(feature = "scripting"))]
#[test]
fn execute_without_the_feature_is_a_clear_error() {
    let out = parse(
        &["--scripting", "execute"],
        "<script>document.write(1)</script>",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("`scripting` feature"), "{stderr}");
}

#[test]
fn execute_refuses_fragments() {
    let out = parse(&["--scripting", "execute", "--fragment", "td"], "x");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("fragments"));
}
