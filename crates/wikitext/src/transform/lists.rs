//! List bullets to lists (Parsoid's ListHandler): `*` → `ul`/`li`, `#` →
//! `ol`/`li`, `;` → `dl`/`dt`, `:` → `dl`/`dd`. Each list item compares its
//! bullets with the open lists: the common prefix stays open, deeper lists
//! close, the rest open; equal bullets start the next item. A line without
//! bullets closes every list. Items close before the line's newline and open
//! after it.

use tagloom_html::atom::{self, Atom};
use tagloom_html::token::{Name, OwnedToken};
use tagloom_html::tree_builder::is_formatting_atom;

use super::Transform;
use crate::token::{Tok, WikiToken};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Level {
    list: Atom,
    item: Atom,
}

fn level(bullet: char) -> Level {
    match bullet {
        '*' => Level {
            list: atom::UL,
            item: atom::LI,
        },
        '#' => Level {
            list: atom::OL,
            item: atom::LI,
        },
        ';' => Level {
            list: atom::DL,
            item: atom::DT,
        },
        _ => Level {
            list: atom::DL,
            item: atom::DD,
        },
    }
}

/// The most nested lists kept open; deeper bullets are text-less levels that
/// are not opened (a bound on output size for hostile input).
const MAX_DEPTH: usize = 1000;

#[derive(Default)]
pub(crate) struct ListHandler {
    stack: Vec<Level>,
    /// A newline seen while lists are open, waiting for the next token.
    newline: Option<WikiToken>,
    /// Comment-only lines after that newline.
    held: Vec<WikiToken>,
    /// The lists of enclosing tables' contexts: a table opened inside a list
    /// item (`:{|`) keeps the item open until it ends, and lists inside the
    /// table are its own.
    outer: Vec<Vec<Level>>,
    /// HTML elements opened inside the open list items: a closing block tag
    /// that closes none of them ends the lists first (Parsoid, T368721).
    /// Each with the depth of the item it was opened in.
    item_open: Vec<(Name, usize)>,
    /// Formatting elements opened and not closed anywhere on the page (the
    /// tree builder may reconstruct them inside a list item).
    /// Formatting names are static: their atoms.
    formatting: Vec<Atom>,
    /// A reused buffer: a list item's levels.
    levels: Vec<Level>,
}

fn block_like(name: &str) -> bool {
    matches!(
        name,
        "div"
            | "p"
            | "blockquote"
            | "center"
            | "pre"
            | "h1"
            | "h2"
            | "h3"
            | "h4"
            | "h5"
            | "h6"
            | "table"
            | "figure"
            | "aside"
            | "section"
    )
}

impl ListHandler {
    fn close_all(&mut self, out: &mut Vec<WikiToken>) {
        self.item_open.clear();
        while let Some(l) = self.stack.pop() {
            out.push(WikiToken::end(l.item));
            out.push(WikiToken::end(l.list));
        }
    }

    /// A list item's tags into `out`: the closes, the waiting newline and
    /// comment lines, the opens, straight in (no vector per item).
    fn item(&mut self, bullets: &str, out: &mut Vec<WikiToken>) {
        // The bullets' levels in a reused buffer (taken: `self` changes below).
        let mut levels = std::mem::take(&mut self.levels);
        levels.clear();
        levels.extend(bullets.chars().take(MAX_DEPTH).map(level));
        let bullets = &levels;
        let last = bullets.len().saturating_sub(1);
        // The first level that is not simply kept open.
        let mut k = 0;
        while let (Some(have), Some(want)) = (self.stack.get(k), bullets.get(k)) {
            if have.list != want.list || have.item != want.item || k == last {
                break;
            }
            k += 1;
        }
        let switch_item = matches!(
            (self.stack.get(k), bullets.get(k)),
            (Some(have), Some(want)) if have.list == want.list
        );
        let keep = if switch_item { k + 1 } else { k };
        // Elements opened in the items that close now close with them.
        let first_closed = if switch_item { k + 1 } else { keep + 1 };
        self.item_open.retain(|(_, depth)| *depth < first_closed);
        while self.stack.len() > keep {
            if let Some(l) = self.stack.pop() {
                out.push(WikiToken::end(l.item));
                out.push(WikiToken::end(l.list));
            }
        }
        let switched = match (switch_item, self.stack.last_mut(), bullets.get(k)) {
            (true, Some(top), Some(want)) => {
                out.push(WikiToken::end(top.item));
                top.item = want.item;
                Some(want.item)
            }
            _ => None,
        };
        if let Some(nl) = self.newline.take() {
            out.push(nl);
        }
        out.append(&mut self.held);
        if let Some(item) = switched {
            out.push(WikiToken::start(item));
        }
        for want in bullets.iter().skip(keep) {
            out.push(WikiToken::start(want.list));
            out.push(WikiToken::start(want.item));
            self.stack.push(*want);
        }
        self.levels = levels;
    }
}

