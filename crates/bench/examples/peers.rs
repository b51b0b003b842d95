//! The peer bench of issue 12: tagloom against html5ever, html5gum and lol-html (and,
//! through `scripts/bench-peers.sh`, lexbor via selectolax) on the bench pages and
//! their 20 MB concat, whole input and 16 KiB chunks.
//!
//! ```text
//! cargo build --release -p tagloom-bench --example peers
//! target/release/examples/peers run [ROUNDS]     # TSV samples on stdout
//! target/release/examples/peers rss ENGINE CHUNK # one parse of the concat, for /usr/bin/time -v
//! target/release/examples/peers table FILE...    # the Markdown tables from TSV samples
//! ```
//!
//! A sample line is `engine<TAB>input<TAB>chunk<TAB>bytes<TAB>seconds`: one pass of
//! `engine` over `input` (a page name or `concat`), `chunk` is `whole` or `16k`,
//! `seconds` the mean time of the iterations of that sample (small pages repeat until
//! about 2 MB went through), after one untimed warm-up parse of the same input (the
//! rules of `scripts/selectolax_timer.py`). `run` interleaves the engines inside each
//! round, so a round's ratios are same-run ratios; `table` reports the best and the
//! median of the rounds. The Python timer of the script writes the same lines for
//! lexbor.
//!
//! Engines (every one starts from the raw UTF-8 bytes):
//! - `tagloom`: bytes → session → [`tagloom_html::dom::DomStore`] (errors recorded).
//! - `tagloom-tok`: the tokenizer alone, every token touched, errors on.
//! - `html5ever`: `parse_document` into an `RcDom` (`from_utf8`).
//! - `html5ever-tok`: its tokenizer with a counting sink.
//! - `html5gum`: its tokenizer with the callback emitter (borrowed events).
//! - `lol-html`: a rewriter with handlers on every element, text chunk, comment and
//!   doctype, so it lexes everything (full lexing, not its tag scanner); output counted.

use std::cell::Cell;
use std::hint::black_box;
use std::process::ExitCode;
use std::time::Instant;

use html5ever::tendril::{ByteTendril, TendrilSink};
use markup5ever_rcdom::RcDom;
#[path = "support/html5ever_tok.rs"]
mod html5ever_tok;
use html5ever_tok::html5ever_tokenize;
use tagloom_bench::{Page, corpus_dir, load_corpus, parse_config, tagloom_parse_chunked};
use tagloom_html::token::Token;
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};

/// The streaming chunk of the `16k` variants.
const CHUNK: usize = 16 * 1024;
/// The size of the concat (the pages repeated in name order until it is reached).
const CONCAT_BYTES: usize = 20_000_000;
/// Bytes a sample of a small page runs through at least (it repeats the page).
const SAMPLE_BYTES: usize = 2_000_000;

const ENGINES: [&str; 6] = [
    "tagloom",
    "tagloom-tok",
    "html5ever",
    "html5ever-tok",
    "html5gum",
    "lol-html",
];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.first().map(String::as_str) {
        Some("run") => {
            let rounds = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(1);
            run(rounds)
        }
        Some("rss") => match (args.get(1), args.get(2)) {
            (Some(engine), Some(chunk)) => rss(engine, chunk),
            _ => usage(),
        },
        Some("table") => table(&args[1..]),
        _ => usage(),
    }
}

fn usage() -> ExitCode {
    eprintln!("usage: peers run [ROUNDS] | peers rss ENGINE whole|16k | peers table FILE...");
    ExitCode::from(2)
}

fn inputs() -> Option<Vec<Page>> {
    let dir = corpus_dir();
    let Ok(Some(mut pages)) = load_corpus(&dir) else {
        eprintln!("bench corpus not found at {}", dir.display());
        return None;
    };
    let mut concat = Vec::with_capacity(CONCAT_BYTES + 1_000_000);
    while concat.len() < CONCAT_BYTES {
        for page in &pages {
            concat.extend_from_slice(&page.bytes);
        }
    }
    pages.push(Page {
        name: "concat".to_owned(),
        bytes: concat,
    });
    Some(pages)
}

fn chunk_size(chunk: &str) -> Option<usize> {
    match chunk {
        "whole" => Some(usize::MAX),
        "16k" => Some(CHUNK),
        _ => None,
    }
}

