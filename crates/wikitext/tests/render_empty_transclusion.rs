//! A transclusion whose output the tree builder drops entirely (stray table
//! tags outside a table) keeps its `typeof`/`data-mw` on an empty
//! `<span class="mw-empty-elt">`, as Parsoid does; one whose end marker the
//! tree builder fostered out of the table its output opened has that table.

use std::sync::Arc;

use tagloom_wikitext::preprocess::{MemoryStore, PageStore, Site, Title};
use tagloom_wikitext::{RenderOptions, render};

#[test]
fn dropped_output_keeps_an_empty_wrapper() {
    let site = Site::default();
    let mut store = MemoryStore::default();
    store.insert(
        Title::parse("Template:Echo", 0, &site).expect("title"),
        "{{{1}}}",
    );
    let options = RenderOptions {
        store: Some(Arc::new(store) as Arc<dyn PageStore>),
        ..RenderOptions::default()
    };
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
    let site = Site::default();
    let mut store = MemoryStore::default();
    store.insert(
        Title::parse("Template:Echo", 0, &site).expect("title"),
        "{{{1}}}",
    );
    let options = RenderOptions {
        store: Some(Arc::new(store) as Arc<dyn PageStore>),
        ..RenderOptions::default()
    };
    let out = render("{{Echo|<table>}}<tr><td>a</td></tr></table>", &options).expect("render");
    assert!(
        out.starts_with("<table about=\"#mwt1\" typeof=\"mw:Transclusion\""),
        "{out}"
    );
    assert!(!out.contains("mw-empty-elt"), "{out}");
}
