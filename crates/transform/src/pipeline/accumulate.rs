//! Phase 2: asynchronous handlers, out of order, and the accumulator chain that puts
//! their results back in input order.
//!
//! Every admitted token whose key has an asynchronous handler becomes one *chain*:
//! a future that takes the token through the phase's handlers in order (each result
//! token goes on to the later handlers of its own key). Chains run concurrently and
//! finish in any order. The accumulator is the seed's chain of `TokenAccumulator`s
//! flattened into a queue of slots, each pending (a chain) or done (tokens): after
//! every step the longest finished prefix is released at once. A token no handler
//! wants costs nothing when nothing is pending (it goes straight out) and one push
//! otherwise (onto the last done slot); so does a token whose first handler answers
//! at once (its future ready at the first poll) with one token no later handler
//! wants: no chain is boxed for it. The accumulator admits no token while it
//! holds `cap` or more (a pending chain counts one, a done token one): that is the
//! backpressure. An error from any chain ends the phase; dropping the accumulator
//! drops (cancels) every pending chain.

use std::collections::VecDeque;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use super::dispatch::check_eof;
use super::handler::{AsyncHandler, Ctx, HandlerFuture, Outcome};
use super::registry::{Body, Entry, Match, Pos};
use super::{PipelineError, PipelineToken};

type Chain<T> = Pin<Box<dyn Future<Output = Result<Vec<T>, PipelineError>>>>;

/// The asynchronous handlers of a pipeline, shared by its chains.
pub(crate) struct AsyncTable<T: PipelineToken> {
    entries: Vec<AsyncEntry<T>>,
    /// The kinds the entries are keyed on (`None`: some entry takes any
    /// token): a token of another kind is wanted by none.
    kinds: Option<Vec<T::Kind>>,
}

type AsyncEntry<T> = (
    Pos,
    Match<<T as PipelineToken>::Kind>,
    Arc<dyn AsyncHandler<T>>,
);

impl<T: PipelineToken> AsyncTable<T> {
    pub(crate) fn new(entries: &[Entry<T>]) -> Self {
        let entries: Vec<AsyncEntry<T>> = entries
            .iter()
            .filter_map(|e| match &e.body {
                Body::Async(h) => Some((e.pos, e.key.clone(), Arc::clone(h))),
                Body::Sync(_) => None,
            })
            .collect();
        let kinds = entries
            .iter()
            .map(|(_, key, _)| match key {
                Match::Any => None,
                Match::Kind(k) | Match::Tag(k, _) => Some(*k),
            })
            .collect();
        AsyncTable { entries, kinds }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Whether some handler wants `token`.
    pub(crate) fn wants(&self, token: &T) -> bool {
        let possible = match &self.kinds {
            Some(kinds) => kinds.contains(&token.kind()),
            None => true,
        };
        possible && self.next(token, Pos::START).is_some()
    }

    /// The first handler after `after` that wants `token` (its kind read
    /// once, and compared before the position).
    fn next(&self, token: &T, after: Pos) -> Option<(Pos, &Arc<dyn AsyncHandler<T>>)> {
        let kind = token.kind();
        self.entries
            .iter()
            .find(|(pos, key, _)| key.matches_kind(kind, token) && *pos > after)
            .map(|(pos, _, h)| (*pos, h))
    }
}

/// What is left of one token's way through the asynchronous handlers once
/// its first handler (at `pos`) has been called: `first` finishes, then its
/// tokens go through the later handlers, depth first so order is kept.
async fn chain<T: PipelineToken>(
    table: Arc<AsyncTable<T>>,
    first: HandlerFuture<T>,
    pos: Pos,
    was_eof: bool,
    ctx: Ctx,
) -> Result<Vec<T>, PipelineError> {
    let outcome = first.await.map_err(PipelineError::Handler)?;
    check_eof(was_eof, &outcome)?;
    rest(table, outcome, pos, ctx).await
}

/// The tokens of `outcome` (of the handler at `pos`) through the later
/// handlers, depth first so order is kept.
async fn rest<T: PipelineToken>(
    table: Arc<AsyncTable<T>>,
    outcome: Outcome<T>,
    pos: Pos,
    ctx: Ctx,
) -> Result<Vec<T>, PipelineError> {
    let mut out = Vec::new();
    let mut stack = Vec::new();
    push_outcome(&mut stack, outcome, pos);
    while let Some((token, after)) = stack.pop() {
        let Some((pos, handler)) = table.next(&token, after) else {
            out.push(token);
            continue;
        };
        let was_eof = token.is_eof();
        let outcome = handler
            .handle(token, &ctx)
            .await
            .map_err(PipelineError::Handler)?;
        check_eof(was_eof, &outcome)?;
        push_outcome(&mut stack, outcome, pos);
    }
    Ok(out)
}

/// `outcome`'s tokens onto the stack of a chain, the first on top.
fn push_outcome<T>(stack: &mut Vec<(T, Pos)>, outcome: Outcome<T>, pos: Pos) {
    match outcome {
        Outcome::Keep(t) => stack.push((t, pos)),
        Outcome::Delete => {}
        Outcome::Expand(ts) => stack.extend(ts.into_iter().rev().map(|t| (t, pos))),
    }
}

enum Slot<T> {
    Pending(Chain<T>),
    Done(Vec<T>),
}

/// What the asynchronous phase of a run observed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AsyncStats {
    /// The most chains pending at once (the concurrency reached).
    pub max_in_flight: usize,
    /// The most tokens held at once (pending chains count one each).
    pub max_held: usize,
    /// Chains started.
    pub chains: usize,
}

