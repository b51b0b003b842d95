//! Acceptance 2: pseudo-translated output has the same element structure and
//! attribute names as the input; only text and translatable attribute values differ;
//! `lang` values retargeted by the rule of `tagloom_l10n::lang::Retarget` (the
//! source exactly, or the page's language when it names the source; never on
//! `hreflang` language switchers or elements that do not translate) became the
//! target, other `lang`s are untouched.
//!
//! Two views: the tree builder's (input and output parsed with `Html5ParseSession`
//! into a `DomStore`, elements compared in tree order by namespace, local name,
//! depth and attribute names and values), over the l10n samples, every html5lib
//! tree-construction document input and the bench corpus; and the tokenizer's (tags
//! in source order, end tags included, which the tree does not keep), over the
//! samples and the bench corpus.

mod support;

use std::path::{Path, PathBuf};

use tagloom_html::dom_patch::{AttrNamespace, Namespace};
use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
use tagloom_html::token::OwnedToken;
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
use tagloom_l10n::flow::{self, PseudoOptions};
use tagloom_l10n::lang::{LanguageTag, Retarget};
use tagloom_testdata::Shared;

/// Whether `value` becomes `fr` in an `en` page whose language is `page`.
fn retargets(value: &str, page: Option<&str>) -> bool {
    let (en, fr): (LanguageTag, LanguageTag) = ("en".parse().unwrap(), "fr".parse().unwrap());
    !value.trim().is_empty()
        && Retarget {
            source: &en,
            target: &fr,
            page: page.map(str::to_string),
        }
        .applies(value)
}

/// What must match of a tag (spans differ: the text around it changed).
#[derive(Debug, PartialEq)]
enum Item {
    Start(String, Vec<(String, String)>),
    End(String),
}

fn structure(bytes: &[u8]) -> Vec<Item> {
    let (encoding, bom) = tagloom_l10n::reader::detect_encoding(bytes, None);
    let (text, _) = encoding.decode_without_bom_handling(&bytes[bom..]);
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    tok.push_str(&text);
    tok.finish();
    let mut out = Vec::new();
    // The switches a tree builder makes, from the shared simulator.
    let mut sim = TextTypeSimulator::new(SimulatorConfig::default());
    while let Some(t) = tok.next_token().unwrap() {
        let t = t.to_owned();
        if let Some(state) = sim.process_owned(&t).switch {
            tok.set_state(state.into());
        }
        tok.set_cdata_allowed(sim.cdata_allowed());
        match t {
            OwnedToken::StartTag(tag) => out.push(Item::Start(
                tag.name().to_string(),
                tag.attrs()
                    .iter()
                    .map(|a| (a.name.to_string(), a.value.to_string()))
                    .collect(),
            )),
            OwnedToken::EndTag(tag) => out.push(Item::End(tag.name().to_string())),
            _ => {}
        }
    }
    out
}

const TRANSLATABLE: &[&str] = &[
    "title",
    "alt",
    "placeholder",
    "aria-label",
    "content",
    "value",
    "label",
    "summary",
    "abbr",
    "aria-description",
    "lang",
    "xml:lang",
];

fn check(input: &Path, work: &Path) -> Result<usize, String> {
    let out = work.join("pseudo.html");
    let opts = PseudoOptions {
        source_lang: "en".parse().unwrap(),
        target_lang: Some("fr".parse().unwrap()),
        ..PseudoOptions::default()
    };
    flow::pseudo(input, &out, &opts).map_err(|e| e.to_string())?;
    let a = structure(&std::fs::read(input).unwrap());
    let b = structure(&std::fs::read(&out).unwrap());
    if a.len() != b.len() {
        return Err(format!("{} tags vs {}", a.len(), b.len()));
    }
    let mut retargeted = 0;
    let mut page: Option<String> = None;
    for (x, y) in a.iter().zip(&b) {
        match (x, y) {
            (Item::Start(p, pa), _) if p == "html" && page.is_none() => {
                let lang = |n: &str| pa.iter().find(|(k, _)| k == n).map(|(_, v)| v.trim());
                page = lang("lang")
                    .or_else(|| lang("xml:lang"))
                    .map(str::to_string);
            }
            _ => {}
        }
        match (x, y) {
            (Item::End(p), Item::End(q)) if p == q => {}
            (Item::Start(p, pa), Item::Start(q, qa)) if p == q => {
                let names_a: Vec<_> = pa.iter().map(|(n, _)| n).collect();
                let names_b: Vec<_> = qa.iter().map(|(n, _)| n).collect();
                if names_a != names_b {
                    return Err(format!("<{p}> attributes {names_a:?} vs {names_b:?}"));
                }
                for ((n, v), (_, w)) in pa.iter().zip(qa) {
                    if n == "lang" || n == "xml:lang" {
                        // Only values the rule retargets may change, and only to
                        // `fr` (the tree check below also checks the unchanged ones).
                        if v != w {
                            if w != "fr" || !retargets(v, page.as_deref()) {
                                return Err(format!("lang {v:?} became {w:?}"));
                            }
                            retargeted += 1;
                        }
                    } else if v != w && !TRANSLATABLE.contains(&n.as_str()) {
                        return Err(format!("<{p} {n}> changed: {v:?} -> {w:?}"));
                    }
                }
            }
            _ => return Err(format!("{x:?} vs {y:?}")),
        }
    }
    Ok(retargeted)
}

