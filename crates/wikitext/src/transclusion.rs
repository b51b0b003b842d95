//! Template encapsulation (Parsoid's `mw:Transclusion`): the page is expanded
//! one top-level template call at a time, each call's output between marker
//! characters the tokenizer turns into `<meta typeof="mw:Transclusion">` …
//! `<meta typeof="mw:Transclusion/End">`; the DOM pass `dom::encapsulate` then
//! puts `typeof` and `data-mw` (the call's target and parameters) on the output.

use crate::preprocess::{self, Node, PageExpander, Tree};
use crate::title::encode_title;

/// Starts a call's output; followed by its index and [`INDEX_END`].
pub(crate) const START: char = '\u{E000}';
/// Ends the index after [`START`].
pub(crate) const INDEX_END: char = '\u{E001}';
/// Ends a call's output.
pub(crate) const END: char = '\u{E002}';

/// Whether `text` opens more call outputs than it closes (it ends inside one).
pub(crate) fn opens_call(text: &str) -> bool {
    text.matches(START).count() > text.matches(END).count()
}

/// Parser functions (by lowercase name) whose calls Parsoid marks as functions.
const FUNCTIONS: &[&str] = &[
    "lc",
    "uc",
    "lcfirst",
    "ucfirst",
    "padleft",
    "padright",
    "urlencode",
    "anchorencode",
    "ns",
    "nse",
    "fullurl",
    "localurl",
    "formatnum",
    "plural",
    "int",
    "canonicalurl",
    "filepath",
    "gender",
    "grammar",
    "tag",
];

fn json(s: &str) -> String {
    serde_json::Value::String(s.to_owned()).to_string()
}

/// Parsoid's `data-mw` for the call `src` (`{{…}}`).
fn data_mw(src: &str, call: &preprocess::Braced, site: &preprocess::Site) -> String {
    let text = |span: &std::ops::Range<usize>| src.get(span.clone()).unwrap_or("");
    let target_wt = text(&call.title.span);
    let trimmed = target_wt.trim();
    let mut target = format!("{{\"wt\":{}", json(target_wt));
    let function = if let Some(rest) = trimmed.strip_prefix('#') {
        Some(rest.split(':').next().unwrap_or("").trim().to_lowercase())
    } else if let Some((name, _)) = trimmed.split_once(':') {
        let name = name.trim().to_lowercase();
        FUNCTIONS.contains(&name.as_str()).then_some(name)
    } else if !trimmed.is_empty()
        && trimmed.chars().all(|c| c.is_ascii_uppercase() || c == '_')
        && call.parts.is_empty()
    {
        Some(trimmed.to_lowercase())
    } else {
        None
    };
    match &function {
        Some(f) => target.push_str(&format!(",\"function\":{}", json(f))),
        None => {
            let title =
                preprocess::Title::parse(&without_comments(trimmed), preprocess::NS_TEMPLATE, site)
                    .map(|t| t.prefixed())
                    .unwrap_or_else(|_| trimmed.to_owned());
            target.push_str(&format!(
                ",\"href\":{}",
                json(&format!("./{}", encode_title(&title)))
            ));
        }
    }
    target.push('}');
    let mut params = String::from("{");
    let mut n = 0;
    for (i, part) in call.parts.iter().enumerate() {
        let whole = text(&part.span);
        // A parser function's arguments are all positional, as written.
        let eq = part.eq.filter(|_| function.is_none());
        let (name, value) = match eq.and_then(|eq| part.nodes.get(eq)) {
            Some(eq) => {
                let at = eq.span().start.saturating_sub(part.span.start);
                let name = whole.get(..at).unwrap_or("").trim().to_owned();
                let value = whole.get(at + 1..).unwrap_or("").trim();
                (name, value)
            }
            None => {
                n += 1;
                (n.to_string(), whole)
            }
        };
        if i > 0 {
            params.push(',');
        }
        params.push_str(&format!("{}:{{\"wt\":{}}}", json(&name), json(value)));
    }
    params.push('}');
    format!("{{\"parts\":[{{\"template\":{{\"target\":{target},\"params\":{params},\"i\":0}}}}]}}")
}

/// Expands `src` (page view), wrapping each top-level call's output in markers;
/// returns the text and each call's `data-mw`.
pub(crate) fn expand(
    page: &mut PageExpander<'_, '_>,
    src: &str,
    tree: &Tree,
    site: &preprocess::Site,
) -> Result<(String, Vec<String>), preprocess::PreprocessError> {
    let mut out = String::with_capacity(src.len());
    let mut calls = Vec::new();
    expand_into(page, src, tree, site, &mut out, &mut calls, 0)?;
    Ok((out, calls))
}

