//! The Chromium deviations the differential fuzzer knows (`tests/diff_fuzz.rs`).
//!
//! Each class is a name (`fuzz:<name>` in `tests/known-differences.txt`, which
//! holds the reason and the spec step) and a *neutraliser*: an edit of the input
//! that removes exactly that deviation's trigger (`None`: the input cannot show
//! it). A minimised difference belongs to the first class whose neutralised input
//! both parsers agree on; the minimised inputs are printed for review.

use tagloom_browser::compare::Case;
use tagloom_html::dom_patch::Namespace;

/// A neutraliser: an edit of the markup, or of the whole case (its context).
#[derive(Clone, Copy)]
pub enum Neutraliser {
    /// Edits the markup.
    Data(fn(&Case) -> Option<String>),
    /// Edits the case.
    Case(fn(&Case) -> Option<Case>),
}

impl Neutraliser {
    /// The neutralised case, if the edit applies.
    pub fn apply(self, case: &Case) -> Option<Case> {
        match self {
            Neutraliser::Data(f) => f(case).map(|data| Case {
                data,
                context: case.context.clone(),
            }),
            Neutraliser::Case(f) => f(case),
        }
    }
}

use Neutraliser::Data;

/// The classes, tried in order.
pub const CLASSES: &[(&str, Neutraliser)] = &[
    (
        "nul-after-lt",
        Data(|c| {
            c.data
                .contains("<\0")
                .then(|| c.data.replace("<\0", "<\u{fffd}"))
        }),
    ),
    (
        "nul-before-body",
        Data(|c| c.data.contains('\0').then(|| c.data.replace('\0', ""))),
    ),
    (
        "eof-in-markup-declaration",
        Data(|c| {
            c.data
                .contains("<!")
                .then(|| format!("{}xxxxxxxx>", c.data))
        }),
    ),
    (
        "search-not-special",
        Data(|c| rename_tags(&c.data, &["search"], "div")),
    ),
    (
        "replacement-character-keeps-frameset-ok",
        Data(|c| {
            let s = &c.data;
            (s.contains('\u{fffd}') || s.contains("&#") || s.contains('\0')).then(|| {
                s.replace('\u{fffd}', "x")
                    .replace("&#", "x#")
                    .replace('\0', "x")
            })
        }),
    ),
    (
        "cdata-at-integration-point",
        Data(|c| {
            c.data
                .contains("<![CDATA[")
                .then(|| c.data.replace("<![CDATA[", ""))
        }),
    ),
    (
        "svg-case-adjusted-end-tag",
        Data(|c| {
            // The generator's only SVG camel-case name; the deviation is the same
            // for every name of the SVG tag-name table.
            rename_tags(&c.data, &["foreignobject"], "xforeignobject")
        }),
    ),
    (
        "form-end-tag-in-template",
        Data(|c| {
            in_template(c)
                .then(|| rename_end_tags(&c.data, "form", "xform"))
                .flatten()
        }),
    ),
    (
        "form-in-table-in-template",
        Data(|c| {
            in_template(c)
                .then(|| rename_tags(&c.data, &["form"], "xform"))
                .flatten()
        }),
    ),
    (
        "template-head-tags-leave-template-mode",
        Data(|c| {
            in_template(c)
                .then(|| rename_tags(&c.data, TEMPLATE_MODE_BREAKERS, "link"))
                .flatten()
        }),
    ),
    (
        "template-keeps-frameset-ok",
        Data(|c| {
            in_template(c)
                .then(|| rename_tags(&c.data, &["frameset"], "xframeset"))
                .flatten()
        }),
    ),
    (
        "colgroup-fragment-table-text",
        Neutraliser::Case(|c| {
            matches!(&c.context, Some((Namespace::Html, n)) if n == "colgroup").then(|| Case {
                data: c.data.clone(),
                context: Some((Namespace::Html, "div".to_owned())),
            })
        }),
    ),
    (
        "option-inside-selectedcontent",
        Data(|c| rename_tags(&c.data, &["selectedcontent"], "div")),
    ),
    (
        "input-in-select-fragment",
        Data(|c| {
            matches!(&c.context, Some((Namespace::Html, n)) if n == "select")
                .then(|| rename_tags(&c.data, &["input"], "img"))
                .flatten()
        }),
    ),
    (
        "after-body-whitespace-no-reconstruct",
        Data(|c| {
            rename_end_tags(&c.data, "body", "xbody")
                .or_else(|| rename_end_tags(&c.data, "html", "xhtml"))
                .map(|s| rename_end_tags(&s, "html", "xhtml").unwrap_or(s))
        }),
    ),
    (
        "head-in-head-noscript",
        Data(|c| {
            c.data
                .to_ascii_lowercase()
                .contains("<noscript")
                .then(|| rename_tags(&c.data, &["head"], "xhead"))
                .flatten()
        }),
    ),
    (
        "foreign-fragment-context-end-tag",
        Data(|c| {
            // An HTML element below the html root keeps the stack from being just
            // the root, so end tags never reach the fragment case.
            matches!(&c.context, Some((Namespace::Svg | Namespace::MathMl, _)))
                .then(|| format!("<span>{}", c.data))
        }),
    ),
    (
        "table-text-in-template-reconstructs",
        Data(|c| {
            in_template(c)
                .then(|| rename_tags(&c.data, FORMATTING, "span"))
                .flatten()
        }),
    ),
];

/// The "in template" tags handled by the "in head" rules after which Chromium
/// leaves the template insertion mode (link, meta, style and script do not).
const TEMPLATE_MODE_BREAKERS: &[&str] = &["base", "basefont", "bgsound", "title", "noframes"];

/// The formatting elements (13.2.4.3).
const FORMATTING: &[&str] = &[
    "a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u",
];

/// Whether a template can be open: a `<template` tag or a template context.
fn in_template(c: &Case) -> bool {
    c.data.to_ascii_lowercase().contains("<template")
        || matches!(&c.context, Some((Namespace::Html, n)) if n == "template")
}

/// `s` with the start and end tags named one of `names` (ASCII case-blind)
/// renamed to `to`; `None` if there is none.
pub fn rename_tags(s: &str, names: &[&str], to: &str) -> Option<String> {
    rename(s, names, to, true)
}

/// `s` with the end tags `</name` renamed to `</to`; `None` if there is none.
pub fn rename_end_tags(s: &str, name: &str, to: &str) -> Option<String> {
    rename(s, &[name], to, false)
}

fn rename(s: &str, names: &[&str], to: &str, start_tags: bool) -> Option<String> {
    let bytes = s.as_bytes();
    let mut out = String::with_capacity(s.len());
    let mut copied = 0;
    let mut found = false;
    for (lt, _) in s.match_indices('<') {
        let after = lt + 1;
        let (slash, name_at) = match bytes.get(after) {
            Some(b'/') => (true, after + 1),
            _ => (false, after),
        };
        if !slash && !start_tags {
            continue;
        }
        let Some(name) = names.iter().find(|name| {
            let end = name_at + name.len();
            bytes
                .get(name_at..end)
                .is_some_and(|n| n.eq_ignore_ascii_case(name.as_bytes()))
                && matches!(
                    bytes.get(end),
                    None | Some(b'\t' | b'\n' | b'\x0c' | b'\r' | b' ' | b'/' | b'>')
                )
        }) else {
            continue;
        };
        found = true;
        out.push_str(s.get(copied..name_at).unwrap_or_default());
        out.push_str(to);
        copied = name_at + name.len();
    }
    out.push_str(s.get(copied..).unwrap_or_default());
    found.then_some(out)
}
