//! The fast path's proof that an output re-parses to itself (`sanitize/fast/proof.rs`)
//! never passes an output the re-parse check refuses: for every vector, every
//! html5lib tree-construction input, every bench page and windows cut from the
//! pages at pseudo-random offsets, under the default and the widened policy,
//! whenever the proof alone says "proven", the re-parse check alone accepts the
//! same output. The pages are read from `../shared/bench-corpus` (or
//! `$TAGLOOM_BENCH_CORPUS`); when the folder is missing the test says so on
//! stderr and checks the other inputs.
//!
//! Printed (`cargo test -p tagloom-transform --test sanitize_proof -- --nocapture`):
//! how many inputs each check passes.

mod sanitize_support;

use std::sync::Arc;

use sanitize_support::{tree_construction_inputs, vectors};
use tagloom_testdata::Shared;
use tagloom_transform::sanitize::{Policy, Sanitizer};

fn pages() -> Vec<(String, String)> {
    Shared::BenchCorpus
        .pages("the bench pages in sanitize_proof")
        .into_iter()
        .map(|(name, bytes)| (name, String::from_utf8_lossy(&bytes).into_owned()))
        .collect()
}

/// `n` windows of the pages, cut at pseudo-random offsets (tags, tables and
/// formatting elements left open or half-written).
fn windows(pages: &[(String, String)], n: usize) -> Vec<String> {
    if pages.is_empty() {
        return Vec::new();
    }
    let mut seed: u64 = 0x2545_f491_4f6c_dd1d;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed as usize
    };
    (0..n)
        .map(|_| {
            let page = &pages[next() % pages.len()].1;
            let mut start = next() % page.len();
            let mut end = (start + 1 + next() % 6000).min(page.len());
            while !page.is_char_boundary(start) {
                start -= 1;
            }
            while !page.is_char_boundary(end) {
                end -= 1;
            }
            page[start..end].to_owned()
        })
        .collect()
}

#[test]
fn the_proof_never_passes_what_the_reparse_refuses() {
    let pages = pages();
    let page_texts: Vec<String> = pages.iter().map(|(_, t)| t.clone()).collect();
    let sets = [
        ("vectors", vectors()),
        ("tree-construction", tree_construction_inputs()),
        ("pages", page_texts),
        ("windows", windows(&pages, 600)),
    ];
    let mut failures = Vec::new();
    for (name, policy) in [
        ("default", Policy::default()),
        ("widened", Policy::widened()),
    ] {
        let sanitizer = Sanitizer::new(Arc::new(policy));
        for (label, inputs) in &sets {
            let (mut proven, mut reparsed, mut both) = (0, 0, 0);
            for x in inputs {
                let (proof, reparse) = sanitizer.sanitize_fast_checks(x);
                proven += usize::from(proof.is_ok());
                reparsed += usize::from(reparse.is_ok());
                match (proof, reparse) {
                    (Ok(a), Ok(b)) if a == b => both += 1,
                    (Ok(a), other) => failures.push(format!(
                        "[{name}] {label}: proven {a:?}, re-parse check {other:?}, input {x:?}"
                    )),
                    _ => {}
                }
            }
            println!(
                "[{name}] {label}: {} inputs, proven {proven}, re-parse check passes {reparsed}, both {both}",
                inputs.len()
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Every bench page is proven under the default policy (the proof is what
/// makes the fast path fast; a page that needs the re-parse check again is a
/// regression of speed, not of safety).
#[test]
fn every_bench_page_is_proven() {
    let sanitizer = Sanitizer::new(Arc::new(Policy::default()));
    for (name, text) in pages() {
        let (proof, _) = sanitizer.sanitize_fast_checks(&text);
        assert!(proof.is_ok(), "{name}: {proof:?}");
    }
}
