//! The viewer's batch applier (`apply_batch.js`) in headless Chromium: the batches
//! `tagloom view` streams, applied one by one to a browser `Document`, give the tree
//! `tagloom parse --format html5lib --scripting off` prints — names the DOM API
//! refuses (`=d`, `a<b`, `foo:bar`, odd DOCTYPEs) included — and the applier
//! rejects a skipped, duplicate, stale and cross-document batch with its kind.
//! And the viewer page itself: it finishes the stream, its frame takes the
//! document's mode, and nothing of the document runs.
//!
//! Needs `chromium` on PATH: without it the test says SKIPPED on standard error,
//! and fails instead when `TAGLOOM_REQUIRE_CHROMIUM=1` (set by `.ci/run`).

mod view_support;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::Command;

use view_support::{Server, chained_batches, tagloom};

/// Documents whose trees need the snippet fallbacks or the other patch kinds.
const DOCUMENTS: [(&str, &str); 6] = [
    (
        "names.html",
        "<!DOCTYPE html><p =d a<b=1 foo:bar=2 \"q=3 title=\"a&#13;b\">x</p>\
         <svg foo:bar=1 xlink:href=#x xml:lang=en xmlns:xlink=http://www.w3.org/1999/xlink \
         viewbox=\"0 0 1 1\"><a<b/><foreignObject><p>in</p></foreignObject></svg>\
         <math><mi =x>1</mi><annotation-xml encoding=text/html><b>h</b></annotation-xml></math>",
    ),
    (
        "tree.html",
        "<html a=1><body b=2><table>foster<tr><td>a<b>b<p>c</b>d</table>\
         <template><i>t</i><tr><td>x</template><!--c--><select><option>o</select>\
         <noscript><p>n</noscript><body c=3>tail<html z=0>",
    ),
    (
        "doctype-quotes.html",
        "<!DOCTYPE a PUBLIC \"x'\" 'y\"'><p>q",
    ),
    ("doctype-empty.html", "<!DOCTYPE><p>e"),
    (
        "doctype-system.html",
        "<!DOCTYPE html SYSTEM \"about:legacy-compat\">s",
    ),
    (
        "no-doctype.html",
        "<frameset><frame></frameset><!--after-->",
    ),
];

/// The dump function and the driver of the check page (after the applier).
const CHECK_JS: &str = r#"
const NS = { html: 'http://www.w3.org/1999/xhtml', svg: 'http://www.w3.org/2000/svg',
  math: 'http://www.w3.org/1998/Math/MathML', xlink: 'http://www.w3.org/1999/xlink',
  xml: 'http://www.w3.org/XML/1998/namespace', xmlns: 'http://www.w3.org/2000/xmlns/' };
