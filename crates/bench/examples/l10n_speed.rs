//! The localization bench of issue 12 (point 4): `extract` and `merge` against
//! html5ever's tokenizer on the same file, in the same run.
//!
//! ```text
//! cargo build --release -p tagloom-bench --example l10n_speed
//! target/release/examples/l10n_speed run [ROUNDS] [FILE...]  # samples + table
//! target/release/examples/l10n_speed generate OUT BYTES      # a generated page
//! target/release/examples/l10n_speed translate IN.xlf OUT.xlf
//! ```
//!
//! `run` benches each FILE (default: the bench pages' 20 MB concat, written to
//! `target/l10n-bench/concat.html`). Every engine starts from the file on disk (in
//! the page cache after the first round) and ends with its output written:
//! - `html5ever-tok`: the file read in 64 KiB pieces (as the page reader of
//!   `extract` and `merge` reads it), each fed to html5ever's tokenizer with a
//!   counting sink. Until session 19 it read the whole file first and copied it
//!   into one tendril: 2 GB of fresh memory on the 1 GB page, whose page faults
//!   cost html5ever 0.6–5.7 s of system time a round, varying from round to round;
//!   streamed, html5ever runs at its best and the same in every round;
//! - `extract`: [`flow::extract`] to XLIFF (`--source en --target fr`);
//! - `merge`: [`flow::merge`] of an XLIFF whose every unit has a target (the
//!   source with `» ` in front, see `translate`), so every block is replaced.
//!
//! Before each timed run the bench flushes dirty pages to disk (`sync`, untimed):
//! preparing a 1 GB page writes ≈ 9 GB of XLIFF, and without the flush every
//! engine ran against the kernel's writeback of the earlier runs' output (on a
//! 2-core machine the flusher threads take CPU, and a writer past the dirty limit
//! is throttled), which penalized whichever engine came after the largest write.
//! Each engine still pays for writing its own output. Its output file from the
//! round before is deleted first (untimed, before the flush): replacing a file
//! makes the kernel drop the old one's cached pages inside the timed run (on the
//! 1 GB page a 3.8 GB XLIFF: 14.5–16.5 s instead of 11.5 s, the difference all
//! system time), a cost of the previous round's file, not of the extraction.
//!
//! The output files go to `target/l10n-bench/`. A sample line is
//! `engine<TAB>input<TAB>bytes<TAB>seconds`; the table gives the median MB/s of the
//! rounds and the ratio to html5ever's tokenizer (issue 12: ≥ 1.0× for both).
//! Peak memory and temp disk on a 1 GB page: `scripts/bench-l10n.sh`.

#[path = "support/html5ever_tok.rs"]
#[allow(
    dead_code,
    reason = "this bench streams files through `Html5everTok`; the in-memory form is peers.rs's"
)]
mod html5ever_tok;

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::hint::black_box;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;

use html5ever_tok::Html5everTok;
use tagloom_bench::corpus_pages;
use tagloom_l10n::flow::{self, ExtractOptions, MergeOptions};

/// The CLI's allocator (`tagloom-cli`'s default `mimalloc` feature): `extract` and
/// `merge` are timed as `tagloom l10n` runs them, and html5ever's tokenizer runs
/// in the same process with the same allocator.
#[global_allocator]
static ALLOCATOR: tagloom_alloc::MiMalloc = tagloom_alloc::MiMalloc;

/// The size of the default input (the bench pages repeated in name order).
const CONCAT_BYTES: usize = 20_000_000;
const ENGINES: [&str; 3] = ["html5ever-tok", "extract", "merge"];

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("run") => {
            let rounds = args.get(1).and_then(|r| r.parse().ok()).unwrap_or(3);
            let files: Vec<PathBuf> = args.iter().skip(2).map(PathBuf::from).collect();
            run(rounds, files)
        }
        Some("generate") => match (args.get(1), args.get(2).and_then(|b| b.parse().ok())) {
            (Some(out), Some(bytes)) => generate(Path::new(out), bytes),
            _ => Err(usage()),
        },
        Some("translate") => match (args.get(1), args.get(2)) {
            (Some(input), Some(out)) => translate(Path::new(input), Path::new(out)),
            _ => Err(usage()),
        },
        _ => Err(usage()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("l10n_speed: {message}");
            ExitCode::from(2)
        }
    }
}

