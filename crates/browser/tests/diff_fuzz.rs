//! Differential fuzzing against Chromium (issue 14, acceptance 4). Ignored by
//! default; run it for N seconds with
//!
//! ```text
//! TAGLOOM_DIFF_FUZZ_SECS=600 cargo test -p tagloom-browser --test diff_fuzz -- --ignored --nocapture
//! ```
//!
//! (`TAGLOOM_DIFF_FUZZ_SEED` picks the seed, default: the clock, printed;
//! `TAGLOOM_DIFF_FUZZ_DOCS` stops after that many documents, so that a run with
//! a fixed seed is the same on any machine: what `.ci/diff_fuzz.sh` does.)
//! Random tag soup (`tagloom_browser::soup`, plus the tokens of
//! `fuzz/dicts/html.dict`) goes to Chromium's `DOMParser` — one document in five
//! as a fragment in a random context element — and to tagloom, a thousand
//! documents per round trip. Every difference is minimised by delta debugging
//! (each step's candidates judged in one round trip) and classified: a class is
//! a known Chromium deviation with a *neutraliser*, an edit of the input that
//! takes exactly that deviation away (e.g. removing U+0000); the minimised input
//! belongs to the first class whose neutralised input both parsers agree on.
//! Classes are listed in `tests/known-differences.txt` as `fuzz:<class> |
//! reason (spec step)`. An unclassified difference, or a class missing from the
//! file, fails the run (after all are printed).

mod support;

use support::deviations;

use std::collections::BTreeMap;
use std::io::Write as _;
use std::time::{Duration, Instant};

use tagloom_browser::compare::{self, Case, KnownDifferences};
use tagloom_browser::minimize::minimize;
use tagloom_browser::soup::{Rng, SoupGenerator, parse_dictionary};
use tagloom_browser::{Page, launch_for_test};
use tagloom_html::dom_patch::Namespace;
use tagloom_html::driver::ParseConfig;

const DICTIONARY: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fuzz/dicts/html.dict");

/// Documents per round trip.
const BATCH: usize = 1000;

/// Most differences minimised per round of documents (the rest are counted; about
/// 1 % of the documents differ, so in practice every one is minimised).
const MINIMISE_PER_ROUND: usize = 64;

/// Context elements of the fragment cases.
const CONTEXTS: &[(Namespace, &str)] = &[
    (Namespace::Html, "body"),
    (Namespace::Html, "div"),
    (Namespace::Html, "td"),
    (Namespace::Html, "tr"),
    (Namespace::Html, "tbody"),
    (Namespace::Html, "table"),
    (Namespace::Html, "select"),
    (Namespace::Html, "template"),
    (Namespace::Html, "html"),
    (Namespace::Html, "head"),
    (Namespace::Html, "colgroup"),
    (Namespace::Html, "textarea"),
    (Namespace::Html, "title"),
    (Namespace::Svg, "svg"),
    (Namespace::Svg, "foreignObject"),
    (Namespace::MathMl, "math"),
    (Namespace::MathMl, "mi"),
    (Namespace::MathMl, "annotation-xml"),
];

/// Whether each case parses to another tree in Chromium than in tagloom (with
/// `config`: [`compare::matching_config`]).
fn differs(page: &mut Page<'_>, config: &ParseConfig, cases: &[Case]) -> Vec<bool> {
    let theirs = compare::chromium_dumps(page, cases).expect("chromium dumps");
    cases
        .iter()
        .zip(theirs)
        .map(|(case, theirs)| {
            compare::tagloom_dump_with(case, config).unwrap_or_else(|e| format!("#error {e}"))
                != theirs
        })
        .collect()
}

/// The first class whose neutralised input no longer differs, for each case.
fn classify(
    page: &mut Page<'_>,
    config: &ParseConfig,
    cases: &[Case],
) -> Vec<Option<&'static str>> {
    let mut out = vec![None; cases.len()];
    for (name, neutralise) in deviations::CLASSES {
        let todo: Vec<(usize, Case)> = cases
            .iter()
            .enumerate()
            .filter(|(i, _)| out.get(*i).is_some_and(Option::is_none))
            .filter_map(|(i, c)| neutralise.apply(c).map(|n| (i, n)))
            .collect();
        let edited: Vec<Case> = todo.iter().map(|(_, c)| c.clone()).collect();
        for ((i, _), still) in todo.iter().zip(differs(page, config, &edited)) {
            if !still && let Some(slot) = out.get_mut(*i) {
                *slot = Some(*name);
            }
        }
    }
    out
}

fn id(case: &Case) -> String {
    let context = match &case.context {
        None => "document".to_owned(),
        Some((Namespace::Html, name)) => name.clone(),
        Some((Namespace::Svg, name)) => format!("svg {name}"),
        Some((Namespace::MathMl, name)) => format!("math {name}"),
    };
    format!(
        "fuzz:{context}:{}",
        serde_json::Value::String(case.data.clone())
    )
}

