//! HTML text → owned tokens, the tokenizer driven by the text-type simulator (the
//! pipeline runs before any tree builder, so the simulator says which state follows
//! a start tag).

use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
use tagloom_html::token::{OwnedToken, Token};
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};

use crate::pipeline::PipelineError;

/// The tokens of `text` (a document or a fragment), ending with end of input.
/// Spans address `text`.
pub fn tokenize(text: &str) -> Result<Vec<OwnedToken>, PipelineError> {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    let mut sim = TextTypeSimulator::new(SimulatorConfig::default());
    tok.push_str(text);
    tok.finish();
    let mut out = Vec::new();
    loop {
        let token = tok
            .next_token()
            .map_err(|e| PipelineError::Input(e.to_string()))?;
        let Some(token) = token else { break };
        let effect = match &token {
            Token::StartTag(tag) => Some(sim.start_tag(tag)),
            Token::EndTag(tag) => Some(sim.end_tag(tag)),
            Token::Characters(text) => Some(sim.characters(text.text)),
            _ => None,
        };
        out.push(token.to_owned());
        if let Some(state) = effect.and_then(|e| e.switch) {
            tok.set_state(state.into());
        }
        tok.set_cdata_allowed(sim.cdata_allowed());
    }
    if !matches!(out.last(), Some(OwnedToken::Eof)) {
        out.push(OwnedToken::Eof);
    }
    Ok(out)
}

/// Marks `token` modified, so a byte-preserving sink serializes it instead of
/// copying bytes of the wrong source (its span addresses the included file).
pub(crate) fn detach(token: &mut OwnedToken) {
    match token {
        OwnedToken::Characters(t) | OwnedToken::Comment(t) => {
            t.text_mut();
        }
        OwnedToken::StartTag(t) | OwnedToken::EndTag(t) => {
            t.attrs_mut();
        }
        OwnedToken::Doctype(d) => {
            let quirks = d.force_quirks();
            d.set_force_quirks(quirks);
        }
        OwnedToken::ProcessingInstruction(p) => {
            let data = p.data().to_owned();
            p.set_data(data);
        }
        OwnedToken::Eof => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_text_after_a_start_tag() {
        let tokens = tokenize("<title><include src=x></title><p>").unwrap();
        assert!(matches!(&tokens[1], OwnedToken::Characters(t) if t.text() == "<include src=x>"));
        let mut t = tokens[0].clone();
        assert!(!t.is_modified());
        detach(&mut t);
        assert!(t.is_modified());
    }
}
