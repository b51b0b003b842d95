//! `tagloom sniff FILE [--transport-charset LABEL]`: the WHATWG name of the encoding
//! the parser ends up using: the sniffing algorithm (BOM, transport charset, `<meta>`
//! prescan, else windows-1252), then, while the confidence is tentative, "change the
//! encoding" for the first `<meta>` the tree builder meets (found by the real parse).
//!
//! The input is read in pieces and reading stops as soon as the answer is final (see
//! `EncodingSniffer::push`): at a `<meta>` the tree builder honours, right away for a
//! BOM or `--transport-charset`, and after the restart window (1 MiB) otherwise.
//!
//! A document that declares nothing gets a guess from its bytes (the sniffing
//! algorithm's optional step 8, as every command that sniffs does); the guess is
//! printed like any answer, and a warning on standard error says it was one. An
//! all-ASCII document keeps windows-1252, as html5lib-tests expect.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;

use anyhow::{Context, Result};
use tagloom_html::sniff::EncodingSniffer;

use crate::input::{DEFAULT_PIECE, encoding_for_label, open, sniffing, warn_if_guessed};
use crate::output;

/// Options of `tagloom sniff`.
#[derive(clap::Args)]
pub struct Args {
    /// The document (`-` for standard input).
    file: PathBuf,
    /// The charset the transport layer declared (e.g. an HTTP Content-Type charset);
    /// `--encoding` is the same. Only a BOM overrides it.
    #[arg(long, value_name = "LABEL", alias = "encoding")]
    transport_charset: Option<String>,
}

pub fn run(args: &Args) -> Result<()> {
    let transport = args
        .transport_charset
        .as_deref()
        .map(encoding_for_label)
        .transpose()?;
    let input = open(&args.file)?;
    let mut sniffer = EncodingSniffer::new(sniffing(transport));
    input.stream(DEFAULT_PIECE, |piece| {
        Ok(if sniffer.push(piece) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        })
    })?;
    let sniffed = sniffer.finish();
    // Standard output stays the bare name (the conformance interface).
    warn_if_guessed(&args.file, Some(sniffed));
    let mut out = output::stdout();
    writeln!(out, "{}", sniffed.encoding.name()).context("cannot write the output")?;
    out.flush().context("cannot write the output")?;
    Ok(())
}
