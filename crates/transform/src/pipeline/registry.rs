//! The [`Registry`]: handlers by key and rank.

use std::cmp::Ordering;
use std::fmt;
use std::sync::Arc;

use super::handler::{AsyncHandler, Handler};
use super::{PipelineError, PipelineToken};

/// A handler's rank: a number in [0, 3) whose integer part is its phase (0: in
/// order per source, 1: asynchronous, 2: globally in order). Within a key, ranks
/// are unique.
#[derive(Clone, Copy, Debug)]
pub struct Rank(f64);

impl Rank {
    /// The rank of the last handlers of phase 2, where a sanitizer goes (2.999; a
    /// handler of another key at the same rank runs before it if more specific, so
    /// a sanitizer registers for [`Match::Any`] here, or for kinds with nothing
    /// else at this rank).
    pub const LAST: Rank = Rank(2.999);

    /// The rank `value`; an error unless `0 <= value < 3`.
    pub fn new(value: f64) -> Result<Rank, PipelineError> {
        if value.is_finite() && (0.0..3.0).contains(&value) {
            Ok(Rank(value))
        } else {
            Err(PipelineError::BadRank(value))
        }
    }

    /// The number.
    pub fn value(self) -> f64 {
        self.0
    }

    /// The phase: 0, 1 or 2.
    pub fn phase(self) -> Phase {
        if self.0 < 1.0 {
            Phase::InOrder
        } else if self.0 < 2.0 {
            Phase::Async
        } else {
            Phase::Global
        }
    }
}

impl PartialEq for Rank {
    fn eq(&self, other: &Self) -> bool {
        self.cmp(other) == Ordering::Equal
    }
}
impl Eq for Rank {}
impl PartialOrd for Rank {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Rank {
    fn cmp(&self, other: &Self) -> Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// The three phases.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    /// Ranks [0, 1): synchronous, in order per input source.
    InOrder,
    /// Ranks [1, 2): asynchronous, out of order, results put back in order.
    Async,
    /// Ranks [2, 3): synchronous, globally in order (a sanitizer goes last).
    Global,
}

/// Which tokens a handler is registered for.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Match<K> {
    /// Every token.
    Any,
    /// Tokens of one kind.
    Kind(K),
    /// Tokens of one kind with this tag name (start or end tags, pseudo-tokens).
    Tag(K, Box<str>),
}

impl<K: Copy + Eq> Match<K> {
    /// Tokens of kind `kind` named `name`.
    pub fn tag(kind: K, name: &str) -> Match<K> {
        Match::Tag(kind, name.into())
    }

    pub(crate) fn matches<T: PipelineToken<Kind = K>>(&self, token: &T) -> bool {
        self.matches_kind(token.kind(), token)
    }

    /// [`matches`](Self::matches) with the token's kind already known.
    pub(crate) fn matches_kind<T: PipelineToken<Kind = K>>(&self, kind: K, token: &T) -> bool {
        match self {
            Match::Any => true,
            Match::Kind(k) => kind == *k,
            Match::Tag(k, name) => kind == *k && token.tag_name() == Some(&**name),
        }
    }

    /// Equal ranks across keys: the more specific key first (tag, then kind, then any).
    fn specificity(&self) -> u8 {
        match self {
            Match::Tag(..) => 0,
            Match::Kind(_) => 1,
            Match::Any => 2,
        }
    }
}

/// Where a handler sits in the order of its phase: its rank, then its key's
/// specificity. A token leaving a handler goes on only to handlers at later positions.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub(crate) struct Pos {
    rank: Rank,
    specificity: u8,
}

impl Pos {
    /// Before every handler.
    pub(crate) const START: Pos = Pos {
        rank: Rank(-1.0),
        specificity: 0,
    };
}

/// The handle [`Registry::add`] returns, for [`Registry::remove`].
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct HandlerId(u64);

pub(crate) enum Body<T> {
    Sync(Box<dyn Handler<T>>),
    Async(Arc<dyn AsyncHandler<T>>),
}

pub(crate) struct Entry<T: PipelineToken> {
    pub(crate) id: HandlerId,
    pub(crate) pos: Pos,
    pub(crate) key: Match<T::Kind>,
    pub(crate) body: Body<T>,
}

