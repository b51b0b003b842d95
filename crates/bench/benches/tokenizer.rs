//! Tokenizer throughput, tagloom vs html5ever, in the same run.
//!
//! `cargo bench -p tagloom-bench --bench tokenizer`; the corpus is read from
//! `../shared/bench-corpus` beside the workspace, or `$TAGLOOM_BENCH_CORPUS`.
//!
//! Per page: `tagloom/errors` (default config, parse errors recorded),
//! `tagloom/no-errors` (`report_errors: false`) and `html5ever` (its tokenizer with
//! a counting sink, `exact_errors` off). Each variant starts from the raw bytes:
//! tagloom decodes them with `push_bytes`, html5ever gets a `StrTendril` made from
//! them (UTF-8 validation and a copy on both sides).

use std::cell::Cell;
use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, Throughput};
use html5ever::TokenizerResult;
use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{
    BufferQueue, Token, TokenSink, TokenSinkResult, Tokenizer, TokenizerOpts,
};
use tagloom_bench::{Page, Summary, tagloom_tokenize};

/// A sink that counts tokens and text bytes, like [`tagloom_tokenize`] does.
#[derive(Default)]
struct CountingSink {
    tokens: Cell<usize>,
    text_len: Cell<usize>,
    attrs: Cell<usize>,
}

impl TokenSink for CountingSink {
    type Handle = ();

    fn process_token(&self, token: Token, _line: u64) -> TokenSinkResult<()> {
        match black_box(&token) {
            Token::CharacterTokens(text) | Token::CommentToken(text) => {
                self.text_len.set(self.text_len.get() + text.len());
            }
            Token::TagToken(tag) => {
                self.attrs.set(self.attrs.get() + tag.attrs.len());
                for attr in &tag.attrs {
                    black_box(&attr.value);
                }
            }
            Token::NullCharacterToken => self.text_len.set(self.text_len.get() + 1),
            Token::DoctypeToken(doctype) => {
                black_box(&doctype.name);
            }
            Token::EOFToken | Token::ParseError(_) => return TokenSinkResult::Continue,
        }
        self.tokens.set(self.tokens.get() + 1);
        TokenSinkResult::Continue
    }
}

fn html5ever_tokenize(bytes: &[u8]) -> Summary {
    let text = StrTendril::try_from_byte_slice(bytes).expect("corpus pages are UTF-8");
    let input = BufferQueue::default();
    input.push_back(text);
    let tokenizer = Tokenizer::new(CountingSink::default(), TokenizerOpts::default());
    while let TokenizerResult::Script(()) = tokenizer.feed(&input) {}
    tokenizer.end();
    let sink = &tokenizer.sink;
    Summary {
        tokens: sink.tokens.get(),
        text_len: sink.text_len.get(),
        attrs: sink.attrs.get(),
    }
}

fn configure(c: Criterion) -> Criterion {
    c.sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
}

fn bench_pages(c: &mut Criterion, pages: &[Page]) {
    for page in pages {
        let mut group = c.benchmark_group(format!("tokenize/{}", page.name));
        group.throughput(Throughput::Bytes(page.bytes.len() as u64));
        let bytes = page.bytes.as_slice();
        group.bench_function("tagloom/errors", |b| {
            b.iter(|| tagloom_tokenize(black_box(bytes), true))
        });
        group.bench_function("tagloom/no-errors", |b| {
            b.iter(|| tagloom_tokenize(black_box(bytes), false))
        });
        group.bench_function("html5ever", |b| {
            b.iter(|| html5ever_tokenize(black_box(bytes)))
        });
        group.finish();
    }
}

fn bench_total(c: &mut Criterion, pages: &[Page]) {
    let total: u64 = pages.iter().map(|p| p.bytes.len() as u64).sum();
    let mut group = c.benchmark_group("tokenize/corpus-total");
    group.throughput(Throughput::Bytes(total));
    group.bench_function("tagloom/errors", |b| {
        b.iter(|| {
            for page in pages {
                black_box(tagloom_tokenize(black_box(&page.bytes), true));
            }
        })
    });
    group.bench_function("tagloom/no-errors", |b| {
        b.iter(|| {
            for page in pages {
                black_box(tagloom_tokenize(black_box(&page.bytes), false));
            }
        })
    });
    group.bench_function("html5ever", |b| {
        b.iter(|| {
            for page in pages {
                black_box(html5ever_tokenize(black_box(&page.bytes)));
            }
        })
    });
    group.finish();
}

fn main() {
    let Some(pages) = tagloom_bench::corpus_pages("the tokenizer bench") else {
        return;
    };
    // Both tokenizers must have read the same pages: a sanity check, not a timing.
    for page in &pages {
        let ours = tagloom_tokenize(&page.bytes, true);
        let theirs = html5ever_tokenize(&page.bytes);
        println!(
            "{}: {} bytes; tagloom {} tokens, {} text bytes, {} attrs; html5ever {} tokens, {} text bytes, {} attrs",
            page.name,
            page.bytes.len(),
            ours.tokens,
            ours.text_len,
            ours.attrs,
            theirs.tokens,
            theirs.text_len,
            theirs.attrs
        );
    }
    let mut criterion = configure(Criterion::default()).configure_from_args();
    bench_pages(&mut criterion, &pages);
    bench_total(&mut criterion, &pages);
    criterion.final_summary();
}
