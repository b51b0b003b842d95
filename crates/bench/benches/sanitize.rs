//! Sanitize throughput, tagloom vs ammonia, in the same run (issue 9, acceptance
//! 5: ≥ 2×). `cargo bench -p tagloom-bench --bench sanitize`; the corpus is read
//! from `../shared/bench-corpus` beside the workspace, or `$TAGLOOM_BENCH_CORPUS`.
//!
//! Each side runs its default policy (`support/sanitize_runs.rs` says how they
//! differ) on each page whole and on a 20 MB concat of the corpus.

#[path = "support/sanitize_runs.rs"]
mod sanitize_runs;

use std::hint::black_box;
use std::sync::Arc;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use sanitize_runs::{ammonia, concat, tagloom, text};
use tagloom_transform::sanitize::{Policy, Sanitizer};

fn configure(c: Criterion) -> Criterion {
    c.sample_size(10)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

fn main() {
    let Some(pages) = tagloom_bench::corpus_pages("the sanitize bench") else {
        return;
    };
    let mut c = configure(Criterion::default()).configure_from_args();
    let sanitizer = Sanitizer::new(Arc::new(Policy::default()));
    let builder = ::ammonia::Builder::default();
    let mut inputs: Vec<(String, String)> =
        pages.iter().map(|p| (p.name.clone(), text(p))).collect();
    inputs.push(("concat-20MB".into(), concat(&pages, 20 << 20)));
    for (name, input) in &inputs {
        let mut group = c.benchmark_group(format!("sanitize/{name}"));
        group.throughput(Throughput::Bytes(input.len() as u64));
        group.bench_function("tagloom", |b| {
            b.iter(|| tagloom(&sanitizer, black_box(input)))
        });
        group.bench_function("ammonia", |b| {
            b.iter(|| ammonia(&builder, black_box(input)))
        });
        group.finish();
    }
    c.final_summary();
}
