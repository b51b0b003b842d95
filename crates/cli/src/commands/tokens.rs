//! `tagloom tokens FILE`: the token stream in html5lib-tests' JSON form.
//!
//! FILE is the tokenizer's input stream, encoded in UTF-8 unless `--encoding` says
//! otherwise; it is not sniffed and a leading U+FEFF is kept (it is a character of the
//! stream), so a test's input written to a file round-trips exactly.
//!
//! Both ends stream: the input is read and tokenized a piece at a time and each token
//! is written as it comes, so memory does not grow with the input (with `--errors`,
//! the parse errors are kept until the end: `"errors"` follows `"output"`).

use std::borrow::Cow;
use std::io::{self, Write};
use std::ops::ControlFlow;
use std::path::PathBuf;

use anyhow::{Context, Result};
use serde_json::{Map, Value, json};
use tagloom_html::ErrorCode;
use tagloom_html::token::Token;
use tagloom_html::tokenizer::{State, Tokenizer, TokenizerConfig};
use tagloom_html::xml_infoset::{coerce_comment, coerce_name, coerce_text};

use crate::input::{DEFAULT_PIECE, encoding_for_label, open};
use crate::output;

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
    let input = open(&args.file)?;
    // Decoded piece by piece (a sequence split between pieces is joined).
    let mut decoder =
        (encoding != encoding_rs::UTF_8).then(|| encoding.new_decoder_without_bom_handling());
    let mut text = String::new();
    let mut tokenizer = Tokenizer::new(TokenizerConfig {
        initial_state: args.state.into(),
        last_start_tag: args.last_start_tag.clone(),
        report_errors: args.errors,
        ..TokenizerConfig::default()
    });
    let mut out = JsonTokens::new(output::stdout(), args.xml_infoset);
    out.open(args.errors)?;
    let mut errors = Vec::new();
    let piece = args
        .chunk_size
        .map_or(DEFAULT_PIECE, |n| usize::try_from(n).unwrap_or(usize::MAX));
    input.stream(piece, |piece| {
        match decoder.as_mut() {
            Some(decoder) => {
                decode(decoder, piece, false, &mut text);
                tokenizer.push_str(&text);
            }
            None => tokenizer.push_bytes(piece),
        }
        drain(&mut tokenizer, &mut out, &mut errors)?;
        Ok(ControlFlow::Continue(()))
    })?;
    if let Some(decoder) = decoder.as_mut() {
        decode(decoder, &[], true, &mut text);
        tokenizer.push_str(&text);
    }
    tokenizer.finish();
    drain(&mut tokenizer, &mut out, &mut errors)?;
    out.close(args.errors.then_some(&errors[..]))
        .context("cannot write the output")
}

/// Decodes `bytes` into `text` (replacing what it held).
fn decode(decoder: &mut encoding_rs::Decoder, bytes: &[u8], last: bool, text: &mut String) {
    text.clear();
    let mut bytes = bytes;
    loop {
        text.reserve(
            decoder
                .max_utf8_buffer_length(bytes.len())
                .unwrap_or(bytes.len().saturating_mul(3))
                .max(4),
        );
        let (result, read, _) = decoder.decode_to_string(bytes, text, last);
        bytes = bytes.get(read..).unwrap_or_default();
        if result == encoding_rs::CoderResult::InputEmpty {
            return;
        }
    }
}

/// Writes the tokens available and moves the errors found so far to `errors`.
fn drain<W: Write>(
    tokenizer: &mut Tokenizer,
    out: &mut JsonTokens<W>,
    errors: &mut Vec<CompactError>,
) -> Result<()> {
    while let Some(token) = tokenizer.next_token()? {
        out.push(token).context("cannot write the output")?;
    }
    errors.extend(tokenizer.take_errors().iter().map(|e| CompactError {
        code: e.code,
        line: e.line,
        col: e.col,
    }));
    Ok(())
}

/// What `--errors` prints of a [`ParseError`](tagloom_html::ParseError), kept until
/// the end in half its size (12 bytes).
struct CompactError {
    code: ErrorCode,
    line: u32,
    col: u32,
}