impl ListHandler {
    /// The formatting elements open: `token` opens or closes one.
    /// Inlined: every token outside lists comes here, and most are text,
    /// which returns at the first test. Only formatting names are tracked, so
    /// an end tag of any other name has nothing to remove.
    /// [`Transform::pass`] but for text.
    #[inline(never)]
    fn pass_other(&mut self, token: &WikiToken) -> bool {
        if !self.stack.is_empty() {
            return self.newline.is_none() && self.pass_in_item(token);
        }
        if matches!(token.tok, Tok::ListItem(_))
            || (token.end_atom() == Some(atom::TABLE) && !self.outer.is_empty())
        {
            return false;
        }
        self.track_formatting(token);
        true
    }

    /// [`Transform::pass`] on a list item's line (no newline waiting) for
    /// what `push` would only track and let on: a start tag but a table's,
    /// an end tag of an element the item holds, and what is no tag, list
    /// item, newline or end. Out of line: the path of tokens outside lists
    /// stays small.
    #[inline(never)]
    fn pass_in_item(&mut self, token: &WikiToken) -> bool {
        match &token.tok {
            Tok::Html(OwnedToken::StartTag(t)) => {
                let name = t.name();
                if name.is(atom::TABLE) {
                    return false;
                }
                if !(is_void_in_item(name) || t.self_closing()) {
                    self.item_open.push((name.clone(), self.stack.len()));
                }
            }
            Tok::Html(OwnedToken::EndTag(t)) => {
                if t.name().is(atom::TABLE) && !self.outer.is_empty() {
                    return false;
                }
                let Some(at) = self.item_open.iter().rposition(|(n, _)| n == t.name()) else {
                    return false;
                };
                self.item_open.truncate(at);
            }
            Tok::ListItem(_) | Tok::Newline | Tok::Eof | Tok::Html(OwnedToken::Eof) => {
                return false;
            }
            _ => return true,
        }
        self.track_formatting(token);
        true
    }

    #[inline]
    fn track_formatting(&mut self, token: &WikiToken) {
        match &token.tok {
            Tok::Html(OwnedToken::StartTag(t)) if !t.self_closing() => {
                if let Some(name) = formatting_atom(t.name()) {
                    self.formatting.push(name);
                }
            }
            Tok::Html(OwnedToken::EndTag(t)) => {
                let Some(name) = formatting_atom(t.name()) else {
                    return;
                };
                // Most often the last one opened (a link's `</a>`).
                if self.formatting.last() == Some(&name) {
                    self.formatting.pop();
                } else if let Some(at) = self.formatting.iter().rposition(|&n| n == name) {
                    self.formatting.remove(at);
                }
            }
            _ => {}
        }
    }
}

/// Parsoid's marker for an end tag the tree builder drops (kept inside list
/// items only).
fn stripped_tag_marker() -> WikiToken {
    WikiToken::start_tag(
        tagloom_html::token::OwnedTag::new(atom::META)
            .with_attr(atom::TYPEOF, "mw:Placeholder/StrippedTag"),
    )
}

impl Transform for ListHandler {
    fn reset(&mut self) {
        *self = Self::default();
    }

    /// Outside lists, every token but a list item and the end of a table
    /// holding lists passes (its formatting elements tracked); inside, text
    /// on an item's line.
    fn pass(&mut self, token: &WikiToken) -> bool {
        // Text, the most common token: nothing to track, and inside a list
        // item (no newline waiting) it only goes on. A path that calls
        // nothing (no registers saved per token).
        if matches!(token.tok, Tok::Html(OwnedToken::Characters(_))) {
            return self.stack.is_empty() || self.newline.is_none();
        }
        self.pass_other(token)
    }

    fn push(&mut self, token: WikiToken, out: &mut Vec<WikiToken>) {
        // Whether this end tag closes a formatting element opened earlier.
        let closes_formatting = end_tag_name(&token)
            .and_then(formatting_atom)
            .is_some_and(|name| self.formatting.contains(&name));
        self.track_formatting(&token);
        if self.newline.is_none()
            && !self.stack.is_empty()
            && token.start_atom() == Some(atom::TABLE)
        {
            self.outer.push(std::mem::take(&mut self.stack));
            out.push(token);
            return;
        }
        if token.end_atom() == Some(atom::TABLE) && !self.outer.is_empty() {
            self.close_all(out);
            if let Some(nl) = self.newline.take() {
                out.push(nl);
            }
            out.append(&mut self.held);
            self.stack = self.outer.pop().unwrap_or_default();
            out.push(token);
            return;
        }
        if let Tok::ListItem(bullets) = &token.tok {
            let bullets = bullets.clone();
            self.item(&bullets, out);
            return;
        }
        if self.stack.is_empty() {
            out.push(token);
            return;
        }
        if token.is_newline() {
            if let Some(nl) = self.newline.take() {
                // Two newlines in a row: the lists end.
                self.close_all(out);
                out.push(nl);
                out.append(&mut self.held);
                out.push(token);
            } else {
                self.newline = Some(token);
            }
            return;
        }
        if self.newline.is_none() {
            if let Some(name) = start_tag_name(&token) {
                if !is_void_in_item(name) && !token_self_closing(&token) {
                    self.item_open.push((name.clone(), self.stack.len()));
                }
            } else if let Some(end) = end_tag_name(&token) {
                // Equal names are equal `Name`s (an atom compare for HTML's).
                let name = end.as_str();
                match self.item_open.iter().rposition(|(n, _)| n == end) {
                    Some(at) => {
                        self.item_open.truncate(at);
                    }
                    None if block_like(name) => {
                        self.close_all(out);
                        out.push(token);
                        return;
                    }
                    // An inline end tag that closes nothing the item holds
                    // (and no formatting element the tree builder would
                    // reopen here) is dropped by the tree builder: Parsoid
                    // leaves a marker.
                    None if name != "a" && !closes_formatting => {
                        out.push(stripped_tag_marker());
                        return;
                    }
                    None => {}
                }
            }
        }
        if self.newline.is_some()
            && (token.is_comment()
                || matches!(token.tok, Tok::EmptyLine(_))
                || is_marker_meta(&token))
        {
            self.held.push(token);
            return;
        }
        if self.newline.is_some() || token.is_end() {
            self.close_all(out);
            if token.is_end() {
                while let Some(stack) = self.outer.pop() {
                    self.stack = stack;
                    self.close_all(out);
                }
            }
            if let Some(nl) = self.newline.take() {
                out.push(nl);
            }
            out.append(&mut self.held);
        }
        out.push(token);
    }
}

