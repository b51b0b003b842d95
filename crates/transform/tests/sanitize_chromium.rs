//! Sanitized output in a real browser: every corpus vector and every html5lib
//! tree-construction input, sanitized under the
//! default and the widened policy, is loaded in headless Chromium two ways, and
//! nothing may run.
//!
//! - **Parsed page, under CSP.** The outputs are written into the page source, each
//!   in its own `<div>`; the page's Content-Security-Policy allows only its own
//!   script (by nonce), so *any* attempt to run script from the outputs — inline
//!   script, an event handler, a `javascript:` navigation — is blocked and shows
//!   up as a `securitypolicyviolation` event, which the trusted script records.
//! - **`innerHTML`, no CSP.** The trusted script assigns each output to a `<div>`'s
//!   `innerHTML` with `alert`/`confirm`/`prompt`/`print` replaced by recorders; it
//!   also records where Chromium's own serialization of the result differs from the
//!   output (the mutation-XSS property, checked by the browser).
//!
//! Both pages also scan the resulting DOM for `on*` attributes, `<script>`
//! elements and `javascript:`/`vbscript:`/`data:` URLs. Each page carries one
//! deliberately unsanitized control (`<img src=x onerror=alert('control')>`) that
//! must be caught, so the test cannot pass by seeing nothing.
//!
//! Chromium is found, launched and skipped through `tagloom-browser`
//! ([`launch_for_test`]): without it the test says so on stderr and passes, unless
//! `TAGLOOM_REQUIRE_CHROMIUM=1` (set by `.ci/run`, which installs it).

mod sanitize_support;

use sanitize_support::{tree_construction_inputs, vectors};
use tagloom_browser::{Browser, launch_for_test};
use tagloom_transform::sanitize::{Policy, sanitize};

const CONTROL: &str = "<img src=x onerror=\"alert('control')\">";

const HOOK: &str = r#"
window.__x = [];
for (const f of ['alert', 'confirm', 'prompt', 'print']) {
  window[f] = function (m) { window.__x.push(f + ':' + String(m)); };
}
document.addEventListener('securitypolicyviolation', function (e) {
  window.__x.push('csp:' + e.violatedDirective + ':' + (e.sample || e.blockedURI));
});
function __scan(root) {
  const bad = /^(javascript|vbscript|data|livescript):/i;
  const strip = function (v) { return v.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+/, ''); };
  for (const el of root.querySelectorAll('*')) {
    if (el.localName === 'script') window.__x.push('script-element');
    for (const a of Array.from(el.attributes)) {
      const n = a.name.toLowerCase();
      if (n.startsWith('on') && !el.closest('.control')) window.__x.push('handler:' + n);
      const parts = (n === 'srcset' || n === 'ping') ? a.value.split(/[\s,]+/) : [a.value];
      if (parts.some(function (p) { return bad.test(strip(p)); })) window.__x.push('url:' + n + '=' + a.value);
    }
  }
}
"#;

/// Loads `page` (written to a file, so that it has a real origin) and returns
/// the JSON its trusted script writes into `#__result` after the load event.
fn run_chromium(browser: &mut Browser, page: &str, name: &str) -> String {
    // Removed when the call returns (the page is loaded and evaluated by then).
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join(name);
    std::fs::write(&path, page).expect("write page");
    let mut tab = browser.new_page().expect("new page");
    tab.navigate(&format!("file://{}", path.display()))
        .unwrap_or_else(|e| panic!("load {name}: {e}"));
    let result = tab
        .evaluate(
            "new Promise(function (done) { (function poll() {\
               const t = document.getElementById('__result').textContent;\
               if (t) done(t); else setTimeout(poll, 50);\
             })(); })",
        )
        .unwrap_or_else(|e| panic!("no result from chromium for {name}: {e}"));
    match result {
        serde_json::Value::String(s) => s,
        other => panic!("no result from chromium for {name}: {other}"),
    }
}

