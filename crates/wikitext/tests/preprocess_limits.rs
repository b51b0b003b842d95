//! Limits: the template bomb, input size, expansion size, nesting.

use tagloom_wikitext::preprocess::{
    Config, Limits, MemoryStore, PreprocessError, Preprocessor, Site, Title, Warning,
};

fn bomb(levels: usize, fanout: usize) -> MemoryStore {
    let site = Site::default();
    let mut s = MemoryStore::default();
    s.insert(Title::parse("Template:B0", 0, &site).unwrap(), "lol");
    for k in 1..=levels {
        let body = format!("{{{{B{}}}}}", k - 1).repeat(fanout);
        s.insert(
            Title::parse(&format!("Template:B{k}"), 0, &site).unwrap(),
            body,
        );
    }
    s
}

fn page() -> Title {
    Title::parse("Bomb", 0, &Site::default()).unwrap()
}

#[test]
fn template_bomb_stops_at_the_transclusion_limit() {
    // 10^10 leaves if nothing stopped it.
    let store = bomb(10, 10);
    let pre = Preprocessor::new(&store, Config::default());
    let out = pre.expand(&page(), "{{B10}}").unwrap();
    assert!(
        out.warnings.contains(&Warning::TooManyTransclusions),
        "{:?}",
        &out.warnings[..3.min(out.warnings.len())]
    );
    assert_eq!(
        out.text
            .matches("<span class=\"error\">Template transclusion limit exceeded (10000)</span>")
            .count(),
        1
    );
    // 10 000 transclusions, most of them leaves: the output stays small.
    assert!(out.text.len() < 100_000, "{}", out.text.len());
}

#[test]
fn template_bomb_stops_at_the_expansion_size_limit() {
    // Few transclusions, large output: each level doubles a long text.
    let site = Site::default();
    let mut store = MemoryStore::default();
    store.insert(
        Title::parse("Template:S0", 0, &site).unwrap(),
        "x".repeat(100_000),
    );
    for k in 1..=30 {
        store.insert(
            Title::parse(&format!("Template:S{k}"), 0, &site).unwrap(),
            format!("{{{{S{0}}}}}{{{{S{0}}}}}", k - 1),
        );
    }
    let pre = Preprocessor::new(&store, Config::default());
    let out = pre.expand(&page(), "{{S30}}").unwrap();
    assert!(
        out.warnings
            .iter()
            .any(|w| matches!(w, Warning::ExpansionTooLarge { .. }))
    );
    assert!(
        out.text
            .contains("<!-- WARNING: template omitted, post-expand include size too large -->")
    );
    assert!(
        out.text.len() <= 3 * Limits::default().max_expansion_size,
        "{}",
        out.text.len()
    );
}

#[test]
fn argument_bomb_is_bounded() {
    // Arguments doubled at every level: lazily expanded and cached per frame.
    let site = Site::default();
    let mut store = MemoryStore::default();
    store.insert(Title::parse("Template:D0", 0, &site).unwrap(), "{{{1}}}");
    for k in 1..=40 {
        store.insert(
            Title::parse(&format!("Template:D{k}"), 0, &site).unwrap(),
            format!("{{{{D{}|{{{{{{1}}}}}}{{{{{{1}}}}}}}}}}", k - 1),
        );
    }
    let pre = Preprocessor::new(&store, Config::default());
    let out = pre.expand(&page(), "{{D39|ab}}").unwrap();
    assert!(!out.warnings.is_empty());
    assert!(
        out.text.len() <= 3 * Limits::default().max_expansion_size + 1000,
        "{}",
        out.text.len()
    );
}

#[test]
fn input_limit_is_a_typed_error() {
    let store = MemoryStore::default();
    let pre = Preprocessor::new(&store, Config::default());
    let big = "a".repeat((2 << 20) + 1);
    assert_eq!(
        pre.expand(&page(), &big),
        Err(PreprocessError::InputTooLarge {
            size: big.len(),
            limit: 2 << 20
        })
    );
}

#[test]
fn node_limit_and_deep_nesting() {
    let store = MemoryStore::default();
    let mut config = Config::default();
    config.limits.max_nodes = 1000;
    let pre = Preprocessor::new(&store, config);
    let out = pre.expand(&page(), &"{{!}}".repeat(2000)).unwrap();
    assert_eq!(out.warnings, vec![Warning::TooManyNodes]);
    assert!(
        out.text
            .ends_with("<span class=\"error\">Node-count limit exceeded</span>")
    );

    // 10 000-deep `{{#if:1|…}}`: the expansion depth limit answers.
    let pre = Preprocessor::new(&store, Config::default());
    let src = format!("{}x{}", "{{#if:1|".repeat(10_000), "}}".repeat(10_000));
    let out = pre.expand(&page(), &src).unwrap();
    assert!(
        out.warnings.contains(&Warning::ExpandTooDeep),
        "{:?}",
        out.warnings
    );
    assert!(out.text.contains("Expansion depth limit exceeded"));
    // 10 000 unclosed `{{`: text.
    let src = "{{".repeat(10_000);
    assert_eq!(pre.expand(&page(), &src).unwrap().text, src);
}

#[test]
fn hostile_inputs_finish() {
    // Each is about 2 MiB; all must finish (linear time) and expand to bounded text.
    let n = (2 << 20) - 16;
    let fill = |unit: &str| unit.repeat(n / unit.len());
    let cases = [
        fill("{{"),
        fill("{{a|"),
        fill("{{{|"),
        fill("[["),
        fill("<!--"),
        fill("<ref>"),
        fill("<nowiki>"),
        fill("<ref "),
        fill("\n="),
        fill("\n==a|"),
        fill("'''''"),
        format!("{}{}", "{".repeat(n / 2), "}".repeat(n / 2)),
        format!("{}x{}", "{{a|".repeat(n / 8), "}}".repeat(n / 8)),
        fill("{{#if:1|"),
        fill("{{!}}"),
    ];
    let store = MemoryStore::default();
    let pre = Preprocessor::new(&store, Config::default());
    for src in &cases {
        let start = std::time::Instant::now();
        let out = pre.expand(&page(), src).unwrap();
        eprintln!(
            "{:?}…: {} bytes out in {:?}",
            &src[..8.min(src.len())],
            out.text.len(),
            start.elapsed()
        );
        assert!(out.text.len() <= 2 * src.len() + 10_000);
    }
}

#[test]
fn huge_static_titles_repeated_stop_at_the_text_limit() {
    // A template whose parser-function test is 1 MiB of static text, with no
    // output, called 10 000 times through a small bomb.
    let site = Site::default();
    let mut store = MemoryStore::default();
    store.insert(
        Title::parse("Template:Big", 0, &site).unwrap(),
        format!("{{{{#if:{}|}}}}", "a".repeat(1 << 20)),
    );
    for k in 1..=4 {
        let inner = if k == 1 {
            "Big".to_owned()
        } else {
            format!("L{}", k - 1)
        };
        store.insert(
            Title::parse(&format!("Template:L{k}"), 0, &site).unwrap(),
            format!("{{{{{inner}}}}}").repeat(10),
        );
    }
    let pre = Preprocessor::new(&store, Config::default());
    let out = pre.expand(&page(), "{{L4}}").unwrap();
    assert!(
        out.warnings.contains(&Warning::TooMuchText),
        "{:?}",
        out.warnings
    );
    assert!(out.text.contains("Expansion text limit exceeded"));
}
