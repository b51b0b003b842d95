//! `tagloom demo [FILE]`: sniff, decode, tokenize and parse a page and summarize what
//! the tokenizer and the tree builder saw — a quick look at a document, and a smoke test on a fresh machine
//! (with no FILE it uses a sample page built into the binary). The encoding is the one
//! `sniff` and `parse` find (`tagloom_html::sniff`, a late `<meta>` and a guess for
//! an undeclared page included), or `--encoding`.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};
use tagloom_html::decoder::{ByteStreamDecoder, Confidence, DecoderConfig, EncodingSource};
use tagloom_html::dom::{DomStore, NodeKind, NodeRef};
use tagloom_html::session::{Html5ParseSession, SessionConfig};
use tagloom_html::sniff::sniff_encoding_with;
use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
use tagloom_html::token::{OwnedToken, TokenKind};
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};

use crate::input::{encoding_for_label, read_all, sniffing, warn_if_guessed};
use crate::output;

/// The built-in sample page.
const SAMPLE: &[u8] = include_bytes!("../../samples/sample.html");

/// Options of `tagloom demo`.
#[derive(clap::Args)]
pub struct Args {
    /// A page to look at instead of the built-in sample (`-` for standard input).
    file: Option<PathBuf>,
    /// The page's encoding (a WHATWG label), instead of sniffing it (only a BOM
    /// overrides it).
    #[arg(long, value_name = "LABEL")]
    encoding: Option<String>,
}

pub fn run(args: &Args) -> Result<()> {
    let (name, bytes) = match &args.file {
        Some(path) => (path.display().to_string(), read_all(path)?),
        None => ("built-in sample page".to_owned(), SAMPLE.to_vec()),
    };
    let transport = args
        .encoding
        .as_deref()
        .map(encoding_for_label)
        .transpose()?;
    let config = sniffing(transport);
    let started = Instant::now();
    // The encoding the parser ends up with (a late <meta> included), as `sniff`
    // and `parse` find it; the tokens below are counted in that encoding.
    let sniffed = sniff_encoding_with(&bytes, config);
    if let Some(path) = &args.file {
        warn_if_guessed(path, Some(sniffed));
    }
    let mut decoder = ByteStreamDecoder::new(DecoderConfig::with_transport(sniffed.encoding));
    let mut text = String::new();
    decoder.push(&bytes, &mut text)?;
    decoder.finish(&mut text)?;
    let mut tokenizer = Tokenizer::new(TokenizerConfig::default());
    tokenizer.push_str(&text);
    tokenizer.finish();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut tags: BTreeMap<String, usize> = BTreeMap::new();
    let mut text_bytes = 0;
    // No tree builder here: the simulator says which tokenizer state it would ask
    // for. Tokens are the shared owned ones, as a transform pipeline sees them.
    let mut sim = TextTypeSimulator::new(SimulatorConfig::default());
    while let Some(token) = tokenizer.next_token()? {
        let token = token.to_owned();
        if let Some(state) = sim.process_owned(&token).switch {
            tokenizer.set_state(state.into());
        }
        tokenizer.set_cdata_allowed(sim.cdata_allowed());
        match &token {
            OwnedToken::StartTag(tag) => *tags.entry(tag.name().to_string()).or_default() += 1,
            OwnedToken::Characters(t) => text_bytes += t.text().len(),
            _ => {}
        }
        *counts.entry(label(token.kind())).or_default() += 1;
    }
    let elapsed = started.elapsed();
    let encoding = sniffed.encoding.name();
    let confidence = match (sniffed.confidence, sniffed.source) {
        (_, EncodingSource::Autodetected) => "tentative, guessed",
        (Confidence::Certain, _) => "certain",
        (Confidence::Tentative, _) => "tentative",
        (Confidence::Irrelevant, _) => "irrelevant",
    };
    let mut out = output::stdout();
    writeln!(
        out,
        "{name}: {} bytes, encoding {encoding} ({confidence})",
        bytes.len()
    )?;
    for (kind, n) in &counts {
        writeln!(out, "  {kind:12} {n}")?;
    }
    writeln!(out, "  text         {text_bytes} bytes")?;
    let mut top: Vec<_> = tags.into_iter().collect();
    top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let top: Vec<String> = top
        .iter()
        .take(8)
        .map(|(t, n)| format!("{t}×{n}"))
        .collect();
    writeln!(out, "  most used    {}", top.join(" "))?;
    writeln!(
        out,
        "  tokenized in {:.2} ms",
        elapsed.as_secs_f64() * 1000.0
    )?;
    tree_summary(&bytes, config, &mut out)?;
    out.flush().context("cannot write the output")
}

