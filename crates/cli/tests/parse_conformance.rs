//! `tagloom parse --format html5lib` alone reproduces the html5lib tree-construction
//! suite: every case (document and fragment, in each scripting mode it asks for) is
//! written to a file and parsed by the binary, as an outside runner would. Cases
//! needing script execution (`scripted/`) are counted, not run. One case in seven is
//! also fed with `--chunk-size 7`.

#[path = "../../html/tests/support/tree_dat.rs"]
#[allow(dead_code)] // shared with the html crate's tests
mod tree_dat;

use std::process::Command;

use tagloom_html::dom_patch::Namespace;

#[test]
fn parse_command_reproduces_the_tree_construction_suite() {
    let dir = std::env::temp_dir().join(format!("tagloom-parse-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("input.html");
    let (mut passed, mut failed, mut scripted, mut runs) = (0, Vec::new(), 0, 0);
    for (path, tests) in tree_dat::load_dir(tree_dat::DATA_DIR).unwrap() {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let in_scripted = path.parent().is_some_and(|p| p.ends_with("scripted"));
        for (index, test) in tests.iter().enumerate() {
            if in_scripted {
                scripted += 1;
                continue;
            }
            std::fs::write(&input, &test.data).unwrap();
            for &scripting in test.scripting.modes() {
                let mut cmd = Command::new(env!("CARGO_BIN_EXE_tagloom"));
                cmd.arg("parse")
                    .arg(&input)
                    .args(["--format", "html5lib", "--encoding", "utf-8"]);
                cmd.args(["--scripting", if scripting { "on" } else { "off" }]);
                if let Some(context) = &test.fragment {
                    let prefix = match context.ns {
                        Namespace::Svg => "svg ",
                        Namespace::MathMl => "math ",
                        Namespace::Html => "",
                    };
                    cmd.args(["--fragment", &format!("{prefix}{}", context.local_name)]);
                }
                runs += 1;
                if runs % 7 == 0 {
                    cmd.args(["--chunk-size", "7"]);
                }
                let output = cmd.output().expect("the binary runs");
                if output.status.success()
                    && String::from_utf8_lossy(&output.stdout) == test.document
                {
                    passed += 1;
                } else {
                    failed.push(format!(
                        "{file}:{index} (scripting {scripting}) {:?}",
                        test.data
                    ));
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    println!(
        "tagloom parse: {passed} runs reproduced, {} differ, {scripted} scripted cases not run",
        failed.len()
    );
    for f in failed.iter().take(20) {
        println!("DIFF {f}");
    }
    assert!(failed.is_empty(), "{} runs differ", failed.len());
    assert!(passed > 1800, "the whole suite ran");
}
