//! Self-contained rendering checks (the parserTests harness needs data outside
//! the repository; these run everywhere). Expected forms are Parsoid's.

mod support;

use tagloom_wikitext::{RenderOptions, render};

fn html(wikitext: &str) -> String {
    render(wikitext, &RenderOptions::default()).expect("render")
}

fn with_pages(wikitext: &str, pages: &[(&str, &str)]) -> String {
    let options = RenderOptions {
        title: "Test".to_owned(),
        ..support::pages_options(pages)
    };
    render(wikitext, &options).expect("render")
}

#[test]
fn paragraphs_and_blank_lines() {
    assert_eq!(html("a\nb\n\nc"), "<p>a\nb</p>\n\n<p>c</p>");
    assert_eq!(html("a\n\n\nb"), "<p>a</p>\n<p>\n<br>\nb</p>");
    // Inline content beside a block gets its own paragraph (the DOM pass).
    assert_eq!(html("a <div>x</div>"), "<p>a </p><div>x</div>");
}

#[test]
fn quotes_balance_per_line() {
    assert_eq!(
        html("''i'' '''b''' '''''bi'''''"),
        "<p><i>i</i> <b>b</b> <i><b>bi</b></i></p>"
    );
    // Unclosed at the end of the line: closed there.
    assert_eq!(html("'''open\nnext"), "<p><b>open</b>\nnext</p>");
    // An odd count of both: a bold after a one-letter word becomes ' + italic.
    assert_eq!(html("l'''italic''"), "<p>l'<i>italic</i></p>");
}

#[test]
fn lists() {
    assert_eq!(
        html("*a\n**b\n*c"),
        "<ul><li>a\n<ul><li>b</li></ul></li>\n<li>c</li></ul>"
    );
    assert_eq!(html(";t:d"), "<dl><dt>t</dt><dd>d</dd></dl>");
    assert_eq!(html("#1\n#2"), "<ol><li>1</li>\n<li>2</li></ol>");
}

#[test]
fn headings_with_ids() {
    assert_eq!(
        html("== A b ==\n==A b=="),
        "<h2 id=\"A_b\"> A b </h2>\n<h2 id=\"A_b_2\">A b</h2>"
    );
    assert!(html("== C++ ==").contains("<span id=\"C.2B.2B\" typeof=\"mw:FallbackId\"></span>"));
}

#[test]
fn indent_pre_and_pre_tag() {
    assert_eq!(html(" code\n more"), "<pre>code\nmore</pre>");
    let pre = html("<pre>a''b''</pre>");
    assert!(pre.contains("typeof=\"mw:Extension/pre\""), "{pre}");
    assert!(pre.ends_with(">a''b''</pre>"), "{pre}");
}

#[test]
fn html_tags_and_sanitizing() {
    assert_eq!(
        html("<span onclick=\"x\" class=\"c\">t</span>"),
        "<p><span class=\"c\">t</span></p>"
    );
    assert_eq!(
        html("<script>x</script>"),
        "<p>&lt;script&gt;x&lt;/script&gt;</p>"
    );
    assert_eq!(
        html("<nowiki>''x''</nowiki>"),
        "<p><span typeof=\"mw:Nowiki\">''x''</span></p>"
    );
    assert_eq!(
        html("&amp;"),
        "<p><span typeof=\"mw:Entity\">&amp;</span></p>"
    );
}

#[test]
fn links() {
    let out = with_pages("[[Here]] [[Missing|m]] [[Test]]s", &[("Here", "x")]);
    assert!(
        out.contains("<a rel=\"mw:WikiLink\" href=\"./Here\" title=\"Here\">Here</a>"),
        "{out}"
    );
    assert!(
        out.contains("href=\"./Missing?action=edit&amp;redlink=1\""),
        "{out}"
    );
    assert!(out.contains("class=\"new\""), "{out}");
    assert!(
        out.contains("class=\"mw-selflink selflink\">Tests</a>"),
        "{out}"
    );
    let ext = html("[https://example.org site] https://example.org/x.");
    assert!(
        ext.contains("class=\"external text\" href=\"https://example.org\">site</a>"),
        "{ext}"
    );
    assert!(
        ext.contains(
            "class=\"external free\" href=\"https://example.org/x\">https://example.org/x</a>."
        ),
        "{ext}"
    );
    let cat = html("[[Category:Foo]]");
    assert!(
        cat.contains("<link rel=\"mw:PageProp/Category\" href=\"./Category:Foo\">"),
        "{cat}"
    );
}

#[test]
fn tables() {
    assert_eq!(
        html("{| class=\"t\"\n|-\n! h\n|-\n| a || b\n|}"),
        "<table class=\"t\">\n<tbody><tr>\n<th>h\n</th></tr><tr>\n<td>a</td><td>b\n</td></tr></tbody></table>"
    );
}

#[test]
fn templates_and_parser_functions() {
    let out = with_pages(
        "{{greet|you}} {{#if: x | yes | no }}",
        &[("Template:Greet", "Hi {{{1|there}}}")],
    );
    // Each call's output is marked as Parsoid does (mw:Transclusion + data-mw).
    assert!(
        out.starts_with("<p><span about=\"#mwt1\" typeof=\"mw:Transclusion\""),
        "{out}"
    );
    assert!(
        out.contains("&quot;target&quot;:{&quot;wt&quot;:&quot;greet&quot;,&quot;href&quot;:&quot;./Template:Greet&quot;}"),
        "{out}"
    );
    assert!(
        out.contains("\">Hi you</span> <span about=\"#mwt2\""),
        "{out}"
    );
    assert!(out.contains("&quot;function&quot;:&quot;if&quot;"), "{out}");
    assert!(out.ends_with("\">yes</span></p>"), "{out}");
}

#[test]
fn references() {
    let out = html("a<ref>note</ref>");
    assert!(
        out.contains("<sup class=\"mw-ref reference\" id=\"cite_ref-1\""),
        "{out}"
    );
    assert!(out.contains("<span id=\"mw-reference-text-cite_note-1\" class=\"mw-reference-text reference-text\">note</span>"), "{out}");
}

#[test]
fn start_tag_attributes_reach_the_element_and_its_clones() {
    // The tree takes a start tag's attributes from the token (no copy); the
    // formatting elements the tree builder reopens get copies.
    assert_eq!(
        html(r#"<span title="t" class="c">x</span>"#),
        r#"<p><span title="t" class="c">x</span></p>"#
    );
    assert_eq!(
        html("<b class=\"x\">a\n\nb</b>"),
        "<p><b class=\"x\">a</b>\n\n</p><p><b class=\"x\">b</b></p>"
    );
    assert_eq!(
        html(r#"<b class="x">a<div>b</div>c</b>"#),
        r#"<p><b class="x">a</b></p><b class="x"><div>b</div></b><p><b class="x">c</b></p>"#
    );
    // Empty values only: copied, as before.
    assert_eq!(
        html(r#"<span class="">e</span> <i title="">f<p>g</i>"#),
        r#"<p><span class="">e</span> <i title="">f</i></p><p><i title="">g</i></p>"#
    );
    assert_eq!(
        html(r#"<font color="red" face="x">a<p>b</font>"#),
        r#"<p><font color="red" face="x">a</font></p><p><font color="red" face="x">b</font></p>"#
    );
}
