//! Hostile shapes (issue 9, acceptance 6): bounded memory by construction, clean
//! errors at the limits. Timing figures are in BENCHMARKS.md (tests never assert on
//! time).

use std::cell::Cell;

use tagloom_transform::rewrite::{ContentType, Handlers, IoSink, RewriteError, Rewriter, Settings};

fn rewrite(
    input: &[u8],
    handlers: Handlers<'_>,
    settings: Settings,
) -> Result<Vec<u8>, RewriteError> {
    let mut rw = Rewriter::new(handlers, settings, IoSink(Vec::new()));
    for piece in input.chunks(64 * 1024) {
        rw.write(piece)?;
    }
    Ok(rw.end()?.0)
}

#[test]
fn a_hundred_thousand_nested_divs() {
    let n = 100_000;
    let mut input = "<div>".repeat(n);
    input.push('x');
    input.push_str(&"</div>".repeat(n));
    let seen = Cell::new(0usize);
    let deep = Cell::new(0usize);
    let mut h = Handlers::new();
    h.element("*", |_| {
        seen.set(seen.get() + 1);
        Ok(())
    })
    .unwrap()
    .element("div div div div > div:nth-child(1)", |_| {
        deep.set(deep.get() + 1);
        Ok(())
    })
    .unwrap()
    .text("div", |_| Ok(()))
    .unwrap();
    let out = rewrite(input.as_bytes(), h, Settings::default()).unwrap();
    assert_eq!(out, input.as_bytes());
    assert_eq!(
        seen.get(),
        n + 3,
        "every start tag is handed to the * handler, and the implied html, head and body"
    );
    // The stack stops at max_depth (512): deeper divs are matched as children of
    // the deepest open one, each the first child of an element still open.
    assert!(deep.get() > 500, "{}", deep.get());

    // Appending to every div: the appended text comes where each div ends.
    let mut h = Handlers::new();
    h.element("div", |el| {
        el.append(".", ContentType::Text);
        Ok(())
    })
    .unwrap();
    let out = rewrite(input.as_bytes(), h, Settings::default()).unwrap();
    assert_eq!(out.iter().filter(|&&b| b == b'.').count(), n);
}

#[test]
fn a_hundred_thousand_attributes() {
    let n = 100_000;
    let mut input = String::from("<p");
    for i in 0..n {
        input.push_str(&format!(" a{i}=v{i}"));
    }
    input.push_str(">x</p>");
    let mut h = Handlers::new();
    h.element(&format!("p[a{}=v{}]", n - 1, n - 1), |el| {
        el.set_attribute("a5", "new")?;
        el.remove_attribute("a6");
        el.set_attribute("added", "1")?;
        Ok(())
    })
    .unwrap();
    let out =
        String::from_utf8(rewrite(input.as_bytes(), h, Settings::default()).unwrap()).unwrap();
    let want = input
        .replace(" a5=v5 ", " a5=\"new\" ")
        .replace(" a6=v6 ", " ")
        .replace(">x</p>", " added=\"1\">x</p>");
    assert_eq!(out, want);
}

#[test]
fn a_huge_attribute_value_is_an_error_past_the_limit_and_fine_within() {
    let value = "v".repeat(8 << 20);
    let input = format!("<p><a href=\"{value}\">x</a>");
    let settings = |limit| Settings {
        max_token_bytes: limit,
        ..Settings::default()
    };
    let handlers = || {
        let mut h = Handlers::new();
        h.element("a[href]", |el| {
            el.set_attribute("rel", "nofollow")?;
            Ok(())
        })
        .unwrap();
        h
    };
    let err = rewrite(input.as_bytes(), handlers(), settings(4 << 20)).unwrap_err();
    assert!(
        matches!(err, RewriteError::TokenTooLarge { offset: 3, limit } if limit == 4 << 20),
        "{err:?}"
    );
    let out = rewrite(input.as_bytes(), handlers(), settings(16 << 20)).unwrap();
    assert_eq!(out.len(), input.len() + " rel=\"nofollow\"".len());
}

#[test]
fn a_whole_text_node_past_its_limit_is_an_error() {
    let input = format!("<p>{}</p>", "t".repeat(1 << 20));
    let mut h = Handlers::new();
    h.text_nodes("p", |_| Ok(())).unwrap();
    let settings = Settings {
        max_text_node_bytes: 1000,
        ..Settings::default()
    };
    let err = rewrite(input.as_bytes(), h, settings).unwrap_err();
    assert!(
        matches!(
            err,
            RewriteError::TextNodeTooLarge {
                offset: 3,
                limit: 1000
            }
        ),
        "{err:?}"
    );
    // Chunk handlers hold nothing, whatever the size.
    let mut h = Handlers::new();
    h.text("p", |_| Ok(())).unwrap();
    let settings = Settings {
        max_text_node_bytes: 1000,
        ..Settings::default()
    };
    assert_eq!(
        rewrite(input.as_bytes(), h, settings).unwrap(),
        input.as_bytes()
    );
}
