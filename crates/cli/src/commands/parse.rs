//! `tagloom parse FILE`: the full parse (decoder → tokenizer → tree builder) and its
//! result as an html5lib tree dump, serialized HTML, or the `DomPatch` stream.
//!
//! Patches are applied to a `DomStore` as they come, so every batch is checked
//! against the patch protocol's invariants; `--format patches` prints each patch as
//! soon as its batch is produced.
//!
//! The input is read and pushed a piece at a time (64 KiB, or `--chunk-size`), so
//! memory follows the tree (the `DomStore`), not the input's bytes.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use tagloom_html::decoder::DecoderConfig;
use tagloom_html::dom::{self, DomStore};
use tagloom_html::dom_patch::{DomPatch, Namespace};
use tagloom_html::serializer::{FragmentOptions, children_to_string};
use tagloom_html::session::{BatchPolicy, Html5ParseSession, PumpStatus, SessionConfig};
use tagloom_html::tree_builder::{FragmentContext, TreeBuilderConfig};

use crate::input::{DEFAULT_PIECE, encoding_for_label, open};
use crate::output;

/// How many patches a batch holds at most. The session reserves a whole batch up
/// front (80 bytes a patch), so this is 40 KB, not 320 KB as 4,096 was (the bench
/// driver, `tagloom_bench::BATCH_PATCHES`, uses 256).
const PATCHES_PER_BATCH: usize = 512;

/// What to print.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// The html5lib tree-construction dump (`| <html>` lines, two spaces a level).
    Html5lib,
    /// The tree serialized per the HTML fragment serialization algorithm.
    Html,
    /// One JSON object per DomPatch, a line each.
    Patches,
    /// Nothing (for timing).
    None,
}

/// On or off.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Switch {
    On,
    Off,
}

/// Options of `tagloom parse`.
#[derive(clap::Args)]
pub struct Args {
    /// The document (`-` for standard input).
    file: PathBuf,
    /// Output format.
    #[arg(long, value_enum, default_value = "html5lib")]
    format: Format,
    /// Parse as a fragment in this context element, written as html5lib writes it:
    /// `td`, `svg path`, `math mi`.
    #[arg(long, value_name = "CONTEXT")]
    fragment: Option<String>,
    /// The scripting flag (affects `<noscript>`).
    #[arg(long, value_enum, default_value = "on")]
    scripting: Switch,
    /// Feed the input N bytes at a time (the result must not change).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    chunk_size: Option<u64>,
    /// The document's encoding (a WHATWG label), instead of sniffing it.
    #[arg(long, value_name = "LABEL")]
    encoding: Option<String>,
}

pub fn run(args: &Args) -> Result<()> {
    let transport = args
        .encoding
        .as_deref()
        .map(encoding_for_label)
        .transpose()?;
    let fragment = args.fragment.as_deref().map(fragment_context).transpose()?;
    let input = open(&args.file)?;
    let scripting = args.scripting == Switch::On;
    let config = SessionConfig {
        tree: TreeBuilderConfig {
            scripting,
            ..TreeBuilderConfig::default()
        },
        decoder: DecoderConfig {
            transport,
            ..DecoderConfig::default()
        },
        // Patches are handed out (and applied) a few hundred at a time while the
        // parse runs, so memory never holds a whole document's patch stream.
        batching: BatchPolicy::Bounded(PATCHES_PER_BATCH),
        ..SessionConfig::default()
    };
    let mut session = match fragment {
        Some(context) => Html5ParseSession::new_fragment(config, context),
        None => Html5ParseSession::new(config),
    };
    let mut store = DomStore::new();
    let mut out = output::stdout();
    let piece = args
        .chunk_size
        .map_or(DEFAULT_PIECE, |n| usize::try_from(n).unwrap_or(usize::MAX));
    input.stream(piece, |piece| {
        session.push_bytes(piece)?;
        let status = session.pump()?;
        drive(&mut session, status, &mut store, args.format, &mut out)?;
        Ok(ControlFlow::Continue(()))
    })?;
    let status = session.finish()?;
    drive(&mut session, status, &mut store, args.format, &mut out)?;
    let root = match session.fragment_root_key() {
        Some(key) => store.get(key),
        None => store.document(),
    };
    match args.format {
        Format::Html5lib => match session.fragment_root_key() {
            Some(_) => out
                .write_all(root.map(dom::dump_children).unwrap_or_default().as_bytes())
                .context("cannot write the output")?,
            None => out
                .write_all(dom::dump_document(&store).as_bytes())
                .context("cannot write the output")?,
        },
        Format::Html => {
            let html = root
                .map(|node| children_to_string(node, FragmentOptions { scripting }))
                .unwrap_or_default();
            writeln!(out, "{html}").context("cannot write the output")?;
        }
        Format::Patches | Format::None => {}
    }
    out.flush().context("cannot write the output")?;
    Ok(())
}

/// Applies (and, for `--format patches`, prints) every ready batch, pumping on while
/// the session stops for a full batch or at a `</script>` (no scripts run here).
fn drive(
    session: &mut Html5ParseSession,
    mut status: PumpStatus,
    store: &mut DomStore,
    format: Format,
    out: &mut impl Write,
) -> Result<()> {
    loop {
        for batch in session.take_batches() {
            if format == Format::Patches {
                write_patches(&batch, out)?;
            }
            store
                .apply_owned(batch)
                .context("internal error: the parser produced an invalid patch batch")?;
        }
        match status {
            PumpStatus::Suspended(_) => status = session.pump()?,
            PumpStatus::NeedInput | PumpStatus::Finished => return Ok(()),
        }
    }
}

fn write_patches(batch: &[DomPatch], out: &mut impl Write) -> Result<()> {
    for patch in batch {
        writeln!(out, "{}", patch.json()).context("cannot write the output")?;
    }
    Ok(())
}

/// `td` → (HTML, "td"); `svg path` → (SVG, "path"); `math mi` → (MathML, "mi").
fn fragment_context(spec: &str) -> Result<FragmentContext> {
    let mut words = spec.split_whitespace();
    let (ns, name) = match (words.next(), words.next(), words.next()) {
        (Some("svg"), Some(name), None) => (Namespace::Svg, name),
        (Some("math"), Some(name), None) => (Namespace::MathMl, name),
        (Some(name), None, None) => (Namespace::Html, name),
        _ => bail!(
            "--fragment takes a context element such as `td`, `svg path` or `math mi`, not {spec:?}"
        ),
    };
    Ok(FragmentContext::new(ns, name))
}
