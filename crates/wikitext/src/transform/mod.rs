//! Phase-3 token transforms (Parsoid's stage 3, globally in order), each a
//! line-based handler registered for every token:
//!
//! | rank | file | Parsoid's name | does |
//! |---|---|---|---|
//! | 2.05 | `pre.rs` | PreHandler | indent-pre: lines starting with a space → `<pre>` |
//! | 2.10 | `quotes.rs` | QuoteTransformer | `''`/`'''` per line, balanced like MediaWiki's `doQuotes` |
//! | 2.49 | `lists.rs` | ListHandler | list bullets → `ul`/`ol`/`dl`, `li`/`dt`/`dd` |
//! | 2.60 | `headings.rs` | (a DOM pass in Parsoid) | heading ids |
//! | 2.95 | `paragraphs.rs` | ParagraphWrapper | `<p>` around inline runs, `<br>` for extra blank lines |

pub(crate) mod cite;
pub(crate) mod headings;
pub(crate) mod links;
pub(crate) mod lists;
pub(crate) mod paragraphs;
pub(crate) mod pre;
pub(crate) mod quotes;

use tagloom_transform::pipeline::{Ctx, Handler, HandlerError, Outcome};

use crate::token::WikiToken;

/// A transform that takes one token at a time and appends what it releases.
pub(crate) trait Transform {
    fn push(&mut self, token: WikiToken, out: &mut Vec<WikiToken>);
}

/// Runs a [`Transform`] as a pipeline handler. A transform sees only what it
/// appended in this call in its `out` (some look back over it), so tokens go
/// through a buffer reused across calls, then to the pipeline's.
pub(crate) struct AsHandler<T> {
    transform: T,
    buf: Vec<WikiToken>,
}

impl<T> AsHandler<T> {
    pub(crate) fn new(transform: T) -> Self {
        AsHandler {
            transform,
            buf: Vec::new(),
        }
    }
}

impl<T: Transform> Handler<WikiToken> for AsHandler<T> {
    /// No vector per token: the reused buffer is appended to the pipeline's.
    fn handle_into(
        &mut self,
        token: WikiToken,
        _: &Ctx,
        out: &mut Vec<WikiToken>,
    ) -> Result<(), HandlerError> {
        self.buf.clear();
        self.transform.push(token, &mut self.buf);
        out.append(&mut self.buf);
        Ok(())
    }

    fn handle(&mut self, token: WikiToken, _: &Ctx) -> Result<Outcome<WikiToken>, HandlerError> {
        let mut out = Vec::new();
        self.transform.push(token, &mut out);
        Ok(match out.len() {
            0 => Outcome::Delete,
            1 => match out.pop() {
                Some(t) => Outcome::Keep(t),
                None => Outcome::Delete,
            },
            _ => Outcome::Expand(out),
        })
    }
}

/// Parsoid's "wikitext block" elements and their effect on paragraphs.
pub(crate) fn is_wikitext_block(name: &str) -> bool {
    is_block_elem(name) || is_anti_block(name) || is_always_block(name) || is_never_block(name)
}

/// Opens block scope when entering, closes when leaving.
pub(crate) fn is_block_elem(name: &str) -> bool {
    matches!(
        name,
        "table" | "h1" | "h2" | "h3" | "h4" | "h5" | "h6" | "pre" | "p" | "ul" | "ol" | "dl"
    )
}

/// Closes block scope when entering, opens when leaving.
pub(crate) fn is_anti_block(name: &str) -> bool {
    matches!(name, "td" | "th")
}

/// Opens block scope both ways.
pub(crate) fn is_always_block(name: &str) -> bool {
    matches!(name, "tr" | "caption" | "dt" | "dd" | "li")
}

/// Closes block scope both ways.
pub(crate) fn is_never_block(name: &str) -> bool {
    matches!(
        name,
        "center" | "blockquote" | "div" | "hr" | "figure" | "aside"
    )
}
