//! Loops the tagloom tokenizer over the bench corpus, for profilers.
//!
//! `cargo run --release -p tagloom-bench --example tokenize_corpus -- [N] [PAGE-SUBSTRING] [--no-errors]`
//! tokenizes every page (or those whose name contains PAGE-SUBSTRING) N times
//! (default 20) and prints the token counts.

use tagloom_bench::{Summary, corpus_dir, load_corpus, tagloom_tokenize};

fn main() {
    let mut rounds = 20usize;
    let mut filter = None;
    let mut report_errors = true;
    for arg in std::env::args().skip(1) {
        if arg == "--no-errors" {
            report_errors = false;
        } else if let Ok(n) = arg.parse() {
            rounds = n;
        } else {
            filter = Some(arg);
        }
    }
    let dir = corpus_dir();
    let Ok(Some(pages)) = load_corpus(&dir) else {
        println!("bench corpus not found at {}; skipping", dir.display());
        return;
    };
    let pages: Vec<_> = pages
        .into_iter()
        .filter(|p| filter.as_deref().is_none_or(|f| p.name.contains(f)))
        .collect();
    let mut total = Summary::default();
    let mut bytes = 0usize;
    let start = std::time::Instant::now();
    for _ in 0..rounds {
        for page in &pages {
            let s = tagloom_tokenize(&page.bytes, report_errors);
            total.tokens += s.tokens;
            total.text_len += s.text_len;
            total.attrs += s.attrs;
            bytes += page.bytes.len();
        }
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{} pages x {rounds}: {bytes} bytes, {} tokens, {} text bytes, {} attrs in {secs:.2} s ({:.1} MB/s)",
        pages.len(),
        total.tokens,
        total.text_len,
        total.attrs,
        bytes as f64 / secs / 1e6
    );
}
