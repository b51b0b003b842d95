//! Wikitext cannot forge the attributes Parsoid writes itself: `about`,
//! `typeof`, `property`, `rel` and the reserved `data-…` names are kept as
//! `data-x-…` (Parsoid's `TokenizerUtils::protectAttrs`), on HTML tags and on
//! wikitext table syntax alike.

use tagloom_wikitext::{RenderOptions, render};

fn html(wikitext: &str) -> String {
    render(wikitext, &RenderOptions::default()).expect("render")
}

#[test]
fn rdfa_names_on_html_tags_become_data_x() {
    let out = html(
        r##"<span about="#x" typeof="mw:Transclusion" rel="mw:WikiLink" property="p">a</span>"##,
    );
    assert!(out.contains(r##"data-x-about="#x""##), "{out}");
    assert!(out.contains(r#"data-x-typeof="mw:Transclusion""#), "{out}");
    assert!(out.contains(r#"data-x-rel="mw:WikiLink""#), "{out}");
    assert!(out.contains(r#"data-x-property="p""#), "{out}");
    assert!(!out.contains(" typeof="), "{out}");
    assert!(!out.contains(" about="), "{out}");
}

#[test]
fn reserved_data_names_on_table_syntax_become_data_x() {
    let out = html("{| data-x-y=\"1\" data-mw=\"2\" typeof=\"t\"\n|ok\n|}");
    assert!(out.contains(r#"data-x-data-x-y="1""#), "{out}");
    assert!(out.contains(r#"data-x-data-mw="2""#), "{out}");
    assert!(out.contains(r#"data-x-typeof="t""#), "{out}");
}

#[test]
fn ordinary_data_attributes_stay() {
    let out = html(r#"<div data-foo="1" class="c">a</div>"#);
    assert!(out.contains(r#"data-foo="1""#), "{out}");
    assert!(out.contains(r#"class="c""#), "{out}");
}