fn usage() -> String {
    "usage: l10n_speed run [ROUNDS] [FILE...] | generate OUT BYTES | translate IN.xlf OUT.xlf"
        .into()
}

fn work_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../target/l10n-bench")
}

/// The default input: the bench pages' concat, written once.
fn default_input() -> Result<PathBuf, String> {
    let Some(pages) = corpus_pages("l10n_speed") else {
        return Err("no input".into());
    };
    let path = work_dir().join("concat.html");
    let mut concat = Vec::with_capacity(CONCAT_BYTES + 1_000_000);
    while concat.len() < CONCAT_BYTES {
        for page in &pages {
            concat.extend_from_slice(&page.bytes);
        }
    }
    std::fs::write(&path, concat).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(path)
}

/// One input's prepared files: the page, its translated XLIFF, the outputs.
struct Input {
    name: String,
    page: PathBuf,
    bytes: u64,
    xlf: PathBuf,
    translated: PathBuf,
    merged: PathBuf,
}

fn prepare(page: PathBuf, options: &ExtractOptions) -> Result<Input, String> {
    let name = page
        .file_stem()
        .and_then(|s| s.to_str())
        .unwrap_or("input")
        .to_owned();
    let dir = work_dir();
    let input = Input {
        bytes: std::fs::metadata(&page)
            .map_err(|e| format!("{}: {e}", page.display()))?
            .len(),
        xlf: dir.join(format!("{name}.xlf")),
        translated: dir.join(format!("{name}.translated.xlf")),
        merged: dir.join(format!("{name}.merged.html")),
        name,
        page,
    };
    flow::extract(&input.page, &input.xlf, options).map_err(|e| e.to_string())?;
    translate(&input.xlf, &input.translated)?;
    Ok(input)
}

fn run(rounds: usize, files: Vec<PathBuf>) -> Result<(), String> {
    std::fs::create_dir_all(work_dir()).map_err(|e| e.to_string())?;
    let files = if files.is_empty() {
        vec![default_input()?]
    } else {
        files
    };
    // The CLI's allocator setting for its `l10n` commands (freed memory returned
    // at once: their memory bound), for every engine of the run alike.
    tagloom_alloc::return_freed_memory_at_once();
    // As the CLI runs a single file: no word count (it prints none; the count is
    // for a directory run's totals, `Common::count_words`).
    let mut options = ExtractOptions::new("en", Some("fr")).map_err(|e| e.to_string())?;
    options.common.count_words = false;
    let mut merge_options = MergeOptions::default();
    merge_options.common.count_words = false;
    let inputs = files
        .into_iter()
        .map(|f| prepare(f, &options))
        .collect::<Result<Vec<_>, _>>()?;
    // (engine, input) -> seconds per round
    let mut samples: BTreeMap<(&'static str, String), Vec<f64>> = BTreeMap::new();
    for _ in 0..rounds {
        for input in &inputs {
            for engine in ENGINES {
                let output = match engine {
                    "extract" => Some(&input.xlf),
                    "merge" => Some(&input.merged),
                    _ => None,
                };
                if let Some(output) = output {
                    match std::fs::remove_file(output) {
                        Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                            return Err(format!("{}: {e}", output.display()));
                        }
                        _ => {}
                    }
                }
                flush_dirty_pages();
                let start = Instant::now();
                match engine {
                    "html5ever-tok" => {
                        black_box(html5ever_tokenize_file(&input.page)?);
                    }
                    "extract" => {
                        let report = flow::extract(&input.page, &input.xlf, &options)
                            .map_err(|e| e.to_string())?;
                        black_box(report.blocks());
                    }
                    _ => {
                        let report = flow::merge(
                            &input.page,
                            &input.translated,
                            &input.merged,
                            &merge_options,
                        )
                        .map_err(|e| e.to_string())?;
                        if report.translated() != report.blocks() {
                            return Err(format!(
                                "{}: merge applied {} of {} translations",
                                input.name,
                                report.translated(),
                                report.blocks()
                            ));
                        }
                    }
                }
                let secs = start.elapsed().as_secs_f64();
                println!("{engine}\t{}\t{}\t{secs:.6}", input.name, input.bytes);
                samples
                    .entry((engine, input.name.clone()))
                    .or_default()
                    .push(secs);
            }
        }
    }
    println!("{}", table(&inputs, &mut samples));
    Ok(())
}

