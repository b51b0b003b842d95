//! The sanitizer: bytes (UTF-8, lossily) → `sanitize` under the default policy or,
//! when the first byte is odd, the widened one (raw-text elements, templates,
//! forms, SVG, MathML). Checked, on every input:
//! - idempotence: sanitizing the output again gives it back;
//! - re-parse: the output parsed as `<body>` content and as a `<div>` fragment
//!   (scripting on and off) serializes back to itself, and all four trees agree;
//! - the fast output checks decide as the original ones: `sanitize` equals
//!   `Sanitizer::sanitize_reference` (two re-parses and a second sanitize per pass);
//! - the fast path's proof never passes an output its re-parse check refuses
//!   (`Sanitizer::sanitize_fast_checks`);
//! - a small oracle on the re-parsed tree: no `script` element, no `on*`
//!   attribute, no `javascript:` URL in `href`/`src`/`action`.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tagloom_html::dom::{DomStore, NodeKind, NodeRef, dump_children};
use tagloom_html::dom_patch::Namespace;
use tagloom_html::serializer::{FragmentOptions, children_to_string};
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
use tagloom_html::tree_builder::{FragmentContext, TreeBuilder, TreeBuilderConfig};
use tagloom_transform::sanitize::{Policy, Sanitizer, sanitize};

fn parse(html: &str, context: &str, scripting: bool) -> (DomStore, tagloom_html::dom_patch::PatchKey) {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    let mut tb = TreeBuilder::new(TreeBuilderConfig {
        fragment_context: Some(FragmentContext::new(Namespace::Html, context)),
        scripting,
        ..TreeBuilderConfig::default()
    });
    tok.push_str(html);
    tok.finish();
    while let Some(token) = tok.next_token().expect("no token limit") {
        tb.process_token(token).expect("tree builder");
        if let Some(state) = tb.take_tokenizer_state() {
            tok.set_state(state.into());
        }
        tok.set_cdata_allowed(tb.cdata_allowed());
    }
    let mut store = DomStore::new();
    store.apply_patches(&tb.take_patches()).expect("patches apply");
    let root = tb.fragment_root_key().expect("fragment root");
    (store, root)
}

fn oracle(root: NodeRef<'_>) {
    let mut stack = vec![root];
    while let Some(node) = stack.pop() {
        stack.extend(node.children());
        stack.extend(node.template_contents().into_iter().flat_map(|c| c.children()));
        if let NodeKind::Element(e) = node.kind() {
            assert!(!e.local_name().eq_ignore_ascii_case("script"), "script element");
            for a in e.attrs() {
                let name = a.name.to_ascii_lowercase();
                assert!(!name.starts_with("on"), "event handler {name}");
                if matches!(name.as_str(), "href" | "src" | "action" | "formaction") {
                    let v: String = a
                        .value
                        .trim_matches(|c: char| c <= ' ')
                        .chars()
                        .filter(|c| !matches!(c, '\t' | '\n' | '\r'))
                        .collect::<String>()
                        .to_ascii_lowercase();
                    assert!(!v.starts_with("javascript:"), "javascript: URL in {name}");
                }
            }
        }
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let policy = if first & 1 == 1 { Policy::widened() } else { Policy::default() };
    let input = String::from_utf8_lossy(rest);
    let s = sanitize(&input, &policy).html;
    assert_eq!(sanitize(&s, &policy).html, s, "not idempotent");
    let sanitizer = Sanitizer::new(std::sync::Arc::new(policy.clone()));
    let reference = sanitizer.sanitize_reference(&input);
    assert_eq!(reference.html, s, "fast output checks differ from the reference");
    if let (Ok(proven), reparse) = sanitizer.sanitize_fast_checks(&input) {
        assert_eq!(reparse.as_ref(), Ok(&proven), "the proof passed what the re-parse check refuses");
    }
    let mut dumps = Vec::new();
    for context in ["body", "div"] {
        for scripting in [false, true] {
            let (store, key) = parse(&s, context, scripting);
            let root = store.get(key).expect("root");
            assert_eq!(children_to_string(root, FragmentOptions { scripting }), s, "re-parse in {context}");
            oracle(root);
            dumps.push(dump_children(root));
        }
    }
    assert!(dumps.windows(2).all(|w| w[0] == w[1]), "trees differ between contexts");
});
