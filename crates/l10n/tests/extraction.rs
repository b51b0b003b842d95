//! What the reader extracts: attribute rules, `translate` inheritance, language
//! values, unique ids, rules overrides, bounded scans, directory flows.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use tagloom_l10n::flow::{self, Common, ExtractOptions, MergeOptions, PseudoOptions};
use tagloom_l10n::reader::{ReadOptions, read_document, units};
use tagloom_l10n::{Block, Rules};
use tagloom_testdata::Shared;

fn blocks(html: &str, rules: &Rules) -> Vec<Block> {
    units(
        html.as_bytes(),
        Path::new("t.html"),
        &ReadOptions::new(rules),
    )
    .unwrap()
}

fn texts(html: &str) -> Vec<String> {
    blocks(html, &Rules::default())
        .iter()
        .map(|b| b.plain_text())
        .collect()
}

#[test]
fn translatable_attributes() {
    let html = r#"<head><meta name="description" content="Desc"><meta property="og:title" content="OG">
<meta name="twitter:title" content="TW"><meta name="viewport" content="width=device-width">
<meta http-equiv="content-language" content="en"></head>
<body><div aria-label="Region"><table summary="Sum"><tr><th abbr="Ab">Header</th></tr></table>
<select><optgroup label="Group"><option>Opt</option></optgroup></select>
<video><track label="Captions"></video>
<input type="button" value="Press"><input type="text" value="typed" placeholder="Type here">
<img src="x.png" alt="Alt text" title="Img title"></div></body>"#;
    let got = texts(html);
    for want in [
        "Desc",
        "OG",
        "TW",
        "Region",
        "Sum",
        "Ab",
        "Header",
        "Group",
        "Opt",
        "Captions",
        "Press",
        "Type here",
        "Alt text",
        "Img title",
    ] {
        assert!(got.iter().any(|t| t == want), "{want} missing from {got:?}");
    }
    assert!(
        !got.iter()
            .any(|t| t.contains("width") || t == "typed" || t == "en"),
        "{got:?}"
    );
}

#[test]
fn translate_is_inherited() {
    let html = r#"<div translate="no"><p>Brand</p><p translate="yes">Slogan</p>
<section><h2 title="No tip">Kept</h2></section></div><p>Normal <span translate="no">Name</span> text</p>"#;
    let got = texts(html);
    assert_eq!(got, ["Slogan", "Normal  text"]);
    let b = blocks(html, &Rules::default());
    assert!(b[1].runs.iter().any(|r| matches!(r, tagloom_l10n::Run::Placeholder { data, .. } if data == "<span translate=\"no\">Name</span>")));
}

#[test]
fn whitespace_and_entities() {
    let b = blocks(
        "<p>\n  Hello\n   &amp;&nbsp;<b>you</b>  \n</p><pre> a\n  b </pre>",
        &Rules::default(),
    );
    assert_eq!(b[0].plain_text(), "Hello &\u{a0}you");
    assert_eq!(b[0].original, b"Hello\n   &amp;&nbsp;<b>you</b>");
    assert_eq!(b[1].plain_text(), " a\n  b ");
}

#[test]
fn notes_and_ids() {
    let b = blocks(
        "<!-- Say hi --><h1 id=\"hi\">Hi</h1><p>One</p><p>Two</p><h1 id=\"hi\">Dup</h1>",
        &Rules::default(),
    );
    assert_eq!(b[0].id, "id.hi");
    assert_eq!(b[0].notes, ["Say hi"]);
    let ids: HashSet<_> = b.iter().map(|b| b.id.clone()).collect();
    assert_eq!(
        ids.len(),
        b.len(),
        "{:?}",
        b.iter().map(|b| &b.id).collect::<Vec<_>>()
    );
}

#[test]
fn rules_file_overrides() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("rules.json");
    std::fs::write(
        &file,
        r#"{"opaque": ["script", "style", "code"], "scan_token_budget": 64}"#,
    )
    .unwrap();
    let rules = Rules::from_json_file(&file).unwrap();
    let b = blocks("<p>Run <code>ls -l</code> now</p>", &rules);
    assert_eq!(b[0].plain_text(), "Run  now");
    assert!(Rules::from_json_file(&dir.path().join("missing.json")).is_err());
}

