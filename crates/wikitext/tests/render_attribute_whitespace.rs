//! Whitespace in attribute values: HTML tags keep newlines as written, and a
//! `&#10;` character reference stays a newline; extension tags (`<pre>`) turn
//! their values' whitespace into spaces. (Parsoid's behaviour.)

use tagloom_wikitext::{RenderOptions, render};

fn html(wikitext: &str) -> String {
    render(wikitext, &RenderOptions::default()).expect("render")
}

#[test]
fn html_tags_keep_newlines() {
    let out = html("<div title=\"a\nb\">x</div>");
    assert!(out.contains("title=\"a\nb\""), "{out}");
    let out = html("<div title=\"a&#10;b\">x</div>");
    assert!(out.contains("title=\"a\nb\""), "{out}");
}

#[test]
fn extension_tags_space_them() {
    let out = html("<pre class=\"one\ntwo\">hi</pre>");
    assert!(out.starts_with("<pre class=\"one two\""), "{out}");
}
