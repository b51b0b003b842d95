//! The DevTools pipe client against a real headless Chromium: evaluation (values,
//! promises, exceptions), content loading, screenshots, protocol errors,
//! timeouts, and a clear error for a missing binary.

use std::time::Duration;

use serde_json::json;
use tagloom_browser::{Browser, BrowserError, LaunchOptions, launch_for_test};

#[test]
fn missing_binary_is_a_clear_error() {
    let options = LaunchOptions {
        program: Some("/nonexistent/chromium".into()),
        ..LaunchOptions::default()
    };
    match Browser::launch(&options) {
        Err(e @ BrowserError::Launch { .. }) => {
            assert!(e.to_string().contains("/nonexistent/chromium"), "{e}")
        }
        other => panic!("expected Launch, got {other:?}"),
    }
}

#[test]
fn a_browser_that_exits_is_a_clear_error() {
    // `sh` is a program that exits at once, complaining about the flags.
    let options = LaunchOptions {
        program: Some("/bin/sh".into()),
        ..LaunchOptions::default()
    };
    match Browser::launch(&options).and_then(|mut b| b.new_page().map(|_| ())) {
        Err(BrowserError::Closed { stderr }) => {
            assert!(stderr.to_lowercase().contains("option"), "{stderr}")
        }
        other => panic!("expected Closed, got {other:?}"),
    }
}

#[test]
fn evaluate_load_screenshot_and_errors() {
    let Some(mut browser) = launch_for_test("evaluate_load_screenshot_and_errors") else {
        return;
    };
    let version = browser.call("Browser.getVersion", json!({}), None).unwrap();
    assert!(
        version["product"]
            .as_str()
            .is_some_and(|p| p.contains("Chrome")),
        "{version}"
    );
    {
        let mut page = browser.new_page().unwrap();
        assert_eq!(page.evaluate("1 + 2").unwrap(), json!(3));
        assert_eq!(
            page.evaluate("new Promise(r => setTimeout(() => r({a: [1, 'x']}), 10))")
                .unwrap(),
            json!({"a": [1, "x"]})
        );
        match page.evaluate("throw new Error('boom')") {
            Err(BrowserError::Script(m)) => assert!(m.contains("boom"), "{m}"),
            other => panic!("expected Script, got {other:?}"),
        }
        match page.call("No.suchMethod", json!({})) {
            Err(BrowserError::Protocol { method, .. }) => assert_eq!(method, "No.suchMethod"),
            other => panic!("expected Protocol, got {other:?}"),
        }

        page.set_content("<title>t</title><p id=p>set</p>").unwrap();
        assert_eq!(
            page.evaluate("document.title + document.getElementById('p').textContent")
                .unwrap(),
            json!("tset")
        );
        page.navigate("data:text/html,<body style='background:%23f00'><p>nav")
            .unwrap();
        assert_eq!(
            page.evaluate("document.body.textContent").unwrap(),
            json!("nav")
        );
        let png = page.screenshot_png().unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "not a PNG");
        assert!(png.len() > 100);
    }
    browser.set_timeout(Duration::from_millis(200));
    let mut page = browser.new_page().unwrap();
    match page.evaluate("new Promise(() => {})") {
        Err(BrowserError::Timeout { method, .. }) => assert_eq!(method, "Runtime.evaluate"),
        other => panic!("expected Timeout, got {other:?}"),
    }
    drop(page);
    browser.close().unwrap();
}
