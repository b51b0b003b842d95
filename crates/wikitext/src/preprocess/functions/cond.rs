//! Conditionals: `#if`, `#ifeq`, `#iferror`, `#ifexist`, `#ifexpr`, `#switch`,
//! and `#expr` (ParserFunctions).

use super::escape::{decode_entities, loose_eq, without_comments};
use super::expr;
use super::{CallArgs, Frame, PageExpander};
use crate::preprocess::title::{NS_MAIN, Title};

/// `{{#if: test | then | else }}`: `then` when the test is not blank.
pub(crate) fn if_(ex: &mut PageExpander<'_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    let k = if c.arg0.is_empty() { 1 } else { 0 };
    ex.arg(f, c, k).unwrap_or_default()
}

/// `{{#ifeq: a | b | then | else }}`: compared after decoding character
/// references, numerically when both are numbers (`01` = `1.0`).
pub(crate) fn ifeq(ex: &mut PageExpander<'_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    let left = decode_entities(c.arg0);
    let right = ex.arg(f, c, 0).unwrap_or_default();
    let right = decode_entities(without_comments(&right).trim());
    let k = if loose_eq(&left, &right) { 1 } else { 2 };
    ex.arg(f, c, k).unwrap_or_default()
}

/// `{{#iferror: test | then | else }}`: `then` (default empty) when the test has
/// error markup (`class="error"` on a `strong`, `span`, `p` or `div`), else `else`
/// (default: the test itself).
pub(crate) fn iferror(ex: &mut PageExpander<'_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    if has_error(c.arg0) {
        ex.arg(f, c, 0).unwrap_or_default()
    } else {
        ex.arg(f, c, 1).unwrap_or_else(|| c.arg0.to_owned())
    }
}

/// Whether `s` holds an element `<strong|span|p|div … class="… error …">`.
pub(crate) fn has_error(s: &str) -> bool {
    let mut rest = s;
    while let Some(at) = rest.find('<') {
        rest = &rest[at + 1..];
        let name_end = rest
            .find(|c: char| !c.is_ascii_alphabetic())
            .unwrap_or(rest.len());
        let name = &rest[..name_end];
        if !matches!(name, "strong" | "span" | "p" | "div")
            || !rest[name_end..].starts_with(char::is_whitespace)
        {
            continue;
        }
        let tag = &rest[name_end..rest.find('>').unwrap_or(rest.len())];
        let mut t = tag;
        while let Some(k) = t.find("class=\"") {
            let before_ok = t[..k].ends_with(char::is_whitespace);
            let value = &t[k + 7..];
            let value = &value[..value.find('"').unwrap_or(value.len())];
            if before_ok && value.split_whitespace().any(|c| c == "error") {
                return true;
            }
            t = &t[k + 7..];
        }
    }
    false
}

/// `{{#ifexist: title | then | else }}`: asks the page store.
pub(crate) fn ifexist(ex: &mut PageExpander<'_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    let exists = Title::parse(c.arg0, NS_MAIN, &ex.pre.config().site)
        .is_ok_and(|t| ex.pre.store().exists(&t));
    ex.arg(f, c, if exists { 0 } else { 1 }).unwrap_or_default()
}

/// `{{#ifexpr: expression | then | else }}`.
pub(crate) fn ifexpr(ex: &mut PageExpander<'_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    match expr::evaluate(c.arg0) {
        Ok(v) => {
            let truthy = !v.is_empty() && expr::truthy(&v);
            ex.arg(f, c, if truthy { 0 } else { 1 }).unwrap_or_default()
        }
        Err(e) => e.markup(),
    }
}

/// `{{#expr: expression }}`.
pub(crate) fn expr(_: &mut PageExpander<'_, '_>, _: &Frame<'_>, c: &CallArgs<'_>) -> String {
    expr::evaluate(c.arg0).unwrap_or_else(|e| e.markup())
}

/// `{{#switch: value | a = x | b | c = y | #default = z }}`: the value of the
/// first matching case; cases without `=` fall through to the next case's
/// value; `#default` (or a last case without `=`) when none matches.
pub(crate) fn switch(ex: &mut PageExpander<'_, '_>, f: &Frame<'_>, c: &CallArgs<'_>) -> String {
    let primary = decode_entities(c.arg0);
    let mut found = false;
    let mut default_found = false;
    let mut default: Option<usize> = None;
    let mut last_item: Option<String> = None;
    for (k, part) in c.parts.iter().enumerate() {
        match part.name() {
            Some(name) => {
                last_item = None;
                if found {
                    return ex
                        .expand_to_string(part.value(), f, c.flags, c.depth)
                        .trim()
                        .to_owned();
                }
                let test = ex.expand_to_string(name, f, c.flags, c.depth);
                let test = decode_entities(without_comments(&test).trim());
                if loose_eq(&test, &primary) {
                    return ex
                        .expand_to_string(part.value(), f, c.flags, c.depth)
                        .trim()
                        .to_owned();
                }
                if default_found || test.eq_ignore_ascii_case("#default") {
                    default = Some(k);
                    default_found = false;
                }
            }
            None => {
                let item = ex
                    .expand_to_string(&part.nodes, f, c.flags, c.depth)
                    .trim()
                    .to_owned();
                let test = decode_entities(without_comments(&item).trim());
                if loose_eq(&test, &primary) {
                    found = true;
                } else if test.eq_ignore_ascii_case("#default") {
                    default_found = true;
                }
                last_item = Some(item);
            }
        }
    }
    if let Some(item) = last_item {
        return item;
    }
    match default.and_then(|k| c.parts.get(k)) {
        Some(p) => ex
            .expand_to_string(p.value(), f, c.flags, c.depth)
            .trim()
            .to_owned(),
        None => String::new(),
    }
}