/// A template's or include directive's marker meta: start-of-line
/// transparent, it does not end the lists before the next line.
fn is_marker_meta(token: &WikiToken) -> bool {
    token.start_name() == Some("meta")
        && matches!(&token.tok, Tok::Html(t) if t.as_tag().and_then(|t| t.attr("typeof")).is_some_and(|v| v.starts_with("mw:Transclusion") || v.starts_with("mw:Param") || v.starts_with("mw:Includes/")))
}

/// Whether a start tag of `name` opens nothing a list item holds (names
/// HTML defines are static atoms: compared as such).
fn is_void_in_item(name: &Name) -> bool {
    matches!(
        name.atom(),
        Some(atom::BR | atom::HR | atom::WBR | atom::META | atom::LINK | atom::IMG)
    )
}

/// A start tag's name.
fn start_tag_name(token: &WikiToken) -> Option<&Name> {
    match &token.tok {
        Tok::Html(OwnedToken::StartTag(t)) => Some(t.name()),
        _ => None,
    }
}

fn end_tag_name(token: &WikiToken) -> Option<&Name> {
    match &token.tok {
        Tok::Html(OwnedToken::EndTag(t)) => Some(t.name()),
        _ => None,
    }
}

/// The atom of `name` when it is a formatting element's (a static name:
/// compared as an atom, no lookup of its text).
fn formatting_atom(name: &Name) -> Option<Atom> {
    name.atom().filter(|&atom| is_formatting_atom(atom))
}

fn token_self_closing(token: &WikiToken) -> bool {
    match &token.tok {
        Tok::Html(t) => t.as_tag().is_some_and(|tag| tag.self_closing()),
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn run(tokens: Vec<WikiToken>) -> Vec<String> {
        let mut h = ListHandler::default();
        let mut out = Vec::new();
        for t in tokens {
            h.push(t, &mut out);
        }
        h.push(WikiToken::made(Tok::Eof), &mut out);
        out.iter()
            .map(|t| match &t.tok {
                Tok::Html(h) => match (t.start_name(), t.end_name(), t.as_text()) {
                    (Some(n), _, _) => {
                        let ty = h.as_tag().and_then(|t| t.attr("typeof")).unwrap_or("");
                        format!("<{n}{ty}>")
                    }
                    (_, Some(n), _) => format!("</{n}>"),
                    (_, _, Some(x)) => x.to_owned(),
                    _ => String::new(),
                },
                Tok::Eof => String::new(),
                _ => "?".to_owned(),
            })
            .filter(|s| !s.is_empty())
            .collect()
    }

    #[test]
    fn stray_inline_end_tags_in_items_leave_a_marker() {
        let item = |b: &str| WikiToken::made(Tok::ListItem(b.into()));
        // `;one</b>two`: nothing opened a `b`.
        let out = run(vec![
            item(";"),
            WikiToken::text("one"),
            WikiToken::end(atom::B),
            WikiToken::text("two"),
        ]);
        assert_eq!(
            out,
            [
                "<dl>",
                "<dt>",
                "one",
                "<metamw:Placeholder/StrippedTag>",
                "two",
                "</dt>",
                "</dl>"
            ]
        );
        // A `</span>` closing a span of the same item stays.
        let out = run(vec![
            item("*"),
            WikiToken::start(atom::SPAN),
            WikiToken::end(atom::SPAN),
        ]);
        assert_eq!(out, ["<ul>", "<li>", "<span>", "</span>", "</li>", "</ul>"]);
        // A formatting element open on the page may be reopened in the item.
        let out = run(vec![
            WikiToken::start(atom::B),
            item("*"),
            WikiToken::end(atom::B),
        ]);
        assert_eq!(out, ["<b>", "<ul>", "<li>", "</b>", "</li>", "</ul>"]);
    }
}
