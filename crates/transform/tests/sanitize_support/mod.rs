//! Shared by the sanitizer's integration tests: the corpus reader, an independent
//! parse of the output, and the safety oracle (what no sanitized output may hold,
//! checked on the tree a browser would build from it).

#![allow(dead_code)]

use std::path::Path;

use std::sync::Arc;
use tagloom_html::dom::{DomStore, NodeKind, NodeRef, dump_children};
use tagloom_html::dom_patch::{AttrNamespace, Namespace, PatchKey};
use tagloom_html::serializer::{FragmentOptions, children_to_string};
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
use tagloom_html::tree_builder::{FragmentContext, TreeBuilder, TreeBuilderConfig};

use tagloom_transform::sanitize::{Policy, Sanitizer, sanitize};

pub const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sanitize");

/// The vectors of `vectors.txt`, unescaped.
pub fn vectors() -> Vec<String> {
    let text = std::fs::read_to_string(Path::new(DATA).join("vectors.txt")).expect("vectors.txt");
    text.lines()
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .map(unescape)
        .collect()
}

/// One line of `vectors.txt` with its escapes (`\n`, `\t`, `\u` and four hex digits…) resolved.
pub fn unescape(line: &str) -> String {
    let mut out = String::new();
    let mut chars = line.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('n') => out.push('\n'),
            Some('t') => out.push('\t'),
            Some('r') => out.push('\r'),
            Some('f') => out.push('\x0c'),
            Some('0') => out.push('\0'),
            Some('\\') => out.push('\\'),
            Some('u') => {
                let hex: String = chars.by_ref().take(4).collect();
                out.extend(u32::from_str_radix(&hex, 16).ok().and_then(char::from_u32));
            }
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

#[path = "html5lib_inputs.rs"]
mod html5lib_inputs;

/// The `#data` sections of every html5lib tree-construction file.
pub fn tree_construction_inputs() -> Vec<String> {
    html5lib_inputs::tree_construction_inputs()
}

/// Parses `html` as a fragment in an HTML `context` element (tree builder drives
/// the tokenizer, scripting as given).
pub fn parse(html: &str, context: &str, scripting: bool) -> (DomStore, PatchKey) {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    let mut tb = TreeBuilder::new(TreeBuilderConfig {
        fragment_context: Some(FragmentContext::new(Namespace::Html, context)),
        scripting,
        ..TreeBuilderConfig::default()
    });
    tok.push_str(html);
    tok.finish();
    while let Some(token) = tok.next_token().expect("no token limit hit") {
        tb.process_token(token).expect("tree builder");
        if let Some(state) = tb.take_tokenizer_state() {
            tok.set_state(state.into());
        }
        tok.set_cdata_allowed(tb.cdata_allowed());
    }
    let mut store = DomStore::new();
    store
        .apply_patches(&tb.take_patches())
        .expect("patches apply");
    let root = tb.fragment_root_key().expect("fragment root");
    (store, root)
}

/// The properties every sanitized output `s` of input `x` has: parsed as body
/// content and as a `<div>` fragment (scripting on and off) it gives one tree,
/// which serializes back to `s`; sanitizing `s` gives `s`; the tree passes
/// the oracle; and `Sanitizer::sanitize_reference` gives `s` too. Returns the
/// failures.
pub fn check(x: &str, policy: &Policy) -> Vec<String> {
    let s = sanitize(x, policy).html;
    let mut failures = Vec::new();
    let mut dumps = Vec::new();
    for context in ["body", "div"] {
        for scripting in [false, true] {
            let (store, root) = parse(&s, context, scripting);
            let root = store.get(root).expect("root");
            let back = children_to_string(root, FragmentOptions { scripting });
            if back != s {
                failures.push(format!("serialize(parse_{context}(s)) != s: {back:?}"));
            }
            dumps.push(dump_children(root));
            failures.extend(oracle(root, policy));
        }
    }
    if dumps.windows(2).any(|w| w[0] != w[1]) {
        failures.push("the trees differ between contexts/scripting".into());
    }
    let again = sanitize(&s, policy).html;
    if again != s {
        failures.push(format!("not idempotent: {again:?}"));
    }
    // The fast output checks decide as the original ones (two re-parses and a
    // whole second sanitize per pass) do.
    let reference = Sanitizer::new(Arc::new(policy.clone()))
        .sanitize_reference(x)
        .html;
    if reference != s {
        failures.push(format!("differs from sanitize_reference: {reference:?}"));
    }
    failures
        .into_iter()
        .map(|f| format!("{x:?} -> {s:?}: {f}"))
        .collect()
}

/// An independent reading of a URL's scheme (not the sanitizer's code).
fn dangerous_url(value: &str) -> bool {
    let stripped: String = value
        .trim_matches(|c: char| c <= ' ')
        .chars()
        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
        .collect::<String>()
        .to_ascii_lowercase();
    ["javascript:", "vbscript:", "data:", "livescript:", "mocha:"]
        .iter()
        .any(|s| stripped.starts_with(s))
}

/// What no sanitized tree may hold, whatever the policy (beyond its lists).
pub fn oracle(root: NodeRef<'_>, policy: &Policy) -> Vec<String> {
    let mut failures = Vec::new();
    let mut stack = vec![(root, 0usize)];
    while let Some((node, depth)) = stack.pop() {
        for child in node.children().chain(
            node.template_contents()
                .into_iter()
                .flat_map(|c| c.children()),
        ) {
            stack.push((child, depth + 1));
        }
        if depth > policy.max_depth + 1 {
            failures.push(format!("depth {depth} over the cap"));
        }
        match node.kind() {
            NodeKind::Comment(_) if !policy.allow_comments => failures.push("a comment".into()),
            NodeKind::Element(e) if node != root => {
                let name = e.local_name();
                let lower = name.to_ascii_lowercase();
                let listed = match e.ns() {
                    Namespace::Html => policy.tags.contains(name),
                    Namespace::Svg => policy.allow_svg && policy.svg_tags.contains(name),
                    Namespace::MathMl => policy.allow_mathml && policy.mathml_tags.contains(name),
                };
                if !listed {
                    failures.push(format!("element {name} not in the policy"));
                }
                if matches!(
                    lower.as_str(),
                    "script"
                        | "noscript"
                        | "plaintext"
                        | "base"
                        | "meta"
                        | "link"
                        | "frame"
                        | "frameset"
                ) {
                    failures.push(format!("element {name}"));
                }
                for a in e.attrs() {
                    let an = a.name.to_ascii_lowercase();
                    if an.starts_with("on") || an == "srcdoc" || a.ns == AttrNamespace::Xmlns {
                        failures.push(format!("attribute {an}"));
                    }
                    let urlish = an == "href"
                        || policy.url_attributes.contains(&an)
                        || an.ends_with("src")
                        || an == "srcset";
                    if urlish
                        && (dangerous_url(a.value) || a.value.split([',', ' ']).any(dangerous_url))
                    {
                        failures.push(format!("attribute {an}={:?}", a.value));
                    }
                    if an == "style" {
                        let v = a.value.to_ascii_lowercase();
                        if [
                            "url",
                            "expression",
                            "binding",
                            "behavior",
                            "\\",
                            "@",
                            "image(",
                        ]
                        .iter()
                        .any(|b| v.contains(b))
                        {
                            failures.push(format!("style {:?}", a.value));
                        }
                    }
                    if an == "attributename" {
                        let v = a.value.trim().to_ascii_lowercase();
                        if v.contains("href") || v.starts_with("on") || v == "style" {
                            failures.push(format!("animation of {v}"));
                        }
                    }
                }
                if lower == "style" {
                    let text: String = node
                        .children()
                        .filter_map(|c| match c.kind() {
                            NodeKind::Text(t) => Some(t),
                            _ => None,
                        })
                        .collect();
                    let t = text.to_ascii_lowercase();
                    if ["url", "@import", "expression", "binding", "behavior"]
                        .iter()
                        .any(|b| t.contains(b))
                    {
                        failures.push(format!("style sheet {text:?}"));
                    }
                }
                // Namespace invariants.
                if let Some(parent) = node.parent().and_then(|p| p.as_element().map(|pe| (p, pe))) {
                    let (p, pe) = parent;
                    let parent_is_root = p == root;
                    let ip = match pe.ns() {
                        Namespace::Html => true,
                        Namespace::Svg => {
                            matches!(pe.local_name(), "foreignObject" | "desc" | "title")
                        }
                        Namespace::MathMl => matches!(
                            pe.local_name(),
                            "mi" | "mo" | "mn" | "ms" | "mtext" | "annotation-xml"
                        ),
                    };
                    let ok = match e.ns() {
                        Namespace::Html => parent_is_root || ip,
                        Namespace::Svg => {
                            pe.ns() == Namespace::Svg || (name == "svg" && (ip || parent_is_root))
                        }
                        Namespace::MathMl => {
                            pe.ns() == Namespace::MathMl
                                || (name == "math" && (ip || parent_is_root))
                        }
                    };
                    if !ok {
                        failures.push(format!(
                            "{:?} {name} under {:?} {}",
                            e.ns(),
                            pe.ns(),
                            pe.local_name()
                        ));
                    }
                }
            }
            _ => {}
        }
    }
    failures
}
