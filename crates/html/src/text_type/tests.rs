use super::*;
use crate::token::Token;
use crate::tokenizer::{State, Tokenizer, TokenizerConfig};

/// Runs `html` through the tokenizer and the simulator; one line per tag:
/// `<name>@opened_at` (or `<name>-` when not opened), `</name>`, with `kept` when
/// the tag closed something, and `!state` for a switch; text as `"…"`.
fn run(html: &str, config: SimulatorConfig) -> (Vec<String>, TextTypeSimulator) {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    let mut sim = TextTypeSimulator::new(config);
    tok.push_str(html);
    tok.finish();
    let mut out = Vec::new();
    while let Some(token) = tok.next_token().unwrap() {
        let (label, effect, before) = match &token {
            Token::StartTag(tag) => {
                let before = sim.depth();
                (format!("<{}>", tag.name_str()), sim.start_tag(tag), before)
            }
            Token::EndTag(tag) => {
                let before = sim.depth();
                (format!("</{}>", tag.name_str()), sim.end_tag(tag), before)
            }
            Token::Characters(t) => {
                let before = sim.depth();
                let effect = sim.characters(t.text);
                let mut s = format!("{:?}", t.text);
                if effect.kept < before {
                    s.push_str(&format!(" kept {}", effect.kept));
                }
                out.push(s);
                continue;
            }
            _ => continue,
        };
        let mut s = label;
        match effect.opened_at {
            Some(i) => s.push_str(&format!("@{i}")),
            None if s.starts_with("</") => {}
            None => s.push('-'),
        }
        if effect.kept < before {
            s.push_str(&format!(" kept {}", effect.kept));
        }
        if let Some(state) = effect.switch {
            s.push_str(&format!(" !{:?}", State::from(state)));
            tok.set_state(state.into());
        }
        tok.set_cdata_allowed(sim.cdata_allowed());
        out.push(s);
    }
    (out, sim)
}

fn tags(html: &str) -> String {
    run(html, SimulatorConfig::default()).0.join(" ")
}

#[test]
fn raw_text_elements_switch_the_tokenizer() {
    assert_eq!(
        tags("<title><b></title><textarea><b></textarea>"),
        "<title>@0 !Rcdata \"<b>\" </title> kept 0 <textarea>@1 !Rcdata \"<b>\" </textarea> kept 1"
    );
    for name in ["style", "xmp", "iframe", "noembed", "noframes"] {
        let got = tags(&format!("<{name}><b></{name}>"));
        assert!(got.contains("!Rawtext \"<b>\""), "{name}: {got}");
    }
    assert!(tags("<script><b></script>").contains("!ScriptData \"<b>\""));
    assert!(tags("<plaintext></plaintext>").contains("!Plaintext \"</plaintext>\""));
    // noscript: raw text only with scripting on.
    assert_eq!(tags("<noscript><b>"), "<noscript>@1 <b>@2");
    let scripting = SimulatorConfig {
        scripting: true,
        ..SimulatorConfig::default()
    };
    assert!(
        run("<noscript><b>", scripting)
            .0
            .join(" ")
            .contains("!Rawtext")
    );
}

#[test]
fn foreign_content_has_no_raw_text_and_allows_cdata() {
    // SVG title/style/script are not raw text; CDATA is a section there.
    assert_eq!(
        tags("<svg><title><b></b></title><![CDATA[<i>]]></svg><p>"),
        "<svg>@1 <title>@2 <b>@3 </b> kept 3 </title> kept 2 \"<i>\" </svg> kept 1 <p>@1"
    );
    // At an HTML integration point, HTML rules apply again.
    assert!(tags("<svg><foreignObject><title>x<y>").contains("<title>@3 !Rcdata"));
    assert!(tags("<math><mi><style>x").contains("<style>@3 !Rawtext"));
    // Break-out tags close the foreign elements.
    assert_eq!(
        tags("<div><svg><g><p>"),
        "<div>@1 <svg>@2 <g>@3 <p>@2 kept 2"
    );
    let (_, sim) = run("<svg><g>", SimulatorConfig::default());
    assert!(sim.cdata_allowed());
    let (_, sim) = run("<svg><foreignObject><div>", SimulatorConfig::default());
    assert!(!sim.cdata_allowed());
    let (_, sim) = run("<svg></svg>", SimulatorConfig::default());
    assert!(!sim.cdata_allowed());
}

