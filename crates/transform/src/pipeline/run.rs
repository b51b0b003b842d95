//! [`Pipeline`]: the three phases between an input and a [`Sink`].

use std::future::poll_fn;
use std::sync::Arc;
use std::task::Poll;

use super::accumulate::{Accumulator, AsyncStats, AsyncTable};
use super::dispatch::run_phase;
use super::handler::Ctx;
use super::registry::{Phase, Registry};
use super::sink::{Sink, VecSink};
use super::{MAX_DEPTH_CEILING, PipelineConfig, PipelineError, PipelineToken};

/// A registry and its configuration, ready to run inputs. See the
/// [module docs](super).
pub struct Pipeline<T: PipelineToken> {
    registry: Registry<T>,
    config: PipelineConfig,
    ctx: Ctx,
}

/// What a run observed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RunStats {
    /// Tokens read from the input (with the end of input).
    pub tokens_in: usize,
    /// Tokens written to the sink.
    pub tokens_out: usize,
    /// The asynchronous phase.
    pub async_phase: AsyncStats,
}

impl<T: PipelineToken> Pipeline<T> {
    /// A top-level pipeline.
    pub fn new(registry: Registry<T>, config: PipelineConfig) -> Self {
        let ctx = Ctx {
            frame: None,
            max_depth: config.max_depth.min(MAX_DEPTH_CEILING),
        };
        Pipeline {
            registry,
            config,
            ctx,
        }
    }

    /// The pipeline of one expansion: `ctx` comes from
    /// [`enter`](super::enter) in the expanding handler's context.
    pub fn for_expansion(registry: Registry<T>, config: PipelineConfig, ctx: Ctx) -> Self {
        Pipeline {
            registry,
            config,
            ctx,
        }
    }

    /// Runs `input` through the three phases into `sink` and finishes it. An input
    /// without end of input gets one; input after it is not read. On error, pending
    /// work is dropped and the sink is not finished.
    pub async fn run<I, S>(
        &mut self,
        input: I,
        mut sink: S,
    ) -> Result<(S::Output, RunStats), PipelineError>
    where
        I: IntoIterator<Item = Result<T, PipelineError>>,
        S: Sink<T>,
    {
        let stats = self.drive(Vec::new(), input, &mut sink, true).await?;
        Ok((sink.finish()?, stats))
    }

    /// [`run`](Self::run) for an input already in memory: `tokens` go
    /// through the synchronous phases as one chunk (the vector itself, whatever
    /// [`PipelineConfig::chunk_size`] says: no token is copied into chunks),
    /// which gives the same tokens as chunks would. Tokens after the first end of
    /// input are dropped; one is added if there is none.
    pub async fn run_vec<S>(
        &mut self,
        mut tokens: Vec<T>,
        sink: S,
    ) -> Result<(S::Output, RunStats), PipelineError>
    where
        S: Sink<T>,
    {
        super::end_input(&mut tokens);
        self.run_whole(tokens, sink).await
    }

    /// [`run_vec`](Self::run_vec) for `tokens` that hold their one end of
    /// input, last (a tokenizer's whole output): a release build does not
    /// read every token for it, only the last (and ends the input as
    /// `run_vec` does when that is no end of input); a debug build checks
    /// every token. Tokens with an end of input before their last are the
    /// caller's bug: a release build may then give the sink tokens after it.
    ///
    /// ```
    /// use tagloom_html::token::OwnedToken;
    /// use tagloom_transform::pipeline::{Pipeline, PipelineConfig, Registry, VecSink, block_on};
    ///
    /// let mut pipeline = Pipeline::new(Registry::new(), PipelineConfig::default());
    /// let tokens = vec![OwnedToken::text("a"), OwnedToken::Eof];
    /// let (out, _) = block_on(pipeline.run_ended(tokens, VecSink::default())).unwrap();
    /// assert_eq!(out, [OwnedToken::text("a"), OwnedToken::Eof]);
    /// // No end of input: given one, as `run_vec` does.
    /// let tokens = vec![OwnedToken::text("b")];
    /// let (out, _) = block_on(pipeline.run_ended(tokens, VecSink::default())).unwrap();
    /// assert_eq!(out, [OwnedToken::text("b"), OwnedToken::Eof]);
    /// ```
    pub async fn run_ended<S>(
        &mut self,
        mut tokens: Vec<T>,
        sink: S,
    ) -> Result<(S::Output, RunStats), PipelineError>
    where
        S: Sink<T>,
    {
        debug_assert!(
            tokens
                .iter()
                .position(T::is_eof)
                .is_none_or(|at| at + 1 == tokens.len()),
            "an end of input before the last token"
        );
        if !tokens.last().is_some_and(T::is_eof) {
            super::end_input(&mut tokens);
        }
        self.run_whole(tokens, sink).await
    }

    /// `tokens`, ended, through the phases as one chunk into `sink`, which is
    /// finished (the one body of [`run_vec`](Self::run_vec) and
    /// [`run_ended`](Self::run_ended)).
    async fn run_whole<S>(
        &mut self,
        tokens: Vec<T>,
        mut sink: S,
    ) -> Result<(S::Output, RunStats), PipelineError>
    where
        S: Sink<T>,
    {
        let stats = self
            .drive(tokens, std::iter::empty(), &mut sink, true)
            .await?;
        Ok((sink.finish()?, stats))
    }