#[test]
#[ignore = "runs for TAGLOOM_DIFF_FUZZ_SECS (default 60) against Chromium"]
fn differential_fuzz_against_chromium() {
    let Some(mut browser) = launch_for_test("differential_fuzz_against_chromium") else {
        return;
    };
    let secs = std::env::var("TAGLOOM_DIFF_FUZZ_SECS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(60u64);
    let seed = std::env::var("TAGLOOM_DIFF_FUZZ_SEED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(1, |d| d.as_secs())
        });
    let max_docs = std::env::var("TAGLOOM_DIFF_FUZZ_DOCS")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(usize::MAX);
    let dictionary = std::fs::read_to_string(DICTIONARY)
        .map(|t| parse_dictionary(&t))
        .unwrap_or_default();
    let _ = writeln!(
        std::io::stderr(),
        "diff_fuzz: seed {seed}, {secs} s, {} dictionary tokens",
        dictionary.len()
    );
    let known = KnownDifferences::load(support::KNOWN_DIFFERENCES).expect("known differences");
    let mut generator = SoupGenerator::new(seed, dictionary);
    let mut contexts = Rng::new(seed ^ 0x5eed);
    let mut page = browser.new_page().expect("page");
    compare::install_dumper(&mut page).expect("install dumper");
    let config = compare::matching_config(&mut page).expect("probe processing instructions");

    let deadline = Instant::now() + Duration::from_secs(secs);
    let (mut tried, mut different, mut skipped) = (0usize, 0usize, 0usize);
    // Minimised id -> (times seen, the first full input).
    let mut found: BTreeMap<String, (usize, String)> = BTreeMap::new();
    while Instant::now() < deadline && tried < max_docs {
        let cases: Vec<Case> = (0..BATCH.min(max_docs - tried))
            .map(|_| {
                let data = generator.document();
                match contexts.below(5) {
                    0 => {
                        let (ns, name) = contexts
                            .pick(CONTEXTS)
                            .copied()
                            .unwrap_or((Namespace::Html, "div"));
                        Case {
                            data,
                            context: Some((ns, name.to_owned())),
                        }
                    }
                    _ => Case::document(data),
                }
            })
            .collect();
        let verdicts = differs(&mut page, &config, &cases);
        tried += cases.len();
        let failing: Vec<&Case> = cases
            .iter()
            .zip(&verdicts)
            .filter_map(|(c, &d)| d.then_some(c))
            .collect();
        different += failing.len();
        for case in failing.iter().take(MINIMISE_PER_ROUND) {
            let context = case.context.clone();
            let small = minimize(&case.data, 200, |candidates| {
                let cs: Vec<Case> = candidates
                    .iter()
                    .map(|d| Case {
                        data: d.clone(),
                        context: context.clone(),
                    })
                    .collect();
                differs(&mut page, &config, &cs)
            });
            let small = Case {
                data: small,
                context: context.clone(),
            };
            let entry = found.entry(id(&small)).or_insert((0, case.data.clone()));
            entry.0 += 1;
        }
        skipped += failing.len().saturating_sub(MINIMISE_PER_ROUND);
    }

    let minimised: Vec<Case> = found.keys().map(|id| found_case(id)).collect();
    let classes = classify(&mut page, &config, &minimised);
    let mut by_class: BTreeMap<&str, Vec<String>> = BTreeMap::new();
    for ((id, (count, first)), class) in found.iter().zip(&classes) {
        let line = format!("x{count:<4} {id}   (first from {first:?})");
        by_class
            .entry(class.unwrap_or("UNCLASSIFIED"))
            .or_default()
            .push(line);
    }
    println!(
        "diff_fuzz: seed {seed}: {tried} documents tried, {different} differed \
         ({skipped} not minimised), {} distinct minimised differences in {} classes:",
        found.len(),
        by_class.len()
    );
    let mut failures = Vec::new();
    for (class, lines) in &by_class {
        let reason = known.reason(&format!("fuzz:{class}"));
        println!(
            "  {class}: {} minimised inputs | {}",
            lines.len(),
            reason.unwrap_or("NOT LISTED")
        );
        let shown = if reason.is_none() { lines.len() } else { 5 };
        for line in lines.iter().take(shown) {
            println!("      {line}");
        }
        if reason.is_none() {
            failures.push(format!("{class} ({} inputs)", lines.len()));
        }
    }
    assert!(
        failures.is_empty(),
        "differences of no listed class: {failures:?}"
    );
}

/// The case of a minimised id (`fuzz:<context>:<json>`).
fn found_case(id: &str) -> Case {
    let rest = id.strip_prefix("fuzz:").unwrap_or(id);
    let (context, json) = rest.split_once(':').unwrap_or(("document", rest));
    let data: String = serde_json::from_str(json).unwrap_or_default();
    let context = match context {
        "document" => None,
        c => Some(match c.split_once(' ') {
            Some(("svg", n)) => (Namespace::Svg, n.to_owned()),
            Some(("math", n)) => (Namespace::MathMl, n.to_owned()),
            _ => (Namespace::Html, c.to_owned()),
        }),
    };
    Case { data, context }
}

#[test]
fn renames_whole_tag_names_only() {
    assert_eq!(
        deviations::rename_tags("<b><base></B><br><b/><b", &["b"], "span").as_deref(),
        Some("<span><base></span><br><span/><span")
    );
    assert_eq!(
        deviations::rename_end_tags("<form></FORM >", "form", "x").as_deref(),
        Some("<form></x >")
    );
    assert_eq!(deviations::rename_tags("<p>", &["b"], "span"), None);
}
