//! The rewriter's mutations, one test each, and its errors.

use std::cell::RefCell;

use tagloom_transform::rewrite::{
    ContentType, Handlers, IoSink, RewriteError, Rewriter, Settings, rewrite_str,
};

fn run(html: &str, handlers: Handlers<'_>) -> String {
    rewrite_str(html, handlers, Settings::default()).expect("rewrite succeeds")
}

/// The same rewrite fed one byte at a time.
fn run_bytewise(html: &str, handlers: Handlers<'_>) -> String {
    let mut rw = Rewriter::new(handlers, Settings::default(), IoSink(Vec::new()));
    for b in html.as_bytes() {
        rw.write(std::slice::from_ref(b)).expect("write");
    }
    String::from_utf8(rw.end().expect("end").0).expect("utf-8")
}

#[test]
fn attributes_set_and_removed_keep_the_rest_as_written() {
    let mut h = Handlers::new();
    h.element("a", |el| {
        el.set_attribute("href", "/new?a=1&b=\"2\"")?;
        el.remove_attribute("TARGET");
        el.set_attribute("rel", "nofollow")?;
        Ok(())
    })
    .unwrap();
    assert_eq!(
        run("<a  class = 'x'  href=/old target=_blank data-x>t</a>", h),
        "<a class = 'x' href=\"/new?a=1&amp;b=&quot;2&quot;\" data-x rel=\"nofollow\">t</a>"
    );
}

#[test]
fn before_after_prepend_append() {
    let html = "<div><p>x</p></div>";
    let make = || {
        let mut h = Handlers::new();
        h.element("p", |el| {
            el.before("<hr>", ContentType::Html);
            el.after("a&b", ContentType::Text);
            el.prepend("[", ContentType::Text);
            el.append("]", ContentType::Text);
            Ok(())
        })
        .unwrap();
        h
    };
    let want = "<div><hr><p>[x]</p>a&amp;b</div>";
    assert_eq!(run(html, make()), want);
    assert_eq!(run_bytewise(html, make()), want);
}

#[test]
fn append_and_after_land_where_the_element_ends_implicitly() {
    let mut h = Handlers::new();
    h.element("li", |el| {
        el.append("!", ContentType::Text);
        el.after("|", ContentType::Text);
        Ok(())
    })
    .unwrap();
    assert_eq!(run("<ul><li>a<li>b</ul>", h), "<ul><li>a!|<li>b!|</ul>");
}

#[test]
fn set_inner_content_replace_remove() {
    let mut h = Handlers::new();
    h.element("#a", |el| {
        el.set_inner_content("<b>new</b>", ContentType::Html);
        Ok(())
    })
    .unwrap()
    .element("#b", |el| {
        el.replace("<i>r</i>", ContentType::Html);
        Ok(())
    })
    .unwrap()
    .element("#c", |el| {
        el.remove();
        el.after("~", ContentType::Text);
        Ok(())
    })
    .unwrap();
    assert_eq!(
        run(
            "<div id=a>old <span>x</span></div><p id=b>p<em>e</em></p><section id=c><p>gone</section>.",
            h
        ),
        "<div id=a><b>new</b></div><i>r</i>~."
    );
}

#[test]
fn remove_and_keep_content() {
    let mut h = Handlers::new();
    h.element("font", |el| {
        el.remove_and_keep_content();
        Ok(())
    })
    .unwrap();
    assert_eq!(
        run("<p><font color=red>a<b>b</b></font>c</p>", h),
        "<p>a<b>b</b>c</p>"
    );
}

#[test]
fn rename_renames_the_end_tag_and_closes_implied_ends() {
    let mut h = Handlers::new();
    h.element("b", |el| el.set_tag_name("strong").map_err(Into::into))
        .unwrap()
        .element("li", |el| el.set_tag_name("x-item").map_err(Into::into))
        .unwrap();
    assert_eq!(
        run("<b class=k>bold</b><ul><li>1<li>2</ul>", h),
        "<strong class=k>bold</strong><ul><x-item>1</x-item><x-item>2</x-item></ul>"
    );
}

#[test]
fn end_tag_handlers() {
    let mut h = Handlers::new();
    h.element("div", |el| {
        el.on_end_tag(|end| {
            end.before("(end)", ContentType::Text);
            Ok(())
        });
        Ok(())
    })
    .unwrap()
    .end_tag("p", |end| {
        if end.is_implicit() {
            end.set_name("p")?;
        }
        Ok(())
    })
    .unwrap();
    assert_eq!(
        run("<div><p>a<p>b</div>", h),
        "<div><p>a</p><p>b</p>(end)</div>"
    );
}

