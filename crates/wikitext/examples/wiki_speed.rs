//! In-process timing of `tagloom_wikitext::render` on the real-article corpus
//! of `crates/bench/scripts/bench-wiki.sh` (issue 11, point 4).
//!
//! ```text
//! cargo build --release -p tagloom-wikitext --example wiki_speed
//! target/release/examples/wiki_speed run CORPUS_DIR [ROUNDS]  # sample lines on stdout
//! target/release/examples/wiki_speed once CORPUS_DIR          # each article once (callgrind)
//! target/release/examples/wiki_speed html CORPUS_DIR OUT_DIR  # each article's HTML, to compare builds
//! target/release/examples/wiki_speed table FILE...            # Markdown table from samples
//! valgrind --tool=callgrind --toggle-collect='tagloom_wikitext::render' \
//!     target/release/examples/wiki_speed once CORPUS_DIR     # instructions of the renders
//! ```
//!
//! CORPUS_DIR is what `scripts/wiki_corpus.py` writes: `index.tsv`
//! (`file<TAB>title<TAB>bytes`), `articles/`, and `corpus.xml.bz2`, read into a
//! `DumpStore` that every render uses as its page store (links to the corpus's
//! pages are blue, others red; the corpus has no template pages, so every
//! template is a red link). The article files are read before timing starts;
//! only the `render` call of each article is timed.
//!
//! A sample line is `engine<TAB>round<TAB>pages<TAB>bytes<TAB>seconds`: one pass of
//! `engine` over every article. The Python timer of the script
//! (`scripts/mwpfh_timer.py`) writes the same lines for `mwparserfromhell`.
//! `table` reports, per engine, the best and median round in MB/s, and the
//! median over rounds of the same-round ratio tagloom / mwparserfromhell.

use std::collections::BTreeMap;
use std::hint::black_box;
use std::path::Path;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Instant;

use tagloom_wikitext::preprocess::{DumpStore, PageStore};
use tagloom_wikitext::{RenderOptions, render};

/// The CLI's allocator (`tagloom-cli`'s default `mimalloc` feature), so the render
/// is timed as `tagloom wiki` runs it.
#[global_allocator]
static ALLOCATOR: tagloom_alloc::MiMalloc = tagloom_alloc::MiMalloc;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match (args.first().map(String::as_str), args.get(1)) {
        (Some("run"), Some(dir)) => {
            let rounds = args.get(2).and_then(|r| r.parse().ok()).unwrap_or(1);
            run(Path::new(dir), rounds, None)
        }
        (Some("once"), Some(dir)) => run(Path::new(dir), 1, Some(Path::new(""))),
        (Some("html"), Some(dir)) if args.len() == 3 => {
            run(Path::new(dir), 1, args.get(2).map(Path::new))
        }
        (Some("table"), Some(_)) => table(&args[1..]),
        _ => {
            eprintln!(
                "usage: wiki_speed run DIR [ROUNDS] | wiki_speed once DIR | wiki_speed table FILE..."
            );
            ExitCode::from(2)
        }
    }
}

/// The articles (title, wikitext) of the corpus, in index order.
fn articles(dir: &Path) -> Result<Vec<(String, String)>, String> {
    let index = std::fs::read_to_string(dir.join("index.tsv"))
        .map_err(|e| format!("{}: {e}", dir.join("index.tsv").display()))?;
    let mut out = Vec::new();
    for line in index.lines() {
        let mut fields = line.split('\t');
        let (Some(file), Some(title)) = (fields.next(), fields.next()) else {
            return Err(format!("index.tsv: bad line {line:?}"));
        };
        let path = dir.join("articles").join(file);
        let text =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        out.push((title.to_owned(), text));
    }
    Ok(out)
}

