//! Hostile input: each renders (no crash, no hang, an answer) and the output
//! stays proportionate. Sizes are large enough that a quadratic scan would make
//! this test take minutes.

use tagloom_wikitext::{RenderOptions, WikiError, render};

fn ok(input: &str) -> String {
    match render(input, &RenderOptions::default()) {
        Ok(html) => html,
        Err(e) => panic!("render failed: {e}"),
    }
}

#[test]
fn nested_lists() {
    let html = ok(&format!("{} x", "*".repeat(100_000)));
    assert!(html.contains('x'));
}

#[test]
fn many_quotes() {
    let html = ok(&"'''''".repeat(200_000));
    assert!(html.len() < 40 * 1_000_000);
}

#[test]
fn unclosed_openers() {
    for unit in [
        "{{",
        "[[",
        "[http://a.b ",
        "<!--",
        "<nowiki>",
        "<pre>",
        "<div x=\"",
        "&",
        "{{a|",
        "[[a|",
        "<includeonly>",
    ] {
        let input = unit.repeat(200_000 / unit.len());
        let html = ok(&input);
        assert!(
            html.len() < 20 * input.len() + 100,
            "{unit}: {} bytes",
            html.len()
        );
    }
}

#[test]
fn deep_html_nesting() {
    let html = ok(&"<div>".repeat(100_000));
    assert!(html.starts_with("<div>"));
}

#[test]
fn page_size_limit() {
    let options = RenderOptions {
        max_page_bytes: 10,
        ..RenderOptions::default()
    };
    assert!(matches!(
        render("01234567890", &options),
        Err(WikiError::TooLarge {
            size: 11,
            limit: 10
        })
    ));
}
