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

/// 10^5 unclosed `[http://a.b ` on one line: no bracketed link (no `]`), each
/// URL a free link closed where it ends; one paragraph whose size grows by the
/// same number of bytes per unit (nothing left open, nothing nested).
#[test]
fn unclosed_bracketed_links_on_one_line() {
    let unit = "[http://a.b ";
    let one = ok(unit).len();
    let two = ok(&unit.repeat(2)).len();
    let per_unit = two - one;
    let n = 100_000;
    let html = ok(&unit.repeat(n));
    assert_eq!(html.len(), one + (n - 1) * per_unit);
    assert_eq!(html.matches("<a ").count(), n);
    assert_eq!(html.matches("</a>").count(), n);
    assert_eq!(html.matches("<p>").count(), 1);
}