function dump(node, depth, out) {
  for (let c = node.firstChild; c; c = c.nextSibling) {
    const pad = '| ' + '  '.repeat(depth);
    if (c.nodeType === 1) {
      const prefix = c.namespaceURI === NS.svg ? 'svg ' : c.namespaceURI === NS.math ? 'math ' : '';
      out.push(pad + '<' + prefix + c.localName + '>');
      const attrs = Array.from(c.attributes).map((a) => {
        const p = a.namespaceURI === NS.xlink ? 'xlink ' : a.namespaceURI === NS.xml ? 'xml '
          : a.namespaceURI === NS.xmlns ? 'xmlns ' : '';
        return [p + a.localName, a.value];
      }).sort((x, y) => (x[0] < y[0] ? -1 : x[0] > y[0] ? 1 : 0));
      for (const [n, v] of attrs) out.push(pad + '  ' + n + '="' + v + '"');
      if (c.namespaceURI === NS.html && c.localName === 'template') {
        out.push(pad + '  content');
        dump(c.content, depth + 2, out);
      }
      dump(c, depth + 1, out);
    } else if (c.nodeType === 3) {
      out.push(pad + '"' + c.data + '"');
    } else if (c.nodeType === 8) {
      out.push(pad + '<!-- ' + c.data + ' -->');
    } else if (c.nodeType === 10) {
      const ids = c.publicId || c.systemId ? ' "' + c.publicId + '" "' + c.systemId + '"' : '';
      out.push(pad + '<!DOCTYPE ' + c.name + ids + '>');
    }
  }
  return out;
}
function batchesOf(body) {
  return body.split('\n\n').filter((b) => b.startsWith('event: batch\n'))
    .map((b) => b.slice('event: batch\ndata: '.length));
}
function kind(f) {
  try { f(); return 'ok'; } catch (e) { return e.kind || String(e); }
}
const result = { dumps: [], versions: [] };
for (const body of STREAMS) {
  const doc = document.implementation.createHTMLDocument('');
  let text;
  try {
    for (const batch of batchesOf(body)) TagloomViewer.applyBatch(doc, batch);
    text = dump(doc, 0, []).join('\n') + '\n';
  } catch (e) {
    text = 'ERROR ' + (e.message || e);
  }
  result.dumps.push(text);
}
// Versioning on the longest stream (at least three batches), another document's batch.
const long = batchesOf(STREAMS[STREAMS.length - 1]);
const other = batchesOf(STREAMS[0]);
const doc = document.implementation.createHTMLDocument('');
const apply = (b) => () => TagloomViewer.applyBatch(doc, b);
result.versions = [
  kind(apply(long[1])), kind(apply(long[0])), kind(apply(long[0])), kind(apply(long[1])),
  kind(apply(long[2])), kind(apply(long[0])), kind(apply(other[1] || other[0])),
];
const bytes = new TextEncoder().encode(JSON.stringify(result));
document.getElementById('out').textContent =
  Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
"#;

fn find_chromium() -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    ["chromium", "chromium-browser", "google-chrome"]
        .iter()
        .find_map(|name| {
            std::env::split_paths(&paths)
                .map(|p| p.join(name))
                .find(|p| p.is_file())
        })
}

/// `tagloom parse --format html5lib --scripting off FILE`.
fn parse_dump(file: &Path) -> String {
    let out = tagloom()
        .args(["parse", "--scripting", "off"])
        .arg(file)
        .output()
        .unwrap();
    assert!(out.status.success());
    String::from_utf8(out.stdout).unwrap()
}

fn unhex(hex: &str) -> Vec<u8> {
    (0..hex.len() / 2)
        .map(|i| u8::from_str_radix(&hex[2 * i..2 * i + 2], 16).expect("hex"))
        .collect()
}

/// Chromium, or `None` after saying SKIPPED (a failure when it is required).
fn chromium_or_skip(test: &str) -> Option<PathBuf> {
    let found = find_chromium();
    if found.is_none() {
        let required = std::env::var("TAGLOOM_REQUIRE_CHROMIUM").is_ok_and(|v| v == "1");
        assert!(
            !required,
            "TAGLOOM_REQUIRE_CHROMIUM=1 but no chromium on PATH"
        );
        let _ = writeln!(std::io::stderr(), "SKIPPED {test}: no chromium on PATH");
    }
    found
}

/// Chromium's serialization of `url`'s DOM after its load (and, with a budget,
/// that many virtual milliseconds of timers and network).
fn dump_dom(chromium: &Path, url: &str, budget_ms: Option<u32>) -> (String, String) {
    let mut command = Command::new(chromium);
    command.args([
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-dev-shm-usage",
        "--no-first-run",
        "--allow-file-access-from-files",
    ]);
    if let Some(ms) = budget_ms {
        command.arg(format!("--virtual-time-budget={ms}"));
    }
    let out = command
        .args(["--dump-dom", url])
        .output()
        .expect("chromium runs");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        format!("{:?}: {}", out.status, String::from_utf8_lossy(&out.stderr)),
    )
}

