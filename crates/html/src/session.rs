//! `Html5ParseSession`: the one wiring point of bytes → decoder → tokenizer →
//! tree builder → [`DomPatch`] batches (ADR 001).
//!
//! The session owns the [`ByteStreamDecoder`], the [`Tokenizer`] and the
//! [`TreeBuilder`], applies the tree builder's tokenizer state switches between
//! tokens (RCDATA after `<title>`, script data after `<script>`…, CDATA sections
//! in foreign content), and implements "change the encoding" for a late
//! `<meta charset>` seen while the confidence is tentative: the parse restarts
//! from the replayed bytes, and the next batch starts with [`DomPatch::Clear`]
//! followed by a fresh create stream whose keys are all higher than before.
//!
//! Every batch is a [`PatchBatch`]: it names the session's document
//! ([`doc`](Html5ParseSession::doc), a fresh [`DocHandle`] per session) and the
//! version it goes from and to (0 → 1, 1 → 2, … in the order batches are taken);
//! a consumer refuses any other order (see [`crate::batch`]).
//!
//! The loop below (push, pump through suspensions, take batches, finish) is what
//! [`Driver`](crate::driver::Driver) does for you; write it by hand only when a
//! suspension needs your own handling (running a script at `</script>`).
//!
//! ```
//! use tagloom_html::dom::{self, DomStore};
//! use tagloom_html::session::{Html5ParseSession, SessionConfig};
//!
//! let mut session = Html5ParseSession::new(SessionConfig::default());
//! let mut store = DomStore::new();
//! for chunk in [&b"<title>a<b"[..], b"</title><p>x</p>"] {
//!     session.push_bytes(chunk).unwrap();
//!     session.pump().unwrap();
//!     for batch in session.take_batches() {
//!         store.apply(&batch).unwrap();
//!     }
//! }
//! session.finish().unwrap();
//! for batch in session.take_batches() {
//!     store.apply(&batch).unwrap();
//! }
//! assert_eq!(
//!     dom::dump_document(&store),
//!     "| <html>\n|   <head>\n|     <title>\n|       \"a<b\"\n|   <body>\n|     <p>\n|       \"x\"\n"
//! );
//! ```
//!
//! # Failure policy
//!
//! Parse errors never stop a parse. An *engine* failure does — a tree-builder
//! invariant violation ([`SessionError::TreeBuilder`]) or a panic inside the tree
//! builder, which is caught ([`SessionError::EnginePanic`]). ADR 001 asks for one
//! explicit policy; tagloom's is option (b), `Clear` + a full create stream on the
//! same document handle:
//!
//! 1. the session is marked failed: batches not yet taken are dropped, and every
//!    later call returns [`SessionError::Failed`], so no patch of a possibly
//!    inconsistent tree ever leaves it;
//! 2. the consumer's [`DomStore`](crate::dom::DomStore) holds the last tree that
//!    passed its invariant checks; the runtime resets every other consumer of the
//!    handle to it with one batch from
//!    [`DomStore::full_create_stream`](crate::dom::DomStore::full_create_stream):
//!    `Clear`, then the whole tree with fresh keys above all keys used so far, as
//!    the next version step of the same handle.
//!
//! "Change the encoding" follows the same scheme: the restarted parse stays on
//! the handle, and its first batch (the next version) starts with `Clear`.

use std::collections::VecDeque;

pub mod script_host;
pub use script_host::{ScriptHostError, ScriptHostLimits, WriteStatus};

use crate::batch::{DocHandle, PatchBatch};
use crate::decoder::{ByteStreamDecoder, ChangeOutcome, Confidence, DecoderConfig, DecoderError};
use crate::dom_patch::{DetachedText, DomPatch, PatchKey};
use crate::error::ParseError;
use crate::tokenizer::{Tokenizer, TokenizerConfig, TokenizerError};
use crate::tree_builder::{
    FragmentContext, SuspendReason, TreeBuilder, TreeBuilderConfig, TreeBuilderStep,
};

/// A low estimate of the input bytes per node of real pages (the bench corpus has
/// 26 bytes per node on its densest page), for reserving node vectors up front.
pub const BYTES_PER_NODE: usize = 24;

