//! Brace matching and the preprocessor tree (MediaWiki's `preprocessToObj`).

use tagloom_wikitext::preprocess::{Mode, Node, Part, parse};

/// A compact rendering: text as is, `T(title|part|name=value)`, `A(...)`,
/// `C[...]` comments, `X[...]` extension tags, `I[...]` ignored source.
fn show(src: &str, mode: Mode) -> String {
    fn nodes(src: &str, ns: &[Node], out: &mut String) {
        for n in ns {
            match n {
                Node::Text(s) => out.push_str(&src[s.clone()]),
                Node::Comment(s) => out.push_str(&format!("C[{}]", &src[s.clone()])),
                Node::Ignore(s) => out.push_str(&format!("I[{}]", &src[s.clone()])),
                Node::Ext(e) => out.push_str(&format!("X[{}]", &src[e.span.clone()])),
                Node::Template(b) | Node::Argument(b) => {
                    out.push_str(if matches!(n, Node::Template(_)) {
                        "T("
                    } else {
                        "A("
                    });
                    nodes(src, &b.title.nodes, out);
                    for p in &b.parts {
                        out.push('|');
                        part(src, p, out);
                    }
                    out.push(')');
                }
            }
        }
    }
    fn part(src: &str, p: &Part, out: &mut String) {
        match p.name() {
            Some(name) => {
                out.push('<');
                nodes(src, name, out);
                out.push_str(">=");
                nodes(src, p.value(), out);
            }
            None => nodes(src, &p.nodes, out),
        }
    }
    let tree = parse(src, mode);
    // The nodes cover the source without gaps or overlaps.
    let mut at = 0;
    for n in &tree.nodes {
        assert_eq!(n.span().start, at, "gap before {n:?} in {src:?}");
        at = n.span().end;
    }
    assert_eq!(at, src.len(), "{src:?}");
    let mut out = String::new();
    nodes(src, &tree.nodes, &mut out);
    out
}

fn p(src: &str) -> String {
    show(src, Mode::Page)
}

#[test]
fn braces() {
    assert_eq!(p("a{{b}}c"), "aT(b)c");
    assert_eq!(p("{{{a}}}"), "A(a)");
    assert_eq!(p("{{{{a}}}}"), "{A(a)}");
    assert_eq!(p("{{{{{a}}}}}"), "T(A(a))");
    assert_eq!(p("{{{{{{a}}}}}}"), "A(A(a))");
    assert_eq!(p("{{a}}}"), "T(a)}");
    assert_eq!(p("{{{a}}"), "{T(a)");
    assert_eq!(p("{{a|b{{c}}"), "{{a|bT(c)");
    assert_eq!(p("{a}} }}"), "{a}} }}");
    assert_eq!(p("{{a\n|b\n}}"), "T(a\n|b\n)");
    assert_eq!(p("{{{{a}}|b}}"), "T(T(a)|b)");
}

#[test]
fn parts_and_names() {
    assert_eq!(p("{{a|b=c|d|=e|f=g=h}}"), "T(a|<b>=c|d|<>=e|<f>=g=h)");
    // `=` in the title is text; `=` inside nested constructs does not name the part.
    assert_eq!(p("{{a=b|{{c|d=e}}}}"), "T(a=b|T(c|<d>=e))");
    assert_eq!(p("{{a|[[b|c=d]]}}"), "T(a|[[b|c=d]])");
    assert_eq!(p("{{a|[[b|c]]|d}}"), "T(a|[[b|c]]|d)");
    // `|` outside templates is text.
    assert_eq!(p("a|b=c"), "a|b=c");
    assert_eq!(p("{{{a|b|c}}}"), "A(a|b|c)");
}

#[test]
fn headings_hide_pipes() {
    // In a heading line, `|` and `}}` of an enclosing template are text until
    // the end of the line.
    assert_eq!(p("{{a|\n==b|c==\n}}"), "T(a|\n==b|c==\n)");
    // A single `=` at a line start inside a template names the part.
    assert_eq!(p("{{a|\n=b}}"), "T(a|<\n>=b)");
}

