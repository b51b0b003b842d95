//! Test support: drives Debian's headless `chromium` over its DevTools pipe
//! (`--remote-debugging-pipe`: NUL-separated JSON on fds 3 and 4), with
//! `serde_json` and std only: no browser download, no driver crate.
//!
//! - [`Browser`] ([`browser`]): launch, commands with a timeout, events, clean
//!   shutdown, a clear [`BrowserError`] when Chromium is missing or dies.
//! - [`Page`] ([`page`]): a target attached in flat mode; `navigate`,
//!   `set_content`, `evaluate` (by value, promises awaited), `screenshot_png`.
//! - [`compare`]: Chromium's parser (`DOMParser`, or a context element's
//!   `innerHTML` for fragments; scripting off) against tagloom's, both dumped in
//!   html5lib's tree format, many documents per round trip; known differences.
//! - [`patched`]: tagloom's versioned batches applied in the page by `tagloom view`'s
//!   batch applier, the page's DOM against the `DomStore` mid-stream and at the end.
//! - [`soup`] and [`minimize`]: random tag soup and delta debugging, for the
//!   differential fuzzer (`tests/diff_fuzz.rs`).
//!
//! Which API when: a test that needs a browser calls [`launch_for_test`]; a test
//! that compares trees uses [`compare`], one that checks streamed batches
//! [`patched`]; [`Browser::launch`] directly only to choose [`LaunchOptions`]
//! (another binary, a window size, extra switches), where a missing browser is
//! [`BrowserError::NotFound`].
//!
//! Tests call [`launch_for_test`], which skips visibly (a line on the real
//! stderr) when Chromium is missing, unless `TAGLOOM_REQUIRE_CHROMIUM=1`.

pub mod browser;
pub mod compare;
pub mod error;
pub mod minimize;
pub mod page;
pub mod patched;
pub mod soup;

mod base64;

use std::io::Write as _;

pub use browser::{Browser, LaunchOptions, find_chromium};
pub use error::BrowserError;
pub use page::Page;

/// Launches Chromium for the test `name`. Without Chromium: `None` after saying
/// `SKIPPED <name>: …` on stderr, or a panic when `TAGLOOM_REQUIRE_CHROMIUM=1`
/// (set by `.ci/run`, which installs it). Any other launch failure panics.
pub fn launch_for_test(name: &str) -> Option<Browser> {
    match Browser::launch(&LaunchOptions::default()) {
        Ok(browser) => Some(browser),
        Err(BrowserError::NotFound) => {
            let required = std::env::var("TAGLOOM_REQUIRE_CHROMIUM").is_ok_and(|v| v == "1");
            assert!(
                !required,
                "TAGLOOM_REQUIRE_CHROMIUM=1 but no chromium on PATH"
            );
            // Straight to stderr: the test harness captures `eprintln!`.
            let _ = writeln!(
                std::io::stderr(),
                "SKIPPED {name}: no chromium on PATH (apt-get install chromium; .ci/run does)"
            );
            None
        }
        Err(e) => panic!("{name}: cannot launch chromium: {e}"),
    }
}
