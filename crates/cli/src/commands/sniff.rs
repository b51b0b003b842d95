//! `tagloom sniff FILE [--transport-charset LABEL]`: the WHATWG name of the encoding
//! the encoding sniffing algorithm picks (BOM, transport charset, `<meta>` prescan,
//! then the `<meta>` the tree builder would act on while the confidence is tentative,
//! else windows-1252).

use std::path::PathBuf;

use anyhow::Result;
use tagloom_html::decoder::sniff_document;

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
    if let Some(label) = &args.transport_charset {
        encoding_for_label(label)?;
    }
    let bytes = read_all(&args.file)?;
    let sniffed = sniff_document(&bytes, args.transport_charset.as_deref());
    println!("{}", sniffed.encoding.name());
    Ok(())
}
