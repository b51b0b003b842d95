use std::cell::RefCell;

use super::{Selector, SelectorErrorKind};
use crate::rewrite::{Handlers, Settings, rewrite_str};

/// The `id`s of the elements `selector` matches in `html`, in document order.
fn matches(selector: &str, html: &str) -> Vec<String> {
    let found = RefCell::new(Vec::new());
    let mut handlers = Handlers::new();
    handlers
        .element(selector, |el| {
            found
                .borrow_mut()
                .push(el.get_attribute("id").unwrap_or("?").to_owned());
            Ok(())
        })
        .expect("selector parses");
    let out = rewrite_str(html, handlers, Settings::default()).expect("rewrites");
    assert_eq!(out, html, "no-op handlers keep the input");
    found.into_inner()
}

#[test]
fn errors_are_typed_with_offsets() {
    let err = |s: &str| Selector::parse(s).unwrap_err();
    assert_eq!(err("").kind, SelectorErrorKind::Empty);
    assert_eq!(err("a,,b").kind, SelectorErrorKind::Empty);
    assert_eq!(
        err("a ~ b").kind,
        SelectorErrorKind::UnsupportedCombinator('~')
    );
    assert_eq!(err("div >").kind, SelectorErrorKind::DanglingCombinator);
    assert_eq!(err("[href").kind, SelectorErrorKind::UnexpectedEnd);
    assert_eq!(
        err("li:last-child").kind,
        SelectorErrorKind::UnsupportedPseudoClass("last-child".into())
    );
    assert_eq!(err("li:last-child").offset, 3);
    assert_eq!(
        err("li:nth-child(2x)").kind,
        SelectorErrorKind::InvalidNth("2x".into())
    );
    assert_eq!(err("svg|a").kind, SelectorErrorKind::Namespace);
    assert_eq!(err("a[x!=y]").kind, SelectorErrorKind::UnexpectedChar('!'));
    assert_eq!(
        err(":not(a b)").kind,
        SelectorErrorKind::UnexpectedChar('b')
    );
    assert!(err("p::before").to_string().contains("byte 2"));
}

#[test]
fn type_id_class_universal() {
    let html = r#"<div id=a class="x y"><P id=b class=x>t</P><span id=c class=Y></span></div>"#;
    assert_eq!(matches("p", html), ["b"]);
    assert_eq!(matches("DIV", html), ["a"]);
    assert_eq!(matches("#c", html), ["c"]);
    assert_eq!(matches(".x", html), ["a", "b"]);
    assert_eq!(matches(".y", html), ["a"]);
    assert_eq!(
        matches("*", html),
        ["?", "?", "?", "a", "b", "c"],
        "the implied html, head and body too"
    );
    assert_eq!(
        matches("body > div", html),
        ["a"],
        "the implied body is an ancestor"
    );
}

#[test]
fn attribute_operators() {
    let html = r#"<a id=1 href="https://x.org/a.pdf" lang=en-US rel="nofollow noopener"></a><a id=2 href="/rel" lang=EN></a><a id=3 title></a>"#;
    assert_eq!(matches("[href]", html), ["1", "2"]);
    assert_eq!(matches("[title]", html), ["3"]);
    assert_eq!(matches("[title='']", html), ["3"]);
    assert_eq!(matches("[href^=https]", html), ["1"]);
    assert_eq!(matches("[href$='.pdf']", html), ["1"]);
    assert_eq!(matches("[href*=rel]", html), ["2"]);
    assert_eq!(matches("[href*='']", html), Vec::<String>::new());
    assert_eq!(matches("[rel~=noopener]", html), ["1"]);
    assert_eq!(
        matches("[lang|=en]", html),
        ["1", "2"],
        "lang is case-insensitive in HTML"
    );
    assert_eq!(matches("[href^=HTTPS i]", html), ["1"]);
    assert_eq!(matches("[href^=HTTPS]", html), Vec::<String>::new());
    assert_eq!(matches("[lang=en s]", html), Vec::<String>::new());
}