/// How patches are grouped into batches.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum BatchPolicy {
    /// One batch per [`pump`](Html5ParseSession::pump) (and per `finish`).
    #[default]
    PerPump,
    /// Batches of at most this many patches (a `Clear` counts as one), split
    /// when the pump ends: a pump over a whole document still holds all of its
    /// patches at once.
    MaxPatches(usize),
    /// Batches of at most this many patches, handed out *while* parsing: as soon
    /// as this many are pending, [`pump`](Html5ParseSession::pump) (and
    /// [`finish`](Html5ParseSession::finish)) return
    /// [`PumpStatus::Suspended`]`(`[`SuspendReason::BatchReady`]`)`; take the
    /// batches, apply them, and pump again. The patches held at once are bounded
    /// by the batch size (plus those of one token), not by the document, which is
    /// what a whole-document push into a store wants; 4096 is a good size.
    ///
    /// ```
    /// use tagloom_html::dom::DomStore;
    /// use tagloom_html::session::{BatchPolicy, Html5ParseSession, PumpStatus, SessionConfig};
    ///
    /// let config = SessionConfig { batching: BatchPolicy::Bounded(8), ..SessionConfig::default() };
    /// let mut session = Html5ParseSession::new(config);
    /// session.push_bytes("<ul>".repeat(50).as_bytes()).unwrap();
    /// let mut store = DomStore::new();
    /// let mut status = session.finish().unwrap();
    /// loop {
    ///     for batch in session.take_batches() {
    ///         assert!(batch.len() <= 8);
    ///         store.apply_owned(batch).unwrap();
    ///     }
    ///     match status {
    ///         PumpStatus::Finished => break,
    ///         PumpStatus::Suspended(_) => status = session.pump().unwrap(),
    ///         PumpStatus::NeedInput => unreachable!("finish was called"),
    ///     }
    /// }
    /// assert_eq!(store.len(), 1 + 3 + 50); // document, html, head, body, the lists
    /// ```
    Bounded(usize),
}

impl BatchPolicy {
    /// How many pending patches end a pump with
    /// [`SuspendReason::BatchReady`] (`usize::MAX`: never).
    fn suspend_at(self) -> usize {
        match self {
            BatchPolicy::Bounded(n) => n.max(1),
            BatchPolicy::PerPump | BatchPolicy::MaxPatches(_) => usize::MAX,
        }
    }
}

/// The settings of a session.
#[derive(Clone, Debug, Default)]
pub struct SessionConfig {
    /// Tree builder settings (scripting flag, fragment context, limits).
    pub tree: TreeBuilderConfig,
    /// Decoder settings (transport encoding, restart window).
    pub decoder: DecoderConfig,
    /// Tokenizer settings (its initial state is set by the session).
    pub tokenizer: TokenizerConfig,
    /// Batching.
    pub batching: BatchPolicy,
    /// Limits of the script host (`document.write`, see [`WriteStatus`]).
    pub script: ScriptHostLimits,
}

/// What a [`pump`](Html5ParseSession::pump) ended with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PumpStatus {
    /// Every token available has been processed; push more bytes or finish.
    NeedInput,
    /// The tree builder suspended (e.g. after `</script>`), or a batch is ready
    /// under [`BatchPolicy::Bounded`]; pump again to resume right after that token.
    Suspended(SuspendReason),
    /// End of file has been processed.
    Finished,
}

