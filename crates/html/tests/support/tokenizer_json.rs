//! Runs the tokenizer the way html5lib-tests' tokenizer suite expects and renders
//! the result in the suite's JSON form (shared by the suite and the chunking tests).

use serde_json::{Map, Value, json};
use tagloom_html::token::Token;
use tagloom_html::tokenizer::{State, Tokenizer, TokenizerConfig};

/// The suite's files: (file name, its list of tests), sorted by name.
pub fn suite_files() -> Vec<(String, Vec<Value>)> {
    // `../html` works from either crate that includes this file (html or cli).
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../html/tests/data/html5lib/tokenizer");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tokenizer suite present")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "test"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let name = path
                .file_name()
                .unwrap_or_default()
                .to_string_lossy()
                .into_owned();
            let json: Value =
                serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
            let tests = json
                .get("tests")
                .or_else(|| json.get("xmlViolationTests"))
                .cloned();
            let tests = tests
                .and_then(|t| t.as_array().cloned())
                .unwrap_or_default();
            (name, tests)
        })
        .collect()
}

/// One run's output: the tokens (adjacent characters coalesced) and the errors.
#[derive(Debug, PartialEq)]
pub struct Run {
    pub tokens: Vec<Value>,
    pub errors: Vec<(String, u32, u32)>,
}

pub fn state_from_name(name: &str) -> Option<State> {
    Some(match name {
        "Data state" => State::Data,
        "PLAINTEXT state" => State::Plaintext,
        "RCDATA state" => State::Rcdata,
        "RAWTEXT state" => State::Rawtext,
        "Script data state" => State::ScriptData,
        "CDATA section state" => State::CdataSection,
        _ => return None,
    })
}

/// Tokenizes `input`, split into chunks at the given byte offsets (chunk lengths).
pub fn run(input: &str, state: State, last_start_tag: Option<&str>, chunks: &[usize]) -> Run {
    let mut tok = Tokenizer::new(TokenizerConfig {
        initial_state: state,
        last_start_tag: last_start_tag.map(str::to_owned),
        ..Default::default()
    });
    let mut tokens: Vec<Value> = Vec::new();
    let mut text = String::new();
    let drain = |tok: &mut Tokenizer, tokens: &mut Vec<Value>, text: &mut String| {
        while let Some(token) = tok.next_token().expect("no limit is hit by the suite") {
            push_token(token, tokens, text);
        }
    };
    let bytes = input.as_bytes();
    let mut at = 0;
    for &len in chunks {
        let end = (at + len).min(bytes.len());
        tok.push_bytes(&bytes[at..end]);
        at = end;
        drain(&mut tok, &mut tokens, &mut text);
    }
    tok.push_bytes(&bytes[at..]);
    tok.finish();
    drain(&mut tok, &mut tokens, &mut text);
    if !text.is_empty() {
        tokens.push(json!(["Character", text]));
    }
    let errors = tok
        .take_errors()
        .into_iter()
        .map(|e| (e.code.as_str().to_owned(), e.line, e.col))
        .collect();
    Run { tokens, errors }
}

fn push_token(token: Token<'_>, tokens: &mut Vec<Value>, text: &mut String) {
    if let Token::Characters(t) = token {
        text.push_str(t.text);
        return;
    }
    if !text.is_empty() {
        tokens.push(json!(["Character", std::mem::take(text)]));
    }
    match token {
        Token::Doctype(d) => tokens.push(json!([
            "DOCTYPE",
            d.name,
            d.public_id,
            d.system_id,
            !d.force_quirks
        ])),
        Token::StartTag(tag) => {
            let mut attrs = Map::new();
            for attr in tag.attrs.iter() {
                attrs.insert(tag.atoms().name(attr.name).to_owned(), json!(attr.value));
            }
            let mut v = vec![
                json!("StartTag"),
                json!(tag.name_str()),
                Value::Object(attrs),
            ];
            if tag.self_closing {
                v.push(json!(true));
            }
            tokens.push(Value::Array(v));
        }
        Token::EndTag(tag) => tokens.push(json!(["EndTag", tag.name_str()])),
        Token::Comment(c) => tokens.push(json!(["Comment", c.text])),
        Token::ProcessingInstruction(pi) => {
            tokens.push(json!(["ProcessingInstruction", pi.target, pi.data]))
        }
        Token::Characters(_) | Token::Eof => {}
    }
}

/// Undoes the suite's `doubleEscaped` extra escaping (`\uXXXX`). Returns `None` when
/// the result would hold a lone surrogate, which a Rust string cannot.
pub fn unescape(s: &str) -> Option<String> {
    let mut out = String::new();
    let mut units: Vec<u16> = Vec::new();
    let mut chars = s.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' && chars.peek() == Some(&'u') {
            chars.next();
            let hex: String = chars.by_ref().take(4).collect();
            units.push(u16::from_str_radix(&hex, 16).ok()?);
            continue;
        }
        if !units.is_empty() {
            out.push_str(&String::from_utf16(&units).ok()?);
            units.clear();
        }
        out.push(c);
    }
    if !units.is_empty() {
        out.push_str(&String::from_utf16(&units).ok()?);
    }
    Some(out)
}

/// Unescapes every string inside an expected-output value.
pub fn unescape_value(v: &Value) -> Option<Value> {
    Some(match v {
        Value::String(s) => Value::String(unescape(s)?),
        Value::Array(a) => Value::Array(a.iter().map(unescape_value).collect::<Option<_>>()?),
        Value::Object(o) => {
            let mut m = Map::new();
            for (k, v) in o {
                m.insert(unescape(k)?, unescape_value(v)?);
            }
            Value::Object(m)
        }
        other => other.clone(),
    })
}

/// Coalesces adjacent `Character` tokens of an expected output.
pub fn coalesce(tokens: &[Value]) -> Vec<Value> {
    let mut out: Vec<Value> = Vec::new();
    for t in tokens {
        if let (Some(last), Some(text)) = (out.last_mut(), t.get(1).and_then(Value::as_str))
            && last.get(0) == Some(&json!("Character"))
            && t.get(0) == Some(&json!("Character"))
        {
            let joined = format!("{}{}", last[1].as_str().unwrap_or(""), text);
            last[1] = json!(joined);
            continue;
        }
        out.push(t.clone());
    }
    out
}
