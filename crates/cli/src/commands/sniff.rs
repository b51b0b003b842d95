//! `tagloom sniff FILE [--transport-charset LABEL]`: the WHATWG name of the encoding
//! the parser ends up using: the sniffing algorithm (BOM, transport charset, `<meta>`
//! prescan, else windows-1252), then, while the confidence is tentative, "change the
//! encoding" for the first `<meta>` the tree builder meets (found by the real parse).

use std::path::PathBuf;

use anyhow::Result;
use tagloom_html::sniff::sniff_encoding;

use crate::input::{encoding_for_label, read_all};

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
    let bytes = read_all(&args.file)?;
    let sniffed = sniff_encoding(&bytes, transport);
    println!("{}", sniffed.encoding.name());
    Ok(())
}