/// A failure that stops the parse (never caused by malformed markup alone).
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum SessionError {
    /// The tokenizer hit a limit.
    #[error(transparent)]
    Tokenizer(#[from] TokenizerError),
    /// An engine invariant of the tree builder was violated.
    #[error(transparent)]
    TreeBuilder(#[from] crate::tree_builder::TreeBuilderError),
    /// The decoder was misused.
    #[error(transparent)]
    Decoder(#[from] DecoderError),
    /// The tree builder panicked: an engine bug, caught so the stream fails in a
    /// controlled way instead of taking the process down.
    #[error("internal error in the tree builder: {0}")]
    EnginePanic(String),
    /// An earlier engine failure stopped this stream (see "Failure policy").
    #[error("the parse stream failed earlier and emits nothing more")]
    Failed,
    /// `pump` or `finish` while a script run by the parser is writing or nested
    /// scripts run: finish them first ([`Html5ParseSession::end_script`]).
    #[error("pump while scripts run at nesting level {level}")]
    ScriptRunning {
        /// The script nesting level.
        level: usize,
    },
}

/// A streaming HTML parse from bytes to patch batches. See the [module docs](self).
pub struct Html5ParseSession {
    config: SessionConfig,
    decoder: ByteStreamDecoder,
    tokenizer: Tokenizer,
    tree: TreeBuilder,
    /// Ready batches, each with its texts when they were kept apart
    /// ([`Self::detach_text`]).
    batches: VecDeque<(Vec<DomPatch>, Option<DetachedText>)>,
    /// Whether the texts of text patches are kept apart (the driver's store path).
    detached: bool,
    /// An emptied text buffer handed back ([`Self::recycle_text`]).
    spare_text: Option<DetachedText>,
    /// An emptied batch buffer handed back by the consumer ([`Self::recycle`]).
    spare: Option<Vec<DomPatch>>,
    /// The next batch must start with `Clear` (after a restart).
    clear_pending: bool,
    /// Decoded text not yet handed to the tokenizer (a scratch buffer, released
    /// after large pushes).
    text: String,
    /// Raw bytes of a push not yet given to the decoder: once a push crosses the
    /// decoder's restart window while the encoding is tentative, the rest waits
    /// until the tree builder has caught up (see [`Self::feed_held`]).
    held: Vec<u8>,
    /// `finish` was called: end the decoder's stream once `held` is empty.
    finish_requested: bool,
    finished_input: bool,
    restarts: usize,
    /// Set by the first engine failure; every later call reports `Failed`.
    failed: bool,
    /// The document handle of every batch.
    doc: DocHandle,
    /// The `to` of the last batch handed out.
    version: u64,
    /// The tree builder's errors with their line and column, at most
    /// `config.tree.max_errors` (the tree builder counts the rest).
    tree_errors: Vec<ParseError>,
    /// Scripts being run at `</script>` and their insertion points.
    script: script_host::ScriptHost,
    /// `config.batching`'s [`BatchPolicy::suspend_at`], read after every token.
    suspend_at: usize,
    /// Test-only fault injection: panic in the tree builder at this token.
    #[cfg(test)]
    panic_at_token: Option<usize>,
}

impl std::fmt::Debug for Html5ParseSession {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Html5ParseSession")
            .field("decoder", &self.decoder)
            .field("batches", &self.batches.len())
            .field("restarts", &self.restarts)
            .finish_non_exhaustive()
    }
}

impl Html5ParseSession {
    /// A session for a whole document.
    pub fn new(config: SessionConfig) -> Html5ParseSession {
        let decoder = ByteStreamDecoder::new(config.decoder);
        let tree = TreeBuilder::new(config.tree.clone());
        let tokenizer = Self::make_tokenizer(&config);
        let suspend_at = config.batching.suspend_at();
        let mut session = Html5ParseSession {
            config,
            decoder,
            tokenizer,
            tree,
            batches: VecDeque::new(),
            spare: None,
            detached: false,
            spare_text: None,
            clear_pending: false,
            text: String::new(),
            held: Vec::new(),
            finish_requested: false,
            finished_input: false,
            restarts: 0,
            failed: false,
            doc: DocHandle::fresh(),
            version: 0,
            tree_errors: Vec::new(),
            script: script_host::ScriptHost::default(),
            suspend_at,
            #[cfg(test)]
            panic_at_token: None,
        };
        session.apply_switches();
        session.reserve_batch();
        session
    }

    /// Under [`BatchPolicy::Bounded`], gives the tree builder's buffer a whole
    /// batch's room from the start.
    fn reserve_batch(&mut self) {
        if let BatchPolicy::Bounded(n) = self.config.batching {
            self.tree.reserve_patches(n.clamp(1, 1 << 16));
        }
    }

    /// A session for the HTML fragment parsing algorithm (A.9) in `context`.
    /// The encoding is irrelevant for fragments: the bytes are read as UTF-8.
    /// The fragment's nodes are the children of the `html` root whose key is
    /// [`fragment_root_key`](Self::fragment_root_key).
    ///
    /// ```
    /// use tagloom_html::dom::{self, DomStore};
    /// use tagloom_html::dom_patch::Namespace;
    /// use tagloom_html::session::{Html5ParseSession, SessionConfig};
    /// use tagloom_html::tree_builder::FragmentContext;
    ///
    /// let context = FragmentContext::new(Namespace::Html, "tr");
    /// let mut session = Html5ParseSession::new_fragment(SessionConfig::default(), context);
    /// session.push_bytes(b"<td>a<td>b").unwrap();
    /// session.finish().unwrap();
    /// let mut store = DomStore::new();
    /// for batch in session.take_batches() {
    ///     store.apply(&batch).unwrap();
    /// }
    /// let root = store.get(session.fragment_root_key().unwrap()).unwrap();
    /// assert_eq!(
    ///     dom::dump_children(root),
    ///     "| <td>\n|   \"a\"\n| <td>\n|   \"b\"\n"
    /// );
    /// ```
    pub fn new_fragment(mut config: SessionConfig, context: FragmentContext) -> Html5ParseSession {
        config.tree.fragment_context = Some(context);
        config.decoder = DecoderConfig::with_transport(encoding_rs::UTF_8);
        Html5ParseSession::new(config)
    }

    fn make_tokenizer(config: &SessionConfig) -> Tokenizer {
        let mut tok_config = config.tokenizer.clone();
        tok_config.initial_state = crate::tokenizer::State::Data;
        // A.9 sets no "last start tag" from the context element: in a `script`
        // or `title` context, `</script>`/`</title>` is not an appropriate end
        // tag and stays text (html5lib-tests agree).
        Tokenizer::new(tok_config)
    }

    /// Applies the tree builder's requests to the tokenizer.
    fn apply_switches(&mut self) {
        if let Some(state) = self.tree.take_tokenizer_state() {
            self.tokenizer.set_state(state.into());
        }
        self.sync_cdata();
    }

    /// Tells the tokenizer whether CDATA sections may open (after every token).
    #[inline]
    fn sync_cdata(&mut self) {
        self.tokenizer.set_cdata_allowed(self.tree.cdata_allowed());
    }

    /// Feeds bytes (any chunking gives the same result).
    pub fn push_bytes(&mut self, bytes: &[u8]) -> Result<(), SessionError> {
        if self.failed {
            return Err(SessionError::Failed);
        }
        self.tree.reserve_nodes(bytes.len() / BYTES_PER_NODE);
        if !self.held.is_empty() {
            self.held.extend_from_slice(bytes);
            return Ok(());
        }
        // One exact allocation for the text of a large push (ASCII-compatible
        // encodings decode to about as many bytes), not a doubling per slice.
        self.tokenizer.reserve(bytes.len());
        self.decode_slices(bytes)
    }

    /// Decodes `bytes` a slice at a time (the decoder reserves up to 3 bytes of
    /// output per input byte, so the decoded-text buffer stays small). Once the
    /// decoder's restart window is crossed while the encoding is tentative, the
    /// rest is held: the decoder gives the window up at its next push, and a
    /// `<meta>` in the window must reach the tree builder before that, however
    /// large the push was. (One case is left: a `<meta>` tag that straddles the
    /// window's end, where the tokenizer needs the next slice to finish it.)
    fn decode_slices(&mut self, bytes: &[u8]) -> Result<(), SessionError> {
        let mut rest = bytes;
        while !rest.is_empty() {
            if self.window_waits_for_tree_builder() {
                self.held.extend_from_slice(rest);
                return Ok(());
            }
            let (slice, after) = rest.split_at(rest.len().min(Self::DECODE_SLICE));
            self.decoder.push(slice, &mut self.text)?;
            self.hand_text();
            rest = after;
        }
        Ok(())
    }

    /// Whether the decoder's restart window was crossed while the encoding is
    /// tentative and the tokenizer has not yet read past its end.
    fn window_waits_for_tree_builder(&self) -> bool {
        self.decoder.confidence() == Some(Confidence::Tentative)
            && self
                .decoder
                .restart_window_text_end()
                .is_some_and(|end| self.source_position() < end)
    }

    /// Called when the tokenizer needs input: decodes held bytes (once the tree
    /// builder is past the restart window, or when the tokenizer is stuck in a
    /// token that spans its end), then ends the stream if `finish` asked for it.
    /// Returns whether there is new input.
    fn feed_held(&mut self) -> Result<bool, SessionError> {
        if !self.held.is_empty() {
            let held = std::mem::take(&mut self.held);
            // The tokenizer is starved: whatever it holds back spans the window's
            // end, so one slice past it must go in even if the window still waits.
            let (first, rest) = held.split_at(held.len().min(Self::DECODE_SLICE));
            self.decoder.push(first, &mut self.text)?;
            self.hand_text();
            self.decode_slices(rest)?;
            return Ok(true);
        }
        if self.finish_requested && !self.finished_input {
            self.finished_input = true;
            self.decoder.finish(&mut self.text)?;
            self.hand_text();
            self.tokenizer.finish();
            return Ok(true);
        }
        Ok(false)
    }

    /// The most input bytes decoded at once.
    const DECODE_SLICE: usize = 8 * 1024;

    /// Marks the end of the input and processes everything left, through end of
    /// file (unless the tree builder suspends: then pump again).
    pub fn finish(&mut self) -> Result<PumpStatus, SessionError> {
        if self.failed {
            return Err(SessionError::Failed);
        }
        // Held bytes go in first; `pump` ends the decoder's stream when the
        // tokenizer runs dry with nothing held.
        self.finish_requested = true;
        self.pump()
    }

    fn hand_text(&mut self) {
        if !self.text.is_empty() {
            self.tokenizer.push_str(&self.text);
            self.text.clear();
        }
        // Pushes are decoded in slices, but `finish` and `replay` may still decode
        // a lot at once: keep only a small buffer.
        if self.text.capacity() > Self::KEPT_TEXT_CAPACITY {
            self.text = String::new();
        }
    }

    /// The most decoded-text capacity kept between pushes.
    const KEPT_TEXT_CAPACITY: usize = 32 * 1024;

    /// The tokenizer's position in the decoder's text: written text not counted.
    fn source_position(&self) -> usize {
        self.tokenizer
            .position()
            .saturating_sub(self.script.written)
    }

    /// Runs the tokenizer and tree builder over all buffered input (ending a
    /// script the parser suspended for, if the embedder did not).
    pub fn pump(&mut self) -> Result<PumpStatus, SessionError> {
        if self.failed {
            return Err(SessionError::Failed);
        }
        self.end_outer_script()?;
        self.pump_checked()
    }

    /// [`Self::pump`] without ending scripts: engine failures fail the stream.
    fn pump_checked(&mut self) -> Result<PumpStatus, SessionError> {
        if self.failed {
            return Err(SessionError::Failed);
        }
        match self.pump_tokens() {
            Ok(status) => Ok(status),
            Err(err @ (SessionError::TreeBuilder(_) | SessionError::EnginePanic(_))) => {
                self.fail();
                Err(err)
            }
            Err(err) => Err(err),
        }
    }

    /// Failure policy, step one: the stream stops. Patches not yet taken are
    /// dropped (they may be part of the inconsistency); the consumer keeps the last
    /// batch that passed its checks and can reset other consumers with
    /// [`DomStore::full_create_stream`](crate::dom::DomStore::full_create_stream).
    fn fail(&mut self) {
        self.failed = true;
        self.batches.clear();
        let _ = self.tree.take_patches();
        let _ = self.tree.take_detached(DetachedText::default());
    }

    /// Whether an engine failure stopped this stream.
    pub fn is_failed(&self) -> bool {
        self.failed
    }

    fn pump_tokens(&mut self) -> Result<PumpStatus, SessionError> {
        let status = loop {
            // Where end of file is, for its errors (known once the input is complete).
            let input_end = self.finished_input.then(|| self.tokenizer.input_end());
            let step = match self.tokenizer.next_token()? {
                Some(token) => {
                    if let (crate::token::Token::Eof, Some(end)) = (&token, input_end) {
                        self.tree.note_input_end(end);
                    }
                    #[cfg(test)]
                    let inject = self.panic_at_token.as_mut().is_some_and(|n| {
                        *n = n.saturating_sub(1);
                        *n == 0
                    });
                    let tree = &mut self.tree;
                    // A panic here is an engine bug: contain it and fail the stream.
                    std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                        #[cfg(test)]
                        if inject {
                            panic!("injected fault");
                        }
                        tree.process_token(token)
                    }))
                    .map_err(|panic| SessionError::EnginePanic(panic_message(&panic)))??
                }
                None => {
                    if self.feed_held()? {
                        continue;
                    }
                    break if self.tree.is_finished() {
                        PumpStatus::Finished
                    } else {
                        PumpStatus::NeedInput
                    };
                }
            };
            if !self.tree.errors().is_empty() {
                self.locate_tree_errors();
            }
            // A tokenizer switch or an encoding declaration is rare: one test
            // for both on the per-token path.
            if !self.tree.has_requests() {
                self.sync_cdata();
            } else {
                self.apply_switches();
                if let Some(request) = self.tree.take_encoding_request()
                    && self.decoder.confidence() == Some(Confidence::Tentative)
                {
                    let offset = request.offset.saturating_sub(self.script.written);
                    let outcome = self.decoder.change_encoding_at(request.encoding, offset)?;
                    if outcome == ChangeOutcome::Restart {
                        self.restart();
                        if self.script.restarted_in_script {
                            // A write's meta: the write is over (see `WriteStatus::Restarted`).
                            break PumpStatus::NeedInput;
                        }
                        continue;
                    }
                }
            }
            if let TreeBuilderStep::Suspend(reason) = step {
                if reason == SuspendReason::Script {
                    self.script_suspended();
                }
                break PumpStatus::Suspended(reason);
            }
            if self.tree.pending_patches() >= self.suspend_at {
                break PumpStatus::Suspended(SuspendReason::BatchReady);
            }
        };
        // Between tokens, once a pump (not per token: the check would cost
        // every token an instruction or three on the store path).
        self.tree.maybe_compact();
        self.flush_batches();
        Ok(status)
    }

    /// "Change the encoding" with a restart: drop everything parsed so far and
    /// parse the replayed text with fresh state and higher keys.
    fn restart(&mut self) {
        self.restarts += 1;
        self.script.restart();
        let mut config = self.config.tree.clone();
        config.first_key = self.tree.next_key();
        let (emit, clear_pending) = self.tree.take_emitter_for_restart();
        self.tree = TreeBuilder::with_emitter(config, emit);
        self.tokenizer = Self::make_tokenizer(&self.config);
        self.tree_errors.clear();
        self.apply_switches();
        self.reserve_batch();
        if self.detached {
            self.tree.detach_text();
        }
        self.clear_pending = clear_pending;
        self.text.clear();
        self.decoder.replay(&mut self.text);
        self.hand_text();
        if self.finished_input {
            self.tokenizer.finish();
        }
    }

    fn flush_batches(&mut self) {
        let mut patches = match self.config.batching {
            // Keep the builder's buffer at the batch size instead of regrowing it
            // (in a buffer the consumer handed back, if it did).
            BatchPolicy::Bounded(n) => match self.spare.take() {
                Some(spare) => self.tree.take_patches_into(spare),
                None => self.tree.take_patches_reserving(n.clamp(1, 1 << 16)),
            },
            _ => self.tree.take_patches(),
        };
        let mut texts = self
            .tree
            .take_detached(self.spare_text.take().unwrap_or_default());
        if self.clear_pending {
            self.clear_pending = false;
            patches.insert(0, DomPatch::Clear);
        }
        if patches.is_empty() {
            self.spare_text = texts;
            return;
        }
        match self.config.batching {
            BatchPolicy::PerPump => self.batches.push_back((patches, texts)),
            // A batch with its texts apart is never split (it exceeds the bound
            // by at most one token's patches, like the builder's buffer).
            BatchPolicy::Bounded(n) if patches.len() <= n || texts.is_some() => {
                self.batches.push_back((patches, texts));
            }
            BatchPolicy::MaxPatches(n) | BatchPolicy::Bounded(n) => {
                // Split: each piece owns its texts again.
                if let Some(texts) = texts.take() {
                    texts.fill(&mut patches);
                }
                let n = n.max(1);
                let mut rest = patches.into_iter().peekable();
                while rest.peek().is_some() {
                    self.batches
                        .push_back((rest.by_ref().take(n).collect(), None));
                }
            }
        }
    }

    /// The next ready batch, if any: the next version of the session's document.
    pub fn next_batch(&mut self) -> Option<PatchBatch> {
        let (mut patches, texts) = self.batches.pop_front()?;
        if let Some(texts) = texts {
            texts.fill(&mut patches);
        }
        Some(self.stamp(patches))
    }

    /// The next version step of the document, with these patches.
    fn stamp(&mut self, patches: Vec<DomPatch>) -> PatchBatch {
        let batch = PatchBatch::new(self.doc, self.version, patches);
        self.version = batch.to;
        batch
    }

    /// The next ready batch as it is: with its texts apart when they were kept
    /// apart (the driver's store path).
    pub(crate) fn take_batch(&mut self) -> Option<(PatchBatch, Option<DetachedText>)> {
        let (patches, texts) = self.batches.pop_front()?;
        Some((self.stamp(patches), texts))
    }

    /// From now on (as soon as no pending patch owns a text), keep the texts of
    /// text patches beside the batches instead of in a `String` each.
    pub(crate) fn detach_text(&mut self) {
        self.detached = true;
        self.tree.detach_text();
    }

    /// Makes the batches of everything the tree builder has emitted so far ready
    /// (before [`attach_store`](Self::attach_store)).
    pub(crate) fn flush_pending(&mut self) {
        self.flush_batches();
    }

    /// From now on the tree builder writes into `store` directly (see
    /// [`Driver::push_into`](crate::driver::Driver::push_into)); no batches are
    /// made until [`detach_store`](Self::detach_store). Every ready batch must
    /// have been taken and applied to `store` first.
    pub(crate) fn attach_store(&mut self, mut store: crate::dom::DomStore) {
        debug_assert!(self.batches.is_empty());
        // The store follows this session's document from here on, as if it had
        // applied its batches (a later `push` + `apply` continues the versions,
        // and `full_create_stream` resets other consumers of the handle).
        store.doc = Some(self.doc);
        store.version = self.version;
        self.tree.attach_store(store);
    }

    /// Gives the store back (with the first error it met), if one is attached.
    pub(crate) fn detach_store(
        &mut self,
    ) -> Option<(crate::dom::DomStore, Option<crate::dom::PatchError>)> {
        self.tree.detach_store()
    }

    /// Hands back an emptied text buffer (see [`Self::recycle`]).
    pub(crate) fn recycle_text(&mut self, mut texts: DetachedText) {
        texts.clear();
        self.spare_text = Some(texts);
    }

    /// Hands back a batch buffer the consumer has emptied, for the builder to
    /// fill next (under [`BatchPolicy::Bounded`]: no allocation per batch). The
    /// buffer is cleared first; one with room for less than a batch is dropped.
    pub fn recycle(&mut self, mut buffer: Vec<DomPatch>) {
        buffer.clear();
        if let BatchPolicy::Bounded(n) = self.config.batching
            && buffer.capacity() >= n.clamp(1, 1 << 16)
        {
            self.spare = Some(buffer);
        }
    }

    /// Every ready batch, in order.
    pub fn take_batches(&mut self) -> Vec<PatchBatch> {
        std::iter::from_fn(|| self.next_batch()).collect()
    }

    /// The handle of the document this session builds (in every batch).
    pub fn doc(&self) -> DocHandle {
        self.doc
    }

    /// The version of the last batch handed out (0 before the first).
    pub fn version(&self) -> u64 {
        self.version
    }

    /// The tree builder (error count, quirks mode, keys).
    pub fn tree_builder(&self) -> &TreeBuilder {
        &self.tree
    }

    /// The tokenizer (its parse errors).
    pub fn tokenizer(&self) -> &Tokenizer {
        &self.tokenizer
    }

    /// The document's key.
    pub fn document_key(&self) -> PatchKey {
        self.tree.document_key()
    }

    /// In the fragment case, the key of the `html` root holding the fragment.
    pub fn fragment_root_key(&self) -> Option<PatchKey> {
        self.tree.fragment_root_key()
    }

    /// How many times "change the encoding" restarted the parse.
    pub fn restarts(&self) -> usize {
        self.restarts
    }

    /// Gives the tree builder's new errors a line and column while the text of the
    /// token that caused them is still in the tokenizer's buffer.
    fn locate_tree_errors(&mut self) {
        let max = self.config.tree.max_errors;
        for error in self.tree.drain_errors() {
            let Some(offset) = error.offset else { continue };
            let Some((offset, line, col)) = self.tokenizer.locate(offset) else {
                continue;
            };
            if self.tree_errors.len() < max {
                self.tree_errors.push(ParseError {
                    code: error.code,
                    offset,
                    line,
                    col,
                });
            }
        }
    }

    /// Takes the parse errors found so far, the tokenizer's and the tree builder's
    /// merged in source order (at one offset, the tokenizer's first), each with its
    /// line and column. While "change the encoding" may still restart the parse,
    /// errors are held back (a restart finds them again): this returns nothing
    /// until [`encoding_is_final`](Self::encoding_is_final) or the end of the parse.
    /// Each kind holds at most its `max_errors` between calls; the rest are counted
    /// by [`Tokenizer::errors_dropped`] and [`TreeBuilder::error_count`].
    ///
    /// ```
    /// use tagloom_html::driver::{ParseConfig, drive};
    ///
    /// let mut session = drive(b"<p>a</b>\n<x y y>", &ParseConfig::default(), |_| {
    ///     Ok::<(), std::convert::Infallible>(())
    /// })
    /// .unwrap();
    /// let errors: Vec<String> = session
    ///     .take_errors()
    ///     .iter()
    ///     .map(|e| format!("{}:{}: {}", e.line, e.col, e.code.as_str()))
    ///     .collect();
    /// assert_eq!(
    ///     errors,
    ///     [
    ///         "1:1: missing-doctype",
    ///         "1:5: end-tag-without-open-element",
    ///         "2:7: duplicate-attribute",
    ///         "2:8: eof-with-open-elements",
    ///     ]
    /// );
    /// ```
    pub fn take_errors(&mut self) -> Vec<ParseError> {
        if !(self.failed || self.tree.is_finished() || self.encoding_is_final()) {
            return Vec::new();
        }
        let tokenizer = self.tokenizer.take_errors();
        let tree = std::mem::take(&mut self.tree_errors);
        if tree.is_empty() {
            return tokenizer;
        }
        let mut merged = Vec::with_capacity(tokenizer.len() + tree.len());
        let mut tree = tree.into_iter().peekable();
        for error in tokenizer {
            while let Some(t) = tree.next_if(|t| t.offset < error.offset) {
                merged.push(t);
            }
            merged.push(error);
        }
        merged.extend(tree);
        merged
    }

    /// Whether the encoding can no longer change: it is certain (a BOM, the
    /// transport, a `<meta>` the tree builder confirmed, or irrelevant), or the
    /// tokenizer has read past the decoder's restart window while it is tentative
    /// (a later `<meta>` is ignored).
    pub fn encoding_is_final(&self) -> bool {
        match self.decoder.confidence() {
            Some(Confidence::Tentative) => self
                .decoder
                .restart_window_text_end()
                .is_some_and(|end| self.source_position() >= end),
            Some(Confidence::Certain | Confidence::Irrelevant) => true,
            None => false,
        }
    }

    /// The byte decoder: the encoding in use and its confidence.
    pub fn decoder(&self) -> &ByteStreamDecoder {
        &self.decoder
    }
}

