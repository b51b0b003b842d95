//! Phase-3 token transforms (Parsoid's stage 3, globally in order), each a
//! line-based transform of every token, run in rank order as one pipeline
//! handler ([`Chain`], at rank 2.01: `cite.rs` first):
//!
//! | rank | file | Parsoid's name | does |
//! |---|---|---|---|
//! | 2.05 | `pre.rs` | PreHandler | indent-pre: lines starting with a space → `<pre>` |
//! | 2.10 | `quotes.rs` | QuoteTransformer | `''`/`'''` per line, balanced like MediaWiki's `doQuotes` |
//! | 2.49 | `lists.rs` | ListHandler | list bullets → `ul`/`ol`/`dl`, `li`/`dt`/`dd` |
//! | 2.60 | `headings.rs` | (a DOM pass in Parsoid) | heading ids |
//! | 2.95 | `paragraphs.rs` | ParagraphWrapper | `<p>` around inline runs, `<br>` for extra blank lines |
//!
//! The list and heading stages run as one ([`pair::Pair`]): one dispatch a
//! token for both.

pub(crate) mod cite;
pub(crate) mod headings;
pub(crate) mod links;
pub(crate) mod lists;
pub(crate) mod pair;
pub(crate) mod paragraphs;
pub(crate) mod pre;
pub(crate) mod quotes;

use tagloom_html::atom::{self, Atom};
use tagloom_transform::pipeline::{Ctx, Handler, HandlerError, Outcome};

use crate::token::WikiToken;

/// A transform that takes one token at a time and appends what it releases.
pub(crate) trait Transform {
    fn push(&mut self, token: WikiToken, out: &mut Vec<WikiToken>);

    /// Back to the state the transform was made in (a reused chain's, before
    /// its next input).
    fn reset(&mut self);

    /// `push` for a token the transform lets through as it is, without
    /// taking it: true when it did what `push` would have done except pass
    /// `token` on (which the caller then does), false (and nothing done)
    /// when the token must go through `push`. The default takes every token.
    fn pass(&mut self, _token: &WikiToken) -> bool {
        false
    }

    /// How many of the last tokens of its `out` the transform still holds:
    /// it may put tokens in among them (the paragraph stage's `<p>` at a
    /// line's start), so they are not released yet. Only the chain's last
    /// stage may hold any (its `out` is the chain's output, and nothing else
    /// appends to it); the default holds none.
    fn held(&self) -> usize {
        0
    }
}

/// Runs the transforms, in rank order, as one pipeline handler: each token
/// goes through every transform, and what one releases goes on to the next,
/// as the pipeline's phases would pass it (the same tokens reach each transform
/// in the same order), without moving every token through the pipeline's
/// buffers once per transform. A transform sees only what it appended in this
/// call in its `out` (some look back over it), but for the last, which
/// appends to the chain's output itself and may still hold its last tokens
/// ([`Transform::held`]): those stay in the chain between calls.
pub(crate) struct Chain {
    stages: Vec<Box<dyn Transform>>,
    /// Reused buffers: a stage's input, its output, and one token's output
    /// when the stage's output already holds tokens.
    input: Vec<WikiToken>,
    output: Vec<WikiToken>,
    one: Vec<WikiToken>,
    /// The output the last stage still holds, between two calls.
    held: Vec<WikiToken>,
}

impl Chain {
    pub(crate) fn new(stages: Vec<Box<dyn Transform>>) -> Self {
        Chain {
            stages,
            input: Vec::new(),
            output: Vec::new(),
            one: Vec::new(),
            held: Vec::new(),
        }
    }

    /// Back to the state [`new`](Self::new) made it in (the stages reset, the
    /// buffers kept, emptied): a reused pipeline's chain for its next input.
    pub(crate) fn reset(&mut self) {
        for stage in &mut self.stages {
            stage.reset();
        }
        self.input.clear();
        self.output.clear();
        self.one.clear();
        self.held.clear();
    }

    /// How many of its output's last tokens the last stage holds.
    fn last_held(&self) -> usize {
        self.stages.last().map_or(0, |stage| stage.held())
    }

