//! Quick same-run timing of tagloom's sanitizer against ammonia (the criterion
//! bench `benches/sanitize.rs` is the reference): `cargo run --release -p
//! tagloom-bench --example sanitize_compare [ROUNDS] [CONCAT_MB]`. Prints MB/s on
//! the corpus (each page whole) and on a concat of the corpus (default 20 MB),
//! and the ratio tagloom / ammonia per round. `ROUNDS` = `profile`,
//! `profile-reference`, `profile-ammonia` or `profile-none`: each page once
//! through tagloom, its reference output checks, ammonia, or nothing (the cost
//! of loading the inputs, to subtract), for callgrind; a second argument picks
//! one page by name, or `concat` (the 20 MB concat). Before timing, prints
//! which path (fast or general) each page and the concat take. `dump FILE`
//! writes the output, report and path of every vector, html5lib
//! tree-construction input, page and the concat under the default and the
//! widened policy to FILE: two dumps compared with `cmp` show whether a change
//! kept every output byte-identical.

#[path = "../benches/support/sanitize_runs.rs"]
mod sanitize_runs;

#[path = "../../transform/tests/sanitize_support/mod.rs"]
mod sanitize_support;

use std::sync::Arc;
use std::time::Instant;

use sanitize_runs::{ammonia, concat, tagloom, text};
use tagloom_bench::{corpus_dir, load_corpus};
use tagloom_transform::sanitize::{Policy, Sanitizer};

fn time(f: impl Fn() -> usize, bytes: usize) -> f64 {
    let start = Instant::now();
    let mut n = 0;
    while start.elapsed().as_secs_f64() < 1.0 || n < 2 {
        std::hint::black_box(f());
        n += 1;
    }
    (bytes * n) as f64 / start.elapsed().as_secs_f64() / 1e6
}

/// `dump FILE` (see the module docs).
fn dump(file: &str) {
    use std::fmt::Write as _;
    let pages = load_corpus(&corpus_dir())
        .expect("corpus")
        .expect("corpus present");
    let vectors = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../transform/tests/data/sanitize/vectors.txt"
    ))
    .expect("vectors.txt");
    let mut inputs: Vec<String> = vectors
        .lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(sanitize_support::unescape)
        .collect();
    inputs.extend(sanitize_support::tree_construction_inputs());
    inputs.extend(pages.iter().map(text));
    inputs.push(concat(&pages, 20 << 20));
    let mut out = String::new();
    for policy in [Policy::default(), Policy::widened()] {
        let sanitizer = Sanitizer::new(Arc::new(policy));
        for (i, input) in inputs.iter().enumerate() {
            let done = sanitizer.sanitize(input);
            let path = match sanitizer.sanitize_fast(input) {
                Ok(_) => "fast".to_owned(),
                Err(why) => format!("{why:?}"),
            };
            let _ = writeln!(out, "#{i} {path} {:?}\n{}", done.report, done.html);
        }
    }
    std::fs::write(file, out).expect("write the dump");
}

fn main() {
    let mut args = std::env::args().skip(1);
    let first = args.next();
    if first.as_deref() == Some("dump") {
        dump(&args.next().expect("dump FILE"));
        return;
    }
    if let Some(mode) = first.as_deref().and_then(|f| f.strip_prefix("profile")) {
        let sanitizer = Sanitizer::new(Arc::new(Policy::default()));
        let builder = ::ammonia::Builder::default();
        let pages = load_corpus(&corpus_dir())
            .expect("corpus")
            .expect("corpus present");
        let run = |t: &str| match mode {
            "-ammonia" => ammonia(&builder, t),
            "-reference" => sanitizer.sanitize_reference(t).html.len(),
            "-none" => t.len(),
            _ => tagloom(&sanitizer, t),
        };
        let n: usize = match args.next().as_deref() {
            None => pages.iter().map(|p| run(&text(p))).sum(),
            Some("concat") => run(&concat(&pages, 20 << 20)),
            Some(name) => pages
                .iter()
                .filter(|p| p.name == name)
                .map(|p| run(&text(p)))
                .sum(),
        };
        println!("{n} bytes out");
        return;
    }
    let rounds: usize = first.and_then(|a| a.parse().ok()).unwrap_or(3);
    let mb: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(20);
    let pages = load_corpus(&corpus_dir())
        .expect("corpus")
        .expect("corpus present");
    let texts: Vec<String> = pages.iter().map(text).collect();
    let total: usize = texts.iter().map(String::len).sum();
    let big = concat(&pages, mb << 20);
    let sanitizer = Sanitizer::new(Arc::new(Policy::default()));
    let builder = ::ammonia::Builder::default();
    // Which path each input takes (the fast path hands doubtful inputs to the
    // general one), and the fast answers are the reference's.
    for (page, text) in pages.iter().zip(&texts).chain([(&pages[0], &big)]) {
        let path = match sanitizer.sanitize_fast(text) {
            Ok(done) => {
                assert_eq!(done, sanitizer.sanitize_reference(text), "{}", page.name);
                "fast".to_owned()
            }
            Err(why) => format!("general ({why:?})"),
        };
        let name = if std::ptr::eq(text, &big) {
            "concat"
        } else {
            &page.name
        };
        println!("{name}: {path} path");
    }
    println!(
        "concat outputs: tagloom {} / ammonia {} bytes (input {})",
        tagloom(&sanitizer, &big),
        ammonia(&builder, &big),
        big.len()
    );
    for round in 0..rounds {
        let t_pages = time(|| texts.iter().map(|t| tagloom(&sanitizer, t)).sum(), total);
        let a_pages = time(|| texts.iter().map(|t| ammonia(&builder, t)).sum(), total);
        let t_big = time(|| tagloom(&sanitizer, &big), big.len());
        let a_big = time(|| ammonia(&builder, &big), big.len());
        println!(
            "round {round} pages: tagloom {t_pages:6.1} ammonia {a_pages:6.1} MB/s ratio {:.2} | concat {} MB: tagloom {t_big:6.1} ammonia {a_big:6.1} MB/s ratio {:.2}",
            t_pages / a_pages,
            big.len() >> 20,
            t_big / a_big
        );
    }
}
