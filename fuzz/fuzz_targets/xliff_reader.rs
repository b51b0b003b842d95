//! The XLIFF reader: arbitrary bytes as an XLIFF file, merged into a fixed small page
//! (`l10n_common::PAGE`). No panic; errors are values. When the merge succeeds, the
//! output must have the page's elements, attribute names and comments (a translation
//! or a language value never injects markup), and a merge that translated nothing and
//! retargeted nothing must give the page back byte for byte.
#![no_main]

mod l10n_common;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    l10n_common::merge_fuzzed(data, "t.xlf");
});