#[test]
fn implied_end_tags_make_siblings() {
    assert_eq!(tags("<p>a<p>b"), "<p>@1 \"a\" <p>@1 kept 1 \"b\"");
    assert_eq!(tags("<p><div>"), "<p>@1 <div>@1 kept 1");
    assert_eq!(tags("<ul><li><li>"), "<ul>@1 <li>@2 <li>@2 kept 2");
    assert_eq!(
        tags("<dl><dt><dd><dt>"),
        "<dl>@1 <dt>@2 <dd>@2 kept 2 <dt>@2 kept 2"
    );
    assert_eq!(tags("<h1><h2>"), "<h1>@1 <h2>@1 kept 1");
    assert_eq!(tags("<a><a>"), "<a>@1 <a>@1 kept 1");
    assert_eq!(tags("<button><button>"), "<button>@1 <button>@1 kept 1");
    // A nested list nests.
    assert_eq!(tags("<ul><li><ul><li>"), "<ul>@1 <li>@2 <ul>@3 <li>@4");
    // Inline elements nest.
    assert_eq!(tags("<b><b><i>"), "<b>@1 <b>@2 <i>@3");
}

#[test]
fn select_rules_of_part_a() {
    // A.6: select in select closes the first and is ignored.
    assert_eq!(
        tags("<select><select><select>"),
        "<select>@1 <select>- kept 1 <select>@1"
    );
    assert_eq!(
        tags("<select><optgroup><option><optgroup><option><option>"),
        "<select>@1 <optgroup>@2 <option>@3 <optgroup>@2 kept 2 <option>@3 <option>@3 kept 3"
    );
    assert_eq!(tags("<select><input>"), "<select>@1 <input>- kept 1");
}

#[test]
fn table_modes() {
    // Implied tbody and tr; a cell closes a cell; a row closes a row.
    assert_eq!(
        tags("<table><td>a<td>b<tr><td>"),
        "<table>@1 <td>@4 \"a\" <td>@4 kept 4 \"b\" <tr>@3 kept 3 <td>@4"
    );
    // A table in a table closes it; a table in a cell nests.
    assert_eq!(tags("<table><table>"), "<table>@1 <table>@1 kept 1");
    assert_eq!(
        tags("<table><tr><td><table><tr><td>"),
        "<table>@1 <tr>@3 <td>@4 <table>@5 <tr>@7 <td>@8"
    );
    // Fostered elements are pushed; a table part clears back to the table.
    assert_eq!(tags("<table><div><tr>"), "<table>@1 <div>@2 <tr>@3 kept 2");
    // `</div>` does not cross a cell.
    assert_eq!(
        tags("<div><table><td></div>x</td></table></div>"),
        "<div>@1 <table>@2 <td>@5 </div> \"x\" </td> kept 5 </table> kept 2 </div> kept 1"
    );
    // Quirks: a table does not close a p.
    let quirks = SimulatorConfig {
        quirks: true,
        ..SimulatorConfig::default()
    };
    assert_eq!(run("<p><table>", quirks).0.join(" "), "<p>@1 <table>@2");
    assert_eq!(tags("<p><table>"), "<p>@1 <table>@1 kept 1");
}

#[test]
fn template_contents() {
    assert_eq!(
        tags("<template><tr><td>x</template><template><template>"),
        "<template>@0 <tr>@1 <td>@2 \"x\" </template> kept 0 <template>@0 <template>@1"
    );
    // Other end tags are ignored in "in template".
    assert_eq!(tags("<template></div>"), "<template>@0 </div>");
}

#[test]
fn head_and_body() {
    // Content implies the body; a later `<body>` tag is that body while it is current.
    assert_eq!(
        tags("<html><head></head><img><body><p>"),
        "<html>@0 <head>@1 </head> kept 1 <img>- <body>@1 <p>@2"
    );
    assert_eq!(
        tags("<html><head><title>t</title><div><body><body>"),
        "<html>@0 <head>@1 <title>@2 !Rcdata \"t\" </title> kept 2 <div>@2 kept 1 <body>- <body>-"
    );
    assert_eq!(
        tags("<html><head></head><body><p>x</body>y"),
        "<html>@0 <head>@1 </head> kept 1 <body>@1 <p>@2 \"x\" </body> \"y\""
    );
}

#[test]
fn noscript_in_head() {
    // Scripting off: "in head noscript" keeps style, anything else ends it and the head.
    assert_eq!(
        tags("<head><noscript><style>x</style></noscript><noscript><iframe>"),
        "<head>@0 <noscript>@1 <style>@2 !Rawtext \"x\" </style> kept 2 </noscript> kept 1 \
         <noscript>@1 <iframe>@1 kept 0 !Rawtext"
    );
}

