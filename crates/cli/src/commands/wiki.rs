//! `tagloom wiki IN [--templates DIR] [--title T] [--time RFC3339] [-o OUT]`:
//! wikitext to Parsoid-style HTML (`tagloom_wikitext::render`).
//!
//! IN is a page's wikitext (`-`: standard input), UTF-8. The output is the HTML
//! of the page's `<body>` (`-o -` or no `-o`: standard output). `--templates`
//! names the wiki's pages: a directory (one file per title, percent-encoded, see
//! `tagloom_wikitext::preprocess::DirStore`) or an XML dump (`DumpStore`);
//! templates expand from it and links to pages it lacks are red. `--time` is the
//! clock of date and time magic words (default: the Unix epoch).

use std::path::PathBuf;
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use tagloom_wikitext::preprocess::{Clock, DirStore, DumpStore, PageStore};
use tagloom_wikitext::{RenderOptions, render};

use crate::batch;
use crate::input::read_all;

/// Options of `tagloom wiki`.
#[derive(clap::Args)]
pub struct Args {
    /// The page's wikitext, or `-` for standard input.
    input: PathBuf,
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
    /// Where to write (`-`: standard output, the default).
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
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
    let bytes = read_all(&args.input)?;
    let Ok(wikitext) = String::from_utf8(bytes) else {
        bail!("{} is not UTF-8", args.input.display());
    };
    let html = render(&wikitext, &options)
        .with_context(|| format!("cannot render {}", args.input.display()))?;
    batch::write_text(args.output.as_deref(), &html)
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
