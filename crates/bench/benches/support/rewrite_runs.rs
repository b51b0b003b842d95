//! The rewrite workloads, the same for tagloom and lol-html so both sides do the
//! same work (shared by `benches/rewrite.rs` and `examples/rewrite_peak_memory.rs`):
//! (a) `*` element + text handlers, (b) one `a[href]` handler setting an attribute,
//! (c) 1 or 10 no-op element handlers. Each run feeds `input` in pieces of `chunk`
//! bytes and collects the output in a `Vec`; it returns the output length and what
//! the handlers counted, so nothing is optimized away.

#![allow(dead_code)] // each user takes what it needs

use lol_html::{HtmlRewriter, element, text};
use tagloom_transform::rewrite::{Handlers, Rewriter, Settings};

/// Which handlers a run installs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Workload {
    /// `*` element and `*` text handlers that count what they see.
    StarElementText,
    /// One `a[href]` handler that sets `rel="nofollow"`.
    AHrefSetAttr,
    /// The first `n` selectors of [`NOOP_SELECTORS`], each with a no-op handler.
    Noop(usize),
}

include!("noop_selectors.rs");

/// The streaming chunk of the concat runs.
pub const CHUNK: usize = 64 * 1024;

/// At least `min_bytes` of `pages`, concatenated in order and repeated.
pub fn concat(pages: &[tagloom_bench::Page], min_bytes: usize) -> Vec<u8> {
    let mut out = Vec::with_capacity(min_bytes + (4 << 20));
    while out.len() < min_bytes && pages.iter().any(|p| !p.bytes.is_empty()) {
        for page in pages {
            out.extend_from_slice(&page.bytes);
        }
    }
    out
}

/// tagloom's rewriter.
pub fn tagloom(input: &[u8], chunk: usize, work: Workload) -> (usize, usize) {
    let (out, seen) = tagloom_output(input, chunk, work);
    (out.len(), seen)
}

/// [`tagloom`], returning the output itself.
pub fn tagloom_output(input: &[u8], chunk: usize, work: Workload) -> (Vec<u8>, usize) {
    let seen = std::cell::Cell::new(0usize);
    let seen_ref = &seen;
    let mut out = Vec::with_capacity(input.len() + input.len() / 8);
    {
        let mut handlers = Handlers::new();
        match work {
            Workload::StarElementText => {
                handlers
                    .element("*", move |el| {
                        seen_ref.set(seen_ref.get() + el.tag_name().len());
                        Ok(())
                    })
                    .expect("selector")
                    .text("*", move |t| {
                        seen_ref.set(seen_ref.get() + t.as_str().len());
                        Ok(())
                    })
                    .expect("selector");
            }
            Workload::AHrefSetAttr => {
                handlers
                    .element("a[href]", move |el| {
                        el.set_attribute("rel", "nofollow")?;
                        seen_ref.set(seen_ref.get() + 1);
                        Ok(())
                    })
                    .expect("selector");
            }
            Workload::Noop(n) => {
                for sel in NOOP_SELECTORS.iter().take(n) {
                    handlers
                        .element(sel, move |_| {
                            seen_ref.set(seen_ref.get() + 1);
                            Ok(())
                        })
                        .expect("selector");
                }
            }
        }
        let mut rw = Rewriter::new(handlers, Settings::default(), |c: &[u8]| {
            out.extend_from_slice(c)
        });
        for piece in input.chunks(chunk.max(1)) {
            rw.write(piece).expect("tagloom rewrite");
        }
        let _sink = rw.end().expect("tagloom end");
    }
    (out, seen.get())
}

/// lol-html's rewriter (`*` handlers force its full lexing mode; a lone `a[href]`
/// handler lets it run its tag scanner).
pub fn lol(input: &[u8], chunk: usize, work: Workload) -> (usize, usize) {
    let (out, seen) = lol_output(input, chunk, work);
    (out.len(), seen)
}

/// [`lol`], returning the output itself.
pub fn lol_output(input: &[u8], chunk: usize, work: Workload) -> (Vec<u8>, usize) {
    let seen = std::cell::Cell::new(0usize);
    let seen_ref = &seen;
    let mut out = Vec::with_capacity(input.len() + input.len() / 8);
    {
        let handlers = match work {
            Workload::StarElementText => vec![
                element!("*", move |el| {
                    seen_ref.set(seen_ref.get() + el.tag_name().len());
                    Ok(())
                }),
                text!("*", move |t| {
                    seen_ref.set(seen_ref.get() + t.as_str().len());
                    Ok(())
                }),
            ],
            Workload::AHrefSetAttr => vec![element!("a[href]", move |el| {
                el.set_attribute("rel", "nofollow")?;
                seen_ref.set(seen_ref.get() + 1);
                Ok(())
            })],
            Workload::Noop(n) => NOOP_SELECTORS
                .iter()
                .take(n)
                .map(|sel| {
                    element!(sel, move |_| {
                        seen_ref.set(seen_ref.get() + 1);
                        Ok(())
                    })
                })
                .collect(),
        };
        let settings = handlers
            .into_iter()
            .fold(lol_html::Settings::new(), |s, h| {
                s.append_element_content_handler(h)
            });
        let mut rw = HtmlRewriter::new(settings, |c: &[u8]| out.extend_from_slice(c));
        for piece in input.chunks(chunk.max(1)) {
            rw.write(piece).expect("lol-html rewrite");
        }
        rw.end().expect("lol-html end");
    }
    (out, seen.get())
}
