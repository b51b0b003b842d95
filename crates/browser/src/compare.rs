//! Chromium's parser against tagloom's: the same input through `DOMParser` (or a
//! context element's `innerHTML`) in the page and through tagloom's driver, both
//! dumped in html5lib's tree format, and the list of known differences.

use std::collections::BTreeMap;
use std::path::Path;

use serde_json::{Value, json};
use tagloom_html::decoder::DecoderConfig;
use tagloom_html::dom::{self, DomStore};
use tagloom_html::dom_patch::Namespace;
use tagloom_html::driver::{Driver, ParseConfig};
use tagloom_html::tree_builder::FragmentContext;

use crate::error::BrowserError;
use crate::page::Page;

/// The html5lib dumper run in the page (defines `__tagloomDump(node)` and
/// `__tagloomParseDump(cases)`).
pub const DUMP_JS: &str = include_str!("dump.js");

/// The most input text sent in one `Runtime.evaluate`.
pub const BYTES_PER_ROUND_TRIP: usize = 4 << 20;

/// One input to parse: a document, or a fragment in a context element.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Case {
    /// The markup.
    pub data: String,
    /// The fragment's context element (namespace, local name); `None`: a document.
    pub context: Option<(Namespace, String)>,
}

impl Case {
    /// A whole document.
    pub fn document(data: impl Into<String>) -> Case {
        Case {
            data: data.into(),
            context: None,
        }
    }
}

/// tagloom's dump of `case`, scripting off, the input read as UTF-8 (what
/// `tagloom parse --scripting off` prints for the same text); for a fragment,
/// the children of its `html` root. `Err` carries the driver's error.
pub fn tagloom_dump(case: &Case) -> Result<String, String> {
    tagloom_dump_with(case, &ParseConfig::default())
}

/// [`tagloom_dump`] with the given settings (decoder, scripting and depth are
/// set as there; batching and chunking are the caller's).
pub fn tagloom_dump_with(case: &Case, config: &ParseConfig) -> Result<String, String> {
    let mut config = config.clone();
    config.session.decoder = DecoderConfig::with_transport(encoding_rs::UTF_8);
    config.session.tree.scripting = false;
    let mut driver = match &case.context {
        Some((ns, name)) => Driver::new_fragment(&config, FragmentContext::new(*ns, name.clone())),
        None => Driver::new(&config),
    };
    let mut store = DomStore::new();
    driver
        .push_into(case.data.as_bytes(), &mut store)
        .and_then(|()| driver.finish_into(&mut store))
        .map_err(|e| e.to_string())?;
    match driver.session().fragment_root_key() {
        Some(root) => store
            .get(root)
            .map(dom::dump_children)
            .ok_or_else(|| "no fragment root".to_owned()),
        None => Ok(dom::dump_document(&store)),
    }
}

/// The tagloom settings that parse like the page's Chromium: its parser builds
/// processing instructions for `<?target data?>` (the July 2026 spec, Part A.2;
/// Chromium 156.0.8078.79 does, .73 made bogus comments) exactly when
/// `TokenizerConfig::processing_instructions` must be on for the same tree. Probed
/// once with `<?x y?>` (the dumper must be installed).
pub fn matching_config(page: &mut Page<'_>) -> Result<ParseConfig, BrowserError> {
    let probe = chromium_dumps(page, &[Case::document("<?x y?>")])?;
    let mut config = ParseConfig::default();
    config.session.tokenizer.processing_instructions =
        probe.first().is_some_and(|dump| dump.contains("<?x y>"));
    Ok(config)
}

/// Installs [`DUMP_JS`] in the page (again after every navigation).
pub fn install_dumper(page: &mut Page<'_>) -> Result<(), BrowserError> {
    page.evaluate(DUMP_JS).map(|_| ())
}

/// Chromium's dumps of `cases`, in order (`#error …` where the page threw),
/// in as few `Runtime.evaluate` calls as [`BYTES_PER_ROUND_TRIP`] allows.
/// [`install_dumper`] must have run in the page.
pub fn chromium_dumps(page: &mut Page<'_>, cases: &[Case]) -> Result<Vec<String>, BrowserError> {
    let mut dumps = Vec::with_capacity(cases.len());
    let mut rest = cases;
    while !rest.is_empty() {
        // At least one case per round trip, then as many as fit.
        let mut bytes = 0;
        let take = rest
            .iter()
            .take_while(|c| {
                let first = bytes == 0;
                bytes += c.data.len().max(1);
                first || bytes <= BYTES_PER_ROUND_TRIP
            })
            .count();
        let (now, later) = rest.split_at(take);
        rest = later;
        let batch: Vec<Value> = now.iter().map(case_json).collect();
        let expression = format!("__tagloomParseDump({})", Value::Array(batch));
        let items = page.evaluate_list(&expression, "__tagloomParseDump", now.len())?;
        dumps.extend(items.into_iter().map(|v| match v {
            Value::String(s) => s,
            other => format!("#error not a string: {other}"),
        }));
    }
    Ok(dumps)
}

