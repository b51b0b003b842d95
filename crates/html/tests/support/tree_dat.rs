//! Reader of html5lib-tests' tree-construction `.dat` files (format:
//! `tests/data/html5lib/tree-construction/README.md`).
//!
//! A file is a list of tests separated by a blank line. Each test is:
//!
//! ```text
//! [#description / lines]        (optional; web-platform-tests' later addition)
//! #data / input lines           (the input is these lines minus the final newline)
//! #errors / one line per error
//! [#new-errors / lines]
//! [#document-fragment / context] ("td", "svg path", "math mi")
//! [#script-off | #script-on]
//! #document / dump lines        ("| " lines; a text node may span several lines)
//! ```
//!
//! Lines are split on LF only: the `*-unsafe.dat` files carry raw CR (and NUL)
//! characters that belong to the data. A `#document` section ends at a blank line
//! followed by `#data`, or at the end of the file.
//!
//! ```ignore
//! mod support;
//! use support::tree_dat;
//! for (path, tests) in tree_dat::load_dir(tree_dat::DATA_DIR).unwrap() {
//!     for test in tests {
//!         // parse `test.data` (as a fragment with `test.fragment`, if any), for each
//!         // scripting mode `test.scripting.modes()`, and compare
//!         // `tagloom_html::dom::dump_document(&store)` (or `dump_children(root)`)
//!         // with `test.document`.
//!     }
//! }
//! ```

use std::fmt;
use std::path::{Path, PathBuf};

use tagloom_html::dom_patch::Namespace;

/// The copied tree-construction suite.
pub const DATA_DIR: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    // `../html` works from either crate that includes this file (html or cli).
    "/../html/tests/data/html5lib/tree-construction"
);

/// The scripting flag a test asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scripting {
    /// No marker: the expected tree holds with scripting on and off.
    Both,
    /// `#script-on`.
    On,
    /// `#script-off`.
    Off,
}

impl Scripting {
    /// The scripting settings to run the test with (`true` = enabled).
    pub fn modes(self) -> &'static [bool] {
        match self {
            Scripting::Both => &[false, true],
            Scripting::On => &[true],
            Scripting::Off => &[false],
        }
    }
}

/// The context element of a fragment test.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FragmentContext {
    /// Its namespace (`svg `/`math ` prefix, else HTML).
    pub ns: Namespace,
    /// Its local name.
    pub local_name: String,
}

/// One test case.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TreeTest {
    /// 1-based line of its `#data` heading, for messages.
    pub line: usize,
    /// The `#description` text, if any.
    pub description: Option<String>,
    /// The input.
    pub data: String,
    /// The `#errors` lines (only their number is normative).
    pub errors: Vec<String>,
    /// The `#new-errors` lines.
    pub new_errors: Vec<String>,
    /// For a fragment test, the context element.
    pub fragment: Option<FragmentContext>,
    /// The scripting flag to use.
    pub scripting: Scripting,
    /// The expected dump, every line ending with `\n` (the format of
    /// `tagloom_html::dom::dump_document` and `dump_children`).
    pub document: String,
}

/// A malformed `.dat` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DatError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for DatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for DatError {}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Section {
    /// Before a test (blank lines allowed).
    Between,
    Description,
    Data,
    Errors,
    NewErrors,
    /// The line after `#document-fragment`.
    Context,
    /// After the context line: only `#script-*` or `#document` may follow.
    AfterContext,
    Document,
}

/// A test being read.
#[derive(Default)]
struct Partial<'a> {
    line: usize,
    description: Vec<&'a str>,
    data: Vec<&'a str>,
    errors: Vec<&'a str>,
    new_errors: Vec<&'a str>,
    fragment: Option<FragmentContext>,
    scripting: Option<Scripting>,
    document: Option<Vec<&'a str>>,
}

impl Partial<'_> {
    fn finish(self) -> Result<TreeTest, DatError> {
        let Some(mut document) = self.document else {
            return Err(DatError {
                line: self.line,
                message: "test has no #document section".into(),
            });
        };
        // The blank separator line(s) and the file's final newline; a dump line is
        // never empty, even inside a multi-line text node (it ends with `"`).
        while document.last() == Some(&"") {
            document.pop();
        }
        let owned = |lines: Vec<&str>| lines.into_iter().map(str::to_owned).collect();
        Ok(TreeTest {
            line: self.line,
            description: (!self.description.is_empty()).then(|| self.description.join("\n")),
            data: self.data.join("\n"),
            errors: owned(self.errors),
            new_errors: owned(self.new_errors),
            fragment: self.fragment,
            scripting: self.scripting.unwrap_or(Scripting::Both),
            document: document.iter().map(|l| format!("{l}\n")).collect(),
        })
    }
}