#[test]
fn text_chunks_and_the_last_chunk() {
    let seen = RefCell::new(Vec::new());
    let make = || {
        let mut h = Handlers::new();
        h.text("p", |t| {
            seen.borrow_mut()
                .push((t.as_str().to_owned(), t.last_in_text_node()));
            if t.last_in_text_node() {
                t.after("!", ContentType::Text);
            }
            Ok(())
        })
        .unwrap();
        h
    };
    assert_eq!(
        run("<p>a &amp; b<br>c</p>x", make()),
        "<p>a &amp; b!<br>c!</p>x"
    );
    assert_eq!(
        seen.borrow().clone(),
        [
            ("a & b".to_owned(), false),
            (String::new(), true),
            ("c".to_owned(), false),
            (String::new(), true)
        ]
    );
    assert_eq!(
        run_bytewise("<p>a &amp; b<br>c</p>x", make()),
        "<p>a &amp; b!<br>c!</p>x"
    );
}

#[test]
fn whole_text_nodes_whatever_the_chunking() {
    let seen = RefCell::new(Vec::new());
    let make = || {
        let mut h = Handlers::new();
        h.text_nodes("h1", |t| {
            seen.borrow_mut().push(t.as_str().to_owned());
            let upper = t.as_str().to_uppercase();
            t.replace(&upper, ContentType::Text);
            Ok(())
        })
        .unwrap();
        h
    };
    assert_eq!(
        run_bytewise("<h1>Hello &lt;world&gt;</h1>", make()),
        "<h1>HELLO &lt;WORLD&gt;</h1>"
    );
    assert_eq!(seen.borrow().clone(), ["Hello <world>"]);
}

#[test]
fn comments_and_doctype() {
    let mut h = Handlers::new();
    h.comments("div", |c| {
        let text = c.text().trim().to_owned();
        c.set_text(&format!(" {text}! "))?;
        Ok(())
    })
    .unwrap()
    .document_comments(|c| {
        if c.text().contains("drop") {
            c.remove();
        }
        Ok(())
    })
    .doctype(|d| {
        assert_eq!(d.name(), Some("html"));
        d.after("\n", ContentType::Text);
        Ok(())
    })
    .document_end(|end| {
        end.append("<!--end-->", ContentType::Html);
        Ok(())
    });
    assert_eq!(
        run("<!DOCTYPE html><!--drop--><div><!--keep--></div>", h),
        "<!DOCTYPE html>\n<div><!-- keep! --></div><!--end-->"
    );
}

#[test]
fn element_content_at_the_end_under_a_budget() {
    let mut h = Handlers::new();
    h.element("em", |el| el.set_tag_name("i").map_err(Into::into))
        .unwrap()
        .element_content("h2", 1024, |c| {
            let id: String = c
                .text()
                .chars()
                .map(|ch| {
                    if ch.is_alphanumeric() {
                        ch.to_ascii_lowercase()
                    } else {
                        '-'
                    }
                })
                .collect();
            c.before(&format!("<a id=\"{id}\"></a>"), ContentType::Html);
            assert_eq!(c.inner_html(), "Big <i>news</i>");
            Ok(())
        })
        .unwrap();
    assert_eq!(
        run_bytewise("<h2>Big <em>news</em></h2>", h),
        "<a id=\"big-news\"></a><h2>Big <i>news</i></h2>"
    );

    let mut h = Handlers::new();
    h.element_content("div", 8, |_| Ok(())).unwrap();
    let err = rewrite_str("<p><div>0123456789</div>", h, Settings::default()).unwrap_err();
    assert!(
        matches!(err, RewriteError::ContentTooLarge { ref element, offset: 3, limit: 8 } if element == "div"),
        "{err:?}"
    );
}

#[test]
fn handler_errors_and_invalid_names_stop_the_rewrite() {
    let mut h = Handlers::new();
    h.element("p", |_| Err("no p here".into())).unwrap();
    let mut rw = Rewriter::new(h, Settings::default(), |_: &[u8]| {});
    let err = rw.write(b"<div><p>").unwrap_err();
    assert!(matches!(err, RewriteError::Handler(ref e) if e.to_string() == "no p here"));
    assert!(matches!(rw.write(b"x"), Err(RewriteError::Poisoned)));

    let mut h = Handlers::new();
    h.element("p", |el| {
        el.set_attribute("on click", "x").map_err(Into::into)
    })
    .unwrap();
    assert!(rewrite_str("<p>", h, Settings::default()).is_err());
}

