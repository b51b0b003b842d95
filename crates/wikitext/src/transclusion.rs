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
    let function = function.or_else(|| (trimmed == "!").then(|| "!".to_owned()));
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

/// A marked call: its `data-mw`, and the wikitext between the previous marked
/// call and it (a literal part when the two make one compound range).
#[derive(Clone, Debug, Default)]
pub(crate) struct Call {
    pub(crate) data_mw: String,
    pub(crate) gap: String,
}

/// Expands `src` (page view), wrapping each top-level call's output in markers;
/// returns the text and each call's `data-mw`.
pub(crate) fn expand(
    page: &mut PageExpander<'_, '_>,
    src: &str,
    tree: &Tree,
    site: &preprocess::Site,
) -> Result<(String, Vec<Call>), preprocess::PreprocessError> {
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
    calls: &mut Vec<Call>,
    nesting: usize,
) -> Result<(), preprocess::PreprocessError> {
    let mut segment_start = 0;
    // The end of the last marked call in the source.
    let mut marked_end = 0;
    let mut tables = TableDepth::default();
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
        // `{{!}}` outside wikitext tables is content (Parsoid marks it); in a
        // table it is a pipe of the table syntax.
        let pipe_is_content = expansion == "|"
            && !line.ends_with('{')
            && (tables.depth(out) == 0 || cell_content(line, src.get(span.end..).unwrap_or("")));
        let syntax_only = syntax_only && !pipe_is_content;
        // A call that opens or closes a wikitext table is encapsulated with it.
        let table_syntax = {
            let t = expansion.trim();
            t.starts_with("{|") || t == "|}"
        };
        let syntax_only = syntax_only && !table_syntax;
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
            calls.push(Call {
                data_mw: data_mw(src, call, site),
                gap: src.get(marked_end..span.start).unwrap_or("").to_owned(),
            });
            marked_end = span.end;
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
    // Table syntax lines are fine: markers are transparent to table syntax
    // (`tokenize/table.rs`).
    !open_tag && !open_bracket
}

/// Wikitext tables open at the end of the expanded text so far (`{|` and
/// `|}` at line starts), read once: each call reads only the new text.
#[derive(Default)]
struct TableDepth {
    read: usize,
    depth: usize,
}

impl TableDepth {
    fn depth(&mut self, out: &str) -> usize {
        let new = out.get(self.read..).unwrap_or("");
        // Only whole lines: the last one may still grow.
        let upto = new.rfind('\n').map_or(0, |n| n + 1);
        for line in new.get(..upto).unwrap_or("").lines() {
            let line = line.trim_start();
            if line.starts_with("{|") {
                self.depth += 1;
            } else if line.starts_with("|}") {
                self.depth = self.depth.saturating_sub(1);
            }
        }
        self.read += upto;
        let last = out.get(self.read..).unwrap_or("").trim_start();
        if last.starts_with("{|") {
            self.depth + 1
        } else {
            self.depth
        }
    }
}

/// Whether a `|` written after `line` (the expanded text of a table line so
/// far), followed by `after`, is a cell's content: the line is a cell line
/// whose current cell has passed its attribute pipe, and the pipe makes no
/// `||` with its neighbours.
fn cell_content(line: &str, after: &str) -> bool {
    let line = line.trim_start();
    let Some(rest) = line.strip_prefix(['|', '!']) else {
        return false;
    };
    if rest.starts_with(['-', '+', '}']) || line.ends_with(['|', '!']) {
        return false;
    }
    if after.starts_with(['|', '!']) || after.starts_with("{{!}}") {
        return false;
    }
    let cell = rest.rsplit("||").next().unwrap_or(rest);
    let cell = if line.starts_with('!') {
        cell.rsplit("!!").next().unwrap_or(cell)
    } else {
        cell
    };
    cell.contains('|') && !cell.contains("[[")
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
