//! Chromium's own parser against tagloom's (issue 14, acceptance 3, second half):
//! every html5lib tree-construction case with scripting off and every bench page
//! is parsed by `DOMParser.parseFromString(s, 'text/html')` in headless Chromium
//! (fragment cases: the `innerHTML` setter of the context element, created in a
//! no-quirks `DOMParser` document; a `template` context's result is its
//! contents; scripting is off for both) and by tagloom (`tagloom parse
//! --scripting off`'s path), both dumped in html5lib's format. Counts are
//! printed; a difference not listed in `tests/known-differences.txt`
//! (`id | reason`), or a listed id that no longer differs, fails the test.

mod support;

use std::time::Instant;

use tagloom_browser::compare::{self, KnownDifferences};
use tagloom_browser::launch_for_test;

#[test]
fn domparser_builds_the_same_trees_as_tagloom() {
    let Some(mut browser) = launch_for_test("domparser_builds_the_same_trees_as_tagloom") else {
        return;
    };
    let known = KnownDifferences::load(support::KNOWN_DIFFERENCES).expect("known differences");
    let (mut inputs, script_on) = support::tree_construction();
    let tree_cases = inputs.len();
    inputs.extend(support::bench_pages(
        "domparser_builds_the_same_trees_as_tagloom",
    ));
    let started = Instant::now();
    let mut page = browser.new_page().expect("page");
    compare::install_dumper(&mut page).expect("install dumper");
    // Chromium 156.0.8078.79 builds processing instructions (the July 2026 spec);
    // tagloom does with its option on, and follows html5lib-tests with it off.
    let config = compare::matching_config(&mut page).expect("probe processing instructions");
    let pis = config.session.tokenizer.processing_instructions;
    println!("Chromium builds processing instructions: {pis} (tagloom's option set to match)");
    let cases: Vec<_> = inputs.iter().map(|i| i.case.clone()).collect();
    let chromium = compare::chromium_dumps(&mut page, &cases).expect("chromium dumps");
    let browser_time = started.elapsed();

    let (mut same, mut listed) = (0, 0);
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    for (input, theirs) in inputs.iter().zip(&chromium) {
        let ours = compare::tagloom_dump_with(&input.case, &config)
            .unwrap_or_else(|e| format!("#error {e}"));
        let differs = ours != *theirs;
        match (differs, known.reason(&input.id)) {
            (false, None) => same += 1,
            (false, Some(_)) => fixed.push(input.id.clone()),
            (true, Some(_)) => listed += 1,
            (true, None) => unexpected.push(format!(
                "{} differs\n--- data\n{}\n--- {}",
                input.id,
                input.case.data.chars().take(400).collect::<String>(),
                compare::first_difference(&ours, theirs)
            )),
        }
    }
    println!(
        "DOMParser vs tagloom: {} inputs ({tree_cases} tree-construction cases, {} bench pages; \
         {script_on} #script-on cases left out): {same} same, {listed} listed differences, \
         {} unlisted, {} listed but same; browser side {browser_time:?}",
        inputs.len(),
        inputs.len() - tree_cases,
        unexpected.len(),
        fixed.len()
    );
    for u in &unexpected {
        println!("UNLISTED {u}\n");
    }
    assert!(
        unexpected.is_empty(),
        "{} unlisted differences",
        unexpected.len()
    );
    assert!(
        fixed.is_empty(),
        "listed but no longer different: {fixed:?}"
    );
}
