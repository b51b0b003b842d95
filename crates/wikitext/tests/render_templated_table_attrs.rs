//! A template that makes a table's attributes and then some of its content:
//! the table carries the transclusion (`data-mw` parts with the table's
//! wikitext around the call) and Parsoid's uneditable `mw:ExpandedAttrs`
//! (`attribs` before `parts`); a category it puts where the tree builder
//! fosters it out of the table is stashed in a `span.mw-empty-elt` that takes
//! the transclusion. A template that only opens a table holds the table, the
//! rest of the table's wikitext a part after the call; content fostered out of
//! an HTML table a template opened joins that call's range.

mod support;

use tagloom_wikitext::render;

fn with_pages(wikitext: &str, pages: &[(&str, &str)]) -> String {
    render(wikitext, &support::pages_options(pages)).expect("render")
}

#[test]
fn attributes_and_content_from_one_template() {
    let out = with_pages(
        "{| {{Open}}\n|-\n|b\n|}",
        &[("Template:Open", "class=\"k\" title=\"t\"\n|-\n|a")],
    );
    assert!(
        out.starts_with(
            "<table class=\"k\" title=\"t\" typeof=\"mw:Transclusion mw:ExpandedAttrs\""
        ),
        "{out}"
    );
    let attribs = "data-mw=\"{&quot;attribs&quot;:[[{&quot;txt&quot;:&quot;class&quot;,\
                   &quot;html&quot;:&quot;class=\\&quot;k\\&quot; title=\\&quot;t\\&quot;&quot;,\
                   &quot;uneditable&quot;:true},{&quot;html&quot;:&quot;&quot;}]],&quot;parts&quot;:[&quot;{| &quot;,";
    assert!(out.contains(attribs), "{out}");
    assert!(out.contains("&quot;\\n|-\\n|b\\n|}&quot;]}\""), "{out}");
    assert_eq!(out.matches("data-mw=").count(), 1, "{out}");
}

#[test]
fn fostered_category_is_stashed_in_an_empty_span() {
    let out = with_pages(
        "{| {{Open}}\n|-\n|b\n|}",
        &[("Template:Open", "class=\"k\"\n|-\n[[Category:C]]\n|a")],
    );
    assert!(
        out.starts_with("<span class=\"mw-empty-elt\" about=\"#mwt1\" typeof=\"mw:Transclusion\""),
        "{out}"
    );
    assert!(out.contains("><link rel=\"mw:PageProp/Category\""), "{out}");
    assert!(
        out.contains("</span><table class=\"k\" typeof=\"mw:ExpandedAttrs\""),
        "{out}"
    );
}

#[test]
fn a_toc_meta_is_not_stashed() {
    let out = with_pages(
        "<div></div>\n{{Echo|__TOC__}}\n<div></div>",
        &[("Template:Echo", "{{{1}}}")],
    );
    assert!(!out.contains("mw-empty-elt"), "{out}");
}

#[test]
fn a_table_opened_by_a_template_keeps_its_rest_as_a_part() {
    let out = with_pages("{{Open}}\n|a\n|}", &[("Template:Open", "{|")]);
    assert!(
        out.trim_start()
            .starts_with("<table about=\"#mwt1\" typeof=\"mw:Transclusion\""),
        "{out}"
    );
    assert!(
        out.contains("&quot;i&quot;:0}},&quot;\\n|a\\n|}&quot;]}\""),
        "{out}"
    );
}

#[test]
fn fostered_content_after_a_templated_html_table_joins_the_range() {
    let out = with_pages(
        "{{Echo|<table>}}<!--c-->[[Category:C]]",
        &[("Template:Echo", "{{{1}}}")],
    );
    assert!(
        out.starts_with("<span class=\"mw-empty-elt\" about=\"#mwt1\" typeof=\"mw:Transclusion\""),
        "{out}"
    );
    assert!(
        out.contains("&quot;i&quot;:0}},&quot;&lt;!--c--&gt;[[Category:C]]&quot;]}\""),
        "{out}"
    );
    assert!(out.contains("</span><table about=\"#mwt1\">"), "{out}");
}

#[test]
fn a_call_whose_output_is_fostered_from_inside_a_table_ranges_over_it() {
    let out = with_pages(
        "<table><td></td>{{Echo|<tr>[[Category:C]]}}</table>",
        &[("Template:Echo", "{{{1}}}")],
    );
    assert!(
        out.starts_with("<span class=\"mw-empty-elt\" about=\"#mwt1\" typeof=\"mw:Transclusion\""),
        "{out}"
    );
    assert!(
        out.contains("{&quot;parts&quot;:[&quot;&lt;table&gt;&lt;td&gt;&lt;/td&gt;&quot;,{"),
        "{out}"
    );
    assert!(
        out.contains("&quot;i&quot;:0}},&quot;&lt;/table&gt;&quot;]}\""),
        "{out}"
    );
    assert!(out.contains("</span><table about=\"#mwt1\">"), "{out}");
}