/// The text of a caught panic.
fn panic_message(panic: &Box<dyn std::any::Any + Send>) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::{DomStore, dump_document};

    #[test]
    fn an_engine_panic_fails_the_stream_and_the_store_can_reset_a_mirror() {
        let page =
            b"<!DOCTYPE html><title>t</title><p id=a>one<template>x</template><p>two<p>three";
        // A known encoding: decoding starts at once (no 1024-byte prescan wait).
        let config = SessionConfig {
            decoder: DecoderConfig::with_transport(encoding_rs::UTF_8),
            ..SessionConfig::default()
        };
        let mut session = Html5ParseSession::new(config);
        session.panic_at_token = Some(12);
        let (mut store, mut mirror) = (DomStore::new(), DomStore::new());
        let mut result = Ok(PumpStatus::NeedInput);
        for chunk in page.chunks(8) {
            session.push_bytes(chunk).unwrap();
            result = session.pump();
            if result.is_err() {
                break;
            }
            for batch in session.take_batches() {
                store.apply(&batch).unwrap();
                mirror.apply(&batch).unwrap();
            }
        }
        let err = result.expect_err("the injected fault surfaces");
        assert!(
            matches!(&err, SessionError::EnginePanic(m) if m == "injected fault"),
            "{err}"
        );
        assert!(session.is_failed());
        assert_eq!(session.take_batches(), Vec::<PatchBatch>::new());
        assert_eq!(session.pump(), Err(SessionError::Failed));
        assert_eq!(session.push_bytes(b"more"), Err(SessionError::Failed));
        assert_eq!(session.finish(), Err(SessionError::Failed));

        // The runtime resets the mirror to the last good tree: Clear first, keys fresh.
        let before = store.last_key().unwrap();
        let reset = store.full_create_stream();
        assert!(reset.starts_with_clear());
        assert_eq!((reset.doc, reset.from), (session.doc(), session.version()));
        mirror.apply(&reset).unwrap();
        assert_eq!(dump_document(&mirror), dump_document(&store));
        assert!(mirror.last_key().unwrap() > before);
        assert!(dump_document(&store).contains("\"one\""));
    }

    fn parse_with(page: &[u8], chunk: usize, batching: BatchPolicy) -> (String, usize) {
        let config = SessionConfig {
            decoder: DecoderConfig::with_transport(encoding_rs::UTF_8),
            batching,
            tree: crate::tree_builder::TreeBuilderConfig {
                suspend_at_script: true,
                ..Default::default()
            },
            ..SessionConfig::default()
        };
        let mut session = Html5ParseSession::new(config);
        let mut store = DomStore::new();
        let mut largest = 0;
        let mut drain = |session: &mut Html5ParseSession, mut status: PumpStatus| loop {
            for batch in session.take_batches() {
                largest = largest.max(batch.len());
                store.apply_owned(batch).unwrap();
            }
            match status {
                PumpStatus::Suspended(_) => status = session.pump().unwrap(),
                done => return done,
            }
        };
        for piece in page.chunks(chunk) {
            session.push_bytes(piece).unwrap();
            let status = session.pump().unwrap();
            assert_eq!(drain(&mut session, status), PumpStatus::NeedInput);
        }
        let status = session.finish().unwrap();
        assert_eq!(drain(&mut session, status), PumpStatus::Finished);
        (dump_document(&store), largest)
    }

    #[test]
    fn bounded_batches_are_small_and_build_the_same_tree() {
        let page = b"<!DOCTYPE html><meta charset=utf-8><table><tr><td>a<b>b<p>c</b>d</table>\
            <script>x</script><ul><li>1<li>2<li>3</ul><template><i>t</i></template>tail";
        let (expected, _) = parse_with(page, page.len(), BatchPolicy::PerPump);
        for n in [1, 2, 3, 7, 4096] {
            for chunk in [1, 5, page.len()] {
                let (dump, largest) = parse_with(page, chunk, BatchPolicy::Bounded(n));
                assert_eq!(dump, expected, "Bounded({n}), chunk {chunk}");
                assert!(largest <= n, "Bounded({n}): a batch of {largest}");
            }
        }
    }
}
