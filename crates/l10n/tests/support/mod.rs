//! Shared by the structure tests: parse with the tagloom tree builder, list the
//! element structure in tree order; by the merge tests: translate a file; and by
//! the error tests: files in a directory, a writer that fills up.

#![allow(dead_code)]

use std::path::{Path, PathBuf};

use tagloom_html::dom::{DomStore, NodeKind, NodeRef};
use tagloom_html::dom_patch::{AttrNamespace, Namespace};
use tagloom_testdata::Shared;

/// Parses a document as the l10n reader decodes it (BOM, `<meta>`, UTF-8 or
/// windows-1252), with the tagloom tree builder.
pub fn parse(bytes: &[u8]) -> DomStore {
    let (encoding, _) = tagloom_l10n::reader::detect_encoding(bytes, None);
    tagloom_l10n::writer::reparse::parse_document(bytes, encoding).expect("tree builder")
}

/// One element: namespace, local name, attributes (namespace, name, value).
#[derive(Debug, Clone, PartialEq)]
pub struct El {
    pub ns: Namespace,
    pub name: String,
    pub attrs: Vec<(AttrNamespace, String, String)>,
    /// Depth in the tree (so the nesting is compared too).
    pub depth: usize,
}

/// The elements in tree order (template contents included, after the template).
pub fn elements(store: &DomStore) -> Vec<El> {
    let mut out = Vec::new();
    let Some(doc) = store.document() else {
        return out;
    };
    let mut stack: Vec<(NodeRef<'_>, usize)> = doc.children().map(|c| (c, 0)).collect();
    stack.reverse();
    while let Some((node, depth)) = stack.pop() {
        if let NodeKind::Element(e) = node.kind() {
            out.push(El {
                ns: e.ns(),
                name: e.local_name().to_string(),
                attrs: e
                    .attrs()
                    .iter()
                    .map(|a| (a.ns, a.name.to_string(), a.value.to_owned()))
                    .collect(),
                depth,
            });
            let mut kids: Vec<(NodeRef<'_>, usize)> =
                node.children().map(|c| (c, depth + 1)).collect();
            if let Some(c) = node.template_contents() {
                kids.extend(c.children().map(|c| (c, depth + 1)));
            }
            kids.reverse();
            stack.extend(kids);
        }
    }
    out
}

/// All text of the document (text nodes concatenated, template contents included).
pub fn all_text(store: &DomStore) -> String {
    let mut out = String::new();
    let Some(doc) = store.document() else {
        return out;
    };
    let mut stack = vec![doc];
    while let Some(node) = stack.pop() {
        if let NodeKind::Text(t) = node.kind() {
            out.push_str(t);
        }
        let mut kids: Vec<NodeRef<'_>> = node.children().collect();
        if let Some(c) = node.template_contents() {
            kids.extend(c.children());
        }
        kids.reverse();
        stack.extend(kids);
    }
    out
}

pub fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Files of `dir` with one of the extensions, sorted (empty when absent).
pub fn corpus(dir: &Path, ext: &[&str]) -> Vec<PathBuf> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut files: Vec<PathBuf> = entries
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| ext.iter().any(|x| e == *x)))
        .collect();
    files.sort();
    files
}

/// The `#data` sections of the html5lib tree-construction files (document tests
/// only: fragment tests, with `#document-fragment`, are skipped).
pub fn html5lib_inputs() -> Vec<(String, String)> {
    let dir = manifest().join("../html/tests/data/html5lib/tree-construction");
    let mut out = Vec::new();
    let mut files = corpus(&dir, &["dat"]);
    files.extend(corpus(&dir.join("scripted"), &["dat"]));
    for file in files {
        let text = std::fs::read_to_string(&file).unwrap();
        let name = file.file_name().unwrap().to_string_lossy().into_owned();
        for (n, test) in text.split("\n#data\n").enumerate() {
            let test = test.strip_prefix("#data\n").unwrap_or(test);
            let Some(end) = test.find("\n#errors") else {
                continue;
            };
            if test.contains("\n#document-fragment") {
                continue;
            }
            out.push((format!("{name}#{n}"), test[..end].to_string()));
        }
    }
    out
}

