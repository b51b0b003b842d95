//! The XLIFF reader: arbitrary bytes as an XLIFF file, merged into a fixed small page
//! (`l10n_common::PAGE`). No panic; errors are values. When the merge succeeds, the
//! output must have the page's elements, attribute names and comments (a translation
//! or a language value never injects markup), and a merge that translated nothing and
//! retargeted nothing must give the page back byte for byte.
//!
//! An odd first byte puts the rest after the declaration and header the crate's
//! writer starts with, so the reader's fast path (`xliff/fast.rs`: files it wrote)
//! reads it, and declines to the general reader wherever it must.
#![no_main]

mod l10n_common;

use libfuzzer_sys::fuzz_target;

/// What `XliffWriter` writes before the first unit.
const HEAD: &[u8] = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.1\" srcLang=\"en\" trgLang=\"fr\">\n <file id=\"f1\" original=\"page.html\" xml:space=\"preserve\">\n";

fuzz_target!(|data: &[u8]| {
    match data.split_first() {
        Some((first, rest)) if first % 2 == 1 => {
            l10n_common::merge_fuzzed(&[HEAD, rest].concat(), "t.xlf");
        }
        _ => l10n_common::merge_fuzzed(data, "t.xlf"),
    }
});
