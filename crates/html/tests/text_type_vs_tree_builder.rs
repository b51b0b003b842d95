//! The text-type simulator against the real tree builder: over every document case
//! of the html5lib tree-construction suite, in each scripting mode it asks for, the
//! tokenizer is driven by the tree builder and the simulator sees the same tags; after
//! every tag the two must ask for the same tokenizer state and agree on whether CDATA
//! sections are allowed. A second simulator is fed the same tokens as owned tokens
//! (`Token::to_owned` → `TextTypeSimulator::process_owned`) and must give exactly
//! the effects of the first on every case, listed or not; and the namespace a start
//! tag's effect names must be the one the tree builder creates the element in.
//! Cases where the first two may differ are listed with a reason in
//! `tests/known-failures/text_type.txt` (`file:index | reason`); a listed case that
//! agrees fails the test too.

mod support;

use std::collections::BTreeMap;

use support::tree_dat;
use tagloom_html::dom_patch::DomPatch;
use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
use tagloom_html::token::Token;
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
use tagloom_html::tree_builder::{TreeBuilder, TreeBuilderConfig};

const KNOWN: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/known-failures/text_type.txt"
);

/// The first disagreement between the tree builder and the simulator, if any;
/// panics where the owned-token simulator differs from the borrowed one, or a
/// start tag's namespace from the tree builder's.
fn compare(data: &str, scripting: bool) -> Option<String> {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    let mut tb = TreeBuilder::new(TreeBuilderConfig {
        scripting,
        ..TreeBuilderConfig::default()
    });
    let config = SimulatorConfig {
        scripting,
        ..SimulatorConfig::default()
    };
    let mut sim = TextTypeSimulator::new(config.clone());
    let mut owned_sim = TextTypeSimulator::new(config);
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
        let owned_effect = owned_sim.process_owned(&token.to_owned());
        if let Some(effect) = effect {
            assert_eq!(effect, owned_effect, "owned simulator, {label} in {data:?}");
        }
        assert_eq!(sim.cdata_allowed(), owned_sim.cdata_allowed());
        assert_eq!(sim.current_namespace(), owned_sim.current_namespace());
        assert_eq!(sim.integration_point(), owned_sim.integration_point());
        tb.process_token(token).ok()?;
        let patches = tb.take_patches();
        if let (Token::StartTag(tag), Some(effect)) = (&token, effect) {
            // The element made for this tag is the last one created (implied
            // parents and reconstructed formatting elements come before it).
            let created = patches.into_iter().rev().find_map(|p| match p {
                DomPatch::CreateElement { ns, name, .. } => Some((ns, name)),
                _ => None,
            });
            if let Some((ns, name)) = created
                && name.eq_ignore_ascii_case(tag.name_str())
                && ns != effect.ns
            {
                return Some(format!(
                    "after {label}: tree builder creates it in {ns:?}, simulator says {:?}",
                    effect.ns
                ));
            }
        }
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
