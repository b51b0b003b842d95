//! Checks the `.dat` reader (`support/tree_dat.rs`) on every copied
//! tree-construction file: case counts must match the ones recorded when the suite
//! was fetched (`/work/shared/html5lib-tests/SOURCE.md`), and a few cases are read
//! back exactly. The tree builder's conformance test reuses the same reader.

mod support;

use support::tree_dat::{self, FragmentContext, Scripting, TreeTest};
use tagloom_html::dom_patch::Namespace;

fn load() -> Vec<(String, Vec<TreeTest>)> {
    tree_dat::load_dir(tree_dat::DATA_DIR)
        .expect("tree-construction data")
        .into_iter()
        .map(|(path, tests)| {
            let name = path
                .strip_prefix(tree_dat::DATA_DIR)
                .unwrap_or(&path)
                .display()
                .to_string();
            (name.trim_start_matches('/').to_owned(), tests)
        })
        .collect()
}

#[test]
fn every_file_parses_with_the_recorded_counts() {
    let files = load();
    let (mut total, mut doc, mut frag, mut on, mut off) = (0, 0, 0, 0, 0);
    println!(
        "{:<45} {:>5} {:>5} {:>5} {:>9} {:>10}",
        "file", "tests", "doc", "frag", "script-on", "script-off"
    );
    for (name, tests) in &files {
        let f = tests.iter().filter(|t| t.fragment.is_some()).count();
        let son = tests
            .iter()
            .filter(|t| t.scripting == Scripting::On)
            .count();
        let soff = tests
            .iter()
            .filter(|t| t.scripting == Scripting::Off)
            .count();
        println!(
            "{name:<45} {:>5} {:>5} {f:>5} {son:>9} {soff:>10}",
            tests.len(),
            tests.len() - f
        );
        for t in tests {
            assert!(!t.document.is_empty(), "{name}:{}: empty #document", t.line);
            assert!(
                t.document.starts_with("| "),
                "{name}:{}: #document does not start with \"| \"",
                t.line
            );
        }
        total += tests.len();
        doc += tests.len() - f;
        frag += f;
        on += son;
        off += soff;
    }
    println!(
        "{:<45} {total:>5} {doc:>5} {frag:>5} {on:>9} {off:>10}",
        "TOTAL"
    );
    assert_eq!(files.len(), 60, "57 top-level files + 3 in scripted/");
    assert_eq!((total, doc, frag, on, off), (1796, 1604, 192, 12, 27));
    let scripted: usize = files
        .iter()
        .filter(|(n, _)| n.starts_with("scripted/"))
        .map(|(_, t)| t.len())
        .sum();
    assert_eq!(scripted, 4);
}

#[test]
fn cases_are_read_exactly() {
    let files = load();
    let file = |name: &str| {
        files
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, t)| t)
            .expect(name)
    };
    let first = &file("tests1.dat")[0];
    assert_eq!(first.line, 1);
    assert_eq!(first.data, "Test");
    assert_eq!(first.errors, ["(1,0): expected-doctype-but-got-chars"]);
    assert_eq!(first.scripting, Scripting::Both);
    assert_eq!(
        first.document,
        "| <html>\n|   <head>\n|   <body>\n|     \"Test\"\n"
    );

    let fragment = &file("foreign-fragment.dat")[0];
    assert_eq!(
        fragment.fragment,
        Some(FragmentContext {
            ns: Namespace::Svg,
            local_name: "path".into()
        })
    );

    // Raw CR characters stay in the data (the file is split on LF only).
    assert!(
        file("plain-text-unsafe.dat")
            .iter()
            .any(|t| t.data.contains('\r'))
    );
    // Multi-line data and multi-line text nodes.
    assert!(file("tests3.dat").iter().any(|t| t.data.contains('\n')));
    assert!(
        files
            .iter()
            .flat_map(|(_, t)| t)
            .any(|t| t.document.lines().any(|l| !l.starts_with('|')))
    );
    assert!(
        files
            .iter()
            .flat_map(|(_, t)| t)
            .any(|t| !t.new_errors.is_empty())
    );
}

#[test]
fn reader_handles_the_format_corners() {
    let text = "#description\nWhat it tests\n#data\n<p>\n\nx\n#errors\n(1,1): e\n#new-errors\n(1,2): n\n#document-fragment\nmath mi\n#script-on\n#document\n| <p>\n|   \"\n\nx\"\n\n#data\n\n#errors\n#document\n| <html>\n";
    let tests = tree_dat::parse(text).unwrap();
    assert_eq!(tests.len(), 2);
    let t = &tests[0];
    assert_eq!(t.description.as_deref(), Some("What it tests"));
    assert_eq!(t.line, 3);
    assert_eq!(t.data, "<p>\n\nx");
    assert_eq!(t.errors, ["(1,1): e"]);
    assert_eq!(t.new_errors, ["(1,2): n"]);
    assert_eq!(t.fragment.as_ref().map(|f| f.ns), Some(Namespace::MathMl));
    assert_eq!(t.scripting, Scripting::On);
    assert_eq!(t.document, "| <p>\n|   \"\n\nx\"\n");
    assert_eq!(tests[1].data, "");
    assert!(tests[1].errors.is_empty());
    assert_eq!(tests[1].scripting.modes(), [false, true]);
    assert!(tree_dat::parse("#data\nx\n#errors\n").is_err());
    assert!(tree_dat::parse("junk\n").is_err());
}
