//! The inputs of the browser tests: every html5lib tree-construction case that
//! runs with scripting off, and every bench page.

#![allow(dead_code)]

pub mod deviations;

#[path = "../../../html/tests/support/tree_dat.rs"]
pub mod tree_dat;

use tagloom_browser::compare::Case;
use tree_dat::Scripting;

/// The known differences between Chromium and tagloom (`id | reason`).
pub const KNOWN_DIFFERENCES: &str =
    concat!(env!("CARGO_MANIFEST_DIR"), "/tests/known-differences.txt");

/// An input and its id (`tests1.dat:3`, `bench:wsj-article.html`).
pub struct Input {
    /// The id in the known-differences file.
    pub id: String,
    /// The case.
    pub case: Case,
}

/// The tree-construction cases with scripting off (`#script-on` cases are left
/// out: `DOMParser` never scripts), and how many were left out.
pub fn tree_construction() -> (Vec<Input>, usize) {
    let files = tree_dat::load_dir(tree_dat::DATA_DIR).expect("tree-construction data");
    let mut inputs = Vec::new();
    let mut script_on = 0;
    for (path, tests) in files {
        let name = path
            .strip_prefix(tree_dat::DATA_DIR)
            .unwrap_or(&path)
            .display()
            .to_string()
            .trim_start_matches('/')
            .to_owned();
        for (index, test) in tests.into_iter().enumerate() {
            if test.scripting == Scripting::On {
                script_on += 1;
                continue;
            }
            inputs.push(Input {
                id: format!("{name}:{index}"),
                case: Case {
                    data: test.data,
                    context: test.fragment.map(|f| (f.ns, f.local_name)),
                },
            });
        }
    }
    (inputs, script_on)
}

/// The bench pages (`../shared/bench-corpus`, or `$TAGLOOM_BENCH_CORPUS`),
/// decoded in the encoding tagloom sniffs, so both parsers get the same text;
/// empty (said on stderr) when the folder is missing.
pub fn bench_pages(test: &str) -> Vec<Input> {
    bench_bytes(test)
        .into_iter()
        .map(|(name, bytes)| {
            let encoding = tagloom_html::sniff_encoding(&bytes, None).encoding;
            let (text, _, _) = encoding.decode(&bytes);
            Input {
                id: format!("bench:{name}"),
                case: Case::document(text.into_owned()),
            }
        })
        .collect()
}

/// The bench pages' file names and bytes (see [`bench_pages`]), read by
/// `tagloom-bench`'s corpus loader.
pub fn bench_bytes(test: &str) -> Vec<(String, Vec<u8>)> {
    tagloom_bench::corpus_pages(&format!("the bench pages of {test}"))
        .unwrap_or_default()
        .into_iter()
        .map(|page| (format!("{}.html", page.name), page.bytes))
        .collect()
}
