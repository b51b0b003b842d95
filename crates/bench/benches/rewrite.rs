//! Streaming rewrite throughput, tagloom vs lol-html, in the same run (issue 9,
//! acceptance 5). `cargo bench -p tagloom-bench --bench rewrite`; the corpus is read
//! from `../shared/bench-corpus` beside the workspace, or `$TAGLOOM_BENCH_CORPUS`.
//!
//! Workloads (`support/rewrite_runs.rs`; both sides run the same handlers and
//! collect the output in a `Vec`):
//!
//! - `star`: `*` element + `*` text handlers that count what they see (lol-html in
//!   its full-lexing mode, which these handlers force);
//! - `a-href`: one `a[href]` handler setting `rel="nofollow"` (lol-html can run its
//!   tag scanner);
//! - `noop-1` / `noop-10`: 1 or 10 no-op element handlers (tagloom only: the cost of
//!   more handlers).
//!
//! Inputs: each page whole, the whole corpus (pages whole, one after the other) and
//! a 20 MB concat of the corpus fed in 64 KiB pieces.

#[path = "support/rewrite_runs.rs"]
mod rewrite_runs;

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use rewrite_runs::{CHUNK, Workload, concat, lol, tagloom};
use tagloom_bench::Page;

const WORKLOADS: [(&str, Workload); 2] = [
    ("star", Workload::StarElementText),
    ("a-href", Workload::AHrefSetAttr),
];

fn configure(c: Criterion) -> Criterion {
    c.sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

fn bench_pages(c: &mut Criterion, pages: &[Page]) {
    for page in pages {
        let mut group = c.benchmark_group(format!("rewrite/{}", page.name));
        group.throughput(Throughput::Bytes(page.bytes.len() as u64));
        let bytes = page.bytes.as_slice();
        for (name, work) in WORKLOADS {
            group.bench_function(format!("tagloom/{name}"), |b| {
                b.iter(|| tagloom(black_box(bytes), usize::MAX, work))
            });
            group.bench_function(format!("lol-html/{name}"), |b| {
                b.iter(|| lol(black_box(bytes), usize::MAX, work))
            });
        }
        group.finish();
    }
}

fn bench_total(c: &mut Criterion, pages: &[Page]) {
    let total: u64 = pages.iter().map(|p| p.bytes.len() as u64).sum();
    let mut group = c.benchmark_group("rewrite/corpus-total");
    group.throughput(Throughput::Bytes(total));
    let all = [
        ("star", Workload::StarElementText),
        ("a-href", Workload::AHrefSetAttr),
        ("noop-1", Workload::Noop(1)),
        ("noop-10", Workload::Noop(10)),
    ];
    for (name, work) in all {
        group.bench_function(format!("tagloom/{name}"), |b| {
            b.iter(|| {
                for page in pages {
                    black_box(tagloom(black_box(&page.bytes), usize::MAX, work));
                }
            })
        });
        if !matches!(work, Workload::Noop(_)) {
            group.bench_function(format!("lol-html/{name}"), |b| {
                b.iter(|| {
                    for page in pages {
                        black_box(lol(black_box(&page.bytes), usize::MAX, work));
                    }
                })
            });
        }
    }
    group.finish();
}

fn bench_concat(c: &mut Criterion, pages: &[Page]) {
    let big = concat(pages, 20 << 20);
    let mut group = c.benchmark_group("rewrite/concat-20MB");
    group.throughput(Throughput::Bytes(big.len() as u64));
    group.sample_size(10);
    let all = [
        ("star", Workload::StarElementText),
        ("a-href", Workload::AHrefSetAttr),
        ("noop-1", Workload::Noop(1)),
        ("noop-10", Workload::Noop(10)),
    ];
    for (name, work) in all {
        group.bench_function(format!("tagloom/{name}"), |b| {
            b.iter(|| tagloom(black_box(&big), CHUNK, work))
        });
        if !matches!(work, Workload::Noop(_)) {
            group.bench_function(format!("lol-html/{name}"), |b| {
                b.iter(|| lol(black_box(&big), CHUNK, work))
            });
        }
    }
    group.finish();
}

fn main() {
    let Some(pages) = tagloom_bench::corpus_pages("the rewrite bench") else {
        return;
    };
    // Sanity: both sides write the same bytes for the a-href rewrite.
    for page in &pages {
        let a = tagloom(&page.bytes, usize::MAX, Workload::AHrefSetAttr);
        let b = lol(&page.bytes, usize::MAX, Workload::AHrefSetAttr);
        eprintln!(
            "{}: a-href output {} / {} bytes, {} / {} links (tagloom / lol-html)",
            page.name, a.0, b.0, a.1, b.1
        );
    }
    let mut c = configure(Criterion::default()).configure_from_args();
    bench_pages(&mut c, &pages);
    bench_total(&mut c, &pages);
    bench_concat(&mut c, &pages);
    c.final_summary();
}
