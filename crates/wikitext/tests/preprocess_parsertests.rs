//! MediaWiki's parserTests at the wikitext level: the cases of every file
//! (`preprocessor.txt`, `magicWords.txt`, `parserTests.txt`, … — the Cite files
//! aside) whose expected legacy HTML is one plain paragraph
//! (`<p>text\n</p>`, no tags) are checked against the preprocessor's expansion:
//! equal text (character references decoded on both sides) passes; a different
//! expansion that contains no wiki markup fails; a different expansion with
//! markup cannot be judged without the parser and is counted as unchecked (the
//! parser's harness covers those).
//!
//! The data is GPL and stays outside the repository: it is read from
//! `$TAGLOOM_PARSERTESTS` or `../shared/parsertests` beside the checkout, and the
//! test is skipped (with a message; a failure under CI) when it is absent (see
//! `tagloom-testdata`). Known failures are listed
//! by name, with a reason, in `known-failures/preprocess-parsertests.txt`; the
//! list is a ratchet (a new failure fails, and so does a listed test that passes).

use std::collections::BTreeMap;

use tagloom_testdata::Shared;
use tagloom_wikitext::preprocess::{Clock, Config, MemoryStore, Preprocessor, Site, Title};

#[derive(Default)]
struct Case {
    name: String,
    sections: BTreeMap<String, String>,
}

/// Articles and tests of one file (the format of `parsertests/NOTES.md`).
fn read_file(text: &str) -> (Vec<(String, String)>, Vec<Case>) {
    let mut articles = Vec::new();
    let mut tests = Vec::new();
    let mut lines = text.lines().peekable();
    let body = |lines: &mut std::iter::Peekable<std::str::Lines<'_>>| {
        let mut s = Vec::new();
        while let Some(l) = lines.peek() {
            if l.starts_with("!!") {
                break;
            }
            s.push(*l);
            lines.next();
        }
        s.join("\n")
    };
    while let Some(line) = lines.next() {
        let Some(kw) = line.strip_prefix("!!") else {
            continue;
        };
        match kw.trim() {
            "article" => {
                let title = body(&mut lines).trim().to_owned();
                lines.next(); // !! text
                let text = body(&mut lines);
                articles.push((title, text));
            }
            "test" => {
                let mut case = Case {
                    name: body(&mut lines).trim().to_owned(),
                    ..Case::default()
                };
                while let Some(l) = lines.next() {
                    let k = l.trim_start_matches('!').trim();
                    if k == "end" {
                        break;
                    }
                    let b = body(&mut lines);
                    case.sections.insert(k.to_owned(), b);
                }
                tests.push(case);
            }
            _ => {}
        }
    }
    (articles, tests)
}

