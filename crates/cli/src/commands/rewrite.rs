//! `tagloom rewrite IN --rules FILE [-o OUT]`: the streaming rewriter
//! (`tagloom_transform::rewrite`) driven by a rules file.
//!
//! Rules (read by `tagloom_transform::rewrite::Rules`) are a JSON list; each rule
//! has a selector and actions run in order on every element it matches:
//!
//! ```json
//! [
//!   { "select": "a[href^='http']", "actions": [ { "set_attr": ["rel", "nofollow"] } ] },
//!   { "select": "script, iframe", "actions": [ { "remove": true } ] },
//!   { "select": "font", "actions": [ { "unwrap": true } ] },
//!   { "select": "b", "actions": [ { "rename": "strong" } ] },
//!   { "select": "img:not([alt])", "actions": [ { "set_attr": ["alt", ""] } ] },
//!   { "select": "body", "actions": [ { "append": { "html": "<footer>x</footer>" } } ] }
//! ]
//! ```
//!
//! Actions: `set_attr` [name, value], `remove_attr` name, `remove` true, `unwrap`
//! true (remove the tags, keep the content), `rename` name, and `before`, `after`,
//! `prepend`, `append`, `replace`, `set_inner` with text (a string, escaped) or
//! `{"html": "…"}` (markup as is).
//!
//! IN and OUT may be `-` (standard input / output). The input is streamed in 64 KiB
//! pieces; an output file is written beside its destination and renamed into place
//! only when the rewrite succeeded (no partial output). A directory IN needs `-o
//! DIR`: every `.html`/`.htm` file below it is rewritten into the same place under
//! DIR, in parallel, with a progress bar on a terminal.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, bail};
use tagloom_transform::rewrite::{IoSink, Rewriter, Rules, Settings};

use crate::batch;
use crate::input::{DEFAULT_PIECE, open};

/// Options of `tagloom rewrite`.
#[derive(clap::Args)]
pub struct Args {
    /// The document (`-` for standard input), or a directory of them.
    input: PathBuf,
    /// The rules: a JSON list of `{"select": SELECTOR, "actions": [...]}`.
    #[arg(long)]
    rules: PathBuf,
    /// Where to write (`-`, the default, for standard output; a directory when IN is one).
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
    /// The largest tag, comment or DOCTYPE accepted, in bytes.
    #[arg(long, default_value_t = Settings::default().max_token_bytes)]
    max_token_bytes: usize,
}

pub fn run(args: &Args) -> Result<()> {
    let rules = load_rules(&args.rules)?;
    let settings = Settings {
        max_token_bytes: args.max_token_bytes,
        ..Settings::default()
    };
    if args.input.is_dir() {
        if args.output.as_os_str() == "-" {
            bail!("a directory input needs -o DIR");
        }
        return batch::run_dir(&args.input, &args.output, false, |src, dest| {
            batch::write_to(Some(dest), |out| {
                rewrite_stream(src, out, &rules, &settings)
            })
        });
    }
    batch::write_to(Some(&args.output), |out| {
        rewrite_stream(&args.input, out, &rules, &settings)
    })
}

/// Rewrites `input` (a file or `-`) into `out`.
fn rewrite_stream(
    input: &Path,
    out: &mut dyn Write,
    rules: &Rules,
    settings: &Settings,
) -> Result<()> {
    let input = open(input)?;
    let mut rw = Rewriter::new(rules.handlers()?, settings.clone(), IoSink(out));
    input.stream(DEFAULT_PIECE, |piece| {
        rw.write(piece).context("rewrite")?;
        Ok(ControlFlow::Continue(()))
    })?;
    rw.end().context("rewrite")?;
    Ok(())
}

fn load_rules(path: &Path) -> Result<Rules> {
    let text = std::fs::read_to_string(path)
        .with_context(|| format!("cannot read rules {}", path.display()))?;
    Rules::from_json(&text).with_context(|| format!("rules {}", path.display()))
}
