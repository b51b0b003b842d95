//! Cite (`<ref>`, `<references>`) on small inputs of our own: numbering,
//! reuse, groups, follow, errors, lists at the end, refs in templates.

use tagloom_wikitext::{RenderOptions, render};

fn html(wikitext: &str) -> String {
    let options = RenderOptions {
        title: "Page".to_owned(),
        ..RenderOptions::default()
    };
    render(wikitext, &options).unwrap_or_else(|e| format!("(error: {e})"))
}

#[test]
fn debug_print() {
    if let Ok(w) = std::env::var("CITE_DEBUG") {
        println!("{}", html(&w.replace("\\n", "\n")));
    }
}
