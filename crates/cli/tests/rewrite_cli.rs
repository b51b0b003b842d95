//! `tagloom rewrite`: rules from JSON, stdin/stdout, output files, directories, errors.

mod support;

use support::{outcome, run_with_stdin};

const RULES: &str = r#"[
  {"select": "a[href^='http']", "actions": [{"set_attr": ["rel", "nofollow"]}, {"remove_attr": "target"}]},
  {"select": "script", "actions": [{"remove": true}]},
  {"select": "font", "actions": [{"unwrap": true}]},
  {"select": "b", "actions": [{"rename": "strong"}]},
  {"select": "body", "actions": [{"append": {"html": "<footer>f</footer>"}}, {"prepend": "<top>"}]}
]"#;

const PAGE: &str = "<body><a href=http://x target=_blank>x</a><script>evil()</script><font color=red><b>b</b></font></body>";
const WANT: &str = "<body>&lt;top&gt;<a href=http://x rel=\"nofollow\">x</a><strong>b</strong><footer>f</footer></body>";

fn tagloom(args: &[&str], stdin: &str) -> (i32, String, String) {
    outcome(&run_with_stdin(args, stdin.as_bytes()))
}

#[test]
fn stdin_to_stdout() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules.json");
    std::fs::write(&rules, RULES).unwrap();
    let (code, out, err) = tagloom(&["rewrite", "-", "--rules", rules.to_str().unwrap()], PAGE);
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(out, WANT);
}

#[test]
fn output_file_and_directories() {
    let dir = tempfile::tempdir().unwrap();
    let rules = dir.path().join("rules.json");
    std::fs::write(&rules, RULES).unwrap();
    let input = dir.path().join("in");
    std::fs::create_dir_all(input.join("sub")).unwrap();
    std::fs::write(input.join("a.html"), PAGE).unwrap();
    std::fs::write(input.join("sub/b.htm"), PAGE).unwrap();
    std::fs::write(input.join("notes.txt"), "not html").unwrap();
    let out_file = dir.path().join("one.html");
    let (code, _, err) = tagloom(
        &[
            "rewrite",
            input.join("a.html").to_str().unwrap(),
            "--rules",
            rules.to_str().unwrap(),
            "-o",
            out_file.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(std::fs::read_to_string(&out_file).unwrap(), WANT);
    let out_dir = dir.path().join("out");
    let (code, _, err) = tagloom(
        &[
            "rewrite",
            input.to_str().unwrap(),
            "--rules",
            rules.to_str().unwrap(),
            "-o",
            out_dir.to_str().unwrap(),
        ],
        "",
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert_eq!(
        std::fs::read_to_string(out_dir.join("a.html")).unwrap(),
        WANT
    );
    assert_eq!(
        std::fs::read_to_string(out_dir.join("sub/b.htm")).unwrap(),
        WANT
    );
    assert!(!out_dir.join("notes.txt").exists());
}

#[test]
fn bad_rules_and_failures_exit_2_with_one_line_and_no_output_file() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("out.html");
    for (rules, needle) in [
        (r#"[{"select": "h1 + p", "actions": []}]"#, "combinator"),
        (
            r#"[{"select": "p", "actions": [{"explode": true}]}]"#,
            "unknown action",
        ),
        (r#"{"select": "p"}"#, "list"),
        (
            r#"[{"select": "p", "actions": [{"rename": "a b"}]}]"#,
            "invalid name",
        ),
    ] {
        let path = dir.path().join("rules.json");
        std::fs::write(&path, rules).unwrap();
        let (code, out, err) = tagloom(
            &[
                "rewrite",
                "-",
                "--rules",
                path.to_str().unwrap(),
                "-o",
                out_file.to_str().unwrap(),
            ],
            "<p>x</p>",
        );
        assert_eq!(code, 2, "{rules}: {err}");
        assert!(
            err.starts_with("tagloom: error: ") && err.trim_end().lines().count() == 1,
            "{err}"
        );
        assert!(err.contains(needle), "{rules}: {err}");
        assert!(out.is_empty());
        assert!(!out_file.exists(), "no partial output for {rules}");
    }
}
