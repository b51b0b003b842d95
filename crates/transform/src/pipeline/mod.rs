//! The token transform pipeline (the Parsoid model of `shared/seeds/002_…`).
//!
//! Handlers are registered in a [`Registry`] by key ([`Match`]: any token, a kind, or
//! a kind and tag name) and [`Rank`]; the integer part of the rank is the phase:
//!
//! | ranks | phase | runs |
//! |---|---|---|
//! | [0, 1) | [`Phase::InOrder`] | synchronous [`Handler`]s, in order per input source (each sub-pipeline has its own) |
//! | [1, 2) | [`Phase::Async`] | [`AsyncHandler`]s, concurrently, results put back in input order as early as possible, at most [`PipelineConfig::max_pending`] tokens held |
//! | [2, 3) | [`Phase::Global`] | synchronous [`Handler`]s, globally in order after all expansions; a sanitizer registers last, at [`Rank::LAST`] |
//!
//! Handler outcomes and the order rule are in [`Outcome`] and [`Registry`].
//! Synchronous phases run *handler-at-a-time* over a chunk of
//! [`PipelineConfig::chunk_size`] tokens by default (Parsoid's measured lesson): each
//! handler makes one pass over the chunk into a reused buffer, seeing only tokens of
//! its key; token-at-a-time ([`Dispatch::TokenAtATime`]) gives the same result.
//!
//! **Tokens.** The pipeline is generic over [`PipelineToken`]: a kind key and an
//! optional tag name are all it reads. [`OwnedToken`] implements it; the wikitext front
//! end will run an enum of `OwnedToken` and its pseudo-tokens (templates, links) with
//! its own kind enum, through the same machinery, and turn pseudo-tokens into
//! `OwnedToken`s before the [`Sink`].
//!
//! **Expansions** (includes, templates) run an independent pipeline per expansion
//! ([`Pipeline::expand`]), phases 0 and 1 only (phase 2 runs once, globally, on the
//! merged stream), with a depth limit and loop detection by ancestry ([`enter`]).
//!
//! **Output** goes to a [`Sink`]: [`TreeSink`] (tree builder → patches → `DomStore` →
//! serialization), [`TokenSink`] (token serialization, untouched tokens written back
//! from their source bytes) or [`VecSink`]. A failed run never finishes its sink, so it
//! never produces output.
//!
//! **Async runtime.** None is required: the pipeline is a plain `Future`, polled by
//! [`block_on`] (std only) or awaited under any executor. Handlers bring their own
//! wake-up source (a timer thread, an I/O reactor).
//!
//! ```
//! use tagloom_html::token::{OwnedToken, TokenKind};
//! use tagloom_transform::pipeline::{
//!     block_on, Match, Outcome, Pipeline, PipelineConfig, Rank, Registry, VecSink,
//! };
//!
//! let mut registry = Registry::new();
//! // Phase 0: drop comments.
//! registry.add(|_, _: &_| Ok(Outcome::Delete), Rank::new(0.1)?, Match::Kind(TokenKind::Comment))?;
//! // Phase 2: upper-case text.
//! registry.add(
//!     |t: OwnedToken, _: &_| match t {
//!         OwnedToken::Characters(text) => Ok(Outcome::Keep(OwnedToken::text(text.text().to_uppercase()))),
//!         other => Ok(Outcome::Keep(other)),
//!     },
//!     Rank::new(2.5)?,
//!     Match::Kind(TokenKind::Characters),
//! )?;
//! let mut pipeline = Pipeline::new(registry, PipelineConfig::default());
//! let input = [OwnedToken::comment("x"), OwnedToken::text("hi")].map(Ok);
//! let (out, _) = block_on(pipeline.run(input, VecSink::default()))?;
//! assert_eq!(out, [OwnedToken::text("HI"), OwnedToken::Eof]);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod accumulate;
mod block_on;
mod dispatch;
mod eof;
mod expand;
mod handler;
mod registry;
mod run;
mod sink;

