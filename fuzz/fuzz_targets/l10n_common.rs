//! Shared by the l10n targets: a scratch directory (the l10n flows work on files),
//! a fixed page for the reader targets, and a structural fingerprint of a page
//! (what a translation may never change: its elements and their attribute names).

#![allow(dead_code)] // each target uses a part of it

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

use tagloom_html::dom::{DomStore, NodeKind, NodeRef};
use tagloom_html::driver::{ParseConfig, drive};
use tagloom_html::session::SessionConfig;
use tagloom_l10n::flow::Common;

/// The page the reader targets merge their fuzzed translation file into: every kind
/// of block and context the writer escapes for (element content, RCDATA, double-,
/// single- and un-quoted attributes, an inline element's translatable attribute,
/// `pre`, sub-blocks), and the three places a language value is written.
pub const PAGE: &str = r#"<!DOCTYPE html>
<html lang="en" xml:lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="content-language" content="en">
<meta name="description" content="A small page">
<title>Fuzz &amp; page</title>
</head>
<body>
<!-- a note for translators -->
<h1 title='Heading title'>Hello <b>big</b> world</h1>
<p lang=en>Some <a href="/x" title="Link title">linked <i>text</i></a> and<br>a break, <img src="i.png" alt=unquoted> an image.</p>
<ul><li>One</li><li>Two <code translate="no">x()</code></li></ul>
<input placeholder="Type here" value="v">
<button value="Press">Press</button>
<pre>  keep   spaces  </pre>
<textarea>Text &lt;area&gt;</textarea>
<table><tr><td>Cell</td></tr></table>
<script>var s = "<p>not text</p>";</script>
</body>
</html>
"#;

/// One scratch directory per fuzzing process (on tmpfs when there is one), reused
/// by every execution; removed when the process ends normally.
pub fn scratch() -> &'static Path {
    static DIR: OnceLock<tempfile::TempDir> = OnceLock::new();
    DIR.get_or_init(|| {
        let base = Path::new("/dev/shm");
        let builder = tempfile::Builder::new()
            .prefix("tagloom-fuzz-")
            .tempdir_in(base);
        builder
            .or_else(|_| tempfile::Builder::new().prefix("tagloom-fuzz-").tempdir())
            .expect("a scratch directory")
    })
    .path()
}

/// A file of the scratch directory.
pub fn scratch_file(name: &str) -> PathBuf {
    scratch().join(name)
}

/// Flow settings with the skeleton store in the scratch directory (the default
/// rules are built once per process: building them costs more than a small run).
pub fn common(encoding: Option<&str>) -> Common {
    static BASE: OnceLock<Common> = OnceLock::new();
    let base = BASE.get_or_init(|| Common {
        temp_dir: Some(scratch().to_path_buf()),
        ..Common::default()
    });
    Common {
        encoding: encoding.map(Into::into),
        ..base.clone()
    }
}

/// The elements of the parsed page (namespace, name, sorted attribute names) and
/// its number of comments, as a sorted list: a translation changes text and
/// attribute values, it may move inline codes, but it never adds or removes an
/// element, an attribute or a comment.
pub fn fingerprint(html: &[u8]) -> Vec<String> {
    let config = ParseConfig { session: SessionConfig::default(), chunk_size: usize::MAX };
    let mut store = DomStore::new();
    if let Err(err) = drive(html, &config, |batch| store.apply(&batch)) {
        panic!("no limit is hit on a small page and every batch applies: {err}");
    }
    let mut out = Vec::new();
    let mut comments = 0usize;
    let mut todo: Vec<NodeRef<'_>> = store.document().into_iter().collect();
    while let Some(node) = todo.pop() {
        match node.kind() {
            NodeKind::Element(e) => {
                // A merge into a right-to-left language sets `dir` on the root (the
                // language retargeting of `lang.rs`): not a change of structure.
                let root = e.local_name() == "html";
                let mut names: Vec<String> = e
                    .attrs()
                    .iter()
                    .filter(|a| !(root && a.name == "dir"))
                    .map(|a| format!("{:?}:{}", a.ns, a.name))
                    .collect();
                names.sort();
                out.push(format!(
                    "{:?}:{}[{}]",
                    e.ns(),
                    e.local_name(),
                    names.join(" ")
                ));
            }
            NodeKind::Comment(_) => comments += 1,
            _ => {}
        }
        todo.extend(node.children());
        todo.extend(node.template_contents());
    }
    out.sort();
    out.push(format!("{comments} comments"));
    out
}

/// Merges `translations` (written to the scratch file `name`, whose extension picks
/// the format) into [`PAGE`] and checks the output (see the reader targets).
pub fn merge_fuzzed(translations: &[u8], name: &str) {
    static PAGE_FINGERPRINT: OnceLock<Vec<String>> = OnceLock::new();
    let page = scratch_file("page.html");
    if !page.exists() {
        std::fs::write(&page, PAGE).expect("scratch write");
    }
    let file = scratch_file(name);
    std::fs::write(&file, translations).expect("scratch write");
    let output = scratch_file("out.html");
    let options = tagloom_l10n::flow::MergeOptions {
        common: common(None),
        ..Default::default()
    };
    let Ok(report) = tagloom_l10n::flow::merge(&page, &file, &output, &options) else {
        return; // an error is a value: nothing more to check
    };
    let file_report = &report.files[0];
    let out = std::fs::read(&output).expect("scratch read");
    if file_report.translated == 0 && file_report.lang_retargeted == 0 {
        assert!(
            out == PAGE.as_bytes(),
            "nothing translated, yet the page changed:\n{}",
            String::from_utf8_lossy(&out)
        );
    }
    let expected = PAGE_FINGERPRINT.get_or_init(|| fingerprint(PAGE.as_bytes()));
    let got = fingerprint(&out);
    if &got != expected {
        let gone: Vec<_> = expected.iter().filter(|e| !got.contains(e)).collect();
        let new: Vec<_> = got.iter().filter(|e| !expected.contains(e)).collect();
        panic!(
            "the merge changed the page's structure: gone {gone:?}, new {new:?}\n{}",
            String::from_utf8_lossy(&out)
        );
    }
}