#[test]
fn comments() {
    assert_eq!(p("a<!-- {{b}} -->c"), "aC[<!-- {{b}} -->]c");
    assert_eq!(p("a<!-- b"), "aC[<!-- b]");
    assert_eq!(p("{{a<!-- | -->|b}}"), "T(aC[<!-- | -->]|b)");
    // A line of only comments and blanks is eaten with its newline.
    assert_eq!(
        p("a\n <!-- x --> <!-- y --> \nb"),
        "a\nC[ <!-- x --> ]C[<!-- y --> \n]b"
    );
}

#[test]
fn extension_tags() {
    assert_eq!(
        p("<nowiki>{{a}}</nowiki>{{b}}"),
        "X[<nowiki>{{a}}</nowiki>]T(b)"
    );
    assert_eq!(p("<ref name=x/>{{b}}"), "X[<ref name=x/>]T(b)");
    assert_eq!(p("<ref>{{a}}</REF >"), "X[<ref>{{a}}</REF >]");
    // Unclosed: the open tag is text and the rest is parsed.
    assert_eq!(p("<nowiki>{{a}}"), "<nowiki>T(a)");
    // Not an extension tag.
    assert_eq!(p("<b>{{a}}</b>"), "<b>T(a)</b>");
    assert_eq!(p("<nowikix>"), "<nowikix>");
}

#[test]
fn include_tags_by_mode() {
    let src = "a<noinclude>b</noinclude>c<includeonly>d</includeonly>e";
    assert_eq!(
        show(src, Mode::Page),
        "aI[<noinclude>]bI[</noinclude>]cI[<includeonly>d</includeonly>]e"
    );
    assert_eq!(
        show(src, Mode::Transclusion),
        "aI[<noinclude>b</noinclude>]cI[<includeonly>]dI[</includeonly>]e"
    );
    let only = "a<onlyinclude>b</onlyinclude>c";
    assert_eq!(
        show(only, Mode::Transclusion),
        "I[a<onlyinclude>]bI[</onlyinclude>c]"
    );
    assert_eq!(
        show(only, Mode::Page),
        "aI[<onlyinclude>]bI[</onlyinclude>]c"
    );
}

#[test]
fn spans_and_line_start() {
    let src = "x\n{{a|b= c }}";
    let tree = parse(src, Mode::Page);
    let Node::Template(t) = &tree.nodes[1] else {
        panic!("{tree:?}")
    };
    assert_eq!(&src[t.span.clone()], "{{a|b= c }}");
    assert!(t.line_start);
    assert_eq!(&src[t.parts[0].span.clone()], "b= c ");
    let tree = parse("{{{{{a}}}}}", Mode::Page);
    let Node::Template(t) = &tree.nodes[0] else {
        panic!()
    };
    let Node::Argument(a) = &t.title.nodes[0] else {
        panic!()
    };
    assert_eq!((t.span.clone(), a.span.clone()), (0..11, 2..9));
}

#[test]
fn hostile_nesting_is_bounded() {
    let deep = "{{".repeat(100_000);
    assert_eq!(p(&deep), deep);
    let balanced = format!("{}x{}", "{{".repeat(5000), "}}".repeat(5000));
    let tree = parse(&balanced, Mode::Page);
    assert_eq!(
        tree.nodes.iter().map(|n| n.span().len()).sum::<usize>(),
        balanced.len()
    );
    let links = "[[".repeat(50_000);
    assert_eq!(p(&links), links);
}

/// Text without `{` or `<` is one text node in page view (the transclusion
/// pass builds that tree for such ref bodies without a parse).
#[test]
fn text_without_braces_or_tags_is_one_node() {
    for src in [
        "plain",
        "[[a|b]] and [[c]] ]] [[ [ ] |x=y| = ==",
        "\n== Heading ==\ntext\n=x=\n",
        "a}}b}}}c]]d|e=f\n\n  * list\n: dd\n----",
        "ünïcödé — &amp; ''quotes'' __NOTOC__ -x-",
    ] {
        let tree = parse(src, Mode::Page);
        assert_eq!(tree.nodes, vec![Node::Text(0..src.len())], "{src:?}");
    }
}
