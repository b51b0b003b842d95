//! The fast path against the general rules: over pseudo-random tag sequences
//! (every name with a rule of its own, void and dynamic names, foreign content,
//! tables, text), each tag goes through the public entry point (fast path first)
//! on one simulator and through the general rules only on a clone; the effects
//! and the whole simulated stacks must be equal after every token.

use super::{SimulatorConfig, Start, TextTypeSimulator};
use crate::atom::{self, Atom};
use crate::token::OwnedTag;

fn vocabulary() -> Vec<&'static str> {
    let mut names: Vec<&'static str> = super::fast::START_RULES
        .iter()
        .chain(super::fast::VOIDS)
        .chain(super::fast::END_RULES)
        .chain(super::fast::BLOCKS)
        .filter_map(|a| a.static_name())
        .collect();
    names.extend([
        "span",
        "b",
        "i",
        "em",
        "font",
        "code",
        "my-widget",
        "x-y",
        "option",
        "desc",
        "foreignObject",
        "mi",
        "annotation-xml",
        "mglyph",
        "path",
        "g",
        "ruby",
        "frameset",
        "applet",
        "marquee",
        "object",
    ]);
    names
}

/// A small deterministic generator (xorshift).
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn state(sim: &TextTypeSimulator) -> String {
    format!(
        "{:?} {} {} {:?}",
        sim.stack,
        sim.frameset,
        sim.seen_body,
        sim.transient_elements()
    )
}

fn run(seed: u64, scripting: bool, implied: bool, max_depth: usize) {
    let names = vocabulary();
    let mut rng = Rng(seed);
    let config = SimulatorConfig {
        scripting,
        max_depth,
        quirks: seed & 8 != 0,
    };
    let mut sim = TextTypeSimulator::new(config);
    sim.set_implied_elements(implied);
    for step in 0..400 {
        let mut slow = sim.clone();
        let name = names[rng.below(names.len())];
        let kind = rng.below(10);
        let mut tag = OwnedTag::new(name);
        let self_closing = rng.below(6) == 0;
        tag.set_self_closing(self_closing);
        let (fast_effect, slow_effect) = match kind {
            0 => {
                let text = if rng.below(2) == 0 { "x" } else { " \n" };
                (sim.characters(text), slow.characters_general(text))
            }
            1..=5 => {
                let fast = sim.start_tag_owned(&tag);
                let atom = slow.owned_name(&tag);
                let no_attr = |_: Atom| -> Option<&str> { None };
                (fast, slow.start(Start::new(atom, self_closing, no_attr)))
            }
            _ => {
                let fast = sim.end_tag_owned(&tag);
                let atom = slow.owned_name(&tag);
                (fast, slow.end(atom))
            }
        };
        let what = format!("seed {seed} step {step} kind {kind} {name}");
        assert_eq!(fast_effect, slow_effect, "{what}");
        assert_eq!(state(&sim), state(&slow), "{what}");
    }
}

#[test]
fn fast_path_agrees_with_the_general_rules() {
    for seed in 1..300u64 {
        let seed = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        run(seed, seed & 2 != 0, seed & 4 != 0, 512);
        run(seed, false, true, 6);
    }
}

#[test]
fn fast_path_covers_the_common_tags() {
    let mut sim = TextTypeSimulator::new(SimulatorConfig::default());
    sim.start_tag_owned(&OwnedTag::new("body"));
    assert!(sim.fast_start(atom::SPAN).is_some());
    assert!(sim.fast_start(atom::IMG).is_some());
    assert!(sim.fast_end(atom::SPAN).is_some());
    assert!(sim.fast_start(atom::DIV).is_some());
    assert!(sim.fast_start(atom::FORM).is_none());
    assert!(sim.fast_end(atom::BODY).is_none());
    assert!(sim.fast_characters().is_some());
    sim.start_tag_owned(&OwnedTag::new("p"));
    assert!(sim.fast_start(atom::DIV).is_none());
    assert!(sim.fast_start(atom::H2).is_none());
    assert!(sim.fast_start(atom::LI).is_none());
}

#[test]
fn fast_path_covers_lists_headings_tables_and_scripts() {
    let mut sim = TextTypeSimulator::new(SimulatorConfig::default());
    sim.start_tag_owned(&OwnedTag::new("body"));
    assert!(sim.fast_start(atom::UL).is_some());
    assert!(sim.fast_start(atom::LI).is_some());
    assert!(sim.fast_end(atom::LI).is_some());
    assert!(sim.fast_end(atom::UL).is_some());
    assert!(sim.fast_start(atom::H2).is_some());
    // A heading right inside a heading closes it: the general rules.
    assert!(sim.fast_start(atom::H3).is_none());
    assert!(sim.fast_end(atom::H2).is_some());
    let script = sim.fast_start(atom::SCRIPT);
    assert_eq!(
        script.and_then(|e| e.switch),
        Some(crate::tree_builder::TokenizerSwitch::ScriptData)
    );
    assert!(sim.fast_end(atom::SCRIPT).is_some());
    let outside = sim.depth();
    assert!(sim.fast_start(atom::TABLE).is_some());
    // The first row implies a `tbody`: the general rules.
    assert!(sim.fast_start(atom::TR).is_none());
    sim.start_tag_owned(&OwnedTag::new("tr"));
    assert!(sim.fast_start(atom::TD).is_some());
    assert!(sim.fast_end(atom::TD).is_some());
    assert!(sim.fast_end(atom::TR).is_some());
    assert!(sim.fast_start(atom::TR).is_some());
    assert!(sim.fast_start(atom::TH).is_some());
    assert!(sim.fast_end(atom::TH).is_some());
    assert!(sim.fast_end(atom::TR).is_some());
    // The table and its implied body close at once.
    let table = sim.fast_end(atom::TABLE);
    assert_eq!(table.map(|e| e.kept), Some(outside));
}
