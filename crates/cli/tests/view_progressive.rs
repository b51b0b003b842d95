//! `tagloom view` renders progressively (issue 14, acceptance 5): a 2 MB page (the
//! bench corpus, concatenated) served at 64 KiB/s is shown in headless Chromium
//! (through `tagloom-browser`'s DevTools pipe) and captured three times while it
//! streams. Each capture must show more of the document than the one before it
//! (the frame's element count grows) and the stream must still be running (the
//! page is not done): what a browser shows while the bytes arrive, batch by batch.
//! Each capture shows the frame scrolled to its end, where the document grows.
//! The screenshots go to `$CARGO_TARGET_TMPDIR/view-progressive/` (the README's
//! are copies).
//!
//! Needs Chromium (SKIPPED without it, a failure with `TAGLOOM_REQUIRE_CHROMIUM=1`)
//! and the bench corpus (`../shared/bench-corpus`, or `TAGLOOM_BENCH_CORPUS`;
//! SKIPPED without it, a failure under `CI=true` or `TAGLOOM_REQUIRE_SHARED=1`).

mod view_support;

use std::path::PathBuf;
use std::time::Duration;

use tagloom_testdata::Shared;
use view_support::Server;

/// The versions (batch counts) at which the page is captured; a 2 MB page read in
/// 4 KiB pieces streams several hundred batches.
const CAPTURE_AT: [u64; 3] = [40, 120, 240];

/// The corpus pages one after the other, at least 2 MB.
fn two_megabytes(corpus: &std::path::Path) -> Vec<u8> {
    let mut pages: Vec<PathBuf> = std::fs::read_dir(corpus)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "html"))
        .collect();
    pages.sort();
    let mut page = Vec::new();
    while page.len() < 2_000_000 {
        for p in &pages {
            page.extend(std::fs::read(p).unwrap());
        }
    }
    page
}

#[test]
fn view_renders_a_throttled_page_progressively() {
    let Some(corpus) = Shared::BenchCorpus.dir("view_renders_a_throttled_page_progressively")
    else {
        return;
    };
    let Some(mut browser) =
        tagloom_browser::launch_for_test("view_renders_a_throttled_page_progressively")
    else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("two-megabytes.html");
    std::fs::write(&file, two_megabytes(&corpus)).unwrap();
    let server = Server::start(&[file.to_str().unwrap(), "--throttle", "64"]);
    let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("view-progressive");
    std::fs::create_dir_all(&out).unwrap();

    let mut page = browser.new_page().unwrap();
    page.call(
        "Emulation.setDeviceMetricsOverride",
        serde_json::json!({ "width": 1000, "height": 700, "deviceScaleFactor": 1, "mobile": false }),
    )
    .unwrap();
    page.navigate(&format!("http://127.0.0.1:{}/", server.port))
        .unwrap();
    let state = "(() => { const d = document.getElementById('page').contentDocument; \
        return { state: document.body.dataset.state || '', \
                 version: Number(document.body.dataset.version || 0), \
                 elements: d ? d.getElementsByTagName('*').length : 0 }; })()";
    let mut seen = Vec::new();
    for (i, at) in CAPTURE_AT.iter().enumerate() {
        let now = loop {
            let now = page.evaluate(state).unwrap();
            assert_ne!(now["state"], "failed", "the viewer failed: {now}");
            if now["version"].as_u64().unwrap_or(0) >= *at {
                break now;
            }
            assert_ne!(
                now["state"], "done",
                "the stream ended before version {at}: {now}"
            );
            std::thread::sleep(Duration::from_millis(50));
        };
        // The frontier of the stream: the frame scrolled to its end.
        page.evaluate(
            "(() => { const w = document.getElementById('page').contentWindow; \
             w.scrollTo(0, w.document.documentElement.scrollHeight); })()",
        )
        .unwrap();
        let png = page.screenshot_png().unwrap();
        // Still streaming after the capture: it shows a document mid-stream.
        let after = page.evaluate(state).unwrap();
        assert_eq!(after["state"], "streaming", "capture {i}: {after}");
        let path = out.join(format!("{}.png", i + 1));
        std::fs::write(&path, png).unwrap();
        println!("capture {}: {now} -> {}", i + 1, path.display());
        seen.push(now["elements"].as_u64().unwrap_or(0));
    }
    assert!(
        seen.windows(2).all(|w| w[0] < w[1]) && seen[0] > 0,
        "the document grows between the captures: {seen:?}"
    );
}