#[test]
fn pseudo_keeps_structure() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = support::corpus(&root.join("tests/data/l10n-samples"), &["html", "phtml"]);
    files.extend(Shared::BenchCorpus.files("pseudo_keeps_structure", &["html"]));
    let work = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut retargeted = 0;
    for f in &files {
        match check(f, work.path()) {
            Ok(n) => retargeted += n,
            Err(e) => failures.push(format!("{}: {e}", f.display())),
        }
    }
    println!(
        "pseudo structure: {}/{} files identical in structure, {retargeted} lang values retargeted",
        files.len() - failures.len(),
        files.len()
    );
    assert!(failures.is_empty(), "{failures:#?}");
    assert!(retargeted > 0);
}

/// A language value the rule retargets (see [`retargets`]; `kept`: its element does
/// not translate or is a language switcher) must be `fr`; other values untouched.
/// Returns whether it was retargeted.
fn check_lang(v: &str, w: &str, page: Option<&str>, kept: bool) -> Result<bool, String> {
    if !kept && retargets(v, page) {
        if w != "fr" {
            return Err(format!("lang {v:?} became {w:?}"));
        }
        Ok(true)
    } else if v != w {
        Err(format!("lang {v:?} changed to {w:?}"))
    } else {
        Ok(false)
    }
}

/// The tree-builder comparison of `input` and its pseudo-translation `output`.
fn compare_trees(input: &[u8], output: &[u8]) -> Result<usize, String> {
    let rules = tagloom_l10n::Rules::default();
    let a = support::elements(&support::parse(input));
    let b = support::elements(&support::parse(output));
    let mut retargeted = 0;
    let page = page_lang(&a);
    // (depth, translates) of the open ancestors.
    let mut translates: Vec<(usize, bool)> = Vec::new();
    for (i, (x, y)) in a.iter().zip(&b).enumerate() {
        if (x.ns, &x.name, x.depth) != (y.ns, &y.name, y.depth) {
            return Err(format!(
                "element {i}: {:?} <{}> at depth {} vs {:?} <{}> at depth {}",
                x.ns, x.name, x.depth, y.ns, y.name, y.depth
            ));
        }
        while translates.last().is_some_and(|(d, _)| *d >= x.depth) {
            translates.pop();
        }
        let inherited = translates.last().is_none_or(|(_, t)| *t);
        let own_translate = rules.translate_of(&x.name, |n| attr(x, n), inherited);
        translates.push((x.depth, own_translate));
        retargeted += compare_attrs(&rules, x, y, own_translate, page.as_deref())?;
    }
    if a.len() != b.len() {
        return Err(format!("{} elements vs {}", a.len(), b.len()));
    }
    Ok(retargeted)
}

/// The value of `x`'s attribute `name` (no namespace).
fn attr<'e>(x: &'e support::El, name: &str) -> Option<&'e str> {
    x.attrs
        .iter()
        .find(|(ns, n, _)| *ns == AttrNamespace::None && n == name)
        .map(|(_, _, v)| v.as_str())
}

/// The page's language: the first `<html>`'s `lang`, else `xml:lang`.
fn page_lang(elements: &[support::El]) -> Option<String> {
    let html = elements
        .iter()
        .find(|e| e.name == "html" && e.ns == Namespace::Html)?;
    attr(html, "lang")
        .or_else(|| attr(html, "xml:lang"))
        .map(|v| v.trim().to_string())
}

