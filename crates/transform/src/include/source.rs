//! HTML text → owned tokens, the tokenizer driven by the text-type simulator (the
//! pipeline runs before any tree builder, so the simulator says which state follows
//! a start tag).

use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
use tagloom_html::token::OwnedToken;
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
        let mut owned = token.to_owned();
        let effect = sim.process_owned(&owned);
        if let OwnedToken::StartTag(tag) = &mut owned {
            // The element's namespace, so raw-text rules apply to HTML `<style>` only.
            tag.set_ns(effect.ns);
        }
        out.push(owned);
        if let Some(state) = effect.switch {
            tok.set_state(state.into());
        }
        tok.set_cdata_allowed(sim.cdata_allowed());
    }
    if !matches!(out.last(), Some(OwnedToken::Eof)) {
        out.push(OwnedToken::Eof);
    }
    Ok(out)
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
        t.mark_modified();
        assert!(t.is_modified());
    }
}
