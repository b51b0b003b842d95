//! No-op handlers on every bench page give the input back byte for byte, for chunk
//! sizes 1, 7, 1 KiB and the whole page (issue 9, acceptance 4). The pages are read
//! from `../shared/bench-corpus` (or `$TAGLOOM_BENCH_CORPUS`); when the folder is
//! missing the test says so on stderr and checks only the built-in page.

use tagloom_testdata::Shared;
use tagloom_transform::rewrite::{Handlers, IoSink, Rewriter, Settings};

fn corpus() -> Vec<(String, Vec<u8>)> {
    let mut pages = vec![(
        "built-in".to_owned(),
        b"<!DOCTYPE html><html><head><title>a &amp; b</title><style>p{}</style></head>\r\n<body><table><tr><td>x<p>y<li>z</table><svg><style><a/></style></svg><!-- c --><script>if(a<b){}</script><textarea></x></textarea><plaintext></body>".to_vec(),
    )];
    pages.extend(Shared::BenchCorpus.pages("the corpus pages of rewrite_corpus"));
    pages
}

/// Handlers that see everything and change nothing.
fn noop_handlers<'h>() -> Handlers<'h> {
    let mut h = Handlers::new();
    h.element("*", |_| Ok(()))
        .unwrap()
        .element("a[href], div.content p, ul > li:nth-child(2n+1)", |el| {
            let _ = el.get_attribute("href");
            Ok(())
        })
        .unwrap()
        .end_tag("div", |_| Ok(()))
        .unwrap()
        .text("*", |_| Ok(()))
        .unwrap()
        .text_nodes("title, h1, p", |_| Ok(()))
        .unwrap()
        .comments("*", |_| Ok(()))
        .unwrap()
        .element_content("h2, li", 1 << 20, |_| Ok(()))
        .unwrap()
        .document_text(|_| Ok(()))
        .document_comments(|_| Ok(()))
        .doctype(|_| Ok(()))
        .document_end(|_| Ok(()));
    h
}

fn rewrite(bytes: &[u8], chunk: usize, handlers: Handlers<'_>) -> Vec<u8> {
    let mut rw = Rewriter::new(handlers, Settings::default(), IoSink(Vec::new()));
    for piece in bytes.chunks(chunk.max(1)) {
        rw.write(piece).expect("write");
    }
    rw.end().expect("end").0
}

#[test]
fn noop_rewrite_is_byte_identical_for_every_chunk_size() {
    let pages = corpus();
    for (name, bytes) in &pages {
        for chunk in [1, 7, 1024, bytes.len()] {
            for (label, handlers) in [("none", Handlers::new()), ("no-op", noop_handlers())] {
                let out = rewrite(bytes, chunk, handlers);
                if out != *bytes {
                    let at = out
                        .iter()
                        .zip(bytes.iter())
                        .position(|(a, b)| a != b)
                        .unwrap_or(out.len().min(bytes.len()));
                    panic!(
                        "{name}, chunk {chunk}, handlers {label}: output differs at byte {at} (lengths {} vs {}): {:?}",
                        out.len(),
                        bytes.len(),
                        String::from_utf8_lossy(
                            &out[at.saturating_sub(40)..(at + 40).min(out.len())]
                        )
                    );
                }
            }
        }
        eprintln!(
            "{name}: identical at chunk sizes 1, 7, 1024, whole ({} bytes)",
            bytes.len()
        );
    }
}

/// Handlers that change a lot: the output must not depend on the chunking.
fn mutating_handlers<'h>() -> Handlers<'h> {
    use tagloom_transform::rewrite::ContentType;
    let mut h = Handlers::new();
    h.element("a[href]", |el| {
        el.set_attribute("rel", "nofollow")?;
        el.remove_attribute("target");
        Ok(())
    })
    .unwrap()
    .element("script:not([src]), style", |el| {
        el.remove();
        Ok(())
    })
    .unwrap()
    .element("b, i", |el| el.set_tag_name("em").map_err(Into::into))
    .unwrap()
    .element("li:nth-child(2n)", |el| {
        el.prepend("[", ContentType::Text);
        el.append("]", ContentType::Text);
        Ok(())
    })
    .unwrap()
    .element("img", |el| {
        el.before("<!--img-->", ContentType::Html);
        Ok(())
    })
    .unwrap()
    .element("body", |el| {
        el.append("<footer>end</footer>", ContentType::Html);
        Ok(())
    })
    .unwrap()
    .text_nodes("title", |t| {
        let upper = t.as_str().to_uppercase();
        t.replace(&upper, ContentType::Text);
        Ok(())
    })
    .unwrap()
    .text("p", |t| {
        if t.last_in_text_node() {
            t.after("¶", ContentType::Text);
        }
        Ok(())
    })
    .unwrap()
    .element_content("h2, h3", 1 << 20, |c| {
        let text = c.text().trim().to_owned();
        c.before(&format!("<a id=\"{}\"></a>", text.len()), ContentType::Html);
        Ok(())
    })
    .unwrap()
    .comments("*", |c| {
        c.remove();
        Ok(())
    })
    .unwrap();
    h
}

#[test]
fn mutating_rewrite_does_not_depend_on_chunking() {
    let pages = corpus();
    for (name, bytes) in &pages {
        let whole = rewrite(bytes, bytes.len(), mutating_handlers());
        assert_ne!(whole, *bytes, "{name}: the handlers change something");
        for chunk in [1, 7, 1024] {
            let out = rewrite(bytes, chunk, mutating_handlers());
            if out != whole {
                let at = out
                    .iter()
                    .zip(whole.iter())
                    .position(|(a, b)| a != b)
                    .unwrap_or(out.len().min(whole.len()));
                panic!(
                    "{name}, chunk {chunk}: differs from the whole-page rewrite at byte {at}: {:?} vs {:?}",
                    String::from_utf8_lossy(&out[at.saturating_sub(40)..(at + 40).min(out.len())]),
                    String::from_utf8_lossy(
                        &whole[at.saturating_sub(40)..(at + 40).min(whole.len())]
                    )
                );
            }
        }
    }
}

/// Text nobody reads is not decoded (`TextMode::Raw`); a `*` text handler turns
/// that off (and a `*` element handler makes every element a handler's). The
/// output must be the same either way.
#[test]
fn raw_text_rewrites_as_decoded_text() {
    let with_star = |mut h: Handlers<'static>| {
        h.element("*", |_| Ok(())).unwrap();
        h.text("*", |_| Ok(())).unwrap();
        h
    };
    let a_href = || {
        let mut h = Handlers::new();
        h.element("a[href]", |el| {
            el.set_attribute("rel", "nofollow").map_err(Into::into)
        })
        .unwrap();
        h
    };
    for (name, bytes) in &corpus() {
        for chunk in [7, bytes.len()] {
            let raw = rewrite(bytes, chunk, mutating_handlers());
            let decoded = rewrite(bytes, chunk, with_star(mutating_handlers()));
            assert!(raw == decoded, "{name}, chunk {chunk}: mutating handlers");
            let raw = rewrite(bytes, chunk, a_href());
            let decoded = rewrite(bytes, chunk, with_star(a_href()));
            assert!(raw == decoded, "{name}, chunk {chunk}: a[href]");
        }
    }
}