    /// Appends to `out` what `buf` (the output of calls to [`run`](Self::run))
    /// holds but for what the last stage still holds, which stays in the
    /// chain.
    fn release(&mut self, mut buf: Vec<WikiToken>, out: &mut Vec<WikiToken>) {
        let keep = self.last_held().min(buf.len());
        if keep == 0 {
            if out.is_empty() {
                std::mem::swap(out, &mut buf);
            } else {
                out.append(&mut buf);
            }
        } else {
            out.extend(buf.drain(..buf.len() - keep));
        }
        self.held = buf;
    }

    /// [`Handler::handle_into`]: `token` through the stages, what the last
    /// one releases appended to `out`.
    fn one(&mut self, token: WikiToken, out: &mut Vec<WikiToken>) {
        let mut buf = std::mem::take(&mut self.held);
        self.run(token, &mut buf);
        self.release(buf, out);
    }

    /// [`Handler::handle_chunk`]: every token of `tokens` through the
    /// stages, straight into `out`, but for what the last stage still holds
    /// at the end.
    pub(crate) fn chunk(&mut self, tokens: &mut Vec<WikiToken>, out: &mut Vec<WikiToken>) {
        if !self.held.is_empty() {
            // What the last stage held at the end of the previous call stays
            // where it is, the chunk's output after it: a long line held over
            // many chunks is not moved for each.
            let mut buf = std::mem::take(&mut self.held);
            for token in tokens.drain(..) {
                self.run(token, &mut buf);
            }
            return self.release(buf, out);
        }
        // The stages add tokens (paragraph and list tags): room for a quarter
        // more, so a whole page's chunk is not copied to a larger buffer as
        // it grows. A fresh buffer, not a grown one: growing an empty one
        // would copy its old capacity.
        let room = tokens.len() + tokens.len() / 4;
        if out.is_empty() && out.capacity() < room {
            *out = Vec::with_capacity(room);
        }
        // Nothing held: the chunk's output straight into `out`.
        for token in tokens.drain(..) {
            self.run(token, out);
        }
        let keep = self.last_held().min(out.len());
        if keep > 0 {
            let from = out.len() - keep;
            self.held.extend(out.drain(from..));
        }
    }