fn case_json(case: &Case) -> Value {
    let context = case.context.as_ref().map(|(ns, name)| {
        let ns = match ns {
            Namespace::Html => "html",
            Namespace::Svg => "svg",
            Namespace::MathMl => "math",
        };
        json!([ns, name])
    });
    json!({ "data": case.data, "ctx": context })
}

/// The first line where two dumps differ, with a line of context each side.
pub fn first_difference(expected: &str, got: &str) -> String {
    let a: Vec<&str> = expected.lines().collect();
    let b: Vec<&str> = got.lines().collect();
    let at = a
        .iter()
        .zip(&b)
        .position(|(x, y)| x != y)
        .unwrap_or(a.len().min(b.len()));
    let window = |lines: &[&str]| {
        let from = at.saturating_sub(1);
        let to = (at + 2).min(lines.len());
        lines
            .get(from..to)
            .map(|l| l.join("\n"))
            .unwrap_or_default()
    };
    format!(
        "line {}:\n  tagloom:\n{}\n  chromium:\n{}",
        at + 1,
        window(&a),
        window(&b)
    )
}

/// A known-differences file: `id | reason` lines, `#` comments.
#[derive(Clone, Debug, Default)]
pub struct KnownDifferences {
    entries: BTreeMap<String, String>,
}

impl KnownDifferences {
    /// Reads `path`; a missing file is an empty list.
    pub fn load(path: impl AsRef<Path>) -> std::io::Result<KnownDifferences> {
        match std::fs::read_to_string(path) {
            Ok(text) => Ok(KnownDifferences::parse(&text)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(KnownDifferences::default()),
            Err(e) => Err(e),
        }
    }

    /// Parses the text of a known-differences file.
    pub fn parse(text: &str) -> KnownDifferences {
        let entries = text
            .lines()
            .filter(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'))
            .map(|l| match l.split_once(" | ") {
                Some((id, reason)) => (id.trim().to_owned(), reason.trim().to_owned()),
                None => (l.trim().to_owned(), String::new()),
            })
            .collect();
        KnownDifferences { entries }
    }

    /// The reason given for `id`, if listed.
    pub fn reason(&self, id: &str) -> Option<&str> {
        self.entries.get(id).map(String::as_str)
    }

    /// The listed ids that start with `prefix` (to find stale entries).
    pub fn ids_with_prefix<'a>(&'a self, prefix: &'a str) -> impl Iterator<Item = &'a str> + 'a {
        self.entries
            .keys()
            .filter(move |k| k.starts_with(prefix))
            .map(String::as_str)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_differences_parse_ids_and_reasons() {
        let k = KnownDifferences::parse("# c\n\ntests1.dat:3 | a reason | with a bar\nbare\n");
        assert_eq!(k.reason("tests1.dat:3"), Some("a reason | with a bar"));
        assert_eq!(k.reason("bare"), Some(""));
        assert_eq!(k.reason("tests1.dat:4"), None);
        assert_eq!(k.ids_with_prefix("tests1").count(), 1);
    }

    #[test]
    fn tagloom_dump_of_a_document_and_a_fragment() {
        let doc = tagloom_dump(&Case::document("<p>a")).unwrap();
        assert_eq!(
            doc,
            "| <html>\n|   <head>\n|   <body>\n|     <p>\n|       \"a\"\n"
        );
        let frag = Case {
            data: "<td>x".into(),
            context: Some((Namespace::Html, "tr".into())),
        };
        assert_eq!(tagloom_dump(&frag).unwrap(), "| <td>\n|   \"x\"\n");
    }

    #[test]
    fn first_difference_names_the_line() {
        let d = first_difference("| a\n| b\n| c\n", "| a\n| x\n| c\n");
        assert!(d.starts_with("line 2:"), "{d}");
        assert!(d.contains("| x"), "{d}");
    }
}
