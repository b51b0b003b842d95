//! The token list behind `tagloom.tokens`: html5lib-tests' token form (what
//! `tagloom tokens` prints as JSON), adjacent characters joined into one token.

use tagloom_html::token::Token;
use tagloom_html::tokenizer::{State, Tokenizer, TokenizerConfig, TokenizerError};

/// One token.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Tok {
    /// `DOCTYPE`: name, public id, system id, and `correct` (not force-quirks).
    Doctype {
        /// The name.
        name: Option<String>,
        /// The public identifier.
        public_id: Option<String>,
        /// The system identifier.
        system_id: Option<String>,
        /// False when the DOCTYPE forces quirks mode.
        correct: bool,
    },
    /// A start tag: name, attributes in order (first of a duplicate wins), `/>`.
    StartTag {
        /// The name.
        name: String,
        /// The attributes.
        attrs: Vec<(String, String)>,
        /// Written `<x/>`.
        self_closing: bool,
    },
    /// An end tag's name.
    EndTag(String),
    /// A comment's data.
    Comment(String),
    /// A run of characters.
    Characters(String),
    /// A processing instruction (only with `processing_instructions`).
    ProcessingInstruction {
        /// The target.
        target: String,
        /// The data.
        data: String,
    },
}

/// The tokenizer state to start in, by html5lib-tests' name (`"data"`, `"rcdata"`,
/// `"rawtext"`, `"script"`, `"plaintext"`, `"cdata"`).
pub fn state(name: &str) -> Option<State> {
    Some(match name {
        "data" => State::Data,
        "rcdata" => State::Rcdata,
        "rawtext" => State::Rawtext,
        "script" => State::ScriptData,
        "plaintext" => State::Plaintext,
        "cdata" => State::CdataSection,
        _ => return None,
    })
}

/// The tokens of `text`, starting in `initial_state`.
pub fn tokenize(
    text: &str,
    initial_state: State,
    last_start_tag: Option<String>,
) -> Result<Vec<Tok>, TokenizerError> {
    let mut tokenizer = Tokenizer::new(TokenizerConfig {
        initial_state,
        last_start_tag,
        ..TokenizerConfig::default()
    });
    tokenizer.push_str(text);
    tokenizer.finish();
    let mut out: Vec<Tok> = Vec::new();
    while let Some(token) = tokenizer.next_token()? {
        let tok = match token {
            Token::Characters(t) => {
                if let Some(Tok::Characters(run)) = out.last_mut() {
                    run.push_str(t.text);
                    continue;
                }
                Tok::Characters(t.text.to_owned())
            }
            Token::Eof => break,
            Token::Doctype(d) => Tok::Doctype {
                name: d.name.map(str::to_owned),
                public_id: d.public_id.map(str::to_owned),
                system_id: d.system_id.map(str::to_owned),
                correct: !d.force_quirks,
            },
            Token::StartTag(tag) => Tok::StartTag {
                name: tag.name_str().to_owned(),
                attrs: tag
                    .attrs
                    .iter()
                    .map(|a| (tag.atoms().name(a.name).to_owned(), a.value.to_owned()))
                    .collect(),
                self_closing: tag.self_closing,
            },
            Token::EndTag(tag) => Tok::EndTag(tag.name_str().to_owned()),
            Token::Comment(c) => Tok::Comment(c.text.to_owned()),
            Token::ProcessingInstruction(pi) => Tok::ProcessingInstruction {
                target: pi.target.to_owned(),
                data: pi.data.to_owned(),
            },
        };
        if !matches!(&tok, Tok::Characters(t) if t.is_empty()) {
            out.push(tok);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn characters_are_joined() {
        let toks = tokenize("a&amp;b<p class=x>c</p><!--d-->", State::Data, None).unwrap();
        assert_eq!(
            toks,
            vec![
                Tok::Characters("a&b".into()),
                Tok::StartTag {
                    name: "p".into(),
                    attrs: vec![("class".into(), "x".into())],
                    self_closing: false
                },
                Tok::Characters("c".into()),
                Tok::EndTag("p".into()),
                Tok::Comment("d".into()),
            ]
        );
    }

    #[test]
    fn states_by_name() {
        let toks = tokenize(
            "<b>x</title>",
            state("rcdata").unwrap(),
            Some("title".into()),
        );
        assert_eq!(
            toks.unwrap(),
            vec![Tok::Characters("<b>x".into()), Tok::EndTag("title".into())]
        );
        assert!(state("nope").is_none());
    }
}
