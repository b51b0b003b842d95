//! Building a block of runs from the tokens of a leaf (or of an inline run inside a
//! container): text coalesced and normalized, inline elements as paired codes,
//! void inline elements and comments as placeholders, non-translatable subtrees
//! (`script`, `translate="no"`…) as one placeholder, translatable attributes of inline
//! elements as sub-blocks.

use std::io::Read;

use super::tokens::{Tok, TokenStream, ValueRange};
use crate::block::{Block, BlockKind, Run, SubRef};
use crate::rules::Rules;
use tagloom_html::token::TokenKind;

/// HTML whitespace.
pub(crate) fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c')
}

/// Whether comment data is an IE conditional comment or one of its ends
/// (`<!--[if IE]>…<![endif]-->`, `<!--[if !IE]><!-->`, `<!--<![endif]-->`, and
/// the bogus comments of `<![if !IE]>`, `<![endif]>`): markup for old browsers,
/// never a translator's note.
pub(crate) fn is_conditional_comment(data: &str) -> bool {
    let data = data.trim_start_matches(is_ws).as_bytes();
    let starts = |prefix: &[u8]| {
        data.get(..prefix.len())
            .is_some_and(|p| p.eq_ignore_ascii_case(prefix))
    };
    starts(b"[if ") || starts(b"[if\t") || starts(b"<![endif]") || starts(b"[endif]")
}

/// Collapses each run of HTML whitespace into one space.
pub(crate) fn collapse(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_ws = false;
    for c in s.chars() {
        if is_ws(c) {
            if !in_ws {
                out.push(' ');
            }
            in_ws = true;
        } else {
            out.push(c);
            in_ws = false;
        }
    }
    out
}

/// Where a block is and how it reads.
pub(crate) struct BuildCtx<'a> {
    pub(crate) rules: &'a Rules,
    pub(crate) key: String,
    pub(crate) path: String,
    pub(crate) element: String,
    pub(crate) preserve: bool,
    pub(crate) translate: bool,
}

/// What [`build`] made: the block and the decoded range it covers.
pub(crate) struct Built {
    pub(crate) block: Block,
    pub(crate) start: u64,
    pub(crate) end: u64,
}

/// Whether the element of start tag `tok` translates ([`Rules::translate_of`]).
pub(crate) fn translate_of(rules: &Rules, tok: &Tok, inherited: bool) -> bool {
    rules.translate_of(tok.name(), |a| tok.attr(a), inherited)
}

fn raw_ws_prefix(s: &str) -> usize {
    s.len() - s.trim_start_matches(is_ws).len()
}

fn raw_ws_suffix(s: &str) -> usize {
    s.len() - s.trim_end_matches(is_ws).len()
}