/// Parses the text of one `.dat` file.
pub fn parse(text: &str) -> Result<Vec<TreeTest>, DatError> {
    let mut tests = Vec::new();
    let mut section = Section::Between;
    let mut current: Option<Partial<'_>> = None;
    let mut previous_blank = true;
    for (i, line) in text.split('\n').enumerate() {
        let line_no = i + 1;
        let error = |message: &str| DatError {
            line: line_no,
            message: format!("{message}: {line:?}"),
        };
        let starts_test = line == "#data" || line == "#description";
        // A new test begins at `#data`/`#description` after a blank line, or
        // anywhere outside a test.
        if starts_test
            && (section == Section::Between || (section == Section::Document && previous_blank))
        {
            if let Some(done) = current.take() {
                tests.push(done.finish()?);
            }
            current = Some(Partial {
                line: line_no,
                ..Partial::default()
            });
            section = if line == "#data" {
                Section::Data
            } else {
                Section::Description
            };
            previous_blank = false;
            continue;
        }
        previous_blank = line.is_empty();
        let Some(test) = current.as_mut() else {
            if line.is_empty() {
                continue;
            }
            return Err(error("expected #data"));
        };
        match section {
            Section::Between => return Err(error("expected #data")),
            Section::Description => match line {
                "#data" => {
                    test.line = line_no;
                    section = Section::Data;
                }
                _ => test.description.push(line),
            },
            Section::Data => match line {
                "#errors" => section = Section::Errors,
                _ => test.data.push(line),
            },
            Section::Errors | Section::NewErrors | Section::AfterContext => match line {
                "#new-errors" if section != Section::AfterContext => section = Section::NewErrors,
                "#document-fragment" if section != Section::AfterContext => {
                    section = Section::Context
                }
                "#script-on" | "#script-off" => {
                    if test.scripting.is_some() {
                        return Err(error("second scripting marker"));
                    }
                    test.scripting = Some(if line == "#script-on" {
                        Scripting::On
                    } else {
                        Scripting::Off
                    });
                    section = Section::AfterContext;
                }
                "#document" => {
                    test.document = Some(Vec::new());
                    section = Section::Document;
                }
                _ if section == Section::AfterContext || line.starts_with('#') => {
                    return Err(error("unexpected line"));
                }
                // Blank lines in an error list are tolerated (not in the format).
                "" => {}
                _ if section == Section::Errors => test.errors.push(line),
                _ => test.new_errors.push(line),
            },
            Section::Context => {
                test.fragment = Some(context(line));
                section = Section::AfterContext;
            }
            Section::Document => {
                if let Some(document) = test.document.as_mut() {
                    document.push(line);
                }
            }
        }
    }
    if let Some(done) = current.take() {
        tests.push(done.finish()?);
    }
    Ok(tests)
}

/// Reads a `#document-fragment` context line.
fn context(line: &str) -> FragmentContext {
    let (ns, local_name) = if let Some(name) = line.strip_prefix("svg ") {
        (Namespace::Svg, name)
    } else if let Some(name) = line.strip_prefix("math ") {
        (Namespace::MathMl, name)
    } else {
        (Namespace::Html, line)
    };
    FragmentContext {
        ns,
        local_name: local_name.to_owned(),
    }
}

/// Parses every `.dat` file under `dir` (recursively, so `scripted/` is included),
/// sorted by path.
pub fn load_dir(dir: impl AsRef<Path>) -> Result<Vec<(PathBuf, Vec<TreeTest>)>, String> {
    let mut paths = Vec::new();
    collect(dir.as_ref(), &mut paths)?;
    paths.sort();
    paths
        .into_iter()
        .map(|path| {
            let text =
                std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
            let tests = parse(&text).map_err(|e| format!("{}: {e}", path.display()))?;
            Ok((path, tests))
        })
        .collect()
}

fn collect(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), String> {
    let entries = std::fs::read_dir(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    for entry in entries {
        let path = entry.map_err(|e| e.to_string())?.path();
        if path.is_dir() {
            collect(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "dat") {
            out.push(path);
        }
    }
    Ok(())
}