/// Writes the suite's JSON form as the tokens come, coalescing adjacent characters
/// by streaming their escaped text into one string: the output is byte for byte
/// what serializing the whole array at once would give, in memory independent of
/// the input.
struct JsonTokens<W: Write> {
    out: W,
    /// Whether a token has been written (the next one needs a comma).
    any: bool,
    /// Whether a `["Character","` string is open.
    in_text: bool,
    xml_infoset: bool,
    /// Reused for escaping text.
    scratch: Vec<u8>,
}

impl<W: Write> JsonTokens<W> {
    fn new(out: W, xml_infoset: bool) -> Self {
        JsonTokens {
            out,
            any: false,
            in_text: false,
            xml_infoset,
            scratch: Vec::new(),
        }
    }

    /// Starts the output: the array, inside `{"output":` with `--errors`.
    fn open(&mut self, with_errors: bool) -> io::Result<()> {
        if with_errors {
            self.out.write_all(br#"{"output":"#)?;
        }
        self.out.write_all(b"[")
    }

    /// Ends the array and, with `--errors`, writes the errors and closes the object.
    fn close(mut self, errors: Option<&[CompactError]>) -> io::Result<()> {
        self.end_text()?;
        self.out.write_all(b"]")?;
        if let Some(errors) = errors {
            self.out.write_all(br#","errors":["#)?;
            for (i, e) in errors.iter().enumerate() {
                if i > 0 {
                    self.out.write_all(b",")?;
                }
                let error = json!({"code": e.code.as_str(), "line": e.line, "col": e.col});
                serde_json::to_writer(&mut self.out, &error)?;
            }
            self.out.write_all(b"]}")?;
        }
        self.out.write_all(b"\n")?;
        self.out.flush()
    }

    fn push(&mut self, token: Token<'_>) -> io::Result<()> {
        let value = match token {
            Token::Characters(t) => return self.text_piece(t.text),
            Token::Eof => return Ok(()),
            Token::Doctype(d) => {
                json!(["DOCTYPE", d.name, d.public_id, d.system_id, !d.force_quirks])
            }
            Token::StartTag(tag) => {
                let attrs: Map<String, Value> = tag
                    .attrs
                    .iter()
                    .map(|a| {
                        (
                            self.name(tag.atoms().name(a.name)).into_owned(),
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
                Value::Array(v)
            }
            Token::EndTag(tag) => json!(["EndTag", self.name(tag.name_str())]),
            Token::Comment(c) => {
                let data = if self.xml_infoset {
                    coerce_comment(c.text)
                } else {
                    c.text.into()
                };
                json!(["Comment", data])
            }
        };
        self.end_text()?;
        self.separator()?;
        serde_json::to_writer(&mut self.out, &value)?;
        Ok(())
    }

    /// Appends `text` to the open `Character` string (opening one if needed).
    fn text_piece(&mut self, text: &str) -> io::Result<()> {
        if text.is_empty() {
            return Ok(());
        }
        if !self.in_text {
            self.separator()?;
            self.out.write_all(br#"["Character",""#)?;
            self.in_text = true;
        }
        // serde_json's own escaping, without the quotes around it.
        let text = self.text(text);
        self.scratch.clear();
        serde_json::to_writer(&mut self.scratch, &text)?;
        let inner = self
            .scratch
            .get(1..self.scratch.len().saturating_sub(1))
            .unwrap_or_default();
        self.out.write_all(inner)
    }

    fn end_text(&mut self) -> io::Result<()> {
        if self.in_text {
            self.in_text = false;
            self.out.write_all(br#""]"#)?;
        }
        Ok(())
    }

    fn separator(&mut self) -> io::Result<()> {
        if std::mem::replace(&mut self.any, true) {
            self.out.write_all(b",")?;
        }
        Ok(())
    }

    fn name<'a>(&self, name: &'a str) -> Cow<'a, str> {
        if self.xml_infoset {
            coerce_name(name)
        } else {
            name.into()
        }
    }

    fn text<'a>(&self, text: &'a str) -> Cow<'a, str> {
        if self.xml_infoset {
            coerce_text(text)
        } else {
            text.into()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kept_errors_are_half_a_parse_error() {
        assert_eq!(std::mem::size_of::<CompactError>(), 12);
        assert_eq!(std::mem::size_of::<tagloom_html::ParseError>(), 24);
    }
}
