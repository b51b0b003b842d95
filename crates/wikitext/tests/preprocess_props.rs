//! Properties over arbitrary wikitext: the tree covers the source exactly, and
//! parsing and expansion never panic, whatever the input.

use proptest::prelude::*;
use tagloom_wikitext::preprocess::{
    Config, MemoryStore, Mode, Node, Preprocessor, Site, Title, parse,
};

/// Pieces that exercise the preprocessor's syntax.
fn piece() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "{",
        "}",
        "{{",
        "}}",
        "{{{",
        "}}}",
        "[[",
        "]]",
        "|",
        "=",
        "\n",
        "\n=",
        "==",
        " ",
        "a",
        "x",
        "1",
        "<!--",
        "-->",
        "<nowiki>",
        "</nowiki>",
        "<ref>",
        "</ref>",
        "<ref/>",
        "<pre>",
        "<includeonly>",
        "</includeonly>",
        "<noinclude>",
        "</noinclude>",
        "<onlyinclude>",
        "</onlyinclude>",
        "#if:",
        "#switch:",
        "#expr:",
        "#ifeq:",
        "t",
        "loop",
        "echo",
        "{{!}}",
        "{{{1}}}",
        "é",
        "<",
        ">",
        "-",
        "#default",
        "*",
        "{|",
        "|}",
        "subst:",
        "lc:",
        "padleft:",
        "PAGENAME",
        ":",
        "/",
        "../",
    ])
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(piece(), 0..60).prop_map(|v| v.concat())
}

fn store() -> MemoryStore {
    let site = Site::default();
    let mut s = MemoryStore::default();
    for (t, src) in [
        ("Template:T", "[{{{1|d}}}|{{{x}}}]{{echo|{{{2}}}}}"),
        ("Template:Echo", "{{{1}}}"),
        ("Template:Loop", "{{loop|{{{1}}}{{{1}}}}}"),
        (
            "Template:A",
            "<noinclude>n</noinclude>{{T|{{{1}}}|x={{{2|}}}}}<includeonly>i</includeonly>",
        ),
    ] {
        s.insert(Title::parse(t, 0, &site).unwrap(), src);
    }
    s
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn tree_covers_the_source(src in text()) {
        for mode in [Mode::Page, Mode::Transclusion] {
            let tree = parse(&src, mode);
            let mut at = 0;
            for n in &tree.nodes {
                prop_assert_eq!(n.span().start, at);
                at = n.span().end;
                if let Node::Template(b) | Node::Argument(b) = n {
                    prop_assert!(b.span.start < b.span.end && b.span.end <= src.len());
                }
            }
            prop_assert_eq!(at, src.len());
        }
    }

    #[test]
    fn expansion_never_panics(src in text()) {
        let store = store();
        let pre = Preprocessor::new(&store, Config::default());
        let title = Title::parse("A/b", 0, &Site::default()).unwrap();
        let out = pre.expand(&title, &src).unwrap();
        prop_assert!(out.text.len() < 64 * (src.len() + 1) + 10_000);
    }
}
