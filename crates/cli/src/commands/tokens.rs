//! `tagloom tokens FILE`: the token stream in html5lib-tests' JSON form.
//!
//! FILE is the tokenizer's input stream, encoded in UTF-8 unless `--encoding` says
//! otherwise; it is not sniffed and a leading U+FEFF is kept (it is a character of the
//! stream), so a test's input written to a file round-trips exactly.

use std::io::Write;
use std::path::PathBuf;

use anyhow::{Context, Result};
use serde_json::{Map, Value, json};
use tagloom_html::token::Token;
use tagloom_html::tokenizer::{State, Tokenizer, TokenizerConfig};
use tagloom_html::xml_infoset::{coerce_comment, coerce_name, coerce_text};

use crate::input::{encoding_for_label, read_all};

/// The tokenizer state to start in.
#[derive(Clone, Copy, clap::ValueEnum)]
pub enum StateArg {
    Data,
    Rcdata,
    Rawtext,
    Script,
    Plaintext,
    Cdata,
}

impl From<StateArg> for State {
    fn from(state: StateArg) -> State {
        match state {
            StateArg::Data => State::Data,
            StateArg::Rcdata => State::Rcdata,
            StateArg::Rawtext => State::Rawtext,
            StateArg::Script => State::ScriptData,
            StateArg::Plaintext => State::Plaintext,
            StateArg::Cdata => State::CdataSection,
        }
    }
}

/// Options of `tagloom tokens`.
#[derive(clap::Args)]
pub struct Args {
    /// The input (`-` for standard input).
    file: PathBuf,
    /// Initial tokenizer state.
    #[arg(long, value_enum, default_value = "data")]
    state: StateArg,
    /// The last start tag emitted (for the appropriate end tag check in RCDATA,
    /// RAWTEXT and script data).
    #[arg(long, value_name = "NAME")]
    last_start_tag: Option<String>,
    /// Feed the input N bytes at a time (the output must not change).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64).range(1..))]
    chunk_size: Option<u64>,
    /// Print `{"output": [...], "errors": [{"code", "line", "col"}]}`.
    #[arg(long)]
    errors: bool,
    /// The input's encoding (a WHATWG label).
    #[arg(long, value_name = "LABEL", default_value = "utf-8")]
    encoding: String,
    /// Apply §13.2.9 "coercing an HTML DOM into an infoset" to the output (what
    /// html5lib-tests' xmlViolation.test expects): non-XML characters become U+FFFD,
    /// FORM FEED a space, `--` in comments `- -`, non-XML names `U`+hex.
    #[arg(long)]
    xml_infoset: bool,
}

pub fn run(args: &Args) -> Result<()> {
    let encoding = encoding_for_label(&args.encoding)?;
    let bytes = read_all(&args.file)?;
    let text = if encoding == encoding_rs::UTF_8 {
        None
    } else {
        Some(encoding.decode_without_bom_handling(&bytes).0.into_owned())
    };
    let input: &[u8] = text.as_deref().map_or(&bytes, str::as_bytes);
    let mut tokenizer = Tokenizer::new(TokenizerConfig {
        initial_state: args.state.into(),
        last_start_tag: args.last_start_tag.clone(),
        ..TokenizerConfig::default()
    });
    let mut out = JsonTokens {
        xml_infoset: args.xml_infoset,
        ..JsonTokens::default()
    };
    let chunk = args.chunk_size.map_or(input.len().max(1), |n| {
        usize::try_from(n).unwrap_or(usize::MAX)
    });
    for piece in input.chunks(chunk.max(1)) {
        tokenizer.push_bytes(piece);
        drain(&mut tokenizer, &mut out)?;
    }
    tokenizer.finish();
    drain(&mut tokenizer, &mut out)?;
    let tokens = Value::Array(out.finish());
    let value = if args.errors {
        let errors: Vec<Value> = tokenizer
            .take_errors()
            .iter()
            .map(|e| json!({"code": e.code.as_str(), "line": e.line, "col": e.col}))
            .collect();
        json!({"output": tokens, "errors": errors})
    } else {
        tokens
    };
    let mut stdout = std::io::stdout().lock();
    serde_json::to_writer(&mut stdout, &value).context("cannot write the output")?;
    writeln!(stdout).context("cannot write the output")?;
    Ok(())
}

fn drain(tokenizer: &mut Tokenizer, out: &mut JsonTokens) -> Result<()> {
    while let Some(token) = tokenizer.next_token()? {
        out.push(token);
    }
    Ok(())
}

/// Builds the suite's JSON form, coalescing adjacent characters.
#[derive(Default)]
struct JsonTokens {
    tokens: Vec<Value>,
    text: String,
    xml_infoset: bool,
}

impl JsonTokens {
    fn push(&mut self, token: Token<'_>) {
        if let Token::Characters(t) = token {
            self.text.push_str(t.text);
            return;
        }
        self.flush_text();
        match token {
            Token::Doctype(d) => self.tokens.push(json!([
                "DOCTYPE",
                d.name,
                d.public_id,
                d.system_id,
                !d.force_quirks
            ])),
            Token::StartTag(tag) => {
                let attrs: Map<String, Value> = tag
                    .attrs
                    .iter()
                    .map(|a| {
                        (
                            self.name(tag.atoms().name(a.name)),
                            json!(self.text(a.value)),
                        )
                    })
                    .collect();
                let mut v = vec![
                    json!("StartTag"),
                    json!(self.name(tag.name_str())),
                    Value::Object(attrs),
                ];
                if tag.self_closing {
                    v.push(json!(true));
                }
                self.tokens.push(Value::Array(v));
            }
            Token::EndTag(tag) => {
                let name = self.name(tag.name_str());
                self.tokens.push(json!(["EndTag", name]));
            }
            Token::Comment(c) => {
                let data = if self.xml_infoset {
                    coerce_comment(c.text).into_owned()
                } else {
                    c.text.to_owned()
                };
                self.tokens.push(json!(["Comment", data]));
            }
            Token::ProcessingInstruction(pi) => {
                self.tokens
                    .push(json!(["ProcessingInstruction", pi.target, pi.data]));
            }
            Token::Characters(_) | Token::Eof => {}
        }
    }

    fn flush_text(&mut self) {
        if !self.text.is_empty() {
            let text = std::mem::take(&mut self.text);
            let text = if self.xml_infoset {
                coerce_text(&text).into_owned()
            } else {
                text
            };
            self.tokens.push(json!(["Character", text]));
        }
    }

    fn name(&self, name: &str) -> String {
        if self.xml_infoset {
            coerce_name(name).into_owned()
        } else {
            name.to_owned()
        }
    }

    fn text(&self, text: &str) -> String {
        if self.xml_infoset {
            coerce_text(text).into_owned()
        } else {
            text.to_owned()
        }
    }

    fn finish(mut self) -> Vec<Value> {
        self.flush_text();
        self.tokens
    }
}
