//! Acceptance 2 (tokenizer variant): pseudo-translated output has the same element
//! structure and attribute names as the input; only text and translatable attribute
//! values differ; `lang` naming the source became the target, other `lang`s are
//! untouched. (The tree-builder variant of this check is a follow-up: the tree
//! builder is not merged yet.)

use std::path::{Path, PathBuf};

use tagloom_html::token::Token;
use tagloom_html::tokenizer::{State, Tokenizer, TokenizerConfig};
use tagloom_l10n::flow::{self, PseudoOptions};
use tagloom_l10n::writer::names_language;

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
    while let Some(t) = tok.next_token().unwrap() {
        let mut switch = None;
        match t {
            Token::StartTag(tag) => {
                let atoms = tag.atoms();
                // The switches a tree builder makes (HTML content, no foreign content here).
                switch = match tag.name_str() {
                    "title" | "textarea" => Some(State::Rcdata),
                    "style" | "xmp" | "iframe" | "noembed" | "noframes" => Some(State::Rawtext),
                    "script" => Some(State::ScriptData),
                    "plaintext" => Some(State::Plaintext),
                    _ => None,
                };
                out.push(Item::Start(
                    tag.name_str().to_string(),
                    tag.attrs
                        .iter()
                        .map(|a| (atoms.name(a.name).to_string(), a.value.to_string()))
                        .collect(),
                ))
            }
            Token::EndTag(tag) => out.push(Item::End(tag.name_str().to_string())),
            _ => {}
        }
        if let Some(state) = switch {
            tok.set_state(state);
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
        source_lang: "en".into(),
        target_lang: Some("fr".into()),
        ..PseudoOptions::default()
    };
    flow::pseudo(input, &out, &opts).map_err(|e| e.to_string())?;
    let a = structure(&std::fs::read(input).unwrap());
    let b = structure(&std::fs::read(&out).unwrap());
    if a.len() != b.len() {
        return Err(format!("{} tags vs {}", a.len(), b.len()));
    }
    let mut retargeted = 0;
    for (x, y) in a.iter().zip(&b) {
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
                        // `en` and its variants (`en-GB`) become `fr`, also inside
                        // inline codes of translated blocks.
                        if names_language(v, "en") {
                            if w != "fr" {
                                return Err(format!("lang {v:?} became {w:?}"));
                            }
                            retargeted += 1;
                        } else if v != w {
                            return Err(format!("lang {v:?} changed to {w:?}"));
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

fn corpus(dir: &Path, ext: &[&str]) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| ext.iter().any(|x| e == *x)))
        .collect();
    files.sort();
    files
}

#[test]
fn pseudo_keeps_structure() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR"));
    let mut files = corpus(&root.join("tests/data/l10n-samples"), &["html", "phtml"]);
    let bench = corpus(&root.join("../../../shared/bench-corpus"), &["html"]);
    if bench.is_empty() {
        println!("bench corpus absent: only the l10n samples are checked");
    }
    files.extend(bench);
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