    /// `token` through every stage; the result is appended to `out` (which the
    /// stages never see: each pushes into the chain's own buffers). A
    /// stage that lets the token pass does not move it; while each stage gives
    /// back exactly one token, that token goes straight on to the next (the
    /// usual case: no buffer drained per stage); from the first
    /// stage that gives back several, they go on through the buffers. Once a
    /// stage gives back none (it holds a line, as the quote stage does for
    /// some tokens), the run ends: no later stage has anything to do. The
    /// last stage pushes into `out` itself. Inlined into the loops over a
    /// chunk's tokens: no call per token.
    #[inline(always)]
    fn run(&mut self, mut token: WikiToken, out: &mut Vec<WikiToken>) {
        // The stages as a local slice: its pointer and length stay in
        // registers across the stages' calls (not read again from `self`
        // after each). Every run leaves `input` empty.
        let Chain {
            stages,
            input,
            output,
            one,
            ..
        } = self;
        let stages: &mut [Box<dyn Transform>] = stages;
        debug_assert!(input.is_empty(), "a run leaves no input behind");
        let last = stages.len().saturating_sub(1);
        // The stages not yet asked (walked by pointer: no index
        // bounds-checked per stage visit).
        let mut rest: &mut [Box<dyn Transform>];
        // One stage: its `pass`, or its `push` while it gives back one
        // token (that token on to the next stage); `break 'spill` once a
        // stage gives back several.
        macro_rules! stage {
            ($left:expr, $spill:lifetime) => {{
                let Some((stage, tail)) = std::mem::take($left).split_first_mut() else {
                    out.push(token);
                    return;
                };
                rest = tail;
                if !stage.pass(&token) {
                    if rest.is_empty() {
                        stage.push(token, out);
                        return;
                    }
                    stage.push(token, input);
                    debug_assert_eq!(stage.held(), 0, "only the last stage holds");
                    match input.len() {
                        1 => {}
                        // Held (a line, a paragraph): nothing for the later stages.
                        0 => return,
                        _ => break $spill,
                    }
                    let Some(t) = input.pop() else { return };
                    token = t;
                }
            }};
        }
        'spill: {
            // The first five stages written out: each asked from a call
            // site of its own, so an indirect call's target is the one it
            // had for the previous token (a page's chain has five stages;
            // one call site for all would change targets at every stage).
            let mut left = &mut *stages;
            stage!(&mut left, 'spill);
            stage!(&mut rest, 'spill);
            stage!(&mut rest, 'spill);
            stage!(&mut rest, 'spill);
            stage!(&mut rest, 'spill);
            // More stages (tests' chains only).
            loop {
                stage!(&mut rest, 'spill);
            }
        }
        let next = last + 1 - rest.len();
        for (at, stage) in stages.iter_mut().enumerate().skip(next) {
            if input.is_empty() {
                return;
            }
            if at == last {
                for t in input.drain(..) {
                    if stage.pass(&t) {
                        out.push(t);
                    } else {
                        stage.push(t, out);
                    }
                }
                return;
            }
            // The tokens a stage lets through stay where they are: when it
            // lets all through (the list and heading stages, for most lines
            // the quote stage releases), none moves.
            let Some(first) = input.iter().position(|t| !stage.pass(t)) else {
                continue;
            };
            output.clear();
            for (i, t) in input.drain(..).enumerate() {
                // Those before `first` passed; `first` was seen not to (its
                // `pass` did nothing).
                if i < first || (i > first && stage.pass(&t)) {
                    output.push(t);
                } else if output.is_empty() {
                    stage.push(t, output);
                } else {
                    one.clear();
                    stage.push(t, one);
                    output.append(one);
                }
            }
            std::mem::swap(input, output);
        }
        out.append(input);
    }
}

impl Handler<WikiToken> for Chain {
    /// No vector per token: the reused buffers are appended to the pipeline's.
    fn handle_into(
        &mut self,
        token: WikiToken,
        _: &Ctx,
        out: &mut Vec<WikiToken>,
    ) -> Result<(), HandlerError> {
        self.one(token, out);
        Ok(())
    }

    fn handle(&mut self, token: WikiToken, ctx: &Ctx) -> Result<Outcome<WikiToken>, HandlerError> {
        let mut out = Vec::new();
        self.handle_into(token, ctx, &mut out)?;
        Ok(match out.len() {
            0 => Outcome::Delete,
            1 => match out.pop() {
                Some(t) => Outcome::Keep(t),
                None => Outcome::Delete,
            },
            _ => Outcome::Expand(out),
        })
    }

    /// Every token of the pipeline's chunk, without a dispatch per token.
    fn takes_chunks(&self) -> bool {
        true
    }

    fn handle_chunk(
        &mut self,
        tokens: &mut Vec<WikiToken>,
        _: &Ctx,
        out: &mut Vec<WikiToken>,
    ) -> Result<(), HandlerError> {
        self.chunk(tokens, out);
        Ok(())
    }

    /// The stages make no end of input, and each, given the one there is,
    /// releases what it holds before it and gives it back last (the
    /// paragraph stage, which holds the output's last tokens, releases them
    /// all): the pipeline need not read the whole page's output for it.
    fn keeps_end_of_input(&self) -> bool {
        true
    }
}

/// Parsoid's "wikitext block" elements and their effect on paragraphs. Each
/// is an HTML element, so a static atom (a name that is none is no block).
pub(crate) fn is_wikitext_block(name: Atom) -> bool {
    is_block_elem(name) || is_anti_block(name) || is_always_block(name) || is_never_block(name)
}

/// Opens block scope when entering, closes when leaving.
pub(crate) fn is_block_elem(name: Atom) -> bool {
    matches!(
        name,
        atom::TABLE
            | atom::H1
            | atom::H2
            | atom::H3
            | atom::H4
            | atom::H5
            | atom::H6
            | atom::PRE
            | atom::P
            | atom::UL
            | atom::OL
            | atom::DL
    )
}

/// Closes block scope when entering, opens when leaving.
pub(crate) fn is_anti_block(name: Atom) -> bool {
    matches!(name, atom::TD | atom::TH)
}

/// Opens block scope both ways.
pub(crate) fn is_always_block(name: Atom) -> bool {
    matches!(
        name,
        atom::TR | atom::CAPTION | atom::DT | atom::DD | atom::LI
    )
}

/// Closes block scope both ways.
pub(crate) fn is_never_block(name: Atom) -> bool {
    matches!(
        name,
        atom::CENTER | atom::BLOCKQUOTE | atom::DIV | atom::HR | atom::FIGURE | atom::ASIDE
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::token::Tok;

    /// The page stages but Cite (which needs a page), each on its own.
    pub(super) fn chain() -> Chain {
        Chain::new(vec![
            Box::new(pre::PreHandler::default()),
            Box::new(quotes::QuoteTransformer::default()),
            Box::new(lists::ListHandler::default()),
            Box::new(headings::HeadingIds::default()),
            Box::new(paragraphs::ParagraphWrapper::default()),
        ])
    }

    /// A text's tokens as the chain sees them (links resolved), ending in EOF.
    pub(super) fn tokens(wikitext: &str) -> Vec<WikiToken> {
        let page = crate::tokenize::LinkPage {
            title: "Here",
            pages: None,
        };
        let mut tokens =
            crate::tokenize::tokenize_page(wikitext, &[], crate::title::default_site(), page);
        if !tokens.last().is_some_and(WikiToken::is_end) {
            tokens.push(WikiToken::made(Tok::Eof));
        }
        tokens
    }

    /// The chain `got()` makes gives `want()`'s output on `text`'s tokens,
    /// fed whole and fed a chunk a token.
    pub(super) fn assert_same_output(
        got: impl Fn() -> Chain,
        want: impl Fn() -> Chain,
        text: &str,
    ) {
        let all = tokens(text);
        let mut wanted = Vec::new();
        want().chunk(&mut all.clone(), &mut wanted);
        let mut whole = Vec::new();
        got().chunk(&mut all.clone(), &mut whole);
        assert_eq!(whole, wanted, "{text:?}");
        let mut one = Vec::new();
        let mut c = got();
        for t in all {
            c.chunk(&mut vec![t], &mut one);
        }
        assert_eq!(one, wanted, "a chunk a token: {text:?}");
    }

    /// A stage whose `pass` takes nothing: every token through its `push`.
    struct PushOnly(Box<dyn Transform>);

    impl Transform for PushOnly {
        fn push(&mut self, token: WikiToken, out: &mut Vec<WikiToken>) {
            self.0.push(token, out);
        }
        fn reset(&mut self) {
            self.0.reset();
        }
        fn held(&self) -> usize {
            self.0.held()
        }
    }

    /// What each stage's `pass` lets through is what its `push` would have
    /// let through, its state changed alike: the chain's output is the same
    /// with every token pushed.
    #[test]
    fn pass_does_what_push_does() {
        let pushed = || {
            Chain::new(vec![
                Box::new(PushOnly(Box::new(pre::PreHandler::default()))),
                Box::new(PushOnly(Box::new(quotes::QuoteTransformer::default()))),
                Box::new(PushOnly(Box::new(lists::ListHandler::default()))),
                Box::new(PushOnly(Box::new(headings::HeadingIds::default()))),
                Box::new(PushOnly(Box::new(paragraphs::ParagraphWrapper::default()))),
            ])
        };
        for text in [
            "a\n\nb\n\n\n\nc\n\n\n d",
            " pre\n more ''x''\n\npara\n <div>no pre</div>\n <!-- c -->\n x",
            "<!-- c --> \n x\n[[Category:X]]\n y",
            "* a [[L|''b'']] <span>s</span> c\n* <b>x</i> y</b>\n** <table><tr><td>t</td></tr></table> z\n\nafter",
            "* <br> <hr/> <img> x</span> y\n*# z <!-- c -->\n\n; t : d\n: e <meta property=\"mw:PageProp/x\"/>",
            "''a [[b|c '''d]] e'' f\n'''g ''h''' i\n{|\n| x || ''y || z''\n|}",
            "== H ''i'' ==\ntext\n=== [[L]] ===\n* l\n\n",
        ] {
            assert_same_output(chain, pushed, text);
        }
    }

    /// A stage that takes every token through its `push` and gives it
    /// back as it is.
    struct Through;

    impl Transform for Through {
        fn push(&mut self, token: WikiToken, out: &mut Vec<WikiToken>) {
            out.push(token);
        }
        fn reset(&mut self) {}
    }

    /// A chain of more stages than `run` writes out (seven, two of them
    /// giving back what they take, before and after the stages that give
    /// back several tokens) gives the five page stages' output.
    #[test]
    fn more_than_five_stages() {
        let seven = || {
            Chain::new(vec![
                Box::new(Through),
                Box::new(pre::PreHandler::default()),
                Box::new(quotes::QuoteTransformer::default()),
                Box::new(lists::ListHandler::default()),
                Box::new(Through),
                Box::new(headings::HeadingIds::default()),
                Box::new(paragraphs::ParagraphWrapper::default()),
            ])
        };
        for text in [
            "a\n\nb\n\n\n\nc\n\n\n d",
            " pre\n more ''x''\n\npara\n <div>no pre</div>\n <!-- c -->\n x",
            "* a [[L|''b'']] <span>s</span> c\n* <b>x</i> y</b>\n** z\n\nafter",
            "''a [[b|c '''d]] e'' f\n'''g ''h''' i\n== H ''i'' ==\ntext",
        ] {
            assert_same_output(seven, chain, text);
        }
    }

    /// [`Handler::keeps_end_of_input`]: the chain's output holds one end of
    /// input, last, whole or fed a chunk a token.
    #[test]
    fn the_end_of_input_stays_last() {
        for text in [
            "a\n\nb\n\n\n\nc\n\n\n d",
            " pre\n more ''x\n\npara\n <div>no pre",
            "* a [[L|''b'']] <span>s\n** z\n\n'''after",
            "== H ''i'' ==\ntext\n{|\n| x || ''y\n",
            "<!-- c -->\n\n",
            "",
        ] {
            let all = tokens(text);
            let mut whole = Vec::new();
            chain().chunk(&mut all.clone(), &mut whole);
            let mut one = Vec::new();
            let mut c = chain();
            for t in all {
                c.chunk(&mut vec![t], &mut one);
            }
            for out in [whole, one] {
                assert_eq!(out.iter().filter(|t| t.is_end()).count(), 1, "{text:?}");
                assert!(out.last().is_some_and(WikiToken::is_end), "{text:?}");
            }
        }
    }

    /// A line of many tokens fed a chunk a token: what the paragraph stage
    /// holds is not moved for each chunk (linear, not quadratic, time).
    #[test]
    fn a_long_held_line_is_not_moved_per_chunk() {
        let all = tokens(&"<b>x</b>".repeat(40_000));
        let mut c = chain();
        let mut out = Vec::new();
        let start = std::time::Instant::now();
        for t in all {
            c.chunk(&mut vec![t], &mut out);
        }
        assert!(start.elapsed() < std::time::Duration::from_secs(20));
        assert_eq!(out.first().and_then(WikiToken::start_name), Some("p"));
        assert!(out.last().is_some_and(WikiToken::is_end));
    }

    /// The paragraph stage holds the output's last tokens between calls:
    /// whole, in two chunks cut anywhere, or token by token, the output is
    /// the same.
    #[test]
    fn output_does_not_depend_on_the_calls() {
        for text in [
            "a\n\nb\n\n\n\nc\n\n\n d",
            "x\n<div>y</div> z\n\n w <!-- c -->\n",
            "text <span>s</span> x<div>d</div> y\n\n\nz",
            "* a\n* b ''c'' d\n\npara '''e\n== H ==\nf",
            " pre\n more\n\npara\n<blockquote>\n q\n</blockquote>",
            "a\n<meta property=\"mw:PageProp/x\"/>\nb\n<link rel=\"x\"/> c\n\n",
            "<table><tr><td>\n\ncell\n</td></tr></table>\n\nafter",
        ] {
            let all = tokens(text);
            let mut whole = Vec::new();
            chain().chunk(&mut all.clone(), &mut whole);
            let mut one = Vec::new();
            let mut c = chain();
            for t in all.clone() {
                c.one(t, &mut one);
            }
            assert_eq!(one, whole, "token by token: {text:?}");
            let mut chunks = Vec::new();
            let mut c = chain();
            for t in all.clone() {
                c.chunk(&mut vec![t], &mut chunks);
            }
            assert_eq!(chunks, whole, "a chunk a token: {text:?}");
            for cut in 0..=all.len() {
                let mut a = all.clone();
                let mut b = a.split_off(cut);
                let mut c = chain();
                let mut out = Vec::new();
                c.chunk(&mut a, &mut out);
                let mut rest = Vec::new();
                c.chunk(&mut b, &mut rest);
                out.append(&mut rest);
                assert_eq!(out, whole, "cut at {cut}: {text:?}");
            }
        }
    }
}
