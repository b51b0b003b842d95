//! A transclusion whose output the tree builder drops entirely (stray table
//! tags outside a table) keeps its `typeof`/`data-mw` on an empty
//! `<span class="mw-empty-elt">`, as Parsoid does; one whose end marker the
//! tree builder fostered out of the table its output opened has that table.

mod support;

use tagloom_wikitext::render;

#[test]
fn dropped_output_keeps_an_empty_wrapper() {
    let options = support::pages_options(&[("Template:Echo", "{{{1}}}")]);
    let out = render("{{Echo|<tr></tr>}}", &options).expect("render");
    assert!(
        out.starts_with("<span class=\"mw-empty-elt\" about=\"#mwt1\""),
        "{out}"
    );
    assert!(out.contains("class=\"mw-empty-elt\""), "{out}");
    assert!(out.contains("typeof=\"mw:Transclusion\""), "{out}");
    assert!(out.ends_with("></span>"), "{out}");
}

#[test]
fn a_table_the_output_opened_is_the_range() {
    let options = support::pages_options(&[("Template:Echo", "{{{1}}}")]);
    let out = render("{{Echo|<table>}}<tr><td>a</td></tr></table>", &options).expect("render");
    assert!(
        out.starts_with("<table about=\"#mwt1\" typeof=\"mw:Transclusion\""),
        "{out}"
    );
    assert!(!out.contains("mw-empty-elt"), "{out}");
}
