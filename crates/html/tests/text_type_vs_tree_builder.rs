//! The text-type simulator against the real tree builder: over every document case
//! of the html5lib tree-construction suite, in each scripting mode it asks for, the
//! tokenizer is driven by the tree builder and the simulator sees the same tags; after
//! every tag the two must ask for the same tokenizer state and agree on whether CDATA
//! sections are allowed. Cases where they may differ are listed with a reason in
//! `tests/known-failures/text_type.txt` (`file:index | reason`); a listed case that
//! agrees fails the test too.

mod support;

use std::collections::BTreeMap;

use support::tree_dat;
use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
use tagloom_html::token::Token;
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
use tagloom_html::tree_builder::{TreeBuilder, TreeBuilderConfig};

const KNOWN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/known-failures/text_type.txt"
);

/// The first disagreement, if any.
fn compare(data: &str, scripting: bool) -> Option<String> {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    let mut tb = TreeBuilder::new(TreeBuilderConfig {
        scripting,
        ..TreeBuilderConfig::default()
    });
    let mut sim = TextTypeSimulator::new(SimulatorConfig {
        scripting,
        ..SimulatorConfig::default()
    });
    tok.push_str(data);
    tok.finish();
    while let Some(token) = tok.next_token().ok()? {
        let label = match &token {
            Token::StartTag(t) => format!("<{}>", t.name_str()),
            Token::EndTag(t) => format!("</{}>", t.name_str()),
            _ => String::new(),
        };
        let effect = match &token {
            Token::StartTag(tag) => Some(sim.start_tag(tag)),
            Token::EndTag(tag) => Some(sim.end_tag(tag)),
            Token::Characters(text) => {
                sim.characters(text.text);
                None
            }
            _ => None,
        };
        tb.process_token(token).ok()?;
        let real = tb.take_tokenizer_state();
        let simulated = effect.and_then(|e| e.switch);
        if real != simulated {
            return Some(format!(
                "after {label}: tree builder {real:?}, simulator {simulated:?}"
            ));
        }
        if let Some(state) = real {
            tok.set_state(state.into());
        }
        if effect.is_some() && tb.cdata_allowed() != sim.cdata_allowed() {
            return Some(format!(
                "after {label}: CDATA allowed: tree builder {}, simulator {}",
                tb.cdata_allowed(),
                sim.cdata_allowed()
            ));
        }
        tok.set_cdata_allowed(tb.cdata_allowed());
    }
    None
}

#[test]
fn simulator_agrees_with_the_tree_builder() {
    let known: BTreeMap<String, String> = std::fs::read_to_string(KNOWN)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let (id, reason) = l.split_once('|')?;
            Some((id.trim().to_string(), reason.trim().to_string()))
        })
        .collect();
    let files = tree_dat::load_dir(tree_dat::DATA_DIR).expect("tree-construction data");
    let (mut cases, mut unexpected, mut fixed) = (0, Vec::new(), Vec::new());
    for (path, tests) in files {
        let file = path.file_name().and_then(|f| f.to_str()).unwrap_or("?");
        for (index, test) in tests.iter().enumerate() {
            if test.fragment.is_some() {
                continue;
            }
            let id = format!("{file}:{index}");
            let mut failure = None;
            for &scripting in test.scripting.modes() {
                cases += 1;
                if let Some(f) = compare(&test.data, scripting) {
                    failure = Some(f);
                }
            }
            match (failure, known.contains_key(&id)) {
                (Some(f), false) => unexpected.push(format!("{id}: {f}: {:?}", test.data)),
                (None, true) => fixed.push(id),
                _ => {}
            }
        }
    }
    println!(
        "text-type simulator: {cases} runs, {} known differences",
        known.len()
    );
    assert!(
        unexpected.is_empty(),
        "{} unexpected differences:\n{}",
        unexpected.len(),
        unexpected.join("\n")
    );
    assert!(fixed.is_empty(), "listed but agreeing: {fixed:?}");
}