/// How deep `<ref>` bodies inside `<ref>`/`<references>` bodies are expanded
/// call by call (deeper ones expand whole, unmarked).
const MAX_TAG_NESTING: usize = 8;

/// The top-level extension tags whose bodies are page wikitext Cite renders
/// (their calls are marked like the page's own).
fn is_cite_tag(src: &str, e: &preprocess::ExtTag) -> bool {
    src.get(e.name.clone())
        .is_some_and(|n| n.eq_ignore_ascii_case("ref") || n.eq_ignore_ascii_case("references"))
}

fn expand_into(
    page: &mut PageExpander<'_, '_>,
    src: &str,
    tree: &Tree,
    site: &preprocess::Site,
    out: &mut String,
    calls: &mut Vec<String>,
    nesting: usize,
) -> Result<(), preprocess::PreprocessError> {
    let mut segment_start = 0;
    for node in &tree.nodes {
        if let Node::Ext(e) = node {
            let Some(inner) = e.inner.clone().filter(|_| nesting < MAX_TAG_NESTING) else {
                continue;
            };
            if !is_cite_tag(src, e) {
                continue;
            }
            let before = src.get(segment_start..e.span.start).unwrap_or("");
            out.push_str(&page.expand(before)?.text);
            out.push_str(src.get(e.span.start..inner.start).unwrap_or(""));
            let inner_src = src.get(inner.clone()).unwrap_or("");
            let inner_tree =
                preprocess::parse_with(inner_src, page.pre.parse_options(preprocess::Mode::Page));
            expand_into(page, inner_src, &inner_tree, site, out, calls, nesting + 1)?;
            out.push_str(src.get(inner.end..e.span.end).unwrap_or(""));
            segment_start = e.span.end;
            continue;
        }
        let Node::Template(call) = node else { continue };
        let span = call.span.clone();
        // The text before the call, expanded on its own (it holds no call).
        let before = src.get(segment_start..span.start).unwrap_or("");
        out.push_str(&page.expand(before)?.text);
        let call_src = src.get(span.clone()).unwrap_or("");
        let expansion = page.expand(call_src)?.text;
        let line = out.rsplit('\n').next().unwrap_or("");
        // Output that is only wikitext syntax (`{{!}}`, table pieces) stays
        // unmarked: it becomes structure, not content.
        let syntax_only = expansion.trim().chars().all(|c| {
            matches!(
                c,
                '|' | '!' | '{' | '}' | '-' | '=' | '+' | '*' | '#' | ':' | ';'
            )
        });
        let unexpanded = expansion == call_src;
        if expansion.contains([START, INDEX_END, END])
            || !safe_context(line)
            || syntax_only
            || unexpanded
        {
            out.push_str(&expansion);
        } else {
            out.push(START);
            out.push_str(&calls.len().to_string());
            out.push(INDEX_END);
            out.push_str(&expansion);
            out.push(END);
            calls.push(data_mw(src, call, site));
        }
        segment_start = span.end;
    }
    out.push_str(&page.expand(src.get(segment_start..).unwrap_or(""))?.text);
    Ok(())
}

/// Whether output can be marked after `line` (the expanded text of the line so
/// far): not inside a tag, a link or table syntax, where markers would land in
/// an attribute or a link target.
fn safe_context(line: &str) -> bool {
    let open_tag = match (line.rfind('<'), line.rfind('>')) {
        (Some(lt), Some(gt)) => lt > gt,
        (Some(_), None) => true,
        _ => false,
    };
    let open_bracket = line.matches('[').count() > line.matches(']').count();
    let table = ["{|", "|-", "|+"]
        .iter()
        .any(|p| line.trim_start().starts_with(p));
    !open_tag && !open_bracket && !table
}

/// `s` without `<!-- … -->` comments, trimmed.
fn without_comments(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(open) = rest.find("<!--") {
        out.push_str(rest.get(..open).unwrap_or(""));
        rest = match rest
            .get(open + 4..)
            .and_then(|r| r.find("-->").map(|e| (r, e)))
        {
            Some((r, e)) => r.get(e + 3..).unwrap_or(""),
            None => "",
        };
    }
    out.push_str(rest);
    out.trim().to_owned()
}
