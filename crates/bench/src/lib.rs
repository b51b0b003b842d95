//! Shared helpers of the tagloom benchmarks: locating and loading the bench corpus
//! (third-party pages read from `../shared/bench-corpus`, never copied into the
//! repository), a tokenizer driver that touches every token cheaply, and the
//! full parse (bytes → [`tagloom_html::driver`] → [`DomStore`]).
//!
//! The peer parsers (html5ever) are dev-dependencies of this crate only, so the
//! main crates never depend on them.

use std::hint::black_box;
use std::path::{Path, PathBuf};

use tagloom_html::decoder::DecoderConfig;
use tagloom_html::dom::DomStore;
use tagloom_html::driver::{ParseConfig, parse_document};
use tagloom_html::session::{BatchPolicy, SessionConfig};
use tagloom_html::token::Token;
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
use tagloom_html::tree_builder::TreeBuilderConfig;
use tagloom_testdata::Shared;

/// The environment variable that overrides the corpus folder.
pub const CORPUS_ENV: &str = Shared::BenchCorpus.env();

/// One page of the corpus.
#[derive(Clone, Debug)]
pub struct Page {
    /// File name without `.html`.
    pub name: String,
    /// The raw bytes of the file.
    pub bytes: Vec<u8>,
}

/// The corpus folder: `$TAGLOOM_BENCH_CORPUS` if set, else `shared/bench-corpus`
/// beside the workspace (found by [`tagloom_testdata::Shared`]).
pub fn corpus_dir() -> PathBuf {
    Shared::BenchCorpus.path()
}

/// Says on the real stderr (the test harness captures `println!` and
/// `eprintln!`) that a test or bench skipped the corpus, and how to point it
/// there; a failure under CI (see [`tagloom_testdata::required`]).
pub fn corpus_skipped(what: &str) {
    Shared::BenchCorpus.skipped(what);
}

/// The corpus pages for `what` (a test, bench or example), or `None` after
/// [`corpus_skipped`] said it skipped them (no folder, or no page in it).
///
/// # Panics
/// When the folder exists but a page cannot be read: a broken corpus is an
/// error, not a skip.
pub fn corpus_pages(what: &str) -> Option<Vec<Page>> {
    let dir = corpus_dir();
    match load_corpus(&dir) {
        Ok(Some(pages)) => Some(pages),
        Ok(None) => {
            corpus_skipped(what);
            None
        }
        Err(err) => panic!("bench corpus at {} unreadable: {err}", dir.display()),
    }
}

/// Every `*.html` file of `dir`, sorted by name. `Ok(None)` when `dir` does not
/// exist or holds no `.html` file.
pub fn load_corpus(dir: &Path) -> std::io::Result<Option<Vec<Page>>> {
    if !dir.is_dir() {
        return Ok(None);
    }
    let mut pages = Vec::new();
    for entry in std::fs::read_dir(dir)? {
        let path = entry?.path();
        if path.extension().and_then(|e| e.to_str()) != Some("html") {
            continue;
        }
        let name = path
            .file_stem()
            .and_then(|s| s.to_str())
            .unwrap_or("?")
            .to_owned();
        pages.push(Page {
            name,
            bytes: std::fs::read(&path)?,
        });
    }
    pages.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(if pages.is_empty() { None } else { Some(pages) })
}

/// What a run over a page saw: a cheap digest so the work can't be optimized away.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Tokens seen (character runs, comments, tags, DOCTYPEs; not EOF).
    pub tokens: usize,
    /// Bytes of character data and comment text.
    pub text_len: usize,
    /// Attributes seen.
    pub attrs: usize,
}

/// Tokenizes `bytes` (UTF-8, pushed whole with `push_bytes`) with tagloom and
/// touches every token.
pub fn tagloom_tokenize(bytes: &[u8], report_errors: bool) -> Summary {
    let mut tokenizer = Tokenizer::new(TokenizerConfig {
        report_errors,
        ..TokenizerConfig::default()
    });
    let mut summary = Summary::default();
    tokenizer.push_bytes(bytes);
    drain(&mut tokenizer, &mut summary);
    tokenizer.finish();
    drain(&mut tokenizer, &mut summary);
    black_box(tokenizer.errors().len());
    summary
}

fn drain(tokenizer: &mut Tokenizer, summary: &mut Summary) {
    loop {
        let token = match tokenizer.next_token() {
            Ok(Some(token)) => token,
            Ok(None) => break,
            Err(err) => panic!("tokenizer failed: {err}"),
        };
        match black_box(token) {
            Token::Characters(text) | Token::Comment(text) => {
                summary.text_len += text.text.len();
            }
            Token::StartTag(tag) | Token::EndTag(tag) => {
                summary.attrs += tag.attrs.len();
                for attr in tag.attrs.iter() {
                    black_box(attr.value);
                }
            }
            Token::Doctype(doctype) => {
                black_box(doctype.name);
            }
            Token::ProcessingInstruction(pi) => {
                summary.text_len += pi.data.len();
            }
            Token::Eof => continue,
        }
        summary.tokens += 1;
    }
}

/// The batch size of the full-parse driver ([`BatchPolicy::Bounded`]): the session
/// hands out a batch every 256 patches while it parses, so the patches held at
/// once stay bounded however the page is pushed (a patch is about 160 bytes: a
/// batch of 4096 held 640 KiB, two of them while one was applied; 256 hold 40 KiB).
pub const BATCH_PATCHES: usize = 256;

/// The session settings of the full-parse driver: the given scripting flag, UTF-8
/// as the transport encoding (so nothing is sniffed: the corpus pages are UTF-8,
/// and the peer is handed UTF-8 too), parse errors recorded (the default), and
/// batches of [`BATCH_PATCHES`] handed out while parsing.
pub fn parse_config(scripting: bool) -> SessionConfig {
    SessionConfig {
        tree: TreeBuilderConfig {
            scripting,
            ..TreeBuilderConfig::default()
        },
        decoder: DecoderConfig::with_transport(encoding_rs::UTF_8),
        batching: BatchPolicy::Bounded(BATCH_PATCHES),
        ..SessionConfig::default()
    }
}

/// Parses a whole document with tagloom: `bytes` pushed at once, `finish`, and
/// every batch moved into a fresh [`DomStore`] with [`DomStore::apply_owned`] as
/// soon as the session hands it out (the full parse the bench measures).
///
/// # Panics
///
/// If the session or the store reports an error (never for markup alone).
pub fn tagloom_parse(bytes: &[u8], config: SessionConfig) -> DomStore {
    tagloom_parse_chunked(bytes, config, usize::MAX)
}

/// Like [`tagloom_parse`], but the bytes are pushed `chunk` bytes at a time, each
/// push followed by pumping and applying the ready batches (a streaming caller;
/// the decoded text held at once is bounded by the chunk, not the page):
/// [`tagloom_html::driver::parse_document`]. `usize::MAX` pushes the whole page
/// at once.
///
/// # Panics
///
/// If the session or the store reports an error (never for markup alone).
pub fn tagloom_parse_chunked(bytes: &[u8], config: SessionConfig, chunk: usize) -> DomStore {
    let config = ParseConfig {
        session: config,
        chunk_size: chunk,
    };
    match parse_document(bytes, &config) {
        Ok(store) => store,
        Err(err) => panic!("the parse failed: {err}"),
    }
}