/// How the summary names a kind of token.
fn label(kind: TokenKind) -> &'static str {
    match kind {
        TokenKind::Doctype => "doctype",
        TokenKind::StartTag => "start tags",
        TokenKind::EndTag => "end tags",
        TokenKind::Comment => "comments",
        TokenKind::ProcessingInstruction => "processing instructions",
        TokenKind::Characters => "text runs",
        TokenKind::Eof => "end of file",
    }
}

/// Parses the page into a `DomStore` (through the patch stream) and describes the tree.
fn tree_summary(bytes: &[u8], decoder: DecoderConfig, out: &mut impl Write) -> Result<()> {
    let started = Instant::now();
    let config = tagloom_html::driver::ParseConfig {
        session: SessionConfig {
            decoder,
            ..SessionConfig::default()
        },
        chunk_size: usize::MAX,
    };
    let mut store = DomStore::new();
    let (mut batches, mut patches) = (0, 0);
    let session: Html5ParseSession = tagloom_html::driver::drive(bytes, &config, |batch| {
        batches += 1;
        patches += batch.len();
        store.apply_owned(batch)
    })?;
    let elapsed = started.elapsed();
    let (mut elements, mut texts, mut depth) = (0, 0, 0);
    // Depth-first over the tree, iteratively (documents can be deep).
    let mut stack: Vec<(NodeRef<'_>, usize)> =
        store.document().into_iter().map(|d| (d, 0)).collect();
    while let Some((node, level)) = stack.pop() {
        match node.kind() {
            NodeKind::Element(_) => elements += 1,
            NodeKind::Text(_) => texts += 1,
            _ => {}
        }
        depth = depth.max(level);
        stack.extend(node.children().map(|child| (child, level + 1)));
    }
    writeln!(
        out,
        "tree: {elements} elements, {texts} text nodes, depth {depth}, {:?} mode; {patches} patches in {batches} batches; {} tree-construction errors",
        store.quirks_mode(),
        session.tree_builder().error_count()
    )?;
    writeln!(
        out,
        "  parsed in    {:.2} ms",
        elapsed.as_secs_f64() * 1000.0
    )?;
    // The tokenizer errors of the real parse (the tree builder drives its states).
    let errors = session.tokenizer().errors();
    writeln!(out, "  tokenizer parse errors {}", errors.len())?;
    for e in errors.iter().take(5) {
        writeln!(out, "    {}:{} {}", e.line, e.col, e.code.as_str())?;
    }
    if let Some(body) = store.document().and_then(|d| find_html(d, "body")) {
        let outline: Vec<&str> = body
            .children()
            .filter_map(|c| c.as_element().map(|e| e.local_name()))
            .collect();
        writeln!(out, "  <body> holds {}", outline.join(" "))?;
    }
    Ok(())
}

/// The first HTML element named `name` in document order.
fn find_html<'a>(root: NodeRef<'a>, name: &str) -> Option<NodeRef<'a>> {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        if node.as_element().is_some_and(|e| e.is_html(name)) {
            return Some(node);
        }
        let children: Vec<_> = node.children().collect();
        stack.extend(children.into_iter().rev());
    }
    None
}
