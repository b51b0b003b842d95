//! The sanitizer as a pipeline's last phase: includes + sanitizer in one
//! pipeline, and the pipeline path equal to `sanitize()` on the corpus.

mod sanitize_support;

use std::sync::Arc;

use sanitize_support::vectors;
use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
use tagloom_html::token::OwnedToken;
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
use tagloom_transform::include::{DirResolver, IncludeConfig, Includes};
use tagloom_transform::pipeline::{Pipeline, PipelineConfig, Registry, block_on};
use tagloom_transform::sanitize::{Policy, Sanitizer};

/// The tokens `sanitize()` reads: the tokenizer driven by the simulator.
fn tokens(input: &str, policy: &Policy) -> Vec<OwnedToken> {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    let mut sim = TextTypeSimulator::new(SimulatorConfig {
        max_depth: policy.max_depth,
        ..SimulatorConfig::default()
    });
    tok.push_str(input);
    tok.finish();
    let mut out = Vec::new();
    while let Some(token) = tok.next_token().expect("no token limit") {
        let owned = token.to_owned();
        if matches!(
            owned,
            OwnedToken::StartTag(_) | OwnedToken::EndTag(_) | OwnedToken::Characters(_)
        ) {
            let effect = sim.process_owned(&owned);
            if let Some(state) = effect.switch {
                tok.set_state(state.into());
            }
        }
        tok.set_cdata_allowed(sim.cdata_allowed());
        out.push(owned);
    }
    out
}

fn through_pipeline(sanitizer: &Sanitizer, input: &str, policy: &Policy) -> String {
    let mut registry = Registry::new();
    sanitizer.register(&mut registry).expect("register");
    let mut pipeline = Pipeline::new(registry, PipelineConfig::default());
    let input = tokens(input, policy).into_iter().map(Ok);
    block_on(pipeline.run(input, sanitizer.sink()))
        .expect("pipeline")
        .0
        .html
}

#[test]
fn the_pipeline_path_equals_sanitize_on_the_corpus() {
    for policy in [Policy::default(), Policy::widened()] {
        let sanitizer = Sanitizer::new(Arc::new(policy.clone()));
        let mut failures = Vec::new();
        for x in vectors() {
            let direct = sanitizer.sanitize(&x).html;
            let piped = through_pipeline(&sanitizer, &x, &policy);
            if direct != piped {
                failures.push(format!("{x:?}: sanitize {direct:?}, pipeline {piped:?}"));
            }
        }
        assert!(failures.is_empty(), "{}", failures.join("\n"));
    }
}

#[test]
fn includes_and_sanitizer_in_one_pipeline() {
    let dir = tempfile::tempdir().expect("tempdir");
    std::fs::write(
        dir.path().join("part.html"),
        "<p>part <a href=\"javascript:alert(1)\">x</a><script>alert(2)</script><img src=x onerror=alert(3)></p>",
    )
    .expect("write");
    let sanitizer = Sanitizer::new(Arc::new(Policy::default()));
    let for_pipelines = sanitizer.clone();
    let includes = Includes::with_handlers(
        DirResolver::new(dir.path()).expect("resolver"),
        IncludeConfig::default(),
        move |registry| for_pipelines.register(registry).map(|_| ()),
    );
    let page = "<div>top <include src=\"part.html\"></include> end</div>";
    let (out, _) = includes
        .process_into(page, sanitizer.sink())
        .expect("pipeline");
    assert_eq!(
        out.html,
        "<div>top <p>part <a rel=\"noopener noreferrer\">x</a><img src=\"x\"></p> end</div>"
    );
    assert_eq!(sanitizer.sanitize(&out.html).html, out.html);
}
