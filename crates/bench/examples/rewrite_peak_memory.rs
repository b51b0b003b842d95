//! One rewrite run, for `/usr/bin/time -v` (peak RSS) and profilers:
//! `rewrite_peak_memory [tagloom|lol|read] [star|a-href|noop-1|noop-10|none] [FILE]`.
//! Without FILE the input is the 20 MB concat of the bench corpus, built in memory
//! first (so `read` — build the input, rewrite nothing — is the baseline to compare
//! the peak RSS with). Input is fed in 64 KiB pieces and the output is counted, not
//! kept, so the peak is the rewriter's own memory plus the input.

#[path = "../benches/support/rewrite_runs.rs"]
mod rewrite_runs;

use rewrite_runs::{CHUNK, Workload, concat};
use tagloom_bench::{corpus_dir, load_corpus};
use tagloom_transform::rewrite::{Handlers, Rewriter, Settings};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let engine = args.get(1).map_or("tagloom", String::as_str);
    let work = match args.get(2).map_or("star", String::as_str) {
        "star" => Some(Workload::StarElementText),
        "a-href" => Some(Workload::AHrefSetAttr),
        "noop-1" => Some(Workload::Noop(1)),
        "noop-10" => Some(Workload::Noop(10)),
        _ => None,
    };
    let input = match args.get(3) {
        Some(path) => std::fs::read(path).expect("read input"),
        None => concat(
            &load_corpus(&corpus_dir())
                .expect("corpus")
                .expect("corpus present"),
            20 << 20,
        ),
    };
    let (out, seen) = match (engine, work) {
        ("read", _) => (input.len(), 0),
        ("lol", Some(w)) => counted_lol(&input, w),
        (_, Some(w)) => counted_tagloom(&input, w),
        (_, None) => {
            let mut n = 0usize;
            let mut rw = Rewriter::new(Handlers::new(), Settings::default(), |c: &[u8]| {
                n += c.len()
            });
            for piece in input.chunks(CHUNK) {
                rw.write(piece).expect("rewrite");
            }
            let _sink = rw.end().expect("end");
            (n, 0)
        }
    };
    println!(
        "{engine}: {} bytes in, {out} bytes out, {seen} seen",
        input.len()
    );
}

/// The workloads collect their output; here it is only counted, so run them on
/// pieces through the shared functions would keep a second copy. Use them as they
/// are for timing; for memory, the output `Vec` is part of the figure (reported).
fn counted_tagloom(input: &[u8], w: Workload) -> (usize, usize) {
    rewrite_runs::tagloom(input, CHUNK, w)
}

fn counted_lol(input: &[u8], w: Workload) -> (usize, usize) {
    rewrite_runs::lol(input, CHUNK, w)
}