#[test]
fn text_ends_head_and_colgroup() {
    assert_eq!(
        tags("<html><head>x<body><p>"),
        "<html>@0 <head>@1 \"x\" kept 1 <body>@1 <p>@2"
    );
    assert_eq!(
        tags("<head><title>x</title> <noscript>y"),
        "<head>@0 <title>@1 !Rcdata \"x\" </title> kept 1 \" \" <noscript>@1 \"y\" kept 0"
    );
    assert_eq!(
        tags("<table><colgroup>x<col>"),
        "<table>@1 <colgroup>@2 \"x\" kept 2 <col>-"
    );
}

#[test]
fn end_tags_follow_scopes() {
    assert_eq!(tags("<div><span></div>"), "<div>@1 <span>@2 </div> kept 1");
    // A stray end tag is ignored; a special element stops "any other end tag".
    assert_eq!(tags("<div></p></span>"), "<div>@1 </p> </span>");
    assert_eq!(tags("<x><div></x>"), "<x>@1 <div>@2 </x>");
    // Misnested formatting: nothing special after it → popped to it.
    assert_eq!(tags("<b><i></b>"), "<b>@1 <i>@2 </b> kept 1");
    // With a special element after it, the stack is left as it is.
    assert_eq!(tags("<b><p></b>"), "<b>@1 <p>@2 </b>");
}

#[test]
fn depth_is_capped_like_the_tree_builder() {
    let config = SimulatorConfig {
        max_depth: 4,
        ..SimulatorConfig::default()
    };
    let (out, sim) = run(&"<div>".repeat(6), config);
    assert_eq!(
        out.join(" "),
        "<div>@1 <div>@2 <div>@3 <div>- <div>- <div>-"
    );
    assert_eq!(sim.depth(), 4);
    // 100 000 unclosed elements: bounded stack.
    let (_, sim) = run(&"<div>".repeat(100_000), SimulatorConfig::default());
    assert_eq!(sim.depth(), 512);
}

#[test]
fn stack_depth_matches_the_tree_builder_on_nesting_shapes() {
    use crate::tree_builder::{TreeBuilder, TreeBuilderConfig};
    let shapes = [
        "<div>x",
        "<table><tr><td>x",
        "<table><tr><td>x<table>y",
        "<select><optgroup>x",
        "<select><option>x<select>",
        "<template>x",
        "<p>x",
        "<li>x",
        "<a>x",
        "<b>x",
        "<ul><li>x",
        "<dl><dt>x<dd>y",
        "<h1>x<h2>y",
        "<button>x",
        "<svg><g>x",
        "<math><mi>x",
        "<div><span>x</div>",
        "<table><caption>x",
        "<table><colgroup>x",
    ];
    // Below the depth limit the stacks agree; past it the tree builder keeps
    // opening elements (Chromium's rule: they are attached to the current node's
    // parent) while the simulator opens none, so there it only stays at the limit.
    let runs = shapes.iter().map(|s| (*s, 100)).chain([
        ("<div>x", 600),
        ("<b>x", 600),
        ("<ul><li>x", 600),
    ]);
    for (shape, times) in runs {
        let html = format!("<!DOCTYPE html><html><body>{}", shape.repeat(times));
        let mut tok = Tokenizer::new(TokenizerConfig::default());
        let mut tb = TreeBuilder::new(TreeBuilderConfig::default());
        let mut sim = TextTypeSimulator::new(SimulatorConfig::default());
        tok.push_str(&html);
        tok.finish();
        let mut n = 0;
        while let Some(token) = tok.next_token().unwrap() {
            let tag = matches!(token, Token::StartTag(_) | Token::EndTag(_));
            match &token {
                Token::StartTag(t) => sim.start_tag(t),
                Token::EndTag(t) => sim.end_tag(t),
                Token::Characters(t) => sim.characters(t.text),
                _ => sim.characters(""),
            };
            tb.process_token(token).unwrap();
            if let Some(state) = tb.take_tokenizer_state() {
                tok.set_state(state.into());
            }
            tok.set_cdata_allowed(tb.cdata_allowed());
            if tag {
                n += 1;
                let limit = SimulatorConfig::default().max_depth;
                if tb.open.len() < limit {
                    assert_eq!(sim.depth(), tb.open.len(), "{shape}: after tag {n}");
                } else {
                    assert_eq!(sim.depth(), limit, "{shape}: after tag {n}");
                }
            }
        }
    }
}

