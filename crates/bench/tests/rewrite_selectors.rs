//! Differential test of the streaming rewriter's selector engine (issue 9,
//! acceptance 4): for each selector, the elements tagloom's rewriter matches on a
//! bench page (element handlers, streaming, no tree) equal what `scraper` matches
//! on html5ever's tree of the same page.
//!
//! Elements are compared as multisets of signatures (lowercased name + sorted
//! attributes), since a stream has no node identity. Where the streaming model
//! cannot agree with a tree, the difference is listed with its reason in
//! `rewrite-selector-differences.txt`: a difference not listed fails the test, and so
//! does a listed one that no longer occurs.

use std::cell::RefCell;
use std::collections::BTreeMap;
use std::fmt::Write as _;

use tagloom_transform::rewrite::{Handlers, Rewriter, Settings};

/// 60 selectors of the kinds rewriting rules use.
const SELECTORS: &[&str] = &[
    "a[href]",
    "a[href^=\"http\"]",
    "a[href^=\"HTTPS://\" i]",
    "a[href$=\".pdf\"]",
    "a[href*=wiki]",
    "a[target=_blank]",
    "a:not([href])",
    "img",
    "img:not([alt])",
    "img[src$=\".svg\"]",
    "img[loading=lazy]",
    "meta[name=description i]",
    "meta[property^=\"og:\"]",
    "meta[charset]",
    "link[rel=stylesheet]",
    "link[rel~=icon]",
    "script[src]",
    "script:not([src])",
    "script[type=\"application/ld+json\"]",
    "style",
    "div.content p",
    "div > p",
    "p a",
    "ul > li",
    "ul > li:nth-child(2n+1)",
    "ol > li:first-child",
    "li:nth-child(3)",
    "li:nth-child(-n+3)",
    "tr:nth-child(even)",
    "table tr > td",
    "table > tbody > tr",
    "td:first-child",
    "th",
    "h1, h2, h3",
    "h2[id]",
    "section h2",
    "nav a",
    "header a, footer a",
    "form input[type=hidden]",
    "input:not([type=hidden])",
    "button[type=submit i]",
    "[data-testid]",
    "[class*=button]",
    "[lang|=en]",
    "[aria-hidden=true]",
    "[role=navigation] a",
    "span.mw-headline",
    "div#content, div#bodyContent",
    "code",
    "pre > code",
    "p:first-of-type",
    "dl > dt:nth-of-type(2n)",
    "svg path",
    "body > div",
    "html > head > title",
    "iframe[src]",
    "*:not(div):not(span):not(a):not(p):not(li)",
    ":first-child > a",
    "body *",
    "div div div div a",
];

fn signature(name: &str, attrs: impl Iterator<Item = (String, String)>) -> String {
    let mut attrs: Vec<(String, String)> = attrs.collect();
    attrs.sort();
    let mut s = name.to_ascii_lowercase();
    for (n, v) in attrs {
        let _ = write!(s, " {}={v:?}", n.to_ascii_lowercase());
    }
    s
}

fn tagloom_matches(bytes: &[u8]) -> Vec<Vec<String>> {
    let found = RefCell::new(vec![Vec::new(); SELECTORS.len()]);
    let mut handlers = Handlers::new();
    for (i, sel) in SELECTORS.iter().enumerate() {
        let found = &found;
        handlers
            .element(sel, move |el| {
                let sig = signature(
                    el.tag_name(),
                    el.attributes()
                        .into_iter()
                        .map(|(n, v)| (n.to_owned(), v.to_owned())),
                );
                found.borrow_mut()[i].push(sig);
                Ok(())
            })
            .expect("selector parses");
    }
    let mut rw = Rewriter::new(handlers, Settings::default(), |_: &[u8]| {});
    rw.write(bytes).expect("rewrite");
    let _sink = rw.end().expect("end");
    found.into_inner()
}

fn scraper_matches(bytes: &[u8]) -> Vec<Vec<String>> {
    let doc = scraper::Html::parse_document(&String::from_utf8_lossy(bytes));
    SELECTORS
        .iter()
        .map(|sel| {
            let sel = scraper::Selector::parse(sel).expect("scraper parses the selector");
            doc.select(&sel)
                .map(|el| {
                    let v = el.value();
                    signature(
                        v.name(),
                        v.attrs().map(|(n, v)| (n.to_owned(), v.to_owned())),
                    )
                })
                .collect()
        })
        .collect()
}

/// `(extra in tagloom, missing from tagloom)`, as signature → count.
fn multiset_diff(ours: &[String], theirs: &[String]) -> (BTreeMap<String, i64>, usize, usize) {
    let mut counts: BTreeMap<String, i64> = BTreeMap::new();
    for s in ours {
        *counts.entry(s.clone()).or_default() += 1;
    }
    for s in theirs {
        *counts.entry(s.clone()).or_default() -= 1;
    }
    counts.retain(|_, c| *c != 0);
    let extra = counts
        .values()
        .filter(|c| **c > 0)
        .map(|c| *c as usize)
        .sum();
    let missing = counts
        .values()
        .filter(|c| **c < 0)
        .map(|c| (-*c) as usize)
        .sum();
    (counts, extra, missing)
}

#[test]
fn selectors_match_what_scraper_matches_on_the_html5ever_tree() {
    let Some(pages) = tagloom_bench::corpus_pages("rewrite selector differential test") else {
        return;
    };
    let known_text = include_str!("rewrite-selector-differences.txt");
    let known: BTreeMap<(String, String), String> = known_text
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .filter_map(|l| {
            let mut f = l.split('\t');
            Some((
                (f.next()?.to_owned(), f.next()?.to_owned()),
                f.next()?.to_owned(),
            ))
        })
        .collect();
    let mut actual: BTreeMap<(String, String), String> = BTreeMap::new();
    let mut total = 0;
    let mut agreeing = 0;
    for page in &pages {
        let ours = tagloom_matches(&page.bytes);
        let theirs = scraper_matches(&page.bytes);
        for (i, sel) in SELECTORS.iter().enumerate() {
            total += 1;
            let (diff, extra, missing) = multiset_diff(&ours[i], &theirs[i]);
            if diff.is_empty() {
                agreeing += 1;
                continue;
            }
            let counts = format!("+{extra} -{missing} of {}", theirs[i].len());
            println!("{} {sel:?}: {counts}", page.name);
            for (sig, c) in diff.iter().take(6) {
                println!("    {c:+} {}", sig.chars().take(160).collect::<String>());
            }
            actual.insert((page.name.clone(), (*sel).to_owned()), counts);
        }
    }
    println!("{agreeing} of {total} (page, selector) pairs agree exactly");
    let mut problems = Vec::new();
    for (key, counts) in &actual {
        match known.get(key) {
            Some(listed) if listed == counts => {}
            Some(listed) => problems.push(format!("{key:?}: now {counts}, listed {listed}")),
            None => problems.push(format!("{key:?}: {counts}, not listed")),
        }
    }
    for key in known.keys() {
        if !actual.contains_key(key) {
            problems.push(format!(
                "{key:?}: listed but now agrees (remove it from the list)"
            ));
        }
    }
    assert!(
        problems.is_empty(),
        "unexpected differences:\n{}",
        problems.join("\n")
    );
}