#[test]
fn combinators_follow_the_tree_builders_nesting() {
    let html = "<div id=d><p id=p1>a<p id=p2>b<span id=s></span></div><table id=t><tr id=r><td id=c></table>";
    assert_eq!(matches("div > p", html), ["p1", "p2"], "<p> closes <p>");
    assert_eq!(matches("p span", html), ["s"]);
    assert_eq!(matches("p > p", html), Vec::<String>::new());
    assert_eq!(matches("table > tbody > tr", html), ["r"], "implied tbody");
    assert_eq!(matches("table > tr", html), Vec::<String>::new());
    assert_eq!(matches("body > table td", html), ["c"]);
    assert_eq!(matches("div p > span", html), ["s"]);
    assert_eq!(matches("div span, #t", html), ["s", "t"]);
}

#[test]
fn backtracking_over_mixed_combinators() {
    // `a > b c`: the `b` must be a child of an `a`, and `c` anywhere below it.
    let html = "<x-a id=1><x-b id=2><x-a id=3><x-d id=4><x-c id=5></x-c></x-d></x-a></x-b></x-a>";
    assert_eq!(matches("x-a > x-b x-c", html), ["5"]);
    assert_eq!(matches("x-a > x-d > x-c", html), ["5"]);
    assert_eq!(matches("x-b > x-c", html), Vec::<String>::new());
}

#[test]
fn nth_child_and_not() {
    let html = "<ul><li id=1><li id=2><li id=3><li id=4><li id=5></ul><div><p id=a><span id=b></span><p id=c></div>";
    assert_eq!(matches("li:nth-child(2n+1)", html), ["1", "3", "5"]);
    assert_eq!(matches("li:nth-child(odd)", html), ["1", "3", "5"]);
    assert_eq!(matches("li:nth-child(even)", html), ["2", "4"]);
    assert_eq!(matches("li:nth-child(-n+2)", html), ["1", "2"]);
    assert_eq!(matches("li:nth-child(3)", html), ["3"]);
    assert_eq!(matches("li:first-child", html), ["1"]);
    // The span is inside the first p (nothing closes it), so the div has two children.
    assert_eq!(matches("div > :nth-child(2)", html), ["c"]);
    assert_eq!(matches("p:nth-of-type(2)", html), ["c"]);
    assert_eq!(matches("div > :first-of-type", html), ["a"]);
    assert_eq!(matches("p > :first-of-type", html), ["b"]);
    assert_eq!(matches("li:not(:nth-child(odd))", html), ["2", "4"]);
    assert_eq!(matches("li:not(#2, #4)", html), ["1", "3", "5"]);
}

#[test]
fn class_words_by_whitespace_only() {
    let html = "<p id=1 class=\"xa\tx\"><p id=2 class=\"ax xa\"><p id=3 class=x><p id=4 class=\"a\x0cx\nb\"><p id=5 class=\"x-y\">";
    assert_eq!(matches(".x", html), ["1", "3", "4"]);
    assert_eq!(matches(".xa", html), ["1", "2"]);
    assert_eq!(matches(".b", html), ["4"]);
    assert_eq!(matches(".y", html), Vec::<String>::new());
    assert_eq!(matches("[class~=\"x y\"]", html), Vec::<String>::new());
}

#[test]
fn of_type_counts_start_fresh_in_each_parent() {
    let html = "<div id=d1><p id=1></p><p id=2></p></div><div id=d2><span id=s></span><p id=3></p><p id=4></p></div>";
    assert_eq!(matches("p:nth-of-type(1)", html), ["1", "3"]);
    assert_eq!(matches("p:nth-of-type(2)", html), ["2", "4"]);
    assert_eq!(matches("div:nth-of-type(2)", html), ["d2"]);
    assert_eq!(
        matches(":first-of-type", html),
        ["?", "?", "?", "d1", "1", "s", "3"]
    );
}

#[test]
fn class_words_with_whitespace_or_escapes_never_match() {
    // An escaped space makes a class word no class list can contain (decided
    // once when the selector is compiled); other escapes resolve as usual.
    let html = r#"<p id=a class="a b">x</p><p id=b class="a">x</p><p id=c class=Ab>x</p>"#;
    assert!(matches(r".a\20 b", html).is_empty());
    assert!(matches(r"p.a\ b", html).is_empty());
    assert_eq!(matches(r".\61", html), ["a", "b"]);
    assert_eq!(matches(r"P.\41 b", html), ["c"]);
    assert_eq!(matches(r"[CLASS~=a]", html), ["a", "b"]);
}