fn run(rounds: usize) -> ExitCode {
    let Some(inputs) = inputs() else {
        return ExitCode::from(2);
    };
    for _ in 0..rounds {
        for input in &inputs {
            let iterations = SAMPLE_BYTES.div_ceil(input.bytes.len()).max(1);
            for engine in ENGINES {
                for chunk in ["whole", "16k"] {
                    let size = chunk_size(chunk).unwrap_or(usize::MAX);
                    // One untimed warm-up parse first, as `scripts/selectolax_timer.py`
                    // does for lexbor: every sample measures the steady state, not
                    // the first touch of the heap a large input grows into.
                    black_box(parse(engine, &input.bytes, size));
                    let start = Instant::now();
                    for _ in 0..iterations {
                        black_box(parse(engine, &input.bytes, size));
                    }
                    let secs = start.elapsed().as_secs_f64() / iterations as f64;
                    println!(
                        "{engine}\t{}\t{chunk}\t{}\t{secs:.9}",
                        input.name,
                        input.bytes.len()
                    );
                }
            }
        }
    }
    ExitCode::SUCCESS
}

fn rss(engine: &str, chunk: &str) -> ExitCode {
    let (Some(size), Some(inputs)) = (chunk_size(chunk), inputs()) else {
        return usage();
    };
    let Some(concat) = inputs.last() else {
        return ExitCode::from(2);
    };
    if engine != "baseline" {
        black_box(parse(engine, &concat.bytes, size));
    }
    ExitCode::SUCCESS
}

/// One pass of `engine` over `bytes`, pushed `chunk` bytes at a time; returns a digest.
fn parse(engine: &str, bytes: &[u8], chunk: usize) -> usize {
    match engine {
        "tagloom" => tagloom_parse_chunked(bytes, parse_config(true), chunk).len(),
        "tagloom-tok" => tagloom_tokenize(bytes, chunk),
        "html5ever" => html5ever_parse(bytes, chunk),
        "html5ever-tok" => html5ever_tokenize(bytes, chunk),
        "html5gum" => html5gum_tokenize(bytes, chunk),
        "lol-html" => lol_html_lex(bytes, chunk),
        _ => 0,
    }
}

fn tagloom_tokenize(bytes: &[u8], chunk: usize) -> usize {
    let mut tokenizer = Tokenizer::new(TokenizerConfig::default());
    let mut seen = 0usize;
    for piece in bytes.chunks(chunk.min(bytes.len()).max(1)) {
        tokenizer.push_bytes(piece);
        seen += drain(&mut tokenizer);
    }
    tokenizer.finish();
    seen += drain(&mut tokenizer);
    seen + tokenizer.errors().len()
}

fn drain(tokenizer: &mut Tokenizer) -> usize {
    let mut seen = 0;
    while let Ok(Some(token)) = tokenizer.next_token() {
        seen += match black_box(token) {
            Token::Characters(text) | Token::Comment(text) => text.text.len(),
            Token::StartTag(tag) | Token::EndTag(tag) => {
                for attr in tag.attrs.iter() {
                    black_box(attr.value);
                }
                tag.attrs.len() + 1
            }
            Token::Doctype(doctype) => black_box(doctype.name).map_or(0, str::len),
            Token::ProcessingInstruction(pi) => pi.data.len(),
            Token::Eof => 0,
        };
    }
    seen
}

fn html5ever_parse(bytes: &[u8], chunk: usize) -> usize {
    let mut parser =
        html5ever::parse_document(RcDom::default(), html5ever::ParseOpts::default()).from_utf8();
    for piece in bytes.chunks(chunk.min(bytes.len()).max(1)) {
        parser.process(ByteTendril::from_slice(piece));
    }
    let dom = parser.finish();
    dom.document.children.borrow().len()
}