#[test]
fn tiny_scan_budget_still_round_trips() {
    let dir = tempfile::tempdir().unwrap();
    let input = dir.path().join("in.html");
    let html =
        "<div><p>One <b>two</b> three <i>four</i> five six seven</p><ul><li>a<li>b</ul></div>"
            .repeat(20);
    std::fs::write(&input, &html).unwrap();
    let common = Common {
        rules: Arc::new(
            Rules::from_json_str(r#"{"scan_token_budget": 3, "scan_byte_budget": 16}"#).unwrap(),
        ),
        ..Common::default()
    };
    let xlf = dir.path().join("in.xlf");
    let mut opts = ExtractOptions::new("en", Some("fr")).unwrap();
    opts.common = common.clone();
    let r = flow::extract(&input, &xlf, &opts).unwrap();
    assert!(r.blocks() > 20);
    let out = dir.path().join("out.html");
    let m = MergeOptions {
        common,
        ..MergeOptions::default()
    };
    flow::merge(&input, &xlf, &out, &m).unwrap();
    assert_eq!(std::fs::read_to_string(out).unwrap(), html);
}

fn copy_samples(to: &Path) -> usize {
    let from = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data/l10n-samples");
    let mut n = 0;
    for e in std::fs::read_dir(from).unwrap() {
        let p = e.unwrap().path();
        if p.extension().is_some_and(|x| x == "html") {
            let sub = to.join(if n % 2 == 0 { "a" } else { "b/c" });
            std::fs::create_dir_all(&sub).unwrap();
            std::fs::copy(&p, sub.join(p.file_name().unwrap())).unwrap();
            n += 1;
        }
    }
    n
}

#[test]
fn directory_flows() {
    let dir = tempfile::tempdir().unwrap();
    let site = dir.path().join("site");
    let n = copy_samples(&site);
    let xlf = dir.path().join("xlf");
    let r = flow::extract(&site, &xlf, &ExtractOptions::new("en", Some("fr")).unwrap()).unwrap();
    assert_eq!(r.files.len(), n);
    assert!(r.failures.is_empty());
    let out = dir.path().join("out");
    let r = flow::merge(&site, &xlf, &out, &MergeOptions::default())
        .unwrap()
        .into_result()
        .unwrap();
    assert_eq!(r.files.len(), n);
    for f in flow::html_files(&site).unwrap() {
        assert_eq!(
            std::fs::read(site.join(&f)).unwrap(),
            std::fs::read(out.join(&f)).unwrap(),
            "{}",
            f.display()
        );
    }
    let pseudo = dir.path().join("pseudo");
    let r = flow::pseudo(&site, &pseudo, &PseudoOptions::default()).unwrap();
    assert_eq!(r.files.len(), n);
    println!("directory flows: {n} files extracted, merged byte-identical, pseudo-translated");
}

#[test]
fn unit_ids_are_unique_on_real_pages() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files: Vec<PathBuf> = std::fs::read_dir(root.join("tests/data/l10n-samples"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.extend(Shared::BenchCorpus.files("unit_ids_are_unique_on_real_pages", &["html"]));
    let mut total = 0;
    for f in files
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x != "md"))
    {
        let bytes = std::fs::read(f).unwrap();
        let mut ids = HashSet::new();
        let mut sink = |b: &Block| {
            for x in std::iter::once(b).chain(b.subs.iter()) {
                assert!(
                    ids.insert(x.id.clone()),
                    "{}: duplicate id {}",
                    f.display(),
                    x.id
                );
            }
            Ok(())
        };
        read_document(
            &bytes[..],
            f,
            &ReadOptions::new(&Rules::default()),
            None,
            Some(&mut sink),
        )
        .unwrap();
        total += ids.len();
    }
    println!("unique unit ids: {total} over {} pages", files.len());
}