/// The attributes of `x` (input) and `y` (output): the same names; values equal
/// but for translatable attributes and language values (returns how many of those
/// were retargeted, by [`check_lang`]).
fn compare_attrs(
    rules: &tagloom_l10n::Rules,
    x: &support::El,
    y: &support::El,
    own_translate: bool,
    page: Option<&str>,
) -> Result<usize, String> {
    let names = |e: &support::El| -> Vec<(AttrNamespace, String)> {
        e.attrs.iter().map(|(ns, n, _)| (*ns, n.clone())).collect()
    };
    if names(x) != names(y) {
        return Err(format!(
            "<{}> attributes {:?} vs {:?}",
            x.name,
            names(x),
            names(y)
        ));
    }
    let lookup = |name: &str| attr(x, name);
    let mut retargeted = 0;
    for ((ns, n, v), (_, _, w)) in x.attrs.iter().zip(&y.attrs) {
        let is_lang = match ns {
            AttrNamespace::Xml => n == "lang",
            AttrNamespace::None => rules.is_lang_value(&x.name, n, lookup),
            _ => false,
        };
        if is_lang && x.ns != Namespace::Html {
            // Foreign content (`svg`, `math`) is opaque to the reader: untouched.
            if v != w {
                return Err(format!("<{} {n}> in foreign content changed", x.name));
            }
        } else if is_lang {
            let kept = !own_translate || lookup("hreflang").is_some();
            retargeted += check_lang(v, w, page, kept)? as usize;
        } else if v != w
            && !(*ns == AttrNamespace::None
                && x.ns == Namespace::Html
                && rules.is_translatable_attr(&x.name, n, lookup))
        {
            return Err(format!("<{} {n}> changed: {v:?} -> {w:?}", x.name));
        }
    }
    Ok(retargeted)
}

fn pseudo_bytes(input: &Path, work: &Path) -> Result<Vec<u8>, String> {
    let out = work.join("pseudo.html");
    let opts = PseudoOptions {
        source_lang: "en".parse().unwrap(),
        target_lang: Some("fr".parse().unwrap()),
        ..PseudoOptions::default()
    };
    flow::pseudo(input, &out, &opts).map_err(|e| e.to_string())?;
    std::fs::read(&out).map_err(|e| e.to_string())
}

/// An input: its name and bytes.
type Named = (String, Vec<u8>);

#[test]
fn pseudo_keeps_tree_structure() {
    let root = support::manifest();
    let work = tempfile::tempdir().unwrap();
    let mut corpora: Vec<(&str, Vec<Named>)> = Vec::new();
    let read = |files: Vec<PathBuf>| -> Vec<Named> {
        files
            .into_iter()
            .map(|f| (f.display().to_string(), std::fs::read(&f).unwrap()))
            .collect()
    };
    corpora.push((
        "l10n samples",
        read(support::corpus(
            &root.join("tests/data/l10n-samples"),
            &["html", "phtml"],
        )),
    ));
    corpora.push((
        "html5lib tree-construction",
        support::html5lib_inputs()
            .into_iter()
            .map(|(n, d)| (n, d.into_bytes()))
            .collect(),
    ));
    let bench = read(Shared::BenchCorpus.files("the bench pages of pseudo_structure", &["html"]));
    corpora.push(("bench corpus", bench));
    let mut failures = Vec::new();
    let mut total_retargeted = 0;
    for (corpus, inputs) in &corpora {
        let mut ok = 0;
        let mut retargeted = 0;
        for (name, bytes) in inputs {
            let input = work.path().join("input.html");
            std::fs::write(&input, bytes).unwrap();
            let result =
                pseudo_bytes(&input, work.path()).and_then(|out| compare_trees(bytes, &out));
            match result {
                Ok(n) => {
                    ok += 1;
                    retargeted += n;
                }
                Err(e) => failures.push(format!("{corpus}: {name}: {e}")),
            }
        }
        println!(
            "pseudo tree structure, {corpus}: {ok}/{} identical in structure, {retargeted} lang values retargeted",
            inputs.len()
        );
        total_retargeted += retargeted;
    }
    assert!(
        failures.is_empty(),
        "{} failures: {failures:#?}",
        failures.len()
    );
    assert!(total_retargeted > 0);
}
