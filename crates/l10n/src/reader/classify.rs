//! Container or leaf: the bounded forward scan of the seed.
//!
//! After a block element's start tag the reader looks ahead through the buffered
//! tokens: a block-level start tag among the *direct* children (inline subtrees are
//! skipped by depth) makes the element a container; reaching its end tag (or an
//! implied end: `<p>…<div>`, `<li>…<li>`, `</ul>` after `<li>`) first makes it a leaf.
//! The tree builder's nesting (the text-type simulator's verdict on each token, see
//! `tokens.rs`) ends the element too: the first token that closes it
//! (`<select>` in a `<select>`, `<table>` in a table, a cell after a cell…).
//! The scan is bounded by the rules' token and byte budgets; past them the element is
//! treated as a container, so a huge element never has to be held in memory.
//!
//! Cost: each scan reads at most the budget of buffered tokens, so a token is looked
//! at by at most one scan per enclosing element whose scan reaches it; the scans of
//! nested containers stop at their first block child (one token for `<div><div>…`).

use std::io::Read;

use super::tokens::TokenStream;
use crate::error::Result;
use crate::rules::Rules;
use tagloom_html::token::TokenKind;

/// The scan's verdict.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Class {
    /// Has block children (or is too large to tell).
    Container,
    /// Inline content only: the next `len` tokens; `end_tag` when token `len` is the
    /// element's own end tag.
    Leaf { len: usize, end_tag: bool },
}

/// Classifies the element `name` whose start tag was just consumed; `start` is the
/// decoded offset after it, `level` the element's index in the simulated stack of
/// open elements.
pub(crate) fn classify<R: Read>(
    ts: &mut TokenStream<'_, R>,
    rules: &Rules,
    name: &str,
    start: u64,
    level: usize,
) -> Result<Class> {
    let mut open = ts.take_scratch();
    let class = scan(ts, rules, (name, start, level), &mut open);
    ts.put_scratch(open);
    class
}

/// [`classify`] with `open` for the open inline elements: the indexes of their
/// start tags among the buffered tokens (which stay buffered during the scan),
/// not copies of their names.
fn scan<R: Read>(
    ts: &mut TokenStream<'_, R>,
    rules: &Rules,
    (name, start, level): (&str, u64, usize),
    open: &mut Vec<usize>,
) -> Result<Class> {
    let mut j = 0usize;
    loop {
        if j > rules.scan_token_budget {
            return Ok(Class::Container);
        }
        if ts.peek(j)?.is_none() {
            return Ok(Class::Leaf {
                len: j,
                end_tag: false,
            });
        }
        let Some(tok) = ts.buffered_token(j) else {
            return Ok(Class::Leaf {
                len: j,
                end_tag: false,
            });
        };
        if tok.end().saturating_sub(start) > rules.scan_byte_budget as u64 {
            return Ok(Class::Container);
        }
        if tok.kept <= level {
            // The tree builder closes the element here.
            return Ok(Class::Leaf {
                len: j,
                end_tag: tok.kind() == TokenKind::EndTag && tok.name() == name,
            });
        }
        match tok.kind() {
            TokenKind::Eof => {
                return Ok(Class::Leaf {
                    len: j,
                    end_tag: false,
                });
            }
            TokenKind::StartTag => {
                let n = tok.name();
                let class = tok.class;
                if open.is_empty() && class.block() {
                    if rules.implies_end(name, n) {
                        return Ok(Class::Leaf {
                            len: j,
                            end_tag: false,
                        });
                    }
                    return Ok(Class::Container);
                }
                if !(class.void() || tok.self_closing() && !class.opaque()) {
                    open.push(j);
                }
            }
            TokenKind::EndTag => {
                let n = tok.name();
                let opened_here =
                    |&o: &usize| ts.buffered_token(o).is_some_and(|t| t.same_name(tok));
                if let Some(pos) = open.iter().rposition(opened_here) {
                    open.truncate(pos);
                } else if n == name {
                    return Ok(Class::Leaf {
                        len: j,
                        end_tag: true,
                    });
                } else if tok.class.block() {
                    // An ancestor's end tag closes this element implicitly.
                    return Ok(Class::Leaf {
                        len: j,
                        end_tag: false,
                    });
                }
            }
            TokenKind::Characters
            | TokenKind::Comment
            | TokenKind::ProcessingInstruction
            | TokenKind::Doctype => {}
        }
        j += 1;
    }
}
