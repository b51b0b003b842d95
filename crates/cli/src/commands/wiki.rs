//! `tagloom wiki IN [--templates DIR] [--title T] [--time RFC3339] [-o OUT]`:
//! wikitext to Parsoid-style HTML (`tagloom_wikitext::render`).
//!
//! IN is a page's wikitext (`-`: standard input), UTF-8. The output is the HTML
//! of the page's `<body>` (`-o -` or no `-o`: standard output). `--templates DIR`
//! names the directory of pages (one file per title, the title percent-encoded,
//! an extension such as `.wikitext` optional); until the preprocessor is wired
//! in, it only decides which links are red. `--time` is the clock for date and
//! time magic words (checked now, used once the preprocessor is wired in).

use std::path::{Path, PathBuf};
use std::sync::Arc;

use anyhow::{Context, Result, bail};
use tagloom_wikitext::{PageSet, RenderOptions, render};

use crate::batch;
use crate::input::read_all;

/// Options of `tagloom wiki`.
#[derive(clap::Args)]
pub struct Args {
    /// The page's wikitext, or `-` for standard input.
    input: PathBuf,
    /// The directory of pages (templates; which links are red).
    #[arg(long, value_name = "DIR")]
    templates: Option<PathBuf>,
    /// The page's title.
    #[arg(long, value_name = "T", default_value = "Main Page")]
    title: String,
    /// The time magic words see, RFC 3339 (e.g. 1970-01-01T00:02:03Z).
    #[arg(long, value_name = "RFC3339", value_parser = parse_time)]
    time: Option<String>,
    /// Where to write (`-`: standard output, the default).
    #[arg(short, long, value_name = "OUT")]
    output: Option<PathBuf>,
}

/// Checks the shape of an RFC 3339 date-time (`YYYY-MM-DDTHH:MM:SS`, optional
/// fraction, `Z` or `±HH:MM`).
fn parse_time(s: &str) -> Result<String, String> {
    let bad = || format!("{s:?} is not an RFC 3339 date-time (like 1970-01-01T00:02:03Z)");
    let b = s.as_bytes();
    let digits =
        |r: std::ops::Range<usize>| b.get(r).is_some_and(|d| d.iter().all(u8::is_ascii_digit));
    let shape = digits(0..4)
        && b.get(4) == Some(&b'-')
        && digits(5..7)
        && b.get(7) == Some(&b'-')
        && digits(8..10)
        && matches!(b.get(10), Some(b'T' | b't' | b' '))
        && digits(11..13)
        && b.get(13) == Some(&b':')
        && digits(14..16)
        && b.get(16) == Some(&b':')
        && digits(17..19);
    if !shape {
        return Err(bad());
    }
    let mut rest = s.get(19..).unwrap_or("");
    if let Some(frac) = rest.strip_prefix('.') {
        let n = frac.bytes().take_while(u8::is_ascii_digit).count();
        if n == 0 {
            return Err(bad());
        }
        rest = frac.get(n..).unwrap_or("");
    }
    let zone = rest.eq_ignore_ascii_case("z") || {
        let z = rest.as_bytes();
        z.len() == 6
            && matches!(z.first(), Some(b'+' | b'-'))
            && z.get(1..3)
                .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
            && z.get(3) == Some(&b':')
            && z.get(4..6)
                .is_some_and(|d| d.iter().all(u8::is_ascii_digit))
    };
    if zone { Ok(s.to_owned()) } else { Err(bad()) }
}

/// The titles of the pages in `dir`: file names percent-decoded, one extension
/// dropped.
fn pages_in(dir: &Path) -> Result<PageSet> {
    let mut pages = PageSet::default();
    let entries = std::fs::read_dir(dir)
        .with_context(|| format!("cannot read the directory {}", dir.display()))?;
    for entry in entries {
        let entry =
            entry.with_context(|| format!("cannot read the directory {}", dir.display()))?;
        let name = entry.file_name();
        let Some(name) = name.to_str() else { continue };
        let stem = name.rsplit_once('.').map_or(name, |(stem, _)| stem);
        pages.insert(&percent_decode(stem));
    }
    Ok(pages)
}

fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        let hex = b
            .get(i + 1..i + 3)
            .and_then(|h| std::str::from_utf8(h).ok())
            .and_then(|h| u8::from_str_radix(h, 16).ok());
        match (c, hex) {
            (b'%', Some(v)) => {
                out.push(v);
                i += 3;
            }
            _ => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

pub fn run(args: &Args) -> Result<()> {
    let pages = match &args.templates {
        Some(dir) if dir.is_dir() => Some(pages_in(dir)?),
        Some(dir) => bail!("{} is not a directory", dir.display()),
        None => None,
    };
    let bytes = read_all(&args.input)?;
    let Ok(wikitext) = String::from_utf8(bytes) else {
        bail!("{} is not UTF-8", args.input.display());
    };
    let options = RenderOptions {
        title: args.title.clone(),
        pages: pages.map(|p| Arc::new(p) as _),
        ..RenderOptions::default()
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
        assert!(parse_time("2024-02-29T12:00:00.5+01:00").is_ok());
        assert!(parse_time("1970-01-01").is_err());
        assert!(parse_time("1970-01-01T00:02:03").is_err());
    }

    #[test]
    fn titles_from_file_names() {
        assert_eq!(percent_decode("Template%3AFoo%20bar"), "Template:Foo bar");
    }
}