#[test]
fn raw_text_and_foreign_content_follow_the_tree_builder() {
    let seen = RefCell::new(Vec::new());
    let mut h = Handlers::new();
    h.element("*", |el| {
        seen.borrow_mut().push(el.tag_name().to_owned());
        Ok(())
    })
    .unwrap();
    let html = "<title><b>t</b></title><script>if (a<b) {}</script><svg><style><rect/></style></svg><textarea><i></textarea>";
    assert_eq!(run(html, h), html);
    assert_eq!(
        seen.borrow().clone(),
        [
            "html", "head", "title", "script", "body", "svg", "style", "rect", "textarea"
        ],
        "the implied html, head and body too"
    );
}

#[test]
fn invalid_utf8_becomes_replacement_characters() {
    let mut rw = Rewriter::new(Handlers::new(), Settings::default(), IoSink(Vec::new()));
    rw.write(b"<p>\xff a \xe2\x82").unwrap();
    rw.write(b"\xac b \xe2").unwrap();
    let out = rw.end().unwrap().0;
    assert_eq!(
        String::from_utf8(out).unwrap(),
        "<p>\u{FFFD} a \u{20AC} b \u{FFFD}"
    );
}

#[test]
fn body_and_html_end_tags_take_append_and_end_handlers() {
    let mut h = Handlers::new();
    h.element("body", |el| {
        el.append("<script src=a.js></script>", ContentType::Html);
        el.set_tag_name("main")?;
        Ok(())
    })
    .unwrap()
    .end_tag("html", |end| {
        end.after("<!--after-->", ContentType::Html);
        Ok(())
    })
    .unwrap();
    assert_eq!(
        run("<html><body><p>x</body></html>\n", h),
        "<html><main><p>x<script src=a.js></script></main></html><!--after-->\n"
    );
}

#[test]
fn implied_elements_are_reported_and_their_changes_land_where_the_tree_builder_makes_them() {
    // Every element of the tree, implied ones included, in tree order.
    let seen = RefCell::new(Vec::new());
    let mut h = Handlers::new();
    h.element("*", |el| {
        let mark = if el.is_implied() { "~" } else { "" };
        seen.borrow_mut().push(format!("{mark}{}", el.tag_name()));
        Ok(())
    })
    .unwrap();
    let html = "<title>t</title><table><tr><td>x</table><div></p></div>";
    assert_eq!(run(html, h), html, "no-op handlers keep the input");
    assert_eq!(
        seen.borrow().clone(),
        [
            "~html", "~head", "title", "~body", "table", "~tbody", "tr", "td", "div", "~p"
        ]
    );

    // An attribute change writes the implied element's start tag; other changes
    // act where it starts and ends.
    let mut h = Handlers::new();
    h.element("tbody", |el| {
        el.set_attribute("class", "rows")?;
        Ok(())
    })
    .unwrap()
    .element("body", |el| {
        el.prepend("<!--top-->", ContentType::Html);
        el.append("<!--end-->", ContentType::Html);
        Ok(())
    })
    .unwrap()
    .element("div > p", |el| {
        el.replace("[p]", ContentType::Text);
        Ok(())
    })
    .unwrap();
    let want = "<title>t</title><!--top--><table><tbody class=\"rows\"><tr><td>x</table><div>[p]</p></div><!--end-->";
    assert_eq!(run(html, h), want);

    // A body tag after text implied the body is that same element, not a second one.
    let seen = RefCell::new(Vec::new());
    let mut h = Handlers::new();
    h.element("*", |el| {
        seen.borrow_mut().push(el.tag_name().to_owned());
        Ok(())
    })
    .unwrap();
    let html = "hi<body class=x><p>y";
    assert_eq!(run(html, h), html);
    assert_eq!(seen.borrow().clone(), ["html", "head", "body", "p"]);
}

#[test]
fn element_handlers_run_in_registration_order_once_each() {
    // Three handlers on one element, the middle one through a list that
    // matches twice: each runs once, in the order registered, whatever the
    // order of the compounds inside the lists.
    let seen = RefCell::new(Vec::new());
    let mut h = Handlers::new();
    h.element("div p.x", |_| {
        seen.borrow_mut().push("first");
        Ok(())
    })
    .expect("selector")
    .element(".x, p, #nope", |_| {
        seen.borrow_mut().push("second");
        Ok(())
    })
    .expect("selector")
    .element("p", |el| {
        seen.borrow_mut().push("third");
        el.set_attribute("data-n", "3")?;
        Ok(())
    })
    .expect("selector");
    let out = run("<div><p class=x>t</p><p>u</p></div>", h);
    assert_eq!(
        out,
        r#"<div><p class=x data-n="3">t</p><p data-n="3">u</p></div>"#
    );
    assert_eq!(
        seen.into_inner(),
        ["first", "second", "third", "second", "third"]
    );
}
