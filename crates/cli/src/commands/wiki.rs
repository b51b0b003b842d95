//! `tagloom wiki IN [--templates DIR] [--title T] [--time RFC3339] [-o OUT]`:
//! wikitext to Parsoid-style HTML (`tagloom_wikitext::render`); and
//! `tagloom wiki --dump DUMP.xml[.bz2] -o DIR [--time RFC3339]`: every page of a
//! MediaWiki XML dump.
//!
//! IN is a page's wikitext (`-`: standard input), UTF-8. The output is the HTML
//! of the page's `<body>` (`-o -` or no `-o`: standard output). `--templates`
//! names the wiki's pages: a directory (one file per title, percent-encoded, see
//! `tagloom_wikitext::preprocess::DirStore`) or an XML dump (`DumpStore`);
//! templates expand from it and links to pages it lacks are red. `--time` is the
//! clock of date and time magic words (default: the Unix epoch).
//!
//! A dump run reads the dump for its titles (links to others are red) and
//! templates (`DumpStore`), keeping the pages in memory while their text stays
//! within `--keep-mb` (default 1024 MB), then renders them in parallel (rayon),
//! each into `DIR/<title>.html`, the title percent-encoded as the `--templates
//! DIR` files are named (`DirStore::file_name`: `Template:A/b c` →
//! `Template%3AA%2Fb_c.html`). A larger dump is read a second time, streamed
//! (`DumpReader`), instead of being held. Multistream `.bz2` dumps decompress in
//! parallel (`DumpReader`); the thread count is rayon's (`RAYON_NUM_THREADS`).
//! A progress bar shows when standard error is a terminal. A page that fails is
//! reported on one line (`tagloom: error: TITLE: why`) and the run goes on; the
//! summary (`wiki: N page(s), N error(s), X MB in S s, X MB/s`) follows, and the
//! exit status is 2 if any page failed, as directory runs of other commands.

use std::io::{IsTerminal, Write};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Instant;

use anyhow::{Context, Result, anyhow, bail};
use rayon::iter::{IntoParallelRefIterator, ParallelBridge, ParallelIterator};
use tagloom_wikitext::preprocess::{
    Clock, DirStore, DumpPage, DumpReader, DumpStore, NS_MAIN, NS_TEMPLATE, PageStore, Title,
};
use tagloom_wikitext::{RenderOptions, render};

use crate::batch;
use crate::input::read_all;

/// Options of `tagloom wiki`.
#[derive(clap::Args)]
pub struct Args {
    /// The page's wikitext, or `-` for standard input.
    #[arg(required_unless_present = "dump")]
    input: Option<PathBuf>,
    /// Render every page of this MediaWiki XML dump (`.xml`, `.xml.bz2`) into
    /// the directory `-o` names, one `<percent-encoded title>.html` per page;
    /// templates come from the same dump.
    #[arg(long, value_name = "DUMP", conflicts_with_all = ["input", "templates", "title"])]
    dump: Option<PathBuf>,
    /// The wiki's pages (templates; links to others are red): a directory of
    /// files named by percent-encoded title, or a MediaWiki XML dump (`.xml`,
    /// `.xml.bz2`).
    #[arg(long, value_name = "DIR|DUMP")]
    templates: Option<PathBuf>,
    /// The page's title.
    #[arg(long, value_name = "T", default_value = "Main Page")]
    title: String,
    /// The time magic words see, RFC 3339 (e.g. 1970-01-01T00:02:03Z).
    #[arg(long, value_name = "RFC3339", value_parser = parse_time)]
    time: Option<Clock>,
    /// Where to write (`-`: standard output, the default); with `--dump`, the
    /// output directory (required).
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
    /// With `--dump`: the most page text (MB) held in memory so the dump is
    /// read once; a dump with more is read twice (0: always twice).
    #[arg(long, value_name = "MB", default_value_t = 1024, requires = "dump")]
    keep_mb: u64,
}

/// An RFC 3339 date-time, as the preprocessor's clock reads it.
fn parse_time(s: &str) -> Result<Clock, String> {
    Clock::parse_rfc3339(s)
        .ok_or_else(|| format!("{s:?} is not an RFC 3339 date-time (like 1970-01-01T00:02:03Z)"))
}

pub fn run(args: &Args) -> Result<()> {
    let mut options = RenderOptions {
        title: args.title.clone(),
        ..RenderOptions::default()
    };
    if let Some(clock) = args.time {
        options.preprocess.clock = clock;
    }
    let input = match (&args.input, &args.dump) {
        (_, Some(dump)) => {
            let keep =
                usize::try_from(args.keep_mb.saturating_mul(1_000_000)).unwrap_or(usize::MAX);
            return run_dump(dump, args.output.as_deref(), options, keep);
        }
        (Some(input), None) => input,
        // clap requires one of them.
        (None, None) => bail!("an input file or --dump is required"),
    };
    let site = options.preprocess.site.clone();
    options.store = match &args.templates {
        Some(path) if path.is_dir() => Some(Arc::new(
            DirStore::open(path, &site)
                .with_context(|| format!("cannot read the pages in {}", path.display()))?,
        ) as Arc<dyn PageStore>),
        Some(path) => Some(Arc::new(
            DumpStore::open(path, &site)
                .with_context(|| format!("cannot read the dump {}", path.display()))?,
        ) as Arc<dyn PageStore>),
        None => None,
    };
    let bytes = read_all(input)?;
    let Ok(wikitext) = String::from_utf8(bytes) else {
        bail!("{} is not UTF-8", input.display());
    };
    let html = render(&wikitext, &options)
        .with_context(|| format!("cannot render {}", input.display()))?;
    batch::write_text(args.output.as_deref(), &html)
}

