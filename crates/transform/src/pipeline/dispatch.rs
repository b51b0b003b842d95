//! The synchronous phases: a chunk of tokens through the handlers of one phase,
//! handler-at-a-time (each handler over the whole chunk) or token-at-a-time.

use super::handler::{Ctx, Outcome};
use super::registry::{Body, Entry, Match, Pos};
use super::{Dispatch, PipelineError, PipelineToken};

/// Runs `tokens` through the synchronous handlers of `entries` (one phase, in
/// order). `scratch` is a reused buffer. Both modes give the same tokens and call
/// every handler with the same tokens in the same order (a handler's input depends
/// only on earlier handlers, which see the chunk in stream order either way); the
/// property test in `tests/pipeline_chunking.rs` checks it. `tokens` holds
/// at most one end of input, last (a run's input is cut there, and the
/// handlers' outputs are checked to keep it so), and so does the result.
pub(crate) fn run_phase<T: PipelineToken>(
    entries: &mut [Entry<T>],
    tokens: &mut Vec<T>,
    scratch: &mut Vec<T>,
    ctx: &Ctx,
    mode: Dispatch,
) -> Result<(), PipelineError> {
    match mode {
        Dispatch::HandlerAtATime => handler_at_a_time(entries, tokens, scratch, ctx),
        Dispatch::TokenAtATime => token_at_a_time(entries, tokens, scratch, ctx),
    }
}

fn handler_at_a_time<T: PipelineToken>(
    entries: &mut [Entry<T>],
    tokens: &mut Vec<T>,
    scratch: &mut Vec<T>,
    ctx: &Ctx,
) -> Result<(), PipelineError> {
    // Every token in `tokens` has been through handlers before this position
    // only, so the position rule holds by construction: no per-token bookkeeping.
    // Handlers at one position (same rank and specificity, so disjoint keys) make
    // one pass: what one of them returns is not seen by the others, as
    // token-at-a-time gives.
    let mut rest = entries;
    while let Some(first) = rest.first() {
        let pos = first.pos;
        let len = rest.iter().take_while(|e| e.pos == pos).count();
        let (group, tail) = rest.split_at_mut(len);
        rest = tail;
        let wanted = |t: &T| {
            group
                .iter()
                .any(|e| matches!(e.body, Body::Sync(_)) && e.key.matches(t))
        };
        if !tokens.iter().any(wanted) {
            continue;
        }
        scratch.clear();
        if let [
            Entry {
                key: Match::Any,
                body: Body::Sync(handler),
                ..
            },
        ] = group
            && handler.takes_chunks()
        {
            // One handler takes every token: the chunk in one call. A
            // phase's chunk holds at most one end of input, last (the run
            // cuts its input there, and every handler's output was checked
            // to keep it so): its last token says whether it has one, no
            // scan of the chunk.
            debug_assert!(ends_right(tokens), "one end of input at most, last");
            let had_eof = tokens.last().is_some_and(|t| t.is_eof());
            handler
                .handle_chunk(tokens, ctx, scratch)
                .map_err(PipelineError::Handler)?;
            if cfg!(debug_assertions) || !handler.keeps_end_of_input() {
                check_eof_appended(had_eof, scratch)?;
            } else {
                check_last(had_eof, scratch)?;
            }
            std::mem::swap(tokens, scratch);
            continue;
        }
        for token in tokens.drain(..) {
            let entry = group
                .iter_mut()
                .find(|e| matches!(e.body, Body::Sync(_)) && e.key.matches(&token));
            let Some(Entry {
                body: Body::Sync(handler),
                ..
            }) = entry
            else {
                scratch.push(token);
                continue;
            };
            let was_eof = token.is_eof();
            let from = scratch.len();
            handler
                .handle_into(token, ctx, scratch)
                .map_err(PipelineError::Handler)?;
            check_eof_appended(was_eof, scratch.get(from..).unwrap_or(&[]))?;
        }
        std::mem::swap(tokens, scratch);
    }
    Ok(())
}