fn html5gum_tokenize(bytes: &[u8], chunk: usize) -> usize {
    use html5gum::emitters::callback::{CallbackEmitter, CallbackEvent};
    let mut seen = 0usize;
    let emitter = CallbackEmitter::new(
        |event: CallbackEvent<'_>, _span: html5gum::Span<()>| -> Option<std::convert::Infallible> {
            seen += match black_box(event) {
                CallbackEvent::OpenStartTag { name } | CallbackEvent::EndTag { name } => name.len(),
                CallbackEvent::AttributeName { name } => name.len(),
                CallbackEvent::AttributeValue { value }
                | CallbackEvent::String { value }
                | CallbackEvent::Comment { value } => value.len(),
                CallbackEvent::Doctype { name, .. } => name.len(),
                CallbackEvent::CloseStartTag { .. } | CallbackEvent::Error(_) => 1,
            };
            None
        },
    );
    if chunk >= bytes.len() {
        let tokenizer = html5gum::Tokenizer::new_with_emitter(bytes, emitter);
        black_box(tokenizer.finish().is_ok());
    } else {
        // Its streaming reader pulls from an `io::Read` through a 16 KiB buffer.
        let reader = html5gum::IoReader::new_with_buffer_size::<CHUNK>(std::io::Cursor::new(bytes));
        let tokenizer = html5gum::Tokenizer::new_with_emitter(reader, emitter);
        black_box(tokenizer.finish().is_ok());
    }
    seen
}

fn lol_html_lex(bytes: &[u8], chunk: usize) -> usize {
    use lol_html::{HtmlRewriter, Settings, doc_comments, doc_text, doctype, element};
    let seen = Cell::new(0usize);
    let mut out = 0usize;
    {
        let settings = Settings::new()
            .append_element_content_handler(element!("*", |el| {
                for attr in el.attributes() {
                    black_box(attr.value());
                }
                seen.set(seen.get() + 1);
                Ok(())
            }))
            .append_document_content_handler(doc_text!(|t| {
                seen.set(seen.get() + t.as_str().len());
                Ok(())
            }))
            .append_document_content_handler(doc_comments!(|c| {
                seen.set(seen.get() + c.text().len());
                Ok(())
            }))
            .append_document_content_handler(doctype!(|d| {
                black_box(d.name());
                Ok(())
            }));
        let mut rewriter = HtmlRewriter::new(settings, |c: &[u8]| out += c.len());
        for piece in bytes.chunks(chunk.min(bytes.len()).max(1)) {
            if rewriter.write(piece).is_err() {
                return 0;
            }
        }
        if rewriter.end().is_err() {
            return 0;
        }
    }
    out + seen.get()
}

/// The samples of one (engine, input, chunk).
struct Series {
    engine: String,
    input: String,
    chunk: String,
    bytes: f64,
    seconds: Vec<f64>,
}

fn median(values: &mut [f64]) -> f64 {
    values.sort_by(f64::total_cmp);
    match values.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => values[n / 2],
        n => (values[n / 2 - 1] + values[n / 2]) / 2.0,
    }
}

/// MB/s (1e6 bytes) per round of the aggregate of the pages (total bytes over
/// total time per round) or of the concat.
fn rates(series: &[Series], engine: &str, chunk: &str, concat: bool) -> Vec<f64> {
    let chosen: Vec<&Series> = series
        .iter()
        .filter(|s| s.engine == engine && s.chunk == chunk && (s.input == "concat") == concat)
        .collect();
    let rounds = chosen.iter().map(|s| s.seconds.len()).min().unwrap_or(0);
    let bytes: f64 = chosen.iter().map(|s| s.bytes).sum();
    (0..rounds)
        .map(|r| bytes / chosen.iter().map(|s| s.seconds[r]).sum::<f64>() / 1e6)
        .collect()
}

/// Best and median MB/s over the rounds.
fn throughput(series: &[Series], engine: &str, chunk: &str, concat: bool) -> Option<(f64, f64)> {
    let mut rates = rates(series, engine, chunk, concat);
    if rates.is_empty() {
        return None;
    }
    let best = rates.iter().copied().fold(0.0, f64::max);
    Some((best, median(&mut rates)))
}

/// The median over the rounds of tagloom's MB/s over `engine`'s in the same
/// round (rounds of the two processes interleave, so round r pairs with round r).
fn ratio(series: &[Series], reference: &str, engine: &str, concat: bool) -> String {
    let ours = rates(series, reference, "whole", concat);
    let theirs = rates(series, engine, "whole", concat);
    let mut ratios: Vec<f64> = ours.iter().zip(&theirs).map(|(a, b)| a / b).collect();
    if ratios.is_empty() {
        return "–".to_owned();
    }
    format!("{:.2}×", median(&mut ratios))
}

