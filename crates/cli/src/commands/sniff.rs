//! `tagloom sniff FILE [--transport-charset LABEL]`: the WHATWG name of the encoding
//! the parser ends up using: the sniffing algorithm (BOM, transport charset, `<meta>`
//! prescan, else windows-1252), then, while the confidence is tentative, "change the
//! encoding" for the first `<meta>` the tree builder meets (found by the real parse).
//!
//! The input is read in pieces and reading stops as soon as the answer is final (see
//! `EncodingSniffer::push`): at a `<meta>` the tree builder honours, right away for a
//! BOM or `--transport-charset`, and after the restart window (1 MiB) otherwise.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;

use anyhow::{Context, Result};
use tagloom_html::decoder::DecoderConfig;
use tagloom_html::sniff::EncodingSniffer;

use crate::input::{DEFAULT_PIECE, encoding_for_label, open};
use crate::output;

/// Options of `tagloom sniff`.
#[derive(clap::Args)]
pub struct Args {
    /// The document (`-` for standard input).
    file: PathBuf,
    /// The charset the transport layer declared (e.g. an HTTP Content-Type charset).
    #[arg(long, value_name = "LABEL")]
    transport_charset: Option<String>,
}

pub fn run(args: &Args) -> Result<()> {
    let transport = args
        .transport_charset
        .as_deref()
        .map(encoding_for_label)
        .transpose()?;
    let input = open(&args.file)?;
    let mut sniffer = EncodingSniffer::new(DecoderConfig {
        transport,
        ..DecoderConfig::default()
    });
    input.stream(DEFAULT_PIECE, |piece| {
        Ok(if sniffer.push(piece) {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        })
    })?;
    let sniffed = sniffer.finish();
    let mut out = output::stdout();
    writeln!(out, "{}", sniffed.encoding.name()).context("cannot write the output")?;
    out.flush().context("cannot write the output")?;
    Ok(())
}