fn parsed_page(outputs: &[String]) -> String {
    let mut page = String::from(
        "<!DOCTYPE html><html><head><meta charset=utf-8>\
         <meta http-equiv=\"Content-Security-Policy\" content=\"script-src 'nonce-t4gl00m' 'report-sample'; base-uri 'none'\">\
         <script nonce=t4gl00m>",
    );
    page.push_str(HOOK);
    page.push_str("</script></head><body>");
    page.push_str(&format!("<div class=control>{CONTROL}</div>"));
    for (i, s) in outputs.iter().enumerate() {
        page.push_str(&format!("<div class=v id=v{i}>{s}</div>"));
    }
    page.push_str(
        "<pre id=\"__result\"></pre><script nonce=t4gl00m>\
         window.addEventListener('load', function () { setTimeout(function () {\
           for (const d of document.querySelectorAll('.v')) __scan(d);\
           document.getElementById('__result').textContent = JSON.stringify(window.__x);\
         }, 1000); });</script></body></html>",
    );
    page
}

fn inner_html_page(outputs: &[String]) -> String {
    let json = serde_json::to_string(outputs)
        .expect("json")
        .replace('<', "\\u003c")
        .replace('>', "\\u003e");
    let control = serde_json::to_string(CONTROL)
        .expect("json")
        .replace('<', "\\u003c");
    format!(
        "<!DOCTYPE html><html><head><meta charset=utf-8><script>{HOOK}</script></head><body>\
         <div id=host></div><pre id=\"__result\"></pre><script>\
         const outs = {json};\
         const host = document.getElementById('host');\
         const c = document.createElement('div'); c.className = 'control'; c.innerHTML = {control}; host.appendChild(c);\
         outs.forEach(function (s, i) {{\
           const d = document.createElement('div'); d.className = 'v'; d.innerHTML = s; host.appendChild(d);\
           if (d.innerHTML !== s) window.__x.push('roundtrip:' + i + ':' + d.innerHTML);\
         }});\
         window.addEventListener('load', function () {{ setTimeout(function () {{\
           for (const d of document.querySelectorAll('.v')) __scan(d);\
           document.getElementById('__result').textContent = JSON.stringify(window.__x);\
         }}, 1000); }});\
         </script></body></html>"
    )
}

#[test]
fn chromium_runs_nothing_from_sanitized_output() {
    let Some(mut browser) = launch_for_test("chromium_runs_nothing_from_sanitized_output") else {
        return;
    };
    let mut inputs = vectors();
    inputs.extend(tree_construction_inputs());
    let mut failures = Vec::new();
    for (label, policy) in [
        ("default", Policy::default()),
        ("widened", Policy::widened()),
    ] {
        let outputs: Vec<String> = inputs.iter().map(|x| sanitize(x, &policy).html).collect();
        for (kind, page) in [
            ("parsed", parsed_page(&outputs)),
            ("innerHTML", inner_html_page(&outputs)),
        ] {
            let result = run_chromium(&mut browser, &page, &format!("{label}-{kind}.html"));
            let records: Vec<String> = serde_json::from_str(&result).expect("result JSON");
            let (controls, rest): (Vec<_>, Vec<_>) =
                records.into_iter().partition(|r| r.contains("control"));
            println!(
                "{label}/{kind}: {} vectors, {} control records, {} other records",
                outputs.len(),
                controls.len(),
                rest.len()
            );
            if controls.is_empty() {
                failures.push(format!(
                    "{label}/{kind}: the control did not fire: the hook sees nothing"
                ));
            }
            for r in rest {
                let index = r
                    .strip_prefix("roundtrip:")
                    .and_then(|t| t.split(':').next())
                    .and_then(|i| i.parse::<usize>().ok());
                let context = index
                    .and_then(|i| inputs.get(i).zip(outputs.get(i)))
                    .map(|(x, s)| format!(" (input {x:?}, output {s:?})"))
                    .unwrap_or_default();
                failures.push(format!("{label}/{kind}: {r}{context}"));
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
