//! On every bench-corpus page (UTF-8 ones; `../shared/bench-corpus`, or
//! `$TAGLOOM_BENCH_CORPUS`), the include pipeline with nothing to include writes
//! the page back byte for byte, and the tree output parses like the page.

use std::time::Instant;

use tagloom_testdata::Shared;
use tagloom_transform::include::{DirResolver, IncludeConfig, IncludeOutput, Includes};

#[test]
fn pages_without_includes_come_back_byte_for_byte() {
    let pages =
        Shared::BenchCorpus.files("pages_without_includes_come_back_byte_for_byte", &["html"]);
    let root = tempfile::tempdir().unwrap();
    let includes = Includes::new(
        DirResolver::new(root.path()).unwrap(),
        IncludeConfig::default(),
    );
    let mut checked = 0;
    for page in pages
        .iter()
        .filter(|p| p.extension().is_some_and(|e| e == "html"))
    {
        let Ok(text) = String::from_utf8(std::fs::read(page).unwrap()) else {
            println!("{}: not UTF-8, not checked", page.display());
            continue;
        };
        let started = Instant::now();
        let (out, stats) = includes.process(&text, IncludeOutput::Tokens).unwrap();
        let took = started.elapsed();
        println!(
            "{}: {} bytes, {} tokens, {:?} ({})",
            page.file_name().unwrap().to_string_lossy(),
            text.len(),
            stats.tokens_in,
            took,
            if cfg!(debug_assertions) {
                "debug build"
            } else {
                "optimized"
            }
        );
        assert!(out == text, "{} differs", page.display());
        let (tree, _) = includes.process(&text, IncludeOutput::Tree).unwrap();
        assert!(!tree.is_empty());
        checked += 1;
    }
    assert!(checked > 0, "no UTF-8 page in the corpus");
}
