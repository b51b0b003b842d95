//! The fast path of [`Sanitizer::sanitize`]: one parse, no `DomStore`, no
//! re-tokenizing, and the same answer as the general path or none at all.
//!
//! 1. The front end is the general path's (tokenizer driven by the text-type
//!    simulator → filter → tree builder, `Sanitizer::front`).
//! 2. The tree builder writes to [`sink::FusedSink`] instead of patches, and
//!    in its calls a [`walk::Walker`] reads what it creates and links (text
//!    and attribute values copied into reused buffers: no allocation per
//!    node): as long as every node is appended at the current end of the
//!    tree it reports the tree in document order with a stack of open
//!    elements; anything else (foster parenting, the adoption agency, …)
//!    gives up.
//! 3. [`clean::Cleaner`] is the tree pass (`tree.rs`'s rules, with the parent
//!    and namespace known at insertion) and [`check::First`] serializes what it
//!    keeps. As it writes, `First` also produces S, the tokens a tokenizer
//!    reads from the output (start tags with their attributes, text, end tags),
//!    which holds only while the output has no CR or NUL, only plain names, no
//!    duplicate attribute, and the re-parse never switches the tokenizer to a
//!    state S does not model (RAWTEXT, script data, PLAINTEXT; RCDATA only
//!    around text) — else it gives up.
//! 4. The output is checked as it is written, first by [`proof::Proof`]: a
//!    proof from the clean tree's shape alone (a conservative table of the
//!    parent/child shapes the tree builder reads back as written, from the
//!    spec's tree construction rules and the tree builder's tag sets) that
//!    the output re-parses to the clean tree and that sanitizing it gives it
//!    back. Only when the proof does not cover an input (foreign content, a
//!    `p`-closing element inside a `p`, a leading newline in a `pre`, text
//!    in a table…) is the fast path run again with the re-parse check:
//!    [`check::Second`] feeds S to a second tree builder, compares its tree
//!    node by node with the clean tree, watches that it is *faithful* (what
//!    the general path would feed its own tree builder sanitizing the output:
//!    the filter keeps every token unchanged, the simulator agrees, the depth
//!    cap never applies), and runs the tree pass over it again, whose
//!    serialization must be the output. That is the general path settling
//!    after one pass. The proof may refuse a safe output but never passes one
//!    the re-parse check refuses (`tests/sanitize_proof.rs`, the fuzz target).
//!
//! Any doubt is a [`FastFallback`]: the caller runs the general path, whose
//! answer is the reference. The tests hold the two to byte-identical outputs.

mod check;
mod clean;
mod proof;
mod sink;
mod walk;

#[cfg(test)]
mod tests;

use tagloom_html::tree_builder::TreeBuilder;

use super::{Front, Report, Sanitized, Sanitizer, tree_config};
use check::{Check, First};
use clean::Cleaner;
pub(crate) use sink::Judged;
use sink::{Fused, FusedSink};
use walk::Walker;

/// Why the fast path of [`Sanitizer::sanitize`] handed an input to the general
/// path (which then decides; no output ever comes from a fast path in doubt).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FastFallback {
    /// A tree builder patch other than an append at the end of the tree:
    /// foster parenting, the adoption agency, a template, a comment…
    Patch,
    /// A kept text-only element (`style`, `xmp`, `iframe`, …).
    RawText,
    /// An element with the `Escape` disposition.
    Escape,
    /// Content under a kept void element.
    Void,
    /// CR or NUL in the output's text (the tokenizer would change it).
    Text,
    /// A name or attribute the tokenizer would not read back as written.
    Name,
    /// The re-parse would switch the tokenizer to a state S does not model.
    State,
    /// The re-parse differs from the clean tree.
    Reparse,
    /// The re-parse is not what sanitizing the output would parse.
    Unfaithful,
    /// Sanitizing the output would change it.
    Unsettled,
    /// An engine invariant failed.
    Engine,
    /// The proof that the output re-parses to itself does not cover it (the
    /// fast path then runs the re-parse check; never returned by
    /// [`Sanitizer::sanitize_fast`]).
    Unproven,
}

pub(crate) type Abandon = FastFallback;

impl Sanitizer {
    /// The fast path alone: the output [`sanitize`](Self::sanitize) gives, or
    /// why this input needs the general path. For tests and benchmarks.
    #[doc(hidden)]
    pub fn sanitize_fast(&self, input: &str) -> Result<Sanitized, FastFallback> {
        let html = match self.fast_run(input, Check::Prove) {
            Err(Abandon::Unproven) => self.fast_run(input, Check::Reparse)?,
            done => done?,
        };
        Ok(Sanitized {
            html,
            report: Report {
                passes: 1,
                fallback: None,
            },
        })
    }

    /// The fast path with the output checked by the proof alone (`Ok(true)`
    /// and the output) and by the re-parse alone: the proof may never pass an
    /// output the re-parse refuses. For tests.
    #[doc(hidden)]
    pub fn sanitize_fast_checks(
        &self,
        input: &str,
    ) -> (Result<String, FastFallback>, Result<String, FastFallback>) {
        (
            self.fast_run(input, Check::Prove),
            self.fast_run(input, Check::Reparse),
        )
    }

    /// The fast path, up to its verdict: the output.
    fn fast_run(&self, input: &str, check: Check) -> Result<String, FastFallback> {
        self.fast_first(input, check).map(|first| first.html)
    }

    /// The fast path, up to its verdict: the output's writer.
    fn fast_first(&self, input: &str, check: Check) -> Result<First, FastFallback> {
        let policy = &self.policy;
        let mut tb =
            TreeBuilder::with_sink(tree_config("body", policy.max_depth), Box::new(FusedSink));
        let document = tb.document_key();
        let root = tb.fragment_root_key().ok_or(Abandon::Engine)?;
        let cleaner = Cleaner::new(policy, First::new(policy, input.len(), check));
        if !sink::start(Fused::new(Walker::new(document, root), cleaner)) {
            return Err(Abandon::Engine);
        }
        let done = self.front(input, &mut tb, Front::Lean, sink::judge, |_, _| {
            (!sink::failed()).then_some(())
        });
        // Taken back whatever happened (the state holds the output so far).
        let mut state = sink::finish()?;
        done.ok_or(Abandon::Engine)?;
        state.walker.finish(&mut state.cleaner)?;
        state.cleaner.out.finish()?;
        let first = state.cleaner.out;
        if let Some(second) = first.second() {
            if !first.expect.is_done() {
                return Err(Abandon::Reparse);
            }
            if !second.faithful {
                return Err(Abandon::Unfaithful);
            }
            let out = &second.cleaner.out;
            if out.differs || out.matched != first.html.len() {
                return Err(Abandon::Unsettled);
            }
        }
        Ok(first)
    }
}