fn decode(s: &str) -> String {
    let mut out = String::new();
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let end = rest.find(';').filter(|&e| e < 12);
        let c = end.and_then(|e| match &rest[1..e] {
            "amp" => Some('&'),
            "lt" => Some('<'),
            "gt" => Some('>'),
            "quot" => Some('"'),
            "nbsp" => Some('\u{a0}'),
            n => n.strip_prefix('#').and_then(|n| {
                match n.strip_prefix(['x', 'X']) {
                    Some(h) => u32::from_str_radix(h, 16).ok(),
                    None => n.parse().ok(),
                }
                .and_then(char::from_u32)
            }),
        });
        match (c, end) {
            (Some(c), Some(e)) => {
                out.push(c);
                rest = &rest[e + 1..];
            }
            _ => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// Whether expanded wikitext would render as exactly its text in one paragraph.
fn plain(s: &str) -> bool {
    const MARKUP: &[&str] = &[
        "[[", "[http", "[//", "''", "<", "{|", "~~~", "://", "ISBN ", "RFC ", "PMID ", "\n\n", "&",
    ];
    let switch = s
        .split("__")
        .skip(1)
        .step_by(2)
        .any(|w| !w.is_empty() && w.bytes().all(|b| b.is_ascii_uppercase()));
    !switch
        && !MARKUP.iter().any(|m| s.contains(m))
        && !s
            .lines()
            .any(|l| l.starts_with([' ', '*', '#', ':', ';', '=']) || l.starts_with("----"))
}

#[test]
fn parsertests_at_the_wikitext_level() {
    let Some(dir) = Shared::ParserTests.dir("parsertests_at_the_wikitext_level") else {
        return;
    };
    let known_text = include_str!("known-failures/preprocess-parsertests.txt");
    let known: Vec<&str> = known_text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| l.split(" -- ").next().unwrap_or(l).trim())
        .collect();
    let mut problems = Vec::new();
    let mut fixed = Vec::new();
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .map(|d| {
            d.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.ends_with(".txt"))
                .collect()
        })
        .unwrap_or_default();
    files.sort();
    let (mut total_pass, mut total_fail) = (0, 0);
    for file in &files {
        let Ok(text) = std::fs::read_to_string(dir.join(file)) else {
            use std::io::Write;
            let _ = writeln!(std::io::stderr(), "SKIPPED {file}: not found");
            continue;
        };
        let (articles, tests) = read_file(&text);
        let site = Site::default();
        let mut store = MemoryStore::default();
        for (t, src) in &articles {
            if let Ok(t) = Title::parse(t, 0, &site) {
                store.insert(t, src.as_str());
            }
        }
        let (mut pass, mut fail, mut unchecked, mut skipped) = (0, 0, 0, 0);
        for case in &tests {
            let options = case
                .sections
                .get("options")
                .map(String::as_str)
                .unwrap_or("");
            let expected = case
                .sections
                .get("html/php")
                .or_else(|| case.sections.get("html"));
            let Some(wikitext) = case.sections.get("wikitext") else {
                continue;
            };
            let plain_expected = expected
                .and_then(|h| h.strip_prefix("<p>"))
                .and_then(|h| h.strip_suffix("\n</p>"))
                .filter(|h| !h.contains('<'));
            let excluded = [
                "disabled",
                "language=",
                "pst",
                "msg",
                "showtitle",
                "cat",
                "ill",
            ]
            .iter()
            .any(|o| options.contains(o))
                || case.sections.contains_key("config");
            let Some(expected) = plain_expected.filter(|_| !excluded) else {
                skipped += 1;
                continue;
            };
            let mut config = Config {
                clock: Clock::at(123),
                ..Config::default()
            };
            if options.contains("subpage") {
                config.site.subpage_namespaces.push(0);
            }
            let title = options
                .split("title=[[")
                .nth(1)
                .and_then(|r| r.split("]]").next())
                .unwrap_or("Parser test");
            let Ok(title) = Title::parse(title, 0, &config.site) else {
                skipped += 1;
                continue;
            };
            let pre = Preprocessor::new(&store, config);
            let Ok(out) = pre.expand(&title, wikitext) else {
                fail += 1;
                continue;
            };
            let blank = |c: char| c.is_ascii_whitespace();
            let ours = decode(out.text.trim_matches(blank));
            let theirs = decode(expected.trim_matches(blank));
            let id = format!("{file}: {}", case.name);
            let listed = known.contains(&id.as_str());
            if ours == theirs {
                pass += 1;
                if listed {
                    fixed.push(id);
                }
            } else if plain(&out.text) {
                fail += 1;
                if !listed {
                    problems.push(format!(
                        "{id}\n    expected {theirs:?}\n    got      {ours:?}"
                    ));
                }
            } else {
                unchecked += 1;
                if std::env::var_os("TAGLOOM_PT_VERBOSE").is_some() {
                    eprintln!("unchecked {id}\n    expected {theirs:?}\n    got      {ours:?}");
                }
            }
        }
        total_pass += pass;
        total_fail += fail;
        eprintln!(
            "{file}: {pass} passed, {fail} failed, {unchecked} unchecked (markup), {skipped} not plain-paragraph tests"
        );
    }
    eprintln!("all files: {total_pass} passed, {total_fail} failed");
    assert!(
        problems.is_empty(),
        "new failures:\n{}",
        problems.join("\n")
    );
    assert!(
        fixed.is_empty(),
        "now passing, remove from the known-failure list:\n{}",
        fixed.join("\n")
    );
}