/// Builds the block from the next `len` buffered tokens; `None` when they hold no
/// translatable text.
pub(crate) fn build<R: Read>(ts: &TokenStream<R>, len: usize, ctx: &BuildCtx<'_>) -> Option<Built> {
    let toks: Vec<&Tok> = (0..len).filter_map(|i| ts.buffered_token(i)).collect();
    if toks.is_empty() {
        return None;
    }
    let win = &ts.window;
    let ws_only = |t: &Tok| t.kind() == TokenKind::Characters && t.text().chars().all(is_ws);
    // The region: whitespace around it stays in the skeleton.
    let (mut i0, mut i1) = (0, toks.len() - 1);
    let (mut start, mut end) = (toks[0].start(), toks[i1].end());
    if !ctx.preserve {
        while i0 <= i1 && ws_only(toks[i0]) {
            i0 += 1;
        }
        if i0 > i1 {
            return None;
        }
        while ws_only(toks[i1]) {
            i1 -= 1;
        }
        start = toks[i0].start();
        end = toks[i1].end();
        if toks[i0].kind() == TokenKind::Characters {
            start += raw_ws_prefix(win.text(toks[i0].start(), toks[i0].end())) as u64;
        }
        if toks[i1].kind() == TokenKind::Characters {
            end -= raw_ws_suffix(win.text(toks[i1].start(), toks[i1].end())) as u64;
        }
    }
    let mut runs: Vec<Run> = Vec::new();
    let mut open: Vec<(String, usize)> = Vec::new(); // (name, run index)
    let mut next_id = 1u32;
    let mut subs = Vec::new();
    let mut sub_refs = Vec::new();
    let mut lang_refs = Vec::new();
    let mut name_counts: Vec<(String, u32)> = Vec::new();
    let mut i = i0;
    while i <= i1 {
        let tok = toks[i];
        let raw = || win.text(tok.start(), tok.end()).to_string();
        match tok.kind() {
            TokenKind::Characters => {
                if let Some(Run::Text(t)) = runs.last_mut() {
                    t.push_str(tok.text());
                } else {
                    runs.push(Run::Text(tok.text().to_owned()));
                }
            }
            TokenKind::Comment
            | TokenKind::ProcessingInstruction
            | TokenKind::Doctype
            | TokenKind::Eof => {
                runs.push(Run::Placeholder {
                    id: next_id,
                    data: raw(),
                });
                next_id += 1;
            }
            TokenKind::StartTag => {
                let name = tok.name();
                let own_translate = translate_of(ctx.rules, tok, ctx.translate);
                if ctx.rules.is_opaque(name) || !own_translate {
                    // The whole subtree, protected.
                    let mut depth = 0usize;
                    let mut k = i;
                    while k <= i1 {
                        let t = toks[k];
                        if t.name() == name {
                            if t.kind() == TokenKind::StartTag
                                && (!t.self_closing() || ctx.rules.is_opaque(name))
                            {
                                depth += 1;
                            } else if t.kind() == TokenKind::EndTag {
                                depth = depth.saturating_sub(1);
                            }
                        }
                        if depth == 0 {
                            break;
                        }
                        k += 1;
                    }
                    let k = k.min(i1);
                    runs.push(Run::Placeholder {
                        id: next_id,
                        data: win.text(tok.start(), toks[k].end()).to_string(),
                    });
                    next_id += 1;
                    i = k + 1;
                    continue;
                }
                let count = bump(&mut name_counts, name);
                let run_index = runs.len();
                let data = raw();
                if ctx.rules.is_void(name) || tok.self_closing() {
                    runs.push(Run::Placeholder { id: next_id, data });
                } else {
                    runs.push(Run::Open { id: next_id, data });
                    open.push((name.to_string(), run_index));
                }
                next_id += 1;
                // Language switchers (`<a hreflang>`) keep their `lang`.
                let switcher = tok.attr("hreflang").is_some();
                for attr in tok.attrs() {
                    if attr.has_value
                        && ctx.rules.is_lang_attr(attr.name.as_str())
                        && !attr.value.trim().is_empty()
                    {
                        if switcher {
                            continue;
                        }
                        lang_refs.push(SubRef {
                            run: run_index,
                            start: (attr.value_start() - tok.start()) as usize,
                            end: (attr.value_end() - tok.start()) as usize,
                        });
                        continue;
                    }
                    if !own_translate
                        || !attr.has_value
                        || !ctx.rules.is_translatable_text(&attr.value)
                    {
                        continue;
                    }
                    if !ctx
                        .rules
                        .is_translatable_attr(name, attr.name.as_str(), |a| tok.attr(a))
                    {
                        continue;
                    }
                    let quote = quote_before(win.text(tok.start(), attr.value_start()));
                    let key = format!(
                        "{}.{}-{}:{}",
                        ctx.key,
                        super::sanitize(name),
                        count,
                        super::sanitize(attr.name.as_str())
                    );
                    subs.push(Block {
                        id: key,
                        kind: BlockKind::Attribute { quote },
                        element: name.to_string(),
                        path: format!("{}/{}[{}]/@{}", ctx.path, name, count, attr.name),
                        notes: Vec::new(),
                        preserve: false,
                        runs: vec![Run::Text(collapse(attr.value.trim()))],
                        original: win.source(attr.value_start(), attr.value_end()).to_vec(),
                        subs: Vec::new(),
                        sub_refs: Vec::new(),
                        lang_refs: Vec::new(),
                    });
                    sub_refs.push(SubRef {
                        run: run_index,
                        start: (attr.value_start() - tok.start()) as usize,
                        end: (attr.value_end() - tok.start()) as usize,
                    });
                }
            }
            TokenKind::EndTag => {
                let name = tok.name();
                if let Some(pos) = open.iter().rposition(|(n, _)| n == name) {
                    // Anything opened after it was never closed: placeholders.
                    for (_, idx) in open.drain(pos + 1..) {
                        unpair(&mut runs, idx);
                    }
                    let (_, idx) = open.pop().unwrap_or_default();
                    let id = runs[idx].code_id().unwrap_or(0);
                    runs.push(Run::Close { id, data: raw() });
                } else {
                    runs.push(Run::Placeholder {
                        id: next_id,
                        data: raw(),
                    });
                    next_id += 1;
                }
            }
        }
        i += 1;
    }
    for (_, idx) in open.drain(..) {
        unpair(&mut runs, idx);
    }
    // Too few letters (NUL is no text either: the tree builder drops it in most
    // contexts): no unit, the tokens stay in the skeleton.
    let text: String = runs
        .iter()
        .filter_map(|r| match r {
            Run::Text(t) => Some(t.as_str()),
            _ => None,
        })
        .collect();
    if !ctx.rules.is_translatable_text(&text) {
        return None;
    }
    if !ctx.preserve {
        for run in runs.iter_mut() {
            if let Run::Text(t) = run {
                *t = collapse(t);
            }
        }
        if let Some(Run::Text(t)) = runs.first_mut() {
            *t = t.trim_start_matches(' ').to_string();
        }
        if let Some(Run::Text(t)) = runs.last_mut() {
            *t = t.trim_end_matches(' ').to_string();
        }
        runs.retain(|r| !matches!(r, Run::Text(t) if t.is_empty()));
    }
    Some(Built {
        block: Block {
            id: ctx.key.clone(),
            kind: BlockKind::Content,
            element: ctx.element.clone(),
            path: ctx.path.clone(),
            notes: Vec::new(),
            preserve: ctx.preserve,
            runs,
            original: win.source(start, end).to_vec(),
            subs,
            sub_refs,
            lang_refs,
        },
        start,
        end,
    })
}