/// Handlers by key and rank.
///
/// For a token, the handlers that apply are those registered for [`Match::Any`], for
/// its kind, and for its kind and tag name, merged by rank. **Equal ranks across
/// keys:** the more specific key runs first (tag name, then kind, then any), so a
/// catch-all at the same rank sees what the specific handler made of the token.
/// Handlers at the same rank and specificity have disjoint keys and do not see each
/// other's results (a token goes on only to strictly later positions). Two
/// handlers with the same key and the same rank are refused
/// ([`PipelineError::DuplicateRank`]).
///
/// ```
/// use tagloom_html::token::{OwnedToken, TokenKind};
/// use tagloom_transform::pipeline::{Match, Outcome, Rank, Registry};
///
/// let mut registry = Registry::<OwnedToken>::new();
/// let id = registry
///     .add(|t, _: &_| Ok(Outcome::Keep(t)), Rank::new(0.5)?, Match::Kind(TokenKind::Comment))
///     .unwrap();
/// assert!(registry
///     .add(|_, _: &_| Ok(Outcome::Delete), Rank::new(0.5)?, Match::Kind(TokenKind::Comment))
///     .is_err());
/// registry.remove(id).unwrap();
/// # Ok::<(), tagloom_transform::pipeline::PipelineError>(())
/// ```
pub struct Registry<T: PipelineToken> {
    /// Sorted by position (stable: ties keep insertion order, which cannot
    /// happen within a key).
    entries: Vec<Entry<T>>,
    next_id: u64,
}

impl<T: PipelineToken> Default for Registry<T> {
    fn default() -> Self {
        Registry {
            entries: Vec::new(),
            next_id: 0,
        }
    }
}

impl<T: PipelineToken> fmt::Debug for Registry<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list()
            .entries(self.entries.iter().map(|e| (e.id, e.pos.rank.0, &e.key)))
            .finish()
    }
}

impl<T: PipelineToken> Registry<T> {
    /// An empty registry.
    pub fn new() -> Self {
        Self::default()
    }

    /// Registers a synchronous handler at `rank` (phase 0 or 2) for `key`.
    pub fn add(
        &mut self,
        handler: impl Handler<T> + 'static,
        rank: Rank,
        key: Match<T::Kind>,
    ) -> Result<HandlerId, PipelineError> {
        if rank.phase() == Phase::Async {
            return Err(PipelineError::WrongPhase(rank.0));
        }
        self.insert(Body::Sync(Box::new(handler)), rank, key)
    }

    /// Registers an asynchronous handler at `rank` (phase 1) for `key`.
    pub fn add_async(
        &mut self,
        handler: impl AsyncHandler<T> + 'static,
        rank: Rank,
        key: Match<T::Kind>,
    ) -> Result<HandlerId, PipelineError> {
        if rank.phase() != Phase::Async {
            return Err(PipelineError::WrongPhase(rank.0));
        }
        self.insert(Body::Async(Arc::new(handler)), rank, key)
    }

    /// Unregisters the handler `id`.
    pub fn remove(&mut self, id: HandlerId) -> Result<(), PipelineError> {
        let index = self
            .entries
            .iter()
            .position(|e| e.id == id)
            .ok_or(PipelineError::UnknownHandler)?;
        self.entries.remove(index);
        Ok(())
    }

    /// Whether no handler is registered.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    fn insert(
        &mut self,
        body: Body<T>,
        rank: Rank,
        key: Match<T::Kind>,
    ) -> Result<HandlerId, PipelineError> {
        if self
            .entries
            .iter()
            .any(|e| e.key == key && e.pos.rank == rank)
        {
            return Err(PipelineError::DuplicateRank(rank.0));
        }
        let id = HandlerId(self.next_id);
        self.next_id += 1;
        let pos = Pos {
            rank,
            specificity: key.specificity(),
        };
        let at = self.entries.partition_point(|e| e.pos <= pos);
        self.entries.insert(at, Entry { id, pos, key, body });
        Ok(id)
    }

    /// The entries of one phase, in order.
    pub(crate) fn phase_mut(&mut self, phase: Phase) -> &mut [Entry<T>] {
        let start = self.entries.partition_point(|e| e.pos.rank.phase() < phase);
        let end = self
            .entries
            .partition_point(|e| e.pos.rank.phase() <= phase);
        self.entries.get_mut(start..end).unwrap_or_default()
    }
}
