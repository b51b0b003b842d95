//! Peak memory of a full parse, for `/usr/bin/time -v` (maximum resident set size).
//!
//! ```text
//! cargo build --release -p tagloom-bench --example parse_peak_memory
//! /usr/bin/time -v target/release/examples/parse_peak_memory ENGINE PAGE.html [N]
//! ```
//!
//! ENGINE is `tagloom` (bytes → `Html5ParseSession` → `DomStore`, UTF-8
//! transport, scripting on, the whole page pushed at once), `tagloom-64k` and
//! `tagloom-16k` (the same pushed 64 or 16 KiB at a time), `html5ever`
//! (`parse_document(RcDom)`, `from_utf8().one`) or `baseline` (only reads the file, so its max RSS is the
//! process's fixed footprint plus the page bytes, to subtract). The page is parsed
//! N times (default 1); each tree is dropped before the next parse, and the last
//! one is kept alive until the end so it counts in the peak.

use std::hint::black_box;
use std::process::ExitCode;

use html5ever::tendril::TendrilSink;
use html5ever::{ParseOpts, parse_document};
use markup5ever_rcdom::RcDom;
use tagloom_bench::{parse_config, tagloom_parse, tagloom_parse_chunked};

// One value per process, kept to the end: its size does not matter, and boxing the
// store would add an allocation to the measured path.
#[allow(clippy::large_enum_variant)]
enum Tree {
    None,
    Tagloom(tagloom_html::dom::DomStore),
    Html5ever(RcDom),
}

/// With `PEAK_MEMORY_SMAPS` set: resident KiB per kind of mapping right now (the
/// tree is still alive), from `/proc/self/smaps` (Linux only), to see what a max
/// RSS is made of: the binary's code and data pages, the heap, the stack.
fn print_resident_by_mapping() {
    let Ok(smaps) = std::fs::read_to_string("/proc/self/smaps") else {
        eprintln!("no /proc/self/smaps here");
        return;
    };
    let mut totals: Vec<(String, u64)> = Vec::new();
    let mut current = String::new();
    for line in smaps.lines() {
        let fields: Vec<&str> = line.split_whitespace().collect();
        if fields
            .first()
            .is_some_and(|f| f.contains('-') && !f.ends_with(':'))
        {
            let perms = fields.get(1).copied().unwrap_or("");
            let path = fields.get(5).copied().unwrap_or("[anon]");
            let name = path.rsplit('/').next().unwrap_or(path);
            current = format!("{name} {perms}");
        } else if fields.first() == Some(&"Rss:") {
            let kib: u64 = fields.get(1).and_then(|v| v.parse().ok()).unwrap_or(0);
            match totals.iter_mut().find(|(n, _)| *n == current) {
                Some((_, total)) => *total += kib,
                None => totals.push((current.clone(), kib)),
            }
        }
    }
    for (name, kib) in totals.iter().filter(|(_, kib)| *kib > 0) {
        println!("{kib:>8} KiB  {name}");
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let (engine, path) = match (args.get(1), args.get(2)) {
        (Some(engine), Some(path)) => (engine.as_str(), path.as_str()),
        _ => {
            eprintln!(
                "usage: parse_peak_memory tagloom|tagloom-64k|html5ever|baseline PAGE.html [N]"
            );
            return ExitCode::FAILURE;
        }
    };
    let n: usize = match args.get(3).map(|s| s.parse()) {
        None => 1,
        Some(Ok(n)) if n >= 1 => n,
        Some(_) => {
            eprintln!("N must be a positive integer");
            return ExitCode::FAILURE;
        }
    };
    let bytes = match std::fs::read(path) {
        Ok(bytes) => bytes,
        Err(err) => {
            eprintln!("cannot read {path}: {err}");
            return ExitCode::FAILURE;
        }
    };
    let mut tree = Tree::None;
    for _ in 0..n {
        // Drop the previous tree first, so only one is alive at a time.
        drop(std::mem::replace(&mut tree, Tree::None));
        tree = match engine {
            "baseline" => Tree::None,
            "tagloom" => Tree::Tagloom(tagloom_parse(black_box(&bytes), parse_config(true))),
            "tagloom-64k" => Tree::Tagloom(tagloom_parse_chunked(
                black_box(&bytes),
                parse_config(true),
                64 * 1024,
            )),
            "tagloom-16k" => Tree::Tagloom(tagloom_parse_chunked(
                black_box(&bytes),
                parse_config(true),
                16 * 1024,
            )),
            "html5ever" => Tree::Html5ever(
                parse_document(RcDom::default(), ParseOpts::default())
                    .from_utf8()
                    .one(black_box(bytes.as_slice())),
            ),
            other => {
                eprintln!("unknown engine {other:?}");
                return ExitCode::FAILURE;
            }
        };
    }
    let summary = match &tree {
        Tree::None => "no tree".to_owned(),
        Tree::Tagloom(store) => format!("{} nodes", store.len()),
        Tree::Html5ever(dom) => {
            format!("{} document children", dom.document.children.borrow().len())
        }
    };
    println!("{engine}: {} bytes, {n} parse(s), {summary}", bytes.len());
    if std::env::var_os("PEAK_MEMORY_SMAPS").is_some() {
        print_resident_by_mapping();
    }
    black_box(&bytes);
    drop(black_box(tree));
    ExitCode::SUCCESS
}
