//! The token filter on its own, as the pipeline will run it: fed by a tokenizer whose
//! states come from the text-type simulator, with the simulator's effects (dropped
//! content ends where the simulated stack closes the element), and without them
//! (dropped content ends at the balancing end tag).

use std::sync::Arc;

use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
use tagloom_html::token::{OwnedToken, Token};
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
use tagloom_transform::sanitize::{Policy, SanitizeFilter};

/// The filtered stream of `input`, written back as simple markup.
fn filtered(input: &str, with_effects: bool) -> String {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    let mut sim = TextTypeSimulator::new(SimulatorConfig::default());
    let mut filter = SanitizeFilter::new(Arc::new(Policy::default()));
    let mut out = Vec::new();
    tok.push_str(input);
    tok.finish();
    while let Some(token) = tok.next_token().expect("tokenizer") {
        let effect = match &token {
            Token::StartTag(t) => Some(sim.start_tag(t)),
            Token::EndTag(t) => Some(sim.end_tag(t)),
            _ => None,
        };
        let owned = token.to_owned();
        if let Some(state) = effect.and_then(|e| e.switch) {
            tok.set_state(state.into());
        }
        tok.set_cdata_allowed(sim.cdata_allowed());
        if with_effects {
            filter.filter_with(owned, effect, &mut out);
        } else {
            filter.filter(owned, &mut out);
        }
    }
    let mut s = String::new();
    for t in out {
        match t {
            OwnedToken::StartTag(tag) => {
                s.push('<');
                s.push_str(tag.name().as_str());
                for a in tag.attrs() {
                    s.push_str(&format!(" {}={:?}", a.name.as_str(), a.value));
                }
                s.push('>');
            }
            OwnedToken::EndTag(tag) => s.push_str(&format!("</{}>", tag.name().as_str())),
            OwnedToken::Characters(t) => s.push_str(t.text()),
            OwnedToken::Eof => s.push('$'),
            _ => s.push('?'),
        }
    }
    s
}

#[test]
fn dropped_content_ends_where_the_simulator_closes_the_element() {
    // `<p>` breaks out of SVG: the rest is kept.
    assert_eq!(filtered("a<svg><g>x</g><p>b</p>", true), "a<p>b</p>$");
    // The balancing end tag ends it too; `</svg>` goes with it.
    assert_eq!(filtered("<svg><svg></svg>in</svg>out", true), "out$");
    // An ancestor's end tag ends it and is kept.
    assert_eq!(filtered("<div><svg><g>x</div>y", true), "<div></div>y$");
    // Raw text: the tokenizer ends it at its own end tag.
    assert_eq!(filtered("<script><p>x</script>y", true), "y$");
}

#[test]
fn without_effects_dropped_content_ends_at_the_balancing_end_tag() {
    assert_eq!(filtered("<svg><svg></svg>in</svg>out", false), "out$");
    // Never more kept than with the simulator: a break-out is not seen.
    assert_eq!(filtered("a<svg><p>b</p>", false), "a$");
}

#[test]
fn attributes_are_filtered_and_comments_dropped() {
    assert_eq!(
        filtered(
            "<a href=javascript:x title=t onclick=y>l</a><!--c--><img src=/i.png alt=a>",
            true
        ),
        "<a title=\"t\">l</a><img src=\"/i.png\" alt=\"a\">$"
    );
}
