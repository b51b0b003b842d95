//! Full-parse throughput, tagloom vs html5ever, in the same run (issue acceptance
//! point 7).
//!
//! `cargo bench -p tagloom-bench --bench parse`; the corpus is read from
//! `../shared/bench-corpus` beside the workspace, or `$TAGLOOM_BENCH_CORPUS`.
//!
//! Per page and for the whole corpus, each iteration starts from the raw bytes:
//!
//! - `tagloom`: `Html5ParseSession` (UTF-8 transport, scripting on, parse errors
//!   recorded), the whole page pushed at once, `finish`, every batch applied to a
//!   fresh `DomStore`; the store is dropped inside the iteration.
//! - `tagloom/no-errors`: the same with `TokenizerConfig::report_errors = false`.
//! - `tagloom/64k-chunks`: like `tagloom`, but pushed 64 KiB at a time with a pump
//!   and the batches applied after each push (a streaming caller).
//! - `html5ever`: `parse_document(RcDom::default(), ParseOpts::default())`
//!   (scripting on), `.from_utf8().one(page)`; the `RcDom` is dropped inside the
//!   iteration.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use html5ever::tendril::TendrilSink;
use html5ever::{ParseOpts, parse_document};
use markup5ever_rcdom::RcDom;
use tagloom_bench::{Page, parse_config, tagloom_parse, tagloom_parse_chunked};
use tagloom_html::session::SessionConfig;

fn tagloom_config(report_errors: bool) -> SessionConfig {
    let mut config = parse_config(true);
    config.tokenizer.report_errors = report_errors;
    config
}

/// Parses with tagloom; returns the node count so the tree is observed.
fn tagloom(bytes: &[u8], config: &SessionConfig) -> usize {
    let store = tagloom_parse(bytes, config.clone());
    black_box(store.len())
}

/// The streaming chunk of `tagloom/64k-chunks`.
const CHUNK: usize = 64 * 1024;

/// Parses with tagloom, 64 KiB at a time; returns the node count.
fn tagloom_chunked(bytes: &[u8], config: &SessionConfig) -> usize {
    let store = tagloom_parse_chunked(bytes, config.clone(), CHUNK);
    black_box(store.len())
}

/// Parses with html5ever into an `RcDom`; returns the document's child count.
fn html5ever(bytes: &[u8]) -> usize {
    let dom = parse_document(RcDom::default(), ParseOpts::default())
        .from_utf8()
        .one(bytes);
    let children = dom.document.children.borrow().len();
    black_box(children)
}

fn configure(c: Criterion) -> Criterion {
    c.sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

fn bench_pages(c: &mut Criterion, pages: &[Page]) {
    let with_errors = tagloom_config(true);
    let no_errors = tagloom_config(false);
    for page in pages {
        let mut group = c.benchmark_group(format!("parse/{}", page.name));
        group.throughput(Throughput::Bytes(page.bytes.len() as u64));
        let bytes = page.bytes.as_slice();
        group.bench_function("tagloom", |b| {
            b.iter(|| tagloom(black_box(bytes), &with_errors))
        });
        group.bench_function("tagloom/no-errors", |b| {
            b.iter(|| tagloom(black_box(bytes), &no_errors))
        });
        group.bench_function("tagloom/64k-chunks", |b| {
            b.iter(|| tagloom_chunked(black_box(bytes), &with_errors))
        });
        group.bench_function("html5ever", |b| b.iter(|| html5ever(black_box(bytes))));
        group.finish();
    }
}

fn bench_total(c: &mut Criterion, pages: &[Page]) {
    let total: u64 = pages.iter().map(|p| p.bytes.len() as u64).sum();
    let mut group = c.benchmark_group("parse/corpus-total");
    group.throughput(Throughput::Bytes(total));
    for (name, config) in [
        ("tagloom", tagloom_config(true)),
        ("tagloom/no-errors", tagloom_config(false)),
    ] {
        group.bench_function(name, |b| {
            b.iter(|| {
                for page in pages {
                    black_box(tagloom(black_box(&page.bytes), &config));
                }
            })
        });
    }
    let with_errors = tagloom_config(true);
    group.bench_function("tagloom/64k-chunks", |b| {
        b.iter(|| {
            for page in pages {
                black_box(tagloom_chunked(black_box(&page.bytes), &with_errors));
            }
        })
    });
    group.bench_function("html5ever", |b| {
        b.iter(|| {
            for page in pages {
                black_box(html5ever(black_box(&page.bytes)));
            }
        })
    });
    group.finish();
}

fn main() {
    let Some(pages) = tagloom_bench::corpus_pages("the parse bench") else {
        return;
    };
    for page in &pages {
        let store = tagloom_parse(&page.bytes, tagloom_config(true));
        println!(
            "{}: {} bytes; tagloom {} nodes",
            page.name,
            page.bytes.len(),
            store.len()
        );
    }
    let mut criterion = configure(Criterion::default()).configure_from_args();
    bench_pages(&mut criterion, &pages);
    bench_total(&mut criterion, &pages);
    criterion.final_summary();
}