    /// Runs `input` (an expansion's tokens) through phases 0 and 1 only: the result
    /// joins the parent's stream, whose phase 2 runs once on everything. The end of
    /// input is removed.
    pub async fn expand<I>(&mut self, input: I) -> Result<Vec<T>, PipelineError>
    where
        I: IntoIterator<Item = Result<T, PipelineError>>,
    {
        let mut sink = VecSink::default();
        self.drive(Vec::new(), input, &mut sink, false).await?;
        let mut tokens = sink.finish()?;
        if tokens.last().is_some_and(|t| t.is_eof()) {
            tokens.pop();
        }
        Ok(tokens)
    }

    /// `whole`: the whole input as one chunk, its end of input last (from
    /// [`run_vec`](Self::run_vec); `input` is then empty), or empty: the
    /// input is read in chunks.
    async fn drive<I, S>(
        &mut self,
        whole: Vec<T>,
        input: I,
        sink: &mut S,
        global: bool,
    ) -> Result<RunStats, PipelineError>
    where
        I: IntoIterator<Item = Result<T, PipelineError>>,
        S: Sink<T>,
    {
        let Pipeline {
            registry,
            config,
            ctx,
        } = self;
        let chunk_size = config.chunk_size.max(1);
        let table = Arc::new(AsyncTable::new(registry.phase_mut(Phase::Async)));
        let mut acc = Accumulator::new(config.max_pending);
        let mut stats = RunStats::default();
        let mut input = input.into_iter();
        // A short input (a ref body of a few tokens) gets buffers of its size
        // and its end of input, not of a whole chunk; they grow if it was longer.
        // (`whole` is the one chunk: the buffers that trade places with it are
        // not made at its size.)
        let room = chunk_size.min(input.size_hint().0.saturating_add(1));
        let mut chunk = whole;
        let mut released = Vec::with_capacity(room);
        let mut scratch = Vec::with_capacity(room);
        let mut out = Output {
            registry,
            config,
            ctx,
            scratch: &mut scratch,
            global,
            written: 0,
        };
        let mut ended = false;
        while !ended {
            if !chunk.is_empty() {
                // The chunk `run_vec` gives (chunks are empty here otherwise):
                // the whole input, its end of input last.
                ended = true;
            } else {
                for item in input.by_ref() {
                    let token = item?;
                    ended = token.is_eof();
                    chunk.push(token);
                    if ended || chunk.len() >= chunk_size {
                        break;
                    }
                }
                if chunk.len() < chunk_size && !ended {
                    // The input ran out without an end of input.
                    chunk.push(T::eof());
                    ended = true;
                }
            }
            stats.tokens_in += chunk.len();
            run_phase(
                out.registry.phase_mut(Phase::InOrder),
                &mut chunk,
                out.scratch,
                out.ctx,
                out.config.dispatch,
            )?;
            if table.is_empty() {
                if released.is_empty() {
                    // The usual case (released is flushed at a chunk's size):
                    // the buffers trade places, no token is copied.
                    std::mem::swap(&mut released, &mut chunk);
                } else {
                    released.append(&mut chunk);
                }
            } else {
                for token in chunk.drain(..) {
                    // A token no handler wants while nothing is held goes
                    // straight out, as `admit` would send it.
                    if acc.is_empty() && !table.wants(&token) {
                        released.push(token);
                        continue;
                    }
                    while !acc.has_room() {
                        out.flush(&mut released, sink)?;
                        poll_fn(|cx| acc.poll_progress(cx, &mut released)).await?;
                    }
                    let mut token = Some(token);
                    poll_fn(|cx| match token.take() {
                        Some(t) => Poll::Ready(acc.admit(t, &table, out.ctx, cx, &mut released)),
                        None => Poll::Ready(Ok(())),
                    })
                    .await?;
                }
                // Release what finished meanwhile without waiting, so a slow
                // input does not hold finished tokens back.
                if let Poll::Ready(result) =
                    poll_fn(|cx| Poll::Ready(acc.poll_progress(cx, &mut released))).await
                {
                    result?;
                }
            }
            if released.len() >= chunk_size || ended {
                out.flush(&mut released, sink)?;
            }
        }
        while !acc.is_empty() {
            out.flush(&mut released, sink)?;
            poll_fn(|cx| acc.poll_progress(cx, &mut released)).await?;
        }
        out.flush(&mut released, sink)?;
        stats.tokens_out = out.written;
        stats.async_phase = acc.stats;
        Ok(stats)
    }
}

/// Phase 2 and the sink.
struct Output<'a, T: PipelineToken> {
    registry: &'a mut Registry<T>,
    config: &'a PipelineConfig,
    ctx: &'a Ctx,
    scratch: &'a mut Vec<T>,
    global: bool,
    written: usize,
}

impl<T: PipelineToken> Output<'_, T> {
    fn flush<S: Sink<T>>(
        &mut self,
        released: &mut Vec<T>,
        sink: &mut S,
    ) -> Result<(), PipelineError> {
        if released.is_empty() {
            return Ok(());
        }
        if self.global {
            run_phase(
                self.registry.phase_mut(Phase::Global),
                released,
                self.scratch,
                self.ctx,
                self.config.dispatch,
            )?;
        }
        self.written += released.len();
        sink.write(released)?;
        released.clear();
        Ok(())
    }
}
