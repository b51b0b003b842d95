//! `tagloom demo [FILE]`: sniff, decode and tokenize a page and summarize what the
//! tokenizer saw — a quick look at a document, and a smoke test on a fresh machine
//! (with no FILE it uses a sample page built into the binary).

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use tagloom_html::decoder::{ByteStreamDecoder, DecoderConfig};
use tagloom_html::token::Token;
use tagloom_html::tokenizer::{State, Tokenizer, TokenizerConfig};

use crate::input::read_all;

/// The built-in sample page.
const SAMPLE: &[u8] = include_bytes!("../../samples/sample.html");

/// Options of `tagloom demo`.
#[derive(clap::Args)]
pub struct Args {
    /// A page to look at instead of the built-in sample (`-` for standard input).
    file: Option<PathBuf>,
}

pub fn run(args: &Args) -> Result<()> {
    let (name, bytes) = match &args.file {
        Some(path) => (path.display().to_string(), read_all(path)?),
        None => ("built-in sample page".to_owned(), SAMPLE.to_vec()),
    };
    let started = Instant::now();
    let mut decoder = ByteStreamDecoder::new(DecoderConfig::default());
    let mut text = String::new();
    decoder.push(&bytes, &mut text)?;
    decoder.finish(&mut text)?;
    let mut tokenizer = Tokenizer::new(TokenizerConfig::default());
    tokenizer.push_str(&text);
    tokenizer.finish();
    let mut counts: BTreeMap<&str, usize> = BTreeMap::new();
    let mut tags: BTreeMap<String, usize> = BTreeMap::new();
    let mut text_bytes = 0;
    while let Some(token) = tokenizer.next_token()? {
        let kind = match token {
            Token::Doctype(_) => "doctype",
            Token::StartTag(tag) => {
                *tags.entry(tag.name_str().to_owned()).or_default() += 1;
                // No tree builder here: switch the raw-text states the way it would.
                match tag.name_str() {
                    "script" => tokenizer.set_state(State::ScriptData),
                    "style" | "xmp" | "iframe" | "noembed" | "noframes" => {
                        tokenizer.set_state(State::Rawtext)
                    }
                    "title" | "textarea" => tokenizer.set_state(State::Rcdata),
                    "plaintext" => tokenizer.set_state(State::Plaintext),
                    _ => {}
                }
                "start tags"
            }
            Token::EndTag(_) => "end tags",
            Token::Comment(_) => "comments",
            Token::Characters(t) => {
                text_bytes += t.text.len();
                "text runs"
            }
            Token::Eof => "end of file",
        };
        *counts.entry(kind).or_default() += 1;
    }
    let elapsed = started.elapsed();
    let encoding = decoder.encoding().map_or("?", |e| e.name());
    let confidence = match decoder.confidence() {
        Some(tagloom_html::decoder::Confidence::Certain) => "certain",
        Some(tagloom_html::decoder::Confidence::Tentative) => "tentative",
        _ => "irrelevant",
    };
    println!(
        "{name}: {} bytes, encoding {encoding} ({confidence})",
        bytes.len()
    );
    for (kind, n) in &counts {
        println!("  {kind:12} {n}");
    }
    println!("  text         {text_bytes} bytes");
    let mut top: Vec<_> = tags.into_iter().collect();
    top.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    let top: Vec<String> = top
        .iter()
        .take(8)
        .map(|(t, n)| format!("{t}×{n}"))
        .collect();
    println!("  most used    {}", top.join(" "));
    let errors = tokenizer.take_errors();
    println!("  parse errors {}", errors.len());
    for e in errors.iter().take(5) {
        println!("    {}:{} {}", e.line, e.col, e.code.as_str());
    }
    println!("  took         {:.2} ms", elapsed.as_secs_f64() * 1000.0);
    Ok(())
}