/// html5ever's tokenizer over the file at `path`, read in 64 KiB pieces; a piece
/// ends on a UTF-8 character boundary, the rest of a character carried over to the
/// next (the bench's inputs are UTF-8: anything else is an error).
fn html5ever_tokenize_file(path: &Path) -> Result<usize, String> {
    use std::io::Read;
    const PIECE: usize = 64 * 1024;
    let fail = |e: String| format!("{}: {e}", path.display());
    let mut file = std::fs::File::open(path).map_err(|e| fail(e.to_string()))?;
    let tok = Html5everTok::new();
    let mut buf = vec![0u8; PIECE + 4];
    // Bytes of a character cut at the end of the last read, at the front of `buf`.
    let mut carried = 0;
    loop {
        let n = file
            .read(&mut buf[carried..carried + PIECE])
            .map_err(|e| fail(e.to_string()))?;
        let filled = carried + n;
        let (text, rest) = match std::str::from_utf8(&buf[..filled]) {
            Ok(text) => (text, 0),
            // A character cut by the read: its start waits for the next piece.
            Err(e) if e.error_len().is_none() && n > 0 => {
                let valid = e.valid_up_to();
                let text = std::str::from_utf8(&buf[..valid]).map_err(|e| fail(e.to_string()))?;
                (text, filled - valid)
            }
            Err(e) => return Err(fail(format!("not UTF-8 ({e})"))),
        };
        if !text.is_empty() {
            tok.feed(text);
        }
        if n == 0 {
            break;
        }
        buf.copy_within(filled - rest..filled, 0);
        carried = rest;
    }
    Ok(tok.finish())
}

/// `sync(1)`: the kernel's dirty pages written out, so that no timed run inherits
/// the writeback of an earlier one. A machine without `sync` runs unflushed (said
/// once on stderr).
fn flush_dirty_pages() {
    static WARNED: std::sync::Once = std::sync::Once::new();
    let synced = std::process::Command::new("sync")
        .status()
        .is_ok_and(|s| s.success());
    if !synced {
        WARNED.call_once(|| {
            eprintln!("l10n_speed: `sync` failed; runs are not flushed between engines")
        });
    }
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v.get(v.len() / 2).copied().unwrap_or(f64::NAN)
}

fn table(inputs: &[Input], samples: &mut BTreeMap<(&'static str, String), Vec<f64>>) -> String {
    let mut out = String::from(
        "\n| input | MB | html5ever-tok MB/s | extract MB/s | merge MB/s | extract ÷ html5ever | merge ÷ html5ever |\n|---|---:|---:|---:|---:|---:|---:|\n",
    );
    for input in inputs {
        let mb = input.bytes as f64 / 1e6;
        let mut rate = |engine: &'static str| {
            samples
                .get_mut(&(engine, input.name.clone()))
                .map_or(f64::NAN, |v| mb / median(v))
        };
        let (tok, extract, merge) = (rate("html5ever-tok"), rate("extract"), rate("merge"));
        let _ = writeln!(
            out,
            "| {} | {mb:.1} | {tok:.1} | {extract:.1} | {merge:.1} | {:.2}× | {:.2}× |",
            input.name,
            extract / tok,
            merge / tok
        );
    }
    out
}