fn table(files: &[String]) -> ExitCode {
    let mut series: Vec<Series> = Vec::new();
    let mut rss: Vec<(String, String, f64)> = Vec::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(file) else {
            eprintln!("cannot read {file}");
            return ExitCode::from(2);
        };
        for line in text.lines() {
            let f: Vec<&str> = line.split('\t').collect();
            if let [kind, engine, chunk, mib] = f[..]
                && kind == "rss"
            {
                rss.push((
                    engine.to_owned(),
                    chunk.to_owned(),
                    mib.parse().unwrap_or(f64::NAN),
                ));
                continue;
            }
            let [engine, input, chunk, bytes, secs] = f[..] else {
                continue;
            };
            let (Ok(bytes), Ok(secs)) = (bytes.parse::<f64>(), secs.parse::<f64>()) else {
                continue;
            };
            match series
                .iter_mut()
                .find(|s| s.engine == engine && s.input == input && s.chunk == chunk)
            {
                Some(s) => s.seconds.push(secs),
                None => series.push(Series {
                    engine: engine.to_owned(),
                    input: input.to_owned(),
                    chunk: chunk.to_owned(),
                    bytes,
                    seconds: vec![secs],
                }),
            }
        }
    }
    let mut engines: Vec<String> = Vec::new();
    for s in &series {
        if !engines.contains(&s.engine) {
            engines.push(s.engine.clone());
        }
    }
    let rounds = series.iter().map(|s| s.seconds.len()).max().unwrap_or(0);
    println!(
        "MB/s = 10^6 bytes/s, median of {rounds} rounds (best in brackets); tagloom ÷ engine = \
         median over the rounds of tagloom's speed over the engine's in the same round \
         (whole input; trees against `tagloom`, tokenizers against `tagloom-tok`).\n"
    );
    println!(
        "| engine | 7 pages, whole | 7 pages, 16 KiB | 20 MB concat, whole | 20 MB concat, 16 KiB | \
         tagloom ÷ engine, pages | tagloom ÷ engine, concat | peak RSS, concat (MiB above baseline) |"
    );
    println!("|---|---|---|---|---|---|---|---|");
    for engine in &engines {
        let reference = if engine.ends_with("-tok") || engine == "html5gum" || engine == "lol-html"
        {
            "tagloom-tok"
        } else {
            "tagloom"
        };
        let cell = |chunk: &str, concat: bool| match throughput(&series, engine, chunk, concat) {
            Some((best, med)) => format!("{med:.1} ({best:.1})"),
            None => "–".to_owned(),
        };
        let (pages_ratio, concat_ratio) = (
            ratio(&series, reference, engine, false),
            ratio(&series, reference, engine, true),
        );
        let memory = rss
            .iter()
            .filter(|(e, c, _)| e == engine && c == "whole")
            .map(|(_, _, m)| format!("{m:.1}"))
            .next()
            .unwrap_or_else(|| "–".to_owned());
        println!(
            "| {engine} | {} | {} | {} | {} | {pages_ratio} | {concat_ratio} | {memory} |",
            cell("whole", false),
            cell("16k", false),
            cell("whole", true),
            cell("16k", true),
        );
    }
    println!("\nPer page, whole input, median MB/s:\n");
    let mut pages: Vec<&str> = Vec::new();
    for s in &series {
        if s.input != "concat" && !pages.contains(&s.input.as_str()) {
            pages.push(&s.input);
        }
    }
    println!("| engine | {} |", pages.join(" | "));
    println!("|---|{}", "---|".repeat(pages.len()));
    for engine in &engines {
        let cells: Vec<String> = pages
            .iter()
            .map(|page| {
                series
                    .iter()
                    .find(|s| &s.engine == engine && s.input == *page && s.chunk == "whole")
                    .map_or("–".to_owned(), |s| {
                        let mut secs = s.seconds.clone();
                        format!("{:.1}", s.bytes / median(&mut secs) / 1e6)
                    })
            })
            .collect();
        println!("| {engine} | {} |", cells.join(" | "));
    }
    let memory: Vec<String> = rss
        .iter()
        .filter(|(_, c, _)| c == "16k")
        .map(|(e, _, m)| format!("{e} {m:.1}"))
        .collect();
    if !memory.is_empty() {
        println!(
            "\nPeak RSS, concat in 16 KiB chunks (MiB above baseline): {}",
            memory.join(", ")
        );
    }
    ExitCode::SUCCESS
}