pub(crate) struct Accumulator<T> {
    slots: VecDeque<Slot<T>>,
    held: usize,
    in_flight: usize,
    cap: usize,
    pub(crate) stats: AsyncStats,
}

impl<T: PipelineToken> Accumulator<T> {
    pub(crate) fn new(cap: usize) -> Self {
        Accumulator {
            slots: VecDeque::new(),
            held: 0,
            in_flight: 0,
            cap: cap.max(1),
            stats: AsyncStats::default(),
        }
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    pub(crate) fn has_room(&self) -> bool {
        self.held < self.cap
    }

    /// Takes `token` in; what is released goes to `out`. Its first handler is
    /// called right away and its future polled once, so its work starts; a
    /// future ready at once whose token no later handler wants goes straight
    /// on, with no chain to box (the usual case of a handler that has its
    /// answer at hand).
    pub(crate) fn admit(
        &mut self,
        token: T,
        table: &Arc<AsyncTable<T>>,
        ctx: &Ctx,
        cx: &mut Context<'_>,
        out: &mut Vec<T>,
    ) -> Result<(), PipelineError> {
        let Some((pos, handler)) = table.next(&token, Pos::START) else {
            self.push_one(token, out);
            return Ok(());
        };
        self.stats.chains += 1;
        let was_eof = token.is_eof();
        let mut first = handler.handle(token, ctx);
        let mut pending: Chain<T> = match first.as_mut().poll(cx) {
            Poll::Ready(outcome) => {
                let outcome = outcome.map_err(PipelineError::Handler)?;
                check_eof(was_eof, &outcome)?;
                match outcome {
                    Outcome::Keep(t) if table.next(&t, pos).is_none() => {
                        self.push_one(t, out);
                        return Ok(());
                    }
                    outcome => Box::pin(rest(Arc::clone(table), outcome, pos, ctx.clone())),
                }
            }
            Poll::Pending => {
                // Polled once already: the chain polls it again when woken.
                let chain = chain(Arc::clone(table), first, pos, was_eof, ctx.clone());
                self.slots.push_back(Slot::Pending(Box::pin(chain)));
                self.held += 1;
                self.in_flight += 1;
                self.note();
                return Ok(());
            }
        };
        match pending.as_mut().poll(cx) {
            Poll::Ready(result) => self.push_done(result?, out),
            Poll::Pending => {
                self.slots.push_back(Slot::Pending(pending));
                self.held += 1;
                self.in_flight += 1;
                self.note();
            }
        }
        Ok(())
    }

    /// One finished token: out if nothing is held, else behind what is.
    fn push_one(&mut self, token: T, out: &mut Vec<T>) {
        match self.slots.back_mut() {
            None => out.push(token),
            Some(Slot::Done(last)) => {
                self.held += 1;
                last.push(token);
            }
            Some(Slot::Pending(_)) => {
                self.held += 1;
                self.slots.push_back(Slot::Done(vec![token]));
            }
        }
        self.note();
    }

    fn push_done(&mut self, mut tokens: Vec<T>, out: &mut Vec<T>) {
        match self.slots.back_mut() {
            None => out.append(&mut tokens),
            Some(Slot::Done(last)) => {
                self.held += tokens.len();
                last.append(&mut tokens);
            }
            Some(Slot::Pending(_)) => {
                self.held += tokens.len();
                self.slots.push_back(Slot::Done(tokens));
            }
        }
        self.note();
    }

    fn note(&mut self) {
        self.stats.max_held = self.stats.max_held.max(self.held);
        self.stats.max_in_flight = self.stats.max_in_flight.max(self.in_flight);
    }

    /// Polls every pending chain; releases the finished prefix into `out`. Ready
    /// when something finished or was released.
    pub(crate) fn poll_progress(
        &mut self,
        cx: &mut Context<'_>,
        out: &mut Vec<T>,
    ) -> Poll<Result<(), PipelineError>> {
        let mut progressed = false;
        for slot in self.slots.iter_mut() {
            let Slot::Pending(pending) = slot else {
                continue;
            };
            if let Poll::Ready(result) = pending.as_mut().poll(cx) {
                let tokens = result?;
                self.held = self.held.saturating_sub(1) + tokens.len();
                self.in_flight = self.in_flight.saturating_sub(1);
                *slot = Slot::Done(tokens);
                progressed = true;
            }
        }
        while let Some(Slot::Done(_)) = self.slots.front() {
            if let Some(Slot::Done(mut tokens)) = self.slots.pop_front() {
                self.held = self.held.saturating_sub(tokens.len());
                out.append(&mut tokens);
                progressed = true;
            }
        }
        if progressed {
            Poll::Ready(Ok(()))
        } else {
            Poll::Pending
        }
    }
}
