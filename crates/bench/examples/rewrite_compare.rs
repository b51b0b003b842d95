//! Quick same-run timing of tagloom's rewriter against lol-html (the criterion
//! bench `benches/rewrite.rs` is the reference): `cargo run --release -p
//! tagloom-bench --example rewrite_compare [ROUNDS]`. Prints MB/s per workload on
//! the whole corpus (pages whole) and on a 20 MB concat (64 KiB pieces), and the
//! ratio tagloom / lol-html per round.

#[path = "../benches/support/rewrite_runs.rs"]
mod rewrite_runs;

use std::time::Instant;

use rewrite_runs::{CHUNK, Workload, concat, lol, lol_output, tagloom, tagloom_output};
use tagloom_bench::{corpus_dir, load_corpus};

fn time(f: impl Fn() -> (usize, usize), bytes: usize) -> f64 {
    let start = Instant::now();
    let mut n = 0;
    while start.elapsed().as_secs_f64() < 1.0 || n < 2 {
        std::hint::black_box(f());
        n += 1;
    }
    (bytes * n) as f64 / start.elapsed().as_secs_f64() / 1e6
}

fn main() {
    let rounds: usize = std::env::args()
        .nth(1)
        .and_then(|a| a.parse().ok())
        .unwrap_or(3);
    let pages = load_corpus(&corpus_dir())
        .expect("corpus")
        .expect("corpus present");
    let total: usize = pages.iter().map(|p| p.bytes.len()).sum();
    let big = concat(&pages, 20 << 20);
    let works = [
        ("star", Workload::StarElementText),
        ("a-href", Workload::AHrefSetAttr),
        ("noop-1", Workload::Noop(1)),
        ("noop-10", Workload::Noop(10)),
    ];
    for (name, w) in works {
        let a = tagloom(&big, CHUNK, w);
        let b = lol(&big, CHUNK, w);
        println!(
            "{name}: outputs {} / {} bytes, handler counts {} / {}",
            a.0, b.0, a.1, b.1
        );
    }
    // The a-href rewrite must write what lol-html writes, byte for byte.
    for (name, input, chunk) in (pages
        .iter()
        .map(|p| (p.name.as_str(), &p.bytes[..], usize::MAX)))
    .chain([("20 MB concat", &big[..], CHUNK)])
    {
        let same = tagloom_output(input, chunk, Workload::AHrefSetAttr).0
            == lol_output(input, chunk, Workload::AHrefSetAttr).0;
        println!(
            "a-href output on {name}: {}",
            if same {
                "byte-identical to lol-html's"
            } else {
                "DIFFERS from lol-html's"
            }
        );
    }
    for round in 0..rounds {
        for (name, w) in works {
            let t_pages = time(
                || {
                    pages
                        .iter()
                        .map(|p| tagloom(&p.bytes, usize::MAX, w))
                        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
                },
                total,
            );
            let l_pages = time(
                || {
                    pages
                        .iter()
                        .map(|p| lol(&p.bytes, usize::MAX, w))
                        .fold((0, 0), |a, b| (a.0 + b.0, a.1 + b.1))
                },
                total,
            );
            let t_big = time(|| tagloom(&big, CHUNK, w), big.len());
            let l_big = time(|| lol(&big, CHUNK, w), big.len());
            println!(
                "round {round} {name:8} pages: tagloom {t_pages:6.0} lol {l_pages:6.0} MB/s ratio {:.2} | concat {} MB: tagloom {t_big:6.0} lol {l_big:6.0} MB/s ratio {:.2}",
                t_pages / l_pages,
                big.len() >> 20,
                t_big / l_big
            );
        }
    }
}