pub use accumulate::AsyncStats;
pub use block_on::block_on;
pub use eof::{check_ended, end_input};
pub use expand::{ExpansionError, Frame, enter};
pub use handler::{AsyncHandler, Ctx, Handler, HandlerError, HandlerFuture, Outcome};
pub use registry::{HandlerId, Match, Phase, Rank, Registry};
pub use run::{Pipeline, RunStats};
pub use sink::{Sink, TokenSink, TreeSink, VecSink};

use std::fmt::Debug;
use std::hash::Hash;

use tagloom_html::token::{OwnedToken, TokenKind};

/// What the pipeline needs of a token: a kind to dispatch on, a tag name for
/// tag-specific handlers, and end of input.
pub trait PipelineToken: Sized + 'static {
    /// The kinds of token (the key handlers register under).
    type Kind: Copy + Eq + Hash + Debug + 'static;
    /// The token's kind.
    fn kind(&self) -> Self::Kind;
    /// The tag name, for tokens that have one.
    fn tag_name(&self) -> Option<&str>;
    /// Whether this is end of input.
    fn is_eof(&self) -> bool;
    /// End of input.
    fn eof() -> Self;
}

impl PipelineToken for OwnedToken {
    type Kind = TokenKind;

    fn kind(&self) -> TokenKind {
        OwnedToken::kind(self)
    }

    fn tag_name(&self) -> Option<&str> {
        self.as_tag().map(|t| t.name().as_str())
    }

    fn is_eof(&self) -> bool {
        matches!(self, OwnedToken::Eof)
    }

    fn eof() -> Self {
        OwnedToken::Eof
    }
}

/// How the synchronous phases walk a chunk.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Dispatch {
    /// Each handler over the whole chunk, one handler after another.
    #[default]
    HandlerAtATime,
    /// Each token through all its handlers, one token after another.
    TokenAtATime,
}

/// The limits and knobs of a [`Pipeline`].
#[derive(Clone, Debug)]
pub struct PipelineConfig {
    /// Tokens per chunk of the synchronous phases (default 256).
    pub chunk_size: usize,
    /// The most tokens the asynchronous phase holds (pending tokens and finished
    /// ones waiting behind them) before it stops taking input (default 64).
    pub max_pending: usize,
    /// The deepest expansion (default 40, as MediaWiki; at most
    /// [`MAX_DEPTH_CEILING`]).
    pub max_depth: usize,
    /// How the synchronous phases walk a chunk.
    pub dispatch: Dispatch,
}

/// The highest [`PipelineConfig::max_depth`] honoured: nested expansions are
/// nested futures polled on one thread's stack, about 15 KiB a level in a debug
/// build, so 100 levels fit a 2 MiB thread stack (`tests/include_hostile.rs`).
pub const MAX_DEPTH_CEILING: usize = 100;

impl Default for PipelineConfig {
    fn default() -> Self {
        PipelineConfig {
            chunk_size: 256,
            max_pending: 64,
            max_depth: 40,
            dispatch: Dispatch::default(),
        }
    }
}

/// Why a pipeline run failed.
#[derive(Debug, thiserror::Error)]
pub enum PipelineError {
    /// A rank outside [0, 3).
    #[error("rank {0} is outside [0, 3)")]
    BadRank(f64),
    /// A synchronous handler in [1, 2) or an asynchronous one outside it.
    #[error("rank {0} is in the wrong phase for this kind of handler")]
    WrongPhase(f64),
    /// A second handler with the same key and rank.
    #[error("a handler with rank {0} is already registered for this key")]
    DuplicateRank(f64),
    /// `remove` with a handle not (or no longer) registered.
    #[error("no such handler")]
    UnknownHandler,
    /// A handler deleted or replaced end of input.
    #[error("a handler dropped end of input")]
    EofLost,
    /// A handler made end of input out of another token.
    #[error("a handler made end of input out of another token")]
    EofMade,
    /// A handler failed.
    #[error("handler failed: {0}")]
    Handler(#[from] HandlerError),
    /// The input source failed.
    #[error("input: {0}")]
    Input(String),
    /// The sink failed.
    #[error("output: {0}")]
    Sink(String),
}