#[test]
fn the_viewer_page_finishes_in_the_documents_mode_and_runs_nothing() {
    let test = "the_viewer_page_finishes_in_the_documents_mode_and_runs_nothing";
    let Some(chromium) = chromium_or_skip(test) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mark = "parent.document.body.dataset.ran";
    let pages = [
        (
            "quirks.html",
            "<!--c--><p>no doctype<table><tr><td>x</table>".to_owned(),
            "BackCompat",
        ),
        (
            "standards.html",
            "<!DOCTYPE html><p>std".to_owned(),
            "CSS1Compat",
        ),
        (
            "script.html",
            format!(
                "<!DOCTYPE html><script>{mark}=1;parent.document.title='ran'</script>\
                 <img src=x onerror=\"{mark}=2\"><svg><script>{mark}=3</script></svg>\
                 <iframe srcdoc=\"<script>top.document.body.dataset.ran=4</script>\"></iframe>\
                 <p>after"
            ),
            "CSS1Compat",
        ),
    ];
    for (name, html, _) in &pages {
        std::fs::write(dir.path().join(name), html).unwrap();
    }
    let server = Server::start(&[dir.path().to_str().unwrap()]);
    for (name, _, mode) in &pages {
        let url = format!("http://127.0.0.1:{}/view/{name}", server.port);
        let (dom, log) = dump_dom(&chromium, &url, Some(5000));
        let body = dom
            .split("<body")
            .nth(1)
            .and_then(|b| b.split('>').next())
            .unwrap_or_else(|| panic!("{name}: no page from chromium ({log})"));
        assert!(
            body.contains("data-state=\"done\""),
            "{name}: {body} ({log})"
        );
        assert!(
            body.contains(&format!("data-mode=\"{mode}\"")),
            "{name}: {body}"
        );
        assert!(
            !body.contains("data-ran"),
            "{name}: a script of the document ran: {body}"
        );
        assert!(dom.contains("<title>tagloom view</title>"), "{name}");
    }
}

#[test]
fn chromium_builds_the_parse_tree_from_the_streamed_batches() {
    let test = "chromium_builds_the_parse_tree_from_the_streamed_batches";
    let Some(chromium) = chromium_or_skip(test) else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let mut files: Vec<(String, String)> = DOCUMENTS
        .iter()
        .map(|(name, html)| (name.to_string(), html.to_string()))
        .collect();
    // Last: a page long enough for several batches (the versioning checks use it).
    files.push((
        "long.html".into(),
        format!("<!DOCTYPE html>{}", DOCUMENTS[1].1.repeat(300)),
    ));
    for (name, html) in &files {
        std::fs::write(dir.path().join(name), html).unwrap();
    }
    let server = Server::start(&[dir.path().to_str().unwrap()]);
    let streams: Vec<String> = files
        .iter()
        .map(|(name, _)| {
            let (status, _, body) = server.get(&format!("/events/{name}"));
            assert_eq!(status, 200, "{name}");
            chained_batches(&body);
            body
        })
        .collect();
    let applier = include_str!("../src/commands/view/apply_batch.js");
    // `<` escaped so no `</script>` in a stream ends the script.
    let streams_json = serde_json::to_string(&streams)
        .unwrap()
        .replace('<', "\\u003c");
    let page = format!(
        "<!DOCTYPE html><meta charset=utf-8><pre id=out></pre><script>{applier}</script>\
         <script>const STREAMS = {streams_json};{CHECK_JS}</script>"
    );
    let page_path = dir.path().join("check.html");
    std::fs::write(&page_path, page).unwrap();
    let (dom, log) = dump_dom(&chromium, &format!("file://{}", page_path.display()), None);
    let hex = dom
        .split("<pre id=\"out\">")
        .nth(1)
        .and_then(|rest| rest.split("</pre>").next())
        .filter(|hex| !hex.is_empty())
        .unwrap_or_else(|| panic!("no result from chromium: {log}"));
    let result: serde_json::Value = serde_json::from_slice(&unhex(hex)).unwrap();
    let mut failures = Vec::new();
    for ((name, _), got) in files.iter().zip(result["dumps"].as_array().unwrap()) {
        let expected = parse_dump(&dir.path().join(name));
        if got.as_str() != Some(expected.as_str()) {
            failures.push(format!(
                "{name}:\n--- tagloom parse\n{expected}--- chromium\n{}",
                got.as_str().unwrap_or_default()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert_eq!(
        result["versions"],
        serde_json::json!([
            "skipped",
            "ok",
            "duplicate",
            "ok",
            "ok",
            "stale",
            "cross-document"
        ])
    );
    println!(
        "chromium: {} streamed documents rebuilt exactly; versioning checks passed",
        files.len()
    );
}
