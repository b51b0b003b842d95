//! `tagloom parse FILE`: the full parse (decoder → tokenizer → tree builder) and its
//! result as an html5lib tree dump, serialized HTML, or the `DomPatch` stream.
//!
//! Patches are applied to a `DomStore` as they come, so every batch is checked
//! against the patch protocol's invariants; `--format patches` prints each patch as
//! soon as its batch is produced.
//!
//! The input is read and pushed a piece at a time (64 KiB, or `--chunk-size`), so
//! memory follows the tree (the `DomStore`), not the input's bytes.
//!
//! `--errors` lists every parse error (tokenizer and tree construction, in source
//! order) on standard error as it is found, one line each: `line:col: code`, or a
//! JSON object with `--errors=json`.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::PathBuf;

use anyhow::{Context, Result, bail};
use tagloom_html::dom::{self, DomStore};
use tagloom_html::dom_patch::{DomPatch, Namespace};
use tagloom_html::driver::{DriveError, Driver, ParseConfig};
use tagloom_html::serializer::{FragmentOptions, children_to_string};
use tagloom_html::session::{BatchPolicy, SessionConfig};
use tagloom_html::tree_builder::{FragmentContext, TreeBuilderConfig};
use tagloom_html::{ErrorCode, ParseError, PatchBatch};

use crate::input::{DEFAULT_PIECE, encoding_for_label, open, sniffing, warn_if_guessed};
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

/// How `--errors` prints each parse error.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum ErrorsFormat {
    /// `line:col: code`.
    Text,
    /// `{"line":…,"col":…,"offset":…,"code":"…","stage":"tokenizer"|"tree"}`.
    Json,
}

/// The scripting flag: on or off; `execute` also runs the inline scripts.
#[derive(Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Switch {
    On,
    Off,
    /// Scripting on, and the inline scripts run at `</script>` (boa; needs a
    /// build with the `scripting` feature).
    Execute,
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
    /// The scripting flag (affects `<noscript>`); `execute` also runs the
    /// document's inline scripts (a build with the `scripting` feature).
    #[arg(long, value_enum, default_value = "on")]
    scripting: Switch,
    /// Feed the input N bytes at a time (the result must not change).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    chunk_size: Option<u64>,
    /// The document's encoding (a WHATWG label), instead of sniffing it (only a BOM
    /// overrides it). Without it, a document that declares nothing is guessed.
    #[arg(long, value_name = "LABEL")]
    encoding: Option<String>,
    /// Parse `<?target data?>` as a processing instruction (the July 2026 spec)
    /// instead of a bogus comment (what html5lib-tests expect).
    #[arg(long)]
    processing_instructions: bool,
    /// List every parse error on standard error, in source order (`line:col: code`,
    /// or JSON lines with `--errors=json`); the output is unchanged.
    #[arg(
        long,
        value_enum,
        value_name = "FORMAT",
        num_args = 0..=1,
        require_equals = true,
        default_missing_value = "text"
    )]
    errors: Option<ErrorsFormat>,
}

pub fn run(args: &Args) -> Result<()> {
    let transport = args
        .encoding
        .as_deref()
        .map(encoding_for_label)
        .transpose()?;
    let fragment = args.fragment.as_deref().map(fragment_context).transpose()?;
    if args.scripting == Switch::Execute && fragment.is_some() {
        bail!(
            "--scripting execute parses documents, not fragments (scripts in a fragment never run)"
        );
    }
    let input = open(&args.file)?;
    let scripting = args.scripting != Switch::Off;
    let mut config = SessionConfig {
        tree: TreeBuilderConfig {
            scripting,
            ..TreeBuilderConfig::default()
        },
        decoder: sniffing(transport),
        // Patches are handed out (and applied) a few hundred at a time while the
        // parse runs, so memory never holds a whole document's patch stream.
        batching: BatchPolicy::Bounded(PATCHES_PER_BATCH),
        ..SessionConfig::default()
    };
    config.tokenizer.processing_instructions = args.processing_instructions;
    if args.scripting == Switch::Execute {
        return execute(args, config, input);
    }
    let config = ParseConfig {
        session: config,
        chunk_size: usize::MAX,
    };
    let mut driver = match fragment {
        Some(context) => Driver::new_fragment(&config, context),
        None => Driver::new(&config),
    };
    let mut store = DomStore::new();
    let mut out = output::stdout();
    let mut errors = args.errors.map(ErrorLister::new);
    let piece = args
        .chunk_size
        .map_or(DEFAULT_PIECE, |n| usize::try_from(n).unwrap_or(usize::MAX));
    let format = args.format;
    // Without `--format patches` nobody sees the batches: the driver applies its
    // own batches to the store (`push_into`, the cheaper path).
    let mut feed = |driver: &mut Driver, piece: Option<&[u8]>| -> Result<()> {
        let mut on_batch = |batch: PatchBatch| -> Result<()> {
            write_patches(&batch.patches, &mut out)?;
            store
                .apply_owned(batch)
                .context("internal error: the parser produced an invalid patch batch")
        };
        match (format == Format::Patches, piece) {
            (true, Some(piece)) => driver.push(piece, &mut on_batch).map_err(sink_error),
            (true, None) => driver.finish(&mut on_batch).map_err(sink_error),
            (false, Some(piece)) => driver.push_into(piece, &mut store).map_err(store_error),
            (false, None) => driver.finish_into(&mut store).map_err(store_error),
        }
    };
    input.stream(piece, |piece| {
        feed(&mut driver, Some(piece))?;
        if let Some(errors) = &mut errors {
            errors.write(&mut driver)?;
        }
        Ok(ControlFlow::Continue(()))
    })?;
    feed(&mut driver, None)?;
    if let Some(errors) = &mut errors {
        errors.write(&mut driver)?;
        errors.write_dropped(&driver)?;
    }
    let session = driver.session();
    warn_if_guessed(&args.file, session.decoder().sniffed());
    write_tree(
        args.format,
        &store,
        session.fragment_root_key(),
        scripting,
        &mut out,
    )
}