/// `once`: `None` for timed rounds; `Some("")` to run once quietly; `Some(dir)`
/// to also write each article's HTML to `dir/NNNN.html`.
fn run(dir: &Path, rounds: usize, once: Option<&Path>) -> ExitCode {
    let pages = match articles(dir) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("wiki_speed: {e}");
            return ExitCode::from(2);
        }
    };
    let base = RenderOptions::default();
    let store = match DumpStore::open(&dir.join("corpus.xml.bz2"), &base.preprocess.site) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("wiki_speed: {e}");
            return ExitCode::from(2);
        }
    };
    let store = Arc::new(store) as Arc<dyn PageStore>;
    let options: Vec<RenderOptions> = pages
        .iter()
        .map(|(title, _)| RenderOptions {
            title: title.clone(),
            store: Some(store.clone()),
            ..base.clone()
        })
        .collect();
    let bytes: usize = pages.iter().map(|(_, t)| t.len()).sum();
    for round in 0..rounds {
        let mut seconds = 0.0;
        let mut out = 0usize;
        for (i, ((_, text), options)) in pages.iter().zip(&options).enumerate() {
            let start = Instant::now();
            let html = render(black_box(text), options);
            seconds += start.elapsed().as_secs_f64();
            match html {
                Ok(h) => {
                    out += black_box(&h).len();
                    if let Some(to) = once.filter(|p| !p.as_os_str().is_empty()) {
                        let path = to.join(format!("{i:04}.html"));
                        if let Err(e) = std::fs::write(&path, h) {
                            eprintln!("wiki_speed: {}: {e}", path.display());
                            return ExitCode::from(2);
                        }
                    }
                }
                Err(e) => {
                    eprintln!("wiki_speed: {e}");
                    return ExitCode::from(1);
                }
            }
        }
        if once.is_some() {
            eprintln!("{} pages, {bytes} bytes in, {out} bytes out", pages.len());
        } else {
            println!("tagloom\t{round}\t{}\t{bytes}\t{seconds:.6}", pages.len());
        }
    }
    ExitCode::SUCCESS
}

/// One sample: (engine, round) → (bytes, seconds).
type Samples = BTreeMap<(String, usize), (f64, f64)>;

fn table(files: &[String]) -> ExitCode {
    let mut samples = Samples::new();
    for file in files {
        let Ok(text) = std::fs::read_to_string(file) else {
            eprintln!("wiki_speed: cannot read {file}");
            return ExitCode::from(2);
        };
        for line in text.lines() {
            let f: Vec<&str> = line.split('\t').collect();
            if let [engine, round, _, bytes, seconds] = f[..]
                && let (Ok(round), Ok(bytes), Ok(seconds)) =
                    (round.parse(), bytes.parse(), seconds.parse())
            {
                samples.insert((engine.to_owned(), round), (bytes, seconds));
            }
        }
    }
    let median = |mut v: Vec<f64>| -> f64 {
        v.sort_by(f64::total_cmp);
        v.get(v.len() / 2).copied().unwrap_or(0.0)
    };
    let engines: Vec<String> = {
        let mut e: Vec<String> = samples.keys().map(|(e, _)| e.clone()).collect();
        e.dedup();
        e
    };
    println!("| engine | rounds | MB | best MB/s | median MB/s |");
    println!("|---|---:|---:|---:|---:|");
    for engine in &engines {
        let rates: Vec<(f64, f64)> = samples
            .iter()
            .filter(|((e, _), _)| e == engine)
            .map(|(_, &(b, s))| (b, b / s / 1e6))
            .collect();
        let best = rates.iter().map(|r| r.1).fold(0.0, f64::max);
        let mb = rates.first().map_or(0.0, |r| r.0 / 1e6);
        let med = median(rates.iter().map(|r| r.1).collect());
        println!(
            "| {engine} | {} | {mb:.2} | {best:.2} | {med:.2} |",
            rates.len()
        );
    }
    let ratios: Vec<f64> = samples
        .iter()
        .filter(|((e, _), _)| e == "tagloom")
        .filter_map(|((_, round), &(_, s))| {
            let &(_, peer) = samples.get(&("mwparserfromhell".to_owned(), *round))?;
            Some(peer / s)
        })
        .collect();
    if !ratios.is_empty() {
        let list: Vec<String> = ratios.iter().map(|r| format!("{r:.1}")).collect();
        println!(
            "\nsame-round speed ratio tagloom / mwparserfromhell: median {:.1} (rounds: {})",
            median(ratios.clone()),
            list.join(", ")
        );
    }
    ExitCode::SUCCESS
}
