//! The sanitize workloads shared by `benches/sanitize.rs` and
//! `examples/sanitize_compare.rs`: each side with its default policy, on a
//! page's text (lossy UTF-8: both take `&str`).
//!
//! Default policies differ: ammonia keeps `class`-less generic attributes like
//! `lang`/`title`, `rel="noopener noreferrer"` on links, drops `style`; tagloom's
//! default is close to ammonia's (see `Policy::default`), keeps a checked
//! `style`, and serializes a spec tree re-parsed to itself.

#![allow(dead_code)]

use tagloom_transform::sanitize::Sanitizer;

/// The pages concatenated until at least `min_bytes`.
pub fn concat(pages: &[tagloom_bench::Page], min_bytes: usize) -> String {
    let mut out = String::with_capacity(min_bytes + (4 << 20));
    while out.len() < min_bytes && pages.iter().any(|p| !p.bytes.is_empty()) {
        for page in pages {
            out.push_str(&String::from_utf8_lossy(&page.bytes));
        }
    }
    out
}

/// A page as text.
pub fn text(page: &tagloom_bench::Page) -> String {
    String::from_utf8_lossy(&page.bytes).into_owned()
}

/// tagloom's sanitizer (default policy): output length.
pub fn tagloom(sanitizer: &Sanitizer, input: &str) -> usize {
    sanitizer.sanitize(input).html.len()
}

/// ammonia (default builder): output length.
pub fn ammonia(builder: &ammonia::Builder<'_>, input: &str) -> usize {
    builder.clean(input).to_string().len()
}