/// `--scripting execute`.
#[cfg(feature = "scripting")]
fn execute(args: &Args, config: SessionConfig, input: crate::input::Input) -> Result<()> {
    execute::run(args, config, input)
}

#[cfg(not(feature = "scripting"))]
fn execute(_: &Args, _: SessionConfig, _: crate::input::Input) -> Result<()> {
    bail!(
        "--scripting execute needs tagloom built with the `scripting` feature (cargo build --features scripting)"
    )
}

#[cfg(feature = "scripting")]
#[path = "parse_execute.rs"]
mod execute;

/// The tree as `--format` asks (no output for `patches` and `none`).
fn write_tree(
    format: Format,
    store: &DomStore,
    fragment_root: Option<tagloom_html::dom_patch::PatchKey>,
    scripting: bool,
    out: &mut impl Write,
) -> Result<()> {
    let root = match fragment_root {
        Some(key) => store.get(key),
        None => store.document(),
    };
    match format {
        Format::Html5lib => match fragment_root {
            Some(_) => out
                .write_all(root.map(dom::dump_children).unwrap_or_default().as_bytes())
                .context("cannot write the output")?,
            None => out
                .write_all(dom::dump_document(store).as_bytes())
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
    out.flush().context("cannot write the output")
}

/// The batch closure's own error as it was (a closed standard output must stay
/// recognizable); the driver's other errors as they are.
fn sink_error(err: DriveError<anyhow::Error>) -> anyhow::Error {
    match err {
        DriveError::Sink(err) => err,
        other => other.into(),
    }
}

/// A store's refusal of the driver's own batch is an engine bug; the driver's
/// other errors as they are.
fn store_error(err: tagloom_html::driver::ParseFailure) -> anyhow::Error {
    match err {
        DriveError::Sink(err) => anyhow::Error::new(err)
            .context("internal error: the parser produced an invalid patch batch"),
        other => other.into(),
    }
}

/// `--errors`: writes the errors the driver has settled to standard error.
struct ErrorLister {
    format: ErrorsFormat,
    /// Tree-construction errors listed (the rest of the count was over the limit).
    tree_listed: usize,
}

impl ErrorLister {
    fn new(format: ErrorsFormat) -> Self {
        ErrorLister {
            format,
            tree_listed: 0,
        }
    }

    fn write(&mut self, driver: &mut Driver) -> Result<()> {
        let errors = driver.take_errors();
        if errors.is_empty() {
            return Ok(());
        }
        let mut err = std::io::stderr().lock();
        for error in &errors {
            self.tree_listed += usize::from(error.code.is_tree_construction());
            writeln!(err, "{}", self.line(error)).context("cannot write standard error")?;
        }
        Ok(())
    }

    fn line(&self, error: &ParseError) -> String {
        let ParseError {
            code,
            offset,
            line,
            col,
        } = *error;
        match self.format {
            ErrorsFormat::Text => format!("{line}:{col}: {}", code.as_str()),
            ErrorsFormat::Json => format!(
                r#"{{"line":{line},"col":{col},"offset":{offset},"code":"{}","stage":"{}"}}"#,
                code.as_str(),
                stage(code)
            ),
        }
    }

    /// Says how many errors were over the limit held between two listings.
    fn write_dropped(&self, driver: &Driver) -> Result<()> {
        let session = driver.session();
        let dropped = session.tokenizer().errors_dropped()
            + session
                .tree_builder()
                .error_count()
                .saturating_sub(self.tree_listed);
        if dropped > 0 {
            eprintln!("tagloom: {dropped} more parse errors, over the limit held, not listed");
        }
        Ok(())
    }
}

fn stage(code: ErrorCode) -> &'static str {
    if code.is_tree_construction() {
        "tree"
    } else {
        "tokenizer"
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
