//! The streaming rewriter: bytes (UTF-8, lossily) → `Rewriter`, fed in pieces
//! whose size comes from the first byte. Checked, on every input:
//! - no-op element handlers (the bench's ten selectors, so matching runs) write the
//!   input back byte for byte,
//!   whatever the chunking;
//! - an `a[href]` handler setting `rel` gives the same output whole and chunked,
//!   and never fails on valid input.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tagloom_transform::rewrite::{Handlers, Rewriter, Settings};

include!("../../crates/bench/benches/support/noop_selectors.rs");

fn run(input: &str, chunk: usize, set_rel: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let mut handlers = Handlers::new();
    if set_rel {
        handlers
            .element("a[href]", |el| {
                el.set_attribute("rel", "nofollow")?;
                Ok(())
            })
            .expect("selector");
    } else {
        for sel in NOOP_SELECTORS {
            handlers.element(sel, |_| Ok(())).expect("selector");
        }
    }
    let mut rw = Rewriter::new(handlers, Settings::default(), |c: &[u8]| {
        out.extend_from_slice(c)
    });
    for piece in input.as_bytes().chunks(chunk.max(1)) {
        rw.write(piece).expect("rewrite");
    }
    let _sink = rw.end().expect("end");
    out
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let input = String::from_utf8_lossy(rest);
    let chunk = usize::from(first % 16) + 1;
    assert_eq!(run(&input, usize::MAX, false), input.as_bytes());
    assert_eq!(run(&input, chunk, false), input.as_bytes());
    assert_eq!(run(&input, usize::MAX, true), run(&input, chunk, true));
});
