//! Wikitext → HTML: bytes (UTF-8, lossily) rendered by `tagloom_wikitext::render`
//! with a small in-memory template store (an echo of `{{{1}}}`, a default, a
//! named argument, a self-recursive template, a two-template loop, a table
//! opener and closer, a bomb that doubles at each level). Checked, on every
//! input: no panic; a render error is one of the documented limits; the HTML
//! parses as `<body>` content without a parse failure.

#![no_main]

use std::sync::{Arc, OnceLock};

use libfuzzer_sys::fuzz_target;
use tagloom_html::dom_patch::Namespace;
use tagloom_html::driver::{ParseConfig, parse_fragment};
use tagloom_html::tree_builder::FragmentContext;
use tagloom_wikitext::preprocess::{MemoryStore, PageStore, Site, Title};
use tagloom_wikitext::{RenderOptions, WikiError, render};

const TEMPLATES: &[(&str, &str)] = &[
    ("Template:Echo", "{{{1}}}"),
    ("Template:Default", "[{{{1|none}}}|{{{name|}}}]"),
    ("Template:Self", "x{{Self|{{{1|}}}}}y"),
    ("Template:Ping", "{{Pong}}"),
    ("Template:Pong", "{{Ping}}"),
    ("Template:Open", "{|\n|-\n| {{{1}}}"),
    ("Template:Close", "\n|}"),
    ("Template:Bomb", "{{Bomb2|{{{1|}}}}}{{Bomb2|{{{1|}}}}}"),
    ("Template:Bomb2", "{{Bomb3}}{{Bomb3}}{{Bomb3}}{{Bomb3}}"),
    ("Template:Bomb3", "'''{{{1|b}}}''' [[Link|{{!}}]]"),
];

fn options() -> &'static RenderOptions {
    static OPTIONS: OnceLock<RenderOptions> = OnceLock::new();
    OPTIONS.get_or_init(|| {
        let site = Site::default();
        let mut store = MemoryStore::default();
        for (title, source) in TEMPLATES {
            let title = Title::parse(title, 0, &site).expect("fixed title");
            store.insert(title, *source);
        }
        let store: Arc<dyn PageStore> = Arc::new(store);
        RenderOptions {
            store: Some(store),
            ..RenderOptions::default()
        }
    })
}

fuzz_target!(|data: &[u8]| {
    let input = String::from_utf8_lossy(data);
    let html = match render(&input, options()) {
        Ok(html) => html,
        // A limit, answered as a value (a 4 KiB input stays under the page size).
        Err(WikiError::Preprocess(_) | WikiError::Pipeline(_)) => return,
        Err(e) => panic!("unexpected render error: {e}"),
    };
    let context = FragmentContext::new(Namespace::Html, "body");
    let fragment = parse_fragment(html.as_bytes(), context, &ParseConfig::default())
        .expect("the HTML re-parses");
    assert!(fragment.root().is_some(), "re-parsed fragment has a root");
});