#[test]
fn namespaces_and_integration_points_of_owned_tags() {
    use crate::token::OwnedTag;
    let mut sim = TextTypeSimulator::new(SimulatorConfig::default());
    let start = |sim: &mut TextTypeSimulator, name: &str| sim.start_tag_owned(&OwnedTag::new(name));
    assert_eq!(start(&mut sim, "svg").ns, Ns::Svg);
    assert_eq!(sim.current_namespace(), Ns::Svg);
    assert_eq!(sim.integration_point(), None);
    // The tokenizer lowercases names: `foreignobject` is what it emits.
    assert_eq!(start(&mut sim, "foreignobject").ns, Ns::Svg);
    assert_eq!(sim.integration_point(), Some(IntegrationPoint::Html));
    assert_eq!(start(&mut sim, "p").ns, Ns::Html);
    assert_eq!(sim.current_namespace(), Ns::Html);
    sim.end_tag_owned(&OwnedTag::new("p"));
    let end = sim.end_tag_owned(&OwnedTag::new("foreignobject"));
    assert_eq!(end.ns, Ns::Svg);
    sim.end_tag_owned(&OwnedTag::new("svg"));
    assert_eq!(start(&mut sim, "math").ns, Ns::MathMl);
    assert_eq!(start(&mut sim, "mi").ns, Ns::MathMl);
    assert_eq!(sim.integration_point(), Some(IntegrationPoint::MathMlText));
    // A self-closing foreign tag is not opened but has its namespace.
    let mut empty = OwnedTag::new("mglyph");
    empty.set_self_closing(true);
    let effect = sim.start_tag_owned(&empty);
    assert_eq!((effect.ns, effect.opened_at), (Ns::MathMl, None));
}

#[test]
fn owned_custom_names_match_their_end_tags() {
    use crate::token::OwnedTag;
    let mut sim = TextTypeSimulator::new(SimulatorConfig::default());
    let outer = sim.start_tag_owned(&OwnedTag::new("x-outer"));
    let inner = sim.start_tag_owned(&OwnedTag::new("x-inner"));
    assert_eq!((outer.opened_at, inner.opened_at), (Some(1), Some(2)));
    // `</x-outer>` closes both; an unknown end tag closes nothing.
    assert_eq!(sim.end_tag_owned(&OwnedTag::new("x-none")).kept, 3);
    assert_eq!(sim.end_tag_owned(&OwnedTag::new("x-outer")).kept, 1);
}

/// The open stack (names) after each token and the transient elements it
/// reported, with implied elements on.
fn implied(html: &str) -> Vec<String> {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    let mut sim = TextTypeSimulator::new(SimulatorConfig::default());
    sim.set_implied_elements(true);
    tok.push_str(html);
    tok.finish();
    let mut out = Vec::new();
    while let Some(token) = tok.next_token().unwrap() {
        let effect = match &token {
            Token::StartTag(tag) => sim.start_tag(tag),
            Token::EndTag(tag) => sim.end_tag(tag),
            Token::Characters(t) => sim.characters(t.text),
            _ => continue,
        };
        if let Some(state) = effect.switch {
            tok.set_state(state.into());
        }
        let names: Vec<&str> = (0..sim.depth())
            .filter_map(|i| sim.open_element(i)?.static_name())
            .collect();
        let mut line = names.join(">");
        for (at, name) in sim.transient_elements() {
            line.push_str(&format!(" +{}@{at}", name.static_name().unwrap_or("?")));
        }
        out.push(line);
    }
    out
}

#[test]
fn implied_html_head_and_transient_elements_when_asked() {
    // No html or head tag: both implied, the title inside the head.
    assert_eq!(
        implied("<title>x</title><p>y"),
        [
            "html>head>title",
            "html>head>title",
            "html>head",
            "html>body>p",
            "html>body>p"
        ]
    );
    // An html tag, no head, the body first: an empty head created and closed.
    assert_eq!(
        implied("<html><div>a</div>"),
        [
            "html",
            "html>body>div +head@1",
            "html>body>div",
            "html>body"
        ]
    );
    // Text first implies html, the empty head and the body.
    assert_eq!(implied("hi"), ["html>body +head@1"]);
    // `</p>` with no p in button scope: an empty p, child of the current node.
    assert_eq!(
        implied("<body><div></p></div>"),
        [
            "html>body +head@1",
            "html>body>div",
            "html>body>div +p@3",
            "html>body"
        ]
    );
    // A head tag: nothing implied but the html.
    assert_eq!(
        implied("<head><title>t</title></head><body>"),
        [
            "html>head",
            "html>head>title",
            "html>head>title",
            "html>head",
            "html",
            "html>body"
        ]
    );
    // Off by default: the stack is what the tags open.
    assert_eq!(
        tags("<title>x</title><p>y</p></p>"),
        "<title>@0 !Rcdata \"x\" </title> kept 0 <p>@1 \"y\" </p> kept 1 </p>"
    );
}