/// `--dump DUMP -o DIR`: every page of the dump, in parallel (see the module
/// documentation); `keep`: the most page text held to read the dump once.
fn run_dump(
    dump: &Path,
    out_dir: Option<&Path>,
    mut options: RenderOptions,
    keep: usize,
) -> Result<()> {
    let Some(out_dir) = out_dir.filter(|p| !batch::is_stdio(p)) else {
        bail!("--dump needs an output directory (-o DIR)");
    };
    let started = Instant::now();
    let site = options.preprocess.site.clone();
    let cannot_read = || format!("cannot read the dump {}", dump.display());
    // One read: the store, and the pages while they fit in `keep`.
    let mut store = DumpStore::default();
    let mut pages: Option<Vec<DumpPage>> = Some(Vec::new());
    let mut held = 0usize;
    for page in DumpReader::open(dump).with_context(cannot_read)? {
        let page = page.with_context(cannot_read)?;
        store.add_page(&page, &site, |ns| ns == NS_TEMPLATE);
        held = held.saturating_add(page.text.len());
        if held > keep {
            pages = None;
        } else if let Some(pages) = &mut pages {
            pages.push(page);
        }
    }
    let total = store.len();
    options.store = Some(Arc::new(store) as Arc<dyn PageStore>);
    std::fs::create_dir_all(out_dir)
        .with_context(|| format!("cannot create {}", out_dir.display()))?;
    let bar = if std::io::stderr().is_terminal() {
        indicatif::ProgressBar::new(total as u64)
    } else {
        indicatif::ProgressBar::hidden()
    };
    let bytes = AtomicU64::new(0);
    let one = |page: Result<&DumpPage, String>| {
        let result = page.and_then(|page| {
            bytes.fetch_add(page.text.len() as u64, Ordering::Relaxed);
            render_page(page, out_dir, &options).map_err(|e| format!("{}: {e:#}", page.title))
        });
        bar.inc(1);
        result.err()
    };
    let mut failures: Vec<String> = match &pages {
        Some(pages) => pages.par_iter().filter_map(|p| one(Ok(p))).collect(),
        None => DumpReader::open(dump)
            .with_context(cannot_read)?
            .par_bridge()
            .filter_map(|page| match page {
                Ok(page) => one(Ok(&page)),
                Err(e) => one(Err(format!("{}: {e}", dump.display()))),
            })
            .collect(),
    };
    bar.finish_and_clear();
    failures.sort();
    let pages = bar.position();
    let elapsed = started.elapsed().as_secs_f64();
    let mb = bytes.load(Ordering::Relaxed) as f64 / 1e6;
    let mut stderr = std::io::stderr().lock();
    for failure in &failures {
        let _ = writeln!(stderr, "tagloom: error: {}", failure.replace('\n', " "));
    }
    let _ = writeln!(
        stderr,
        "wiki: {pages} page(s), {} error(s), {mb:.2} MB in {elapsed:.2} s, {:.2} MB/s",
        failures.len(),
        if elapsed > 0.0 { mb / elapsed } else { 0.0 },
    );
    if !failures.is_empty() {
        bail!("{} of {pages} pages failed", failures.len());
    }
    Ok(())
}

/// Renders one page of a dump into `out_dir`; a panic in the renderer is this
/// page's error, not the run's end.
fn render_page(page: &DumpPage, out_dir: &Path, options: &RenderOptions) -> Result<()> {
    let title = Title::parse(&page.title, NS_MAIN, &options.preprocess.site)
        .map_err(|e| anyhow!("invalid title: {e}"))?;
    let options = RenderOptions {
        title: title.prefixed(),
        ..options.clone()
    };
    let html = catch_unwind(AssertUnwindSafe(|| render(&page.text, &options)))
        .map_err(|_| anyhow!("the renderer panicked (a bug; please report it)"))?
        .context("cannot render")?;
    let dest = out_dir.join(format!("{}.html", DirStore::file_name(&title)));
    batch::write_text(Some(&dest), &html)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times() {
        assert!(parse_time("1970-01-01T00:02:03Z").is_ok());
        assert_eq!(parse_time("1970-01-01T00:02:03Z"), Ok(Clock::at(123)));
        assert!(parse_time("1970-01-01").is_err());
        assert!(parse_time("1970-01-01T00:02:03").is_err());
    }
}
