//! The parserTests harness (MediaWiki/Parsoid's `tests/parser/*.txt`), read at
//! test time from `../shared/parsertests` beside the repository (GPL data: never
//! copied in). Runs the tests Parsoid runs in wt2html mode whose tagloom stage
//! (`stages.tsv`) is S1, S2 or S3, normalizes both sides as Parsoid's test runner
//! does, prints `N passed, N failed` per stage, and holds a names-only ratchet:
//! `tests/parser_tests_known_failures.txt` (`file<TAB>test name` per line).
//!
//! - `PARSERTESTS_FILTER=substring`: run only tests whose name (or file) contains it, with
//!   the wikitext and both normalized sides printed.
//! - `PARSERTESTS_STAGE=S1`: only the tests of one stage.
//! - `PARSERTESTS_UPDATE=1`: rewrite the known-failure list from this run.

#[path = "parser_tests_support/format.rs"]
mod format;
#[path = "parser_tests_support/normalize.rs"]
mod normalize;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;
use std::sync::Arc;

use tagloom_testdata::Shared;
use tagloom_wikitext::preprocess::{Clock, MemoryStore, PageStore, Site, Title};
use tagloom_wikitext::{RenderOptions, render};

const KNOWN: &str = "tests/parser_tests_known_failures.txt";

struct Row {
    file: String,
    name: String,
    stage: String,
}

fn rows(dir: &Path) -> Vec<Row> {
    let text = std::fs::read_to_string(dir.join("stages.tsv")).unwrap_or_default();
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let cols: Vec<&str> = line.split('\t').collect();
            let (file, name, wt2html, stage) =
                (cols.first()?, cols.get(1)?, cols.get(2)?, cols.get(3)?);
            (*wt2html == "yes" && matches!(*stage, "S1" | "S2" | "S3")).then(|| Row {
                file: (*file).to_owned(),
                name: (*name).to_owned(),
                stage: (*stage).to_owned(),
            })
        })
        .collect()
}

enum Verdict {
    Pass,
    Fail {
        expected: String,
        actual: String,
        raw: String,
    },
}

fn run_case(case: &format::Case, pages: &Arc<MemoryStore>) -> Verdict {
    let Some((_, expected_html)) = case.expected() else {
        return Verdict::Fail {
            expected: "(no expected section)".into(),
            actual: String::new(),
            raw: String::new(),
        };
    };
    let wikitext = case.sections.get("wikitext").cloned().unwrap_or_default();
    let mut options = RenderOptions {
        title: case.title().unwrap_or_else(|| "Parser test".to_owned()),
        store: Some(pages.clone() as Arc<dyn PageStore>),
        ..RenderOptions::default()
    };
    // parserTests' clock: 1970-01-01T00:02:03Z.
    options.preprocess.clock = Clock::at(123);
    // MediaWiki's parser test runner renders as revision 1337 (`{{REVISIONID}}`).
    options.preprocess.revision_id = Some(1337);
    let raw = match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        render(&wikitext, &options)
    })) {
        Ok(Ok(html)) => html,
        Ok(Err(e)) => format!("(error: {e})"),
        Err(_) => "(panic)".to_owned(),
    };
    let parsoid_only = case.parsoid_only();
    let preserve = case.preserve_iew();
    let expected = if parsoid_only {
        normalize::normalize_out(expected_html, true, preserve)
    } else {
        normalize::normalize_html(expected_html)
    };
    let actual = normalize::normalize_out(&raw, parsoid_only, preserve);
    if expected == actual {
        Verdict::Pass
    } else {
        Verdict::Fail {
            expected,
            actual,
            raw,
        }
    }
}