fn unpair(runs: &mut [Run], idx: usize) {
    if let Run::Open { id, data } = &runs[idx] {
        runs[idx] = Run::Placeholder {
            id: *id,
            data: data.clone(),
        };
    }
}

fn bump(counts: &mut Vec<(String, u32)>, name: &str) -> u32 {
    if let Some((_, c)) = counts.iter_mut().find(|(n, _)| n == name) {
        *c += 1;
        *c
    } else {
        counts.push((name.to_string(), 1));
        1
    }
}

/// The quote byte right before an attribute value (0 when unquoted).
pub(crate) fn quote_before(tag_prefix: &str) -> u8 {
    match tag_prefix.as_bytes().last() {
        Some(b'"') => b'"',
        Some(b'\'') => b'\'',
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collapsing() {
        assert_eq!(collapse(" a \n\t b  "), " a b ");
        assert_eq!(collapse("a\u{a0} b"), "a\u{a0} b");
    }

    #[test]
    fn conditional_comments() {
        for data in [
            "[if IE]><p>Old</p><![endif]",
            "[if !IE]><!",
            "<![endif]",
            "[endif]",
            " [IF lt IE 9]>",
        ] {
            assert!(is_conditional_comment(data), "{data}");
        }
        for data in ["Main menu", "if IE", "[iffy]", ""] {
            assert!(!is_conditional_comment(data), "{data}");
        }
    }
}