/// Whether `tokens` holds no end of input but maybe as its last token: what
/// every chunk given to [`run_phase`] holds.
fn ends_right<T: PipelineToken>(tokens: &[T]) -> bool {
    match tokens.split_last() {
        Some((_, before)) => !before.iter().any(|t| t.is_eof()),
        None => true,
    }
}

/// [`check_eof`] for what [`Handler::handle_into`](super::Handler::handle_into)
/// appended (`appended` holds exactly what an `Outcome` would).
fn check_eof_appended<T: PipelineToken>(
    was_eof: bool,
    appended: &[T],
) -> Result<(), PipelineError> {
    if was_eof {
        super::check_ended(appended)
    } else if appended.iter().any(|t| t.is_eof()) {
        Err(PipelineError::EofMade)
    } else {
        Ok(())
    }
}

/// [`check_eof_appended`] for a handler that keeps the end of input by
/// construction ([`Handler::keeps_end_of_input`](super::Handler::keeps_end_of_input)):
/// only the last token is read.
fn check_last<T: PipelineToken>(had_eof: bool, appended: &[T]) -> Result<(), PipelineError> {
    match (had_eof, appended.last().is_some_and(|t| t.is_eof())) {
        (true, false) => Err(PipelineError::EofLost),
        (false, true) => Err(PipelineError::EofMade),
        _ => Ok(()),
    }
}

fn token_at_a_time<T: PipelineToken>(
    entries: &mut [Entry<T>],
    tokens: &mut Vec<T>,
    scratch: &mut Vec<T>,
    ctx: &Ctx,
) -> Result<(), PipelineError> {
    scratch.clear();
    let mut stack: Vec<(T, Pos)> = Vec::new();
    for token in tokens.drain(..) {
        stack.push((token, Pos::START));
        while let Some((token, after)) = stack.pop() {
            let next = entries.iter_mut().find(|e| {
                e.pos > after && matches!(e.body, Body::Sync(_)) && e.key.matches(&token)
            });
            let Some(Entry {
                pos,
                body: Body::Sync(handler),
                ..
            }) = next
            else {
                scratch.push(token);
                continue;
            };
            let was_eof = token.is_eof();
            let outcome = handler.handle(token, ctx).map_err(PipelineError::Handler)?;
            check_eof(was_eof, &outcome)?;
            match outcome {
                Outcome::Keep(t) => stack.push((t, *pos)),
                Outcome::Delete => {}
                Outcome::Expand(ts) => stack.extend(ts.into_iter().rev().map(|t| (t, *pos))),
            }
        }
    }
    std::mem::swap(tokens, scratch);
    Ok(())
}

/// End of input cannot be dropped, moved or made up (see [`Outcome`]).
pub(crate) fn check_eof<T: PipelineToken>(
    was_eof: bool,
    outcome: &Outcome<T>,
) -> Result<(), PipelineError> {
    match (was_eof, outcome) {
        (true, Outcome::Keep(t)) if t.is_eof() => Ok(()),
        (true, Outcome::Expand(ts)) => super::check_ended(ts),
        (true, _) => Err(PipelineError::EofLost),
        (false, Outcome::Keep(t)) if t.is_eof() => Err(PipelineError::EofMade),
        (false, Outcome::Expand(ts)) if ts.iter().any(|t| t.is_eof()) => {
            Err(PipelineError::EofMade)
        }
        (false, _) => Ok(()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use tagloom_html::token::OwnedToken;

    /// The last-token check of a handler that keeps the end of input: a
    /// lost or made-up end of input at the end is still an error.
    #[test]
    fn check_last_reads_the_last_token() {
        let text = || OwnedToken::text("a");
        assert!(check_last(true, &[text(), OwnedToken::Eof]).is_ok());
        assert!(check_last::<OwnedToken>(false, &[text()]).is_ok());
        assert!(check_last::<OwnedToken>(false, &[]).is_ok());
        assert!(matches!(
            check_last(true, &[text()]),
            Err(PipelineError::EofLost)
        ));
        assert!(matches!(
            check_last::<OwnedToken>(true, &[]),
            Err(PipelineError::EofLost)
        ));
        assert!(matches!(
            check_last(false, &[text(), OwnedToken::Eof]),
            Err(PipelineError::EofMade)
        ));
    }
}