#[test]
fn parser_tests() {
    let Some(dir) = Shared::ParserTests.dir("parser_tests") else {
        return;
    };
    let filter = std::env::var("PARSERTESTS_FILTER").ok();
    let stage_filter = std::env::var("PARSERTESTS_STAGE").ok();
    let update = std::env::var("PARSERTESTS_UPDATE").is_ok_and(|v| v == "1");
    let rows = rows(&dir);

    // Parse each file once; every article of every file is a page that exists.
    let mut files: BTreeMap<String, format::TestFile> = BTreeMap::new();
    for row in &rows {
        if !files.contains_key(&row.file) {
            let bytes = std::fs::read(dir.join(&row.file)).unwrap_or_default();
            files.insert(
                row.file.clone(),
                format::parse(&String::from_utf8_lossy(&bytes)),
            );
        }
    }
    // Each file's articles are the pages its tests see (with Main Page).
    let site = Site::default();
    let stores: BTreeMap<String, Arc<MemoryStore>> = files
        .iter()
        .map(|(name, file)| {
            let mut store = MemoryStore::default();
            if let Ok(t) = Title::parse("Main Page", 0, &site) {
                store.insert(t, "");
            }
            for article in &file.articles {
                if let Ok(t) = Title::parse(&article.title, 0, &site) {
                    store.insert(t, article.text.as_str());
                }
            }
            (name.clone(), Arc::new(store))
        })
        .collect();

    let mut counts: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut failing: BTreeSet<String> = BTreeSet::new();
    let mut ran: BTreeSet<String> = BTreeSet::new();
    for row in &rows {
        if filter
            .as_ref()
            .is_some_and(|f| !row.name.contains(f.as_str()) && !row.file.contains(f.as_str()))
            || stage_filter.as_ref().is_some_and(|s| *s != row.stage)
        {
            continue;
        }
        let key = format!("{}\t{}", row.file, row.name);
        let Some(case) = files
            .get(&row.file)
            .and_then(|f| f.cases.iter().find(|c| c.name == row.name))
        else {
            continue;
        };
        ran.insert(key.clone());
        let entry = counts.entry(row.stage.as_str()).or_default();
        let Some(pages) = stores.get(&row.file) else {
            continue;
        };
        match run_case(case, pages) {
            Verdict::Pass => {
                entry.0 += 1;
                if filter.is_some() {
                    println!("PASS {}: {}", row.file, row.name);
                }
            }
            Verdict::Fail {
                expected,
                actual,
                raw,
            } => {
                entry.1 += 1;
                failing.insert(key);
                if filter.is_some() {
                    println!(
                        "FAIL {} {}: {}\n--- wikitext\n{}\n--- raw output\n{raw}\n--- expected (normalized)\n{expected}\n--- actual (normalized)\n{actual}\n",
                        row.stage,
                        row.file,
                        row.name,
                        case.sections.get("wikitext").map_or("", String::as_str),
                    );
                }
            }
        }
    }
    for (stage, (pass, fail)) in &counts {
        let total = pass + fail;
        let pct = if total == 0 {
            0.0
        } else {
            100.0 * *pass as f64 / total as f64
        };
        println!("{stage}: {pass} passed, {fail} failed ({pct:.1} %)");
    }

    let known_path = Path::new(env!("CARGO_MANIFEST_DIR")).join(KNOWN);
    if update && filter.is_none() && stage_filter.is_none() {
        let mut text = String::from(
            "# parserTests known failures (names only): file<TAB>test name.\n\
             # Reason for every entry: the feature is not implemented yet or its output\n\
             # differs from Parsoid's; run PARSERTESTS_FILTER=name to see the diff.\n\
             # Rewrite with PARSERTESTS_UPDATE=1 cargo test -p tagloom-wikitext --test parser_tests\n",
        );
        for key in &failing {
            text.push_str(key);
            text.push('\n');
        }
        std::fs::write(&known_path, text).unwrap();
        println!("wrote {} known failures", failing.len());
        return;
    }
    let known: BTreeSet<String> = std::fs::read_to_string(&known_path)
        .unwrap_or_default()
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(str::to_owned)
        .collect();
    let now_passing: Vec<&String> = known
        .iter()
        .filter(|k| ran.contains(*k) && !failing.contains(*k))
        .collect();
    let new_failures: Vec<&String> = failing.iter().filter(|k| !known.contains(*k)).collect();
    let mut problems = String::new();
    for k in &now_passing {
        problems.push_str(&format!("passes but is listed (remove from list): {k}\n"));
    }
    for k in &new_failures {
        problems.push_str(&format!("fails and is not listed: {k}\n"));
    }
    assert!(
        problems.is_empty(),
        "known-failure ratchet ({KNOWN}):\n{problems}"
    );
}