/// Translates every unit of an extracted file: the target is the source followed
/// by ` [fr]` (codes kept as they are).
pub fn translate_all(file: &str, format: &str) -> String {
    let mut out = String::new();
    if format == "xlf" {
        let mut rest = file;
        while let Some(at) = rest.find("<source>") {
            let end = rest[at..].find("</source>").unwrap() + at;
            let inner = &rest[at + "<source>".len()..end];
            out.push_str(&rest[..end + "</source>".len()]);
            out.push_str(&format!("<target>{inner} [fr]</target>"));
            rest = &rest[end + "</source>".len()..];
        }
        out.push_str(rest);
    } else {
        let mut id = String::new();
        for line in file.lines() {
            if let Some(v) = line.strip_prefix("msgid ") {
                // The quoted string as it is (escapes kept), without its quotes.
                id = v
                    .strip_prefix('"')
                    .and_then(|v| v.strip_suffix('"'))
                    .unwrap_or(v)
                    .to_string();
            }
            if line == "msgstr \"\"" && !id.is_empty() {
                out.push_str(&format!("msgstr \"{id} [fr]\"\n"));
            } else {
                out.push_str(line);
                out.push('\n');
            }
        }
    }
    out
}

/// Settings for the tests that pin the structural ids (`html-1.body-1.p-2`, the
/// scheme they were written for, still selectable with `"ids": "structural"`);
/// content ids are tested in `update.rs`.
pub fn structural_common() -> tagloom_l10n::flow::Common {
    tagloom_l10n::flow::Common {
        rules: std::sync::Arc::new(
            tagloom_l10n::Rules::from_json_str(r#"{"ids": "structural"}"#).unwrap(),
        ),
        ..tagloom_l10n::flow::Common::default()
    }
}

/// Extraction en → fr with structural ids.
pub fn extract_opts() -> tagloom_l10n::flow::ExtractOptions {
    tagloom_l10n::flow::ExtractOptions {
        common: structural_common(),
        ..tagloom_l10n::flow::ExtractOptions::new("en", Some("fr")).unwrap()
    }
}

/// A merge with structural ids.
pub fn merge_opts() -> tagloom_l10n::flow::MergeOptions {
    tagloom_l10n::flow::MergeOptions {
        common: structural_common(),
        ..tagloom_l10n::flow::MergeOptions::default()
    }
}

/// The names of the files in `dir`, sorted.
pub fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

/// A writer that fails after `left` bytes, like a disk filling up; `written`
/// counts what it took.
pub struct FailingWriter {
    pub left: usize,
    pub written: usize,
}

impl FailingWriter {
    /// Room for `left` bytes.
    pub fn new(left: usize) -> Self {
        FailingWriter { left, written: 0 }
    }
}

impl std::io::Write for FailingWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if buf.len() > self.left {
            return Err(std::io::Error::new(
                std::io::ErrorKind::StorageFull,
                "disk full",
            ));
        }
        self.left -= buf.len();
        self.written += buf.len();
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// The l10n samples and the bench pages (`.html`, `.phtml`), sorted; a corpus
/// that is absent is said and skipped.
pub fn sample_and_bench_pages() -> Vec<PathBuf> {
    let root = manifest();
    let mut pages = Vec::new();
    pages.extend(corpus(
        &root.join("tests/data/l10n-samples"),
        &["html", "phtml"],
    ));
    pages.extend(Shared::BenchCorpus.files(
        "the bench pages of sample_and_bench_pages",
        &["html", "phtml"],
    ));
    pages.sort();
    pages
}

/// Says SKIPPED on the real stderr (`println!`/`eprintln!` would be captured by
/// the test harness and shown only on failure).
pub fn skipped(what: &str) {
    use std::io::Write;
    let _ = writeln!(std::io::stderr(), "SKIPPED {what}");
}
