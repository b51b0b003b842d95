//! What a handler is: the [`Handler`] (phases 1 and 3) and [`AsyncHandler`]
//! (phase 2) traits, their [`Outcome`], and the [`Ctx`] they run in.

use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;

use super::PipelineToken;
use super::expand::Frame;

/// What a handler did with a token.
///
/// After a handler at position *p* (its rank, then its key's specificity, see
/// [`Registry`](super::Registry)), every token it returns continues with the handlers
/// of *that token's own* key (kind and tag name) positioned after *p*. That one rule
/// gives the seed's four outcomes:
///
/// * keep: `Keep(token)` unchanged, the next handler of the same key sees it;
/// * modify: `Keep(token)` changed: same kind → the next handler; new kind (or tag
///   name) → the handlers of the new key, later positions only;
/// * delete: `Delete`, no later handler sees it;
/// * expand: `Expand(tokens)`, each goes to the handlers of its own key, later
///   positions only (an empty expansion is a delete).
///
/// End of input cannot be dropped: a handler given EOF must return it (`Keep`, or
/// `Expand` ending with it, once); one that deletes or replaces it, or makes an EOF
/// out of another token, fails the run with [`PipelineError::EofLost`] /
/// [`PipelineError::EofMade`](super::PipelineError::EofMade).
///
/// [`PipelineError::EofLost`]: super::PipelineError::EofLost
#[derive(Debug, PartialEq, Eq)]
pub enum Outcome<T> {
    /// The token, changed or not.
    Keep(T),
    /// No token.
    Delete,
    /// Tokens in its place, in order.
    Expand(Vec<T>),
}

/// A handler's failure: fails the whole run (pending asynchronous work is cancelled
/// and no output is produced). Expansion problems a reader should see (a missing
/// include, a loop) are not failures: the handler expands to error markup instead.
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct HandlerError(pub Box<dyn std::error::Error + Send + Sync>);

impl HandlerError {
    /// A failure with this message.
    pub fn msg(message: impl Into<String>) -> HandlerError {
        HandlerError(message.into().into())
    }
}

/// A sub-pipeline's failure fails the handler that ran it.
impl From<super::PipelineError> for HandlerError {
    fn from(error: super::PipelineError) -> Self {
        HandlerError(Box::new(error))
    }
}

/// What a handler may know about where it runs.
#[derive(Clone, Debug)]
pub struct Ctx {
    pub(crate) frame: Option<Arc<Frame>>,
    pub(crate) max_depth: usize,
}

impl Ctx {
    /// The expansion this pipeline runs for (`None` at the top level).
    pub fn frame(&self) -> Option<&Arc<Frame>> {
        self.frame.as_ref()
    }

    /// The expansion depth (0 at the top level).
    pub fn depth(&self) -> usize {
        self.frame.as_ref().map_or(0, |f| f.depth())
    }

    /// The deepest expansion allowed ([`PipelineConfig::max_depth`](super::PipelineConfig::max_depth)).
    pub fn max_depth(&self) -> usize {
        self.max_depth
    }
}

/// A synchronous handler (ranks in [0, 1) and [2, 3)). Called in stream order for
/// every token of the key it was registered for (see [`Outcome`]).
pub trait Handler<T: PipelineToken> {
    /// Handles one token.
    fn handle(&mut self, token: T, ctx: &Ctx) -> Result<Outcome<T>, HandlerError>;

    /// Handles one token, appending what it returns to `out` (`Keep` one token,
    /// `Delete` none, `Expand` several). The pipeline's handler-at-a-time
    /// dispatch calls this; the default goes through [`handle`](Self::handle).
    /// A handler that often returns several tokens may write them here directly,
    /// without an `Expand` vector per call; it must append exactly what
    /// `handle` would return, and never touch what `out` already holds.
    fn handle_into(&mut self, token: T, ctx: &Ctx, out: &mut Vec<T>) -> Result<(), HandlerError> {
        match self.handle(token, ctx)? {
            Outcome::Keep(t) => out.push(t),
            Outcome::Delete => {}
            Outcome::Expand(ts) => out.extend(ts),
        }
        Ok(())
    }

    /// Whether the handler takes whole chunks through
    /// [`handle_chunk`](Self::handle_chunk) when it is the only handler at its
    /// position and its key is [`Match::Any`](super::Match::Any). The default
    /// is no: every token goes through [`handle_into`](Self::handle_into).
    fn takes_chunks(&self) -> bool {
        false
    }

    /// Handles every token of `tokens` in order (leaving it empty), appending
    /// to `out` exactly what [`handle_into`](Self::handle_into) would for each
    /// token in turn (and never touching what `out` already holds), without a
    /// dispatch per token. Called only when [`takes_chunks`](Self::takes_chunks)
    /// is true; the end-of-input rule is then checked for the chunk as a whole.
    fn handle_chunk(
        &mut self,
        tokens: &mut Vec<T>,
        ctx: &Ctx,
        out: &mut Vec<T>,
    ) -> Result<(), HandlerError> {
        for token in tokens.drain(..) {
            self.handle_into(token, ctx, out)?;
        }
        Ok(())
    }

    /// Whether [`handle_chunk`](Self::handle_chunk) keeps the end-of-input
    /// rule by construction: for a chunk ending with the end of input it
    /// appends exactly one, last, and for a chunk without one, none. A
    /// release build's dispatch then checks only the output's last token,
    /// not every token (a whole chunk, maybe a whole page, read once more);
    /// debug builds check every token all the same. The default is no.
    ///
    /// ```
    /// use tagloom_html::token::OwnedToken;
    /// use tagloom_transform::pipeline::{Ctx, Handler, HandlerError, Outcome};
    ///
    /// /// Gives back every token as it is: the end of input stays last.
    /// struct Same;
    ///
    /// impl Handler<OwnedToken> for Same {
    ///     fn handle(&mut self, t: OwnedToken, _: &Ctx) -> Result<Outcome<OwnedToken>, HandlerError> {
    ///         Ok(Outcome::Keep(t))
    ///     }
    ///     fn takes_chunks(&self) -> bool {
    ///         true
    ///     }
    ///     fn keeps_end_of_input(&self) -> bool {
    ///         true
    ///     }
    /// }
    /// # assert!(Same.keeps_end_of_input());
    /// ```
    fn keeps_end_of_input(&self) -> bool {
        false
    }
}

impl<T, F> Handler<T> for F
where
    T: PipelineToken,
    F: FnMut(T, &Ctx) -> Result<Outcome<T>, HandlerError>,
{
    fn handle(&mut self, token: T, ctx: &Ctx) -> Result<Outcome<T>, HandlerError> {
        self(token, ctx)
    }
}

/// The future an [`AsyncHandler`] returns. It owns what it needs (clone the
/// context), so it can outlive the call and run alongside others.
pub type HandlerFuture<T> = Pin<Box<dyn Future<Output = Result<Outcome<T>, HandlerError>>>>;

/// An asynchronous handler (ranks in [1, 2)): called once per token as the token
/// arrives, its futures run concurrently and finish in any order; the pipeline puts
/// the results back in input order.
pub trait AsyncHandler<T: PipelineToken> {
    /// Starts handling one token.
    fn handle(&self, token: T, ctx: &Ctx) -> HandlerFuture<T>;
}

impl<T, F> AsyncHandler<T> for F
where
    T: PipelineToken,
    F: Fn(T, &Ctx) -> HandlerFuture<T>,
{
    fn handle(&self, token: T, ctx: &Ctx) -> HandlerFuture<T> {
        self(token, ctx)
    }
}
