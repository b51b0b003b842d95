//! The parse behind `tagloom.parse`, `parse_fragment` and `parse_many`: the same
//! settings as `tagloom parse` (sniffing with a statistical guess for a document
//! that declares nothing, the transport encoding only a BOM overrides), through
//! tagloom-html's [`Driver`] into a [`DomStore`].

use encoding_rs::Encoding;
use tagloom_html::batch::PatchBatch;
use tagloom_html::decoder::{Autodetect, DecoderConfig};
use tagloom_html::dom::DomStore;
use tagloom_html::dom_patch::{Namespace, PatchKey};
use tagloom_html::driver::{DriveError, Driver, ParseConfig};
use tagloom_html::session::{BYTES_PER_NODE, BatchPolicy, SessionConfig};
use tagloom_html::tokenizer::TokenizerConfig;
use tagloom_html::tree_builder::{FragmentContext, TreeBuilderConfig};

/// How many patches a batch holds at most (as `tagloom parse`).
const PATCHES_PER_BATCH: usize = 512;

/// The bytes pushed into the session at a time: the tree does not depend on it,
/// the decoded text held at once is bounded by it, and on the 20 MB concat the
/// parse runs 1.5 % fewer instructions than with the document pushed whole
/// (callgrind, BENCHMARKS.md "From Python"; the wall-clock "1.5x faster" the peer
/// bench once showed was its sample order, not the pieces).
const PIECE: usize = 16 * 1024;

/// Why a parse failed: an engine limit or invariant, never malformed markup.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// The driver stopped (a tokenizer limit, an engine failure).
    #[error("parse failed: {0}")]
    Engine(String),
    /// `context` is not `name`, `svg name` or `math name`.
    #[error(
        "a fragment context is an element name such as `td`, `svg path` or `math mi`, not {0:?}"
    )]
    Context(String),
    /// An encoding label the WHATWG Encoding Standard does not know.
    #[error("unknown encoding label {0:?}")]
    Encoding(String),
}

/// The settings of one parse.
#[derive(Clone, Debug)]
pub struct Options {
    /// The transport encoding (only a BOM overrides it); `None`: sniff.
    pub transport: Option<&'static Encoding>,
    /// The scripting flag (`<noscript>` content is raw text when on).
    pub scripting: bool,
    /// Parse as a fragment in this context element.
    pub fragment: Option<(Namespace, String)>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            transport: None,
            scripting: true,
            fragment: None,
        }
    }
}

/// A parsed document or fragment.
#[derive(Debug)]
pub struct Parsed {
    /// The tree.
    pub store: DomStore,
    /// For a fragment, the `html` root whose children are the fragment's nodes.
    pub fragment_root: Option<PatchKey>,
    /// The encoding the document was decoded with.
    pub encoding: &'static Encoding,
}

/// The encoding for a WHATWG label (`"latin1"` is windows-1252).
pub fn encoding_for_label(label: &str) -> Result<&'static Encoding, ParseError> {
    Encoding::for_label(label.trim().as_bytes()).ok_or_else(|| ParseError::Encoding(label.into()))
}

/// `td` → (HTML, `td`); `svg path` → (SVG, `path`); `math mi` → (MathML, `mi`): the
/// context as html5lib-tests (and `tagloom parse --fragment`) write it.
pub fn fragment_context(spec: &str) -> Result<(Namespace, String), ParseError> {
    let mut words = spec.split_whitespace();
    let (ns, name) = match (words.next(), words.next(), words.next()) {
        (Some("svg"), Some(name), None) => (Namespace::Svg, name),
        (Some("math"), Some(name), None) => (Namespace::MathMl, name),
        (Some(name), None, None) => (Namespace::Html, name),
        _ => return Err(ParseError::Context(spec.into())),
    };
    Ok((ns, name.to_owned()))
}

/// The decoder settings of `tagloom parse` and `tagloom sniff`: `transport` (only a
/// BOM overrides it), else sniffing with a statistical guess for a document that
/// declares nothing.
fn decoder(transport: Option<&'static Encoding>) -> DecoderConfig {
    DecoderConfig {
        transport,
        autodetect: Autodetect::Statistical,
        ..DecoderConfig::default()
    }
}