/// Copies every `<source>` of an XLIFF file into a `<target>` after it, with `» `
/// in front: a file whose every unit is translated, for timing the merge.
fn translate(input: &Path, out: &Path) -> Result<(), String> {
    let text = std::fs::read_to_string(input).map_err(|e| format!("{}: {e}", input.display()))?;
    let mut result = String::with_capacity(text.len() * 2);
    let mut rest = text.as_str();
    while let Some(open) = rest.find("<source>") {
        let Some(close) = rest[open..].find("</source>").map(|c| open + c) else {
            break;
        };
        let content = &rest[open + "<source>".len()..close];
        let end = close + "</source>".len();
        result.push_str(&rest[..end]);
        result.push_str("<target>\u{bb} ");
        result.push_str(content);
        result.push_str("</target>");
        rest = &rest[end..];
    }
    result.push_str(rest);
    std::fs::write(out, result).map_err(|e| format!("{}: {e}", out.display()))
}

/// Writes one well-formed page of about `bytes` bytes: a head, then numbered
/// sections mixing what real pages have (headings, paragraphs with inline markup
/// and entities, lists, tables, figures with alt text, comments, navigation,
/// code and scripts that are not extracted).
fn generate(out: &Path, bytes: u64) -> Result<(), String> {
    use std::io::Write as _;
    let file = std::fs::File::create(out).map_err(|e| format!("{}: {e}", out.display()))?;
    let mut w = std::io::BufWriter::with_capacity(1 << 20, file);
    let io = |e: std::io::Error| format!("{}: {e}", out.display());
    write!(
        w,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n\
         <title>Generated page for the localization bench</title>\n\
         <meta name=\"description\" content=\"A long page made of numbered sections.\">\n\
         <style>body {{ font-family: sans-serif; }}</style>\n</head>\n<body>\n"
    )
    .map_err(io)?;
    let mut written = 0u64;
    let mut n = 0u64;
    let mut section = String::with_capacity(4096);
    while written < bytes {
        n += 1;
        section.clear();
        let _ = write!(
            section,
            "<section id=\"s{n}\">\n<h2>Section {n}: what the &amp; sign means</h2>\n\
             <!-- section {n} starts here -->\n\
             <p>This is paragraph {n} with <b>bold</b>, <i>italic</i> and a \
             <a href=\"/page/{n}\" title=\"Page {n}\">link to page {n}</a>.\n\
             It spans two lines &mdash; and has an entity &copy; 2026.</p>\n\
             <ul>\n<li>First item of list {n}</li>\n<li>Second item, with <code>code()</code></li>\n\
             <li>Third item: caf\u{e9}, na\u{ef}ve, \u{65e5}\u{672c}\u{8a9e}</li>\n</ul>\n\
             <table>\n<tr><th>Name</th><th>Value</th></tr>\n\
             <tr><td>Row {n}</td><td>{v}</td></tr>\n</table>\n\
             <figure><img src=\"/img/{n}.png\" alt=\"Picture number {n}\">\
             <figcaption>Caption of figure {n}.</figcaption></figure>\n\
             <nav><a href=\"#s{prev}\">Previous</a> | <a href=\"#s{next}\">Next</a></nav>\n\
             <pre>  preformatted   text {n}\n  keeps its spaces</pre>\n\
             <script>var section = {n};</script>\n\
             <div class=\"note\">A note without a paragraph, {n}.<br>Second line.</div>\n\
             </section>\n",
            v = n * 7,
            prev = n.saturating_sub(1),
            next = n + 1
        );
        w.write_all(section.as_bytes()).map_err(io)?;
        written += section.len() as u64;
    }
    w.write_all(b"</body>\n</html>\n").map_err(io)?;
    w.flush().map_err(io)
}