/// The encoding `tagloom sniff` names for `bytes`.
pub fn sniff(bytes: &[u8], transport: Option<&'static Encoding>) -> &'static Encoding {
    tagloom_html::sniff::sniff_encoding_with(bytes, decoder(transport)).encoding
}

fn config(options: &Options) -> ParseConfig {
    ParseConfig {
        session: SessionConfig {
            tree: TreeBuilderConfig {
                scripting: options.scripting,
                ..TreeBuilderConfig::default()
            },
            // Nothing on the Python side reads parse errors (a `Document` has none,
            // patch batches carry none), so the tokenizer does not look for them:
            // no input-stream scan, no line tracking, no error records. The tree
            // does not depend on them.
            tokenizer: TokenizerConfig {
                report_errors: false,
                ..TokenizerConfig::default()
            },
            decoder: decoder(options.transport),
            batching: BatchPolicy::Bounded(PATCHES_PER_BATCH),
            ..SessionConfig::default()
        },
        chunk_size: PIECE,
    }
}

fn driver(options: &Options) -> Driver {
    let config = config(options);
    match &options.fragment {
        Some((ns, name)) => Driver::new_fragment(&config, FragmentContext::new(*ns, name)),
        None => Driver::new(&config),
    }
}

fn engine<E: std::fmt::Display>(err: DriveError<E>) -> ParseError {
    ParseError::Engine(err.to_string())
}

/// Parses `bytes` into a [`DomStore`].
pub fn parse(bytes: &[u8], options: &Options) -> Result<Parsed, ParseError> {
    let mut driver = driver(options);
    // Sized for the document, as `tagloom_html::parse_document` does: a small
    // document does not pay a whole segment of node records.
    let mut store = DomStore::with_capacity(bytes.len() / BYTES_PER_NODE);
    driver.push_into(bytes, &mut store).map_err(engine)?;
    driver.finish_into(&mut store).map_err(engine)?;
    let session = driver.session();
    let encoding = session
        .decoder()
        .sniffed()
        .map_or(encoding_rs::UTF_8, |s| s.encoding);
    Ok(Parsed {
        store,
        fragment_root: session.fragment_root_key(),
        encoding,
    })
}

/// The patch batches the parser produces for `bytes`, as they come.
pub fn patches(bytes: &[u8], options: &Options) -> Result<Vec<PatchBatch>, ParseError> {
    let mut driver = driver(options);
    let mut batches = Vec::new();
    let mut collect = |batch: PatchBatch| -> Result<(), std::convert::Infallible> {
        batches.push(batch);
        Ok(())
    };
    driver.push(bytes, &mut collect).map_err(engine)?;
    driver.finish(&mut collect).map_err(engine)?;
    Ok(batches)
}

#[cfg(test)]
mod tests {
    use super::*;
    use tagloom_html::dom;

    #[test]
    fn a_document_parses_like_the_cli() {
        let parsed = parse(b"<p>x", &Options::default()).unwrap();
        assert!(dom::dump_document(&parsed.store).ends_with("|     <p>\n|       \"x\"\n"));
        assert_eq!(parsed.fragment_root, None);
    }

    #[test]
    fn the_tree_does_not_depend_on_error_reporting() {
        let inputs: [&[u8]; 3] = [
            b"<!doctype html><p>\0a\x01<b><i></b>x</p></p><table>t<tr>&#0;&bogus; <x y=1 y=2>\r\n\xef\xbf\xbe",
            b"<svg><foreignObject><p>\0<math><mi></svg>\x7f<select><option>\0<textarea>\0</x",
            b"<script>\0<!--<script>x</script>--></script><frameset><noframes>\0\x0b",
        ];
        for input in inputs {
            let mut reporting = config(&Options::default());
            reporting.session.tokenizer.report_errors = true;
            let with = tagloom_html::driver::parse_document(input, &reporting).unwrap();
            let without = parse(input, &Options::default()).unwrap();
            assert_eq!(
                dom::dump_document(&with),
                dom::dump_document(&without.store)
            );
        }
    }

    #[test]
    fn the_transport_encoding_decodes() {
        let options = Options {
            transport: Some(encoding_for_label("latin1").unwrap()),
            ..Options::default()
        };
        let parsed = parse(b"<p>\xe9", &options).unwrap();
        assert_eq!(parsed.encoding.name(), "windows-1252");
        assert!(dom::dump_document(&parsed.store).contains("\"\u{e9}\""));
    }

    #[test]
    fn fragments_have_a_root() {
        let options = Options {
            fragment: Some(fragment_context("svg path").unwrap()),
            ..Options::default()
        };
        let parsed = parse(b"<circle/>", &options).unwrap();
        let root = parsed
            .fragment_root
            .and_then(|k| parsed.store.get(k))
            .unwrap();
        assert_eq!(dom::dump_children(root), "| <svg circle>\n");
        assert!(fragment_context("a b c").is_err());
        assert!(encoding_for_label("nope").is_err());
    }

    #[test]
    fn sniffing_reads_meta_and_transport() {
        assert_eq!(sniff(b"<meta charset=koi8-r>", None).name(), "KOI8-R");
        let latin1 = encoding_for_label("latin1").ok();
        assert_eq!(
            sniff(b"<meta charset=koi8-r>", latin1).name(),
            "windows-1252"
        );
        assert_eq!(sniff(b"\xef\xbb\xbfx", latin1).name(), "UTF-8");
    }

    #[test]
    fn patches_rebuild_the_tree() {
        let batches = patches(b"<ul><li>a<li>b", &Options::default()).unwrap();
        let mut store = DomStore::new();
        for batch in batches {
            store.apply_owned(batch).unwrap();
        }
        let direct = parse(b"<ul><li>a<li>b", &Options::default()).unwrap();
        assert_eq!(
            dom::dump_document(&store),
            dom::dump_document(&direct.store)
        );
    }
}
