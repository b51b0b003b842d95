//! The HTML tokenizer (§13.2.5), streaming over chunks of any size.
//!
//! ```
//! use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
//! use tagloom_html::token::Token;
//!
//! let mut tok = Tokenizer::new(TokenizerConfig::default());
//! // Chunk boundaries may fall anywhere, even inside a tag or a character reference.
//! for chunk in ["<a href='x?a=1&am", "p;b=2'>link</", "a>"] {
//!     tok.push_str(chunk);
//!     while let Some(token) = tok.next_token()? {
//!         if let Token::StartTag(tag) = token {
//!             assert_eq!(tag.attrs.get(0).unwrap().value, "x?a=1&b=2");
//!         }
//!     }
//! }
//! tok.finish();
//! while tok.next_token()?.is_some() {}
//! # Ok::<(), tagloom_html::tokenizer::TokenizerError>(())
//! ```
//!
//! ## How streaming works
//!
//! Each call to [`Tokenizer::next_token`] runs the state machine from the end of the
//! previous token. If the input runs out in the middle of a token, the tokenizer
//! forgets the partial token and rewinds to its start; it tries again once at least
//! twice as much input is buffered (so a huge token fed one byte at a time still
//! costs linear time). Character data is the exception: a run of text is emitted up
//! to the end of the available input, so text never waits for the next chunk.
//! Because every token is tokenized from one contiguous buffer, every token can
//! borrow its text and report exact spans, and the output never depends on where
//! the chunks were split.
//!
//! ## Runs of ordinary characters
//!
//! Every state that loops over characters needing no decision (text, comments,
//! attribute values, names, DOCTYPE identifiers) first takes the run up to the next
//! byte that does need one, with the one scanner in `run`: each state names its
//! stop bytes (always CR, NUL wherever NUL is replaced or an error), and the scan
//! stops at the first of them in one pass. So every byte is scanned once, however
//! the stops are arranged: a run of NULs costs the same per byte as text (plus one
//! parse error each), where scanning for the other stops first would cost a scan
//! to the end of the input per NUL.
//!
//! The tree builder drives the state switches the spec gives it
//! ([`Tokenizer::set_state`] after `<title>`, `<script>`…, and
//! [`Tokenizer::set_cdata_allowed`] in foreign content) between two calls.

mod attribute_mode;
mod char_ref;
mod hold;
mod input;
mod insertion;
// Public, hidden: the wikitext preprocessor's brace scan tests its stop
// bytes with the same blocks (one home for the SSE2 code and its `unsafe`).
#[doc(hidden)]
pub mod lanes;
mod lines;
mod run;
mod states;
#[cfg(test)]
mod tests;
mod text;
mod wide;

use std::collections::HashSet;

use crate::atom::{Atom, AtomTable};
use crate::error::{ErrorCode, ParseError};
use crate::span::Span;
use crate::token::{
    AttrSlot, Attributes, Doctype, ProcessingInstruction, Tag, Text, TextRef, TextSource, Token,
};
pub use attribute_mode::{AttributeMode, TagSet, TextMode};
pub use char_ref::named_reference;
use input::InputBuffer;
use lines::LineTracker;
use run::StopSet;
use states::St;
use text::TextBuilder;

/// The states a consumer may switch the tokenizer to (the tree builder does so after
/// `<title>`, `<script>`, `<plaintext>`…; tests start in any of them).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum State {
    /// 13.2.5.1 Data state.
    #[default]
    Data,
    /// 13.2.5.2 RCDATA state.
    Rcdata,
    /// 13.2.5.3 RAWTEXT state.
    Rawtext,
    /// 13.2.5.4 Script data state.
    ScriptData,
    /// 13.2.5.5 PLAINTEXT state.
    Plaintext,
    /// 13.2.5.69 CDATA section state.
    CdataSection,
}

/// Tokenizer settings.
#[derive(Clone, Debug)]
pub struct TokenizerConfig {
    /// The state to start in.
    pub initial_state: State,
    /// "The tag name of the last start tag to have been emitted", for the appropriate
    /// end tag check when starting in RCDATA/RAWTEXT/script data.
    pub last_start_tag: Option<String>,
    /// The largest token (in bytes of decoded input) the tokenizer will buffer while
    /// waiting for its end. Character data is never held back, so this bounds tags,
    /// comments and DOCTYPEs. Past it, [`Tokenizer::next_token`] fails with
    /// [`TokenizerError::TokenTooLarge`].
    pub max_token_bytes: usize,
    /// Record parse errors (with line and column). Turning this off saves the
    /// bookkeeping when nobody reads them.
    pub report_errors: bool,
    /// Tokenize `<?target data?>` as a [`Token::ProcessingInstruction`] (the
    /// July 2026 spec, Part A.2). Off by default: `<?` starts a bogus comment, as
    /// html5lib-tests expect.
    pub processing_instructions: bool,
    /// The most parse errors held at once (24 bytes each): past it, errors are
    /// counted in [`Tokenizer::errors_dropped`] but not stored, until
    /// [`Tokenizer::take_errors`] makes room. Every NUL, control character or
    /// duplicate attribute is an error, so without a bound a hostile input would
    /// cost far more memory in errors than in text (10 MiB of NUL: 10 million).
    pub max_errors: usize,
}

impl Default for TokenizerConfig {
    fn default() -> Self {
        TokenizerConfig {
            initial_state: State::Data,
            last_start_tag: None,
            max_token_bytes: 64 << 20,
            report_errors: true,
            processing_instructions: false,
            max_errors: 1 << 16,
        }
    }
}

/// A failure that stops tokenization (as opposed to a [`ParseError`], which never does).
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum TokenizerError {
    /// A single token grew past [`TokenizerConfig::max_token_bytes`].
    #[error("a token starting at byte {offset} exceeds the limit of {limit} bytes")]
    TokenTooLarge {
        /// Where the token starts.
        offset: usize,
        /// The configured limit.
        limit: usize,
    },
}

/// Indexes of the text builders a token uses.
pub(crate) const TEXT: usize = 0;
pub(crate) const TAG_NAME: usize = 1;
pub(crate) const ATTR_NAME: usize = 2;
pub(crate) const ATTR_VALUE: usize = 3;
pub(crate) const DT_NAME: usize = 4;
pub(crate) const DT_PUBLIC: usize = 5;
pub(crate) const DT_SYSTEM: usize = 6;
const BUILDERS: usize = 7;

/// How much input the tokenizer reads between two line counts (see
/// `Tokenizer::count_lines_read`): well inside the L1 data cache.
const LINE_COUNT_STEP: usize = 8 * 1024;

/// Why the state machine stopped reading.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum End {
    /// The input is finished.
    Eof,
    /// The buffer ends here but more input may come.
    NeedMore,
}

/// One (preprocessed) input character: `c` is the ASCII byte (CR and CR LF read as
/// LF), or 0x80 for any non-ASCII character; `len` is how many bytes it spans.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Ch {
    pub(crate) c: u8,
    pub(crate) len: usize,
}

/// What a state does with the NULs it reads (each one a parse error).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Nul {
    /// Appends U+FFFD for each.
    Replace,
    /// Appends them as they are (the data state).
    Keep,
    /// Ignores them (the bogus DOCTYPE state).
    Skip,
}

/// A token with its text still as references.
#[derive(Clone, Copy, Debug)]
pub(crate) enum RawToken {
    Characters {
        text: TextRef,
        span: Span,
    },
    Comment {
        text: TextRef,
        span: Span,
    },
    /// Its fields are in [`Tokenizer::doctype`] (rare tokens keep the common
    /// ones small: every token is moved a few times on its way out).
    Doctype {
        span: Span,
    },
    /// Its target and data are in [`Tokenizer::pi`].
    ProcessingInstruction {
        span: Span,
    },
    StartTag {
        name: Atom,
        self_closing: bool,
        span: Span,
    },
    EndTag {
        name: Atom,
        self_closing: bool,
        span: Span,
    },
    Eof,
}

/// What a state step decided.
pub(crate) enum Flow {
    /// Keep going (the state may have changed).
    Continue,
    /// A token is complete.
    Emit(RawToken),
    /// The buffer ran out mid-token.
    NeedMore,
}

/// The fields of the DOCTYPE token last emitted, as references.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct DoctypeRefs {
    pub(crate) name: Option<TextRef>,
    pub(crate) public_id: Option<TextRef>,
    pub(crate) system_id: Option<TextRef>,
    pub(crate) force_quirks: bool,
}

/// A point where pending character data may be cut if the input runs out.
#[derive(Clone, Copy)]
struct SafePoint {
    pos: usize,
    state: St,
    text: TextBuilder,
    errors: usize,
    errors_dropped: usize,
}

/// The streaming tokenizer. See the [module docs](self).
pub struct Tokenizer {
    input: InputBuffer,
    /// Read position, relative to `input.buf`.
    pos: usize,
    /// The input is complete.
    input_done: bool,
    /// `Eof` was emitted.
    eof_emitted: bool,
    /// Input after open insertion points, innermost last (`insertion.rs`):
    /// while one is open, the buffer ends at the insertion point.
    tails: Vec<String>,
    /// Whether the input was complete when the first insertion point opened.
    outer_done: bool,
    /// Streaming UTF-8 decoder for [`Tokenizer::push_bytes`].
    utf8: Option<encoding_rs::Decoder>,

    state: St,
    return_state: St,
    /// Where the token being read starts (relative) and the state there.
    committed_pos: usize,
    committed_state: St,
    safe: Option<SafePoint>,
    /// Don't retry a rewound token until this many bytes are unconsumed.
    retry_len: usize,
    /// `release_consumed` need not look while less than this is consumed (set
    /// from the buffer's length when it last looked; 0 after the buffer shrinks).
    release_at: usize,

    b: [TextBuilder; BUILDERS],
    /// The DOCTYPE token being emitted ([`RawToken::Doctype`]).
    doctype: DoctypeRefs,
    /// The processing instruction being emitted: target and data
    /// ([`RawToken::ProcessingInstruction`]).
    pi: (TextRef, TextRef),
    scratch: String,
    attrs: Vec<AttrSlot>,
    attr_names: HashSet<Atom>,
    attr_name_start: usize,
    attr_value_span: Span,
    attr_dropped: bool,
    has_attr: bool,
    self_closing: bool,
    is_end_tag: bool,
    force_quirks: bool,
    dt_has_name: bool,
    dt_has_public: bool,
    dt_has_system: bool,
    /// The spec's temporary buffer, when it holds only source characters.
    temp_start: usize,
    last_start_tag: Option<Atom>,
    pending_attr_name: Option<(Atom, Span)>,
    cdata_allowed: bool,
    /// Which tags get their attributes read.
    attribute_mode: AttributeMode,
    /// From `attribute_mode`, for the per-tag checks: no tag is skimmed…
    reads_all: bool,
    /// Tags of the common shape are read by the fused reader (`states/fast_tag.rs`),
    /// which also makes the skim decision (the tests turn it off to compare with
    /// the states).
    fast_tags: bool,
    /// …or the start tags whose attributes are read whatever they are…
    read_tags: TagSet,
    /// …and whether attribute names can make a skimmed tag read in full.
    read_triggers: bool,
    /// Whether data-state text is decoded.
    text_mode: TextMode,
    /// The current tag's name, when interned before its end (skimming decisions).
    tag_atom: Option<Atom>,
    /// The current tag is skimmed (its attributes were not read).
    skimmed: bool,

    atoms: AtomTable,
    /// The atoms of recent names of up to 16 bytes ([`short_name_key`] →
    /// atom), so a repeated tag or attribute name is interned without hashing;
    /// a name is looked up in its slot and the next one of the pair
    /// ([`Self::cached_name`]).
    name_cache: [(u128, Atom); 1 << NAME_CACHE_BITS],
    /// The atoms of recent names of 17 to 32 bytes ([`long_name_key`] → atom),
    /// checked by [`Self::intern_slow`] before the tables.
    long_name_cache: [LongNameEntry; 1 << LONG_NAME_CACHE_BITS],
    /// Errors of the token being read: (absolute offset, code, whether it precedes
    /// the consumption of the character at that offset).
    token_errors: Vec<(usize, ErrorCode, bool)>,
    /// Errors of the token being read that were past `max_errors`.
    token_errors_dropped: usize,
    errors: Vec<ParseError>,
    /// Errors counted but not stored (past `max_errors`).
    errors_dropped: usize,
    max_errors: usize,
    lines: LineTracker,
    /// A second checkpoint for [`Self::locate`] (the tree builder's errors, which
    /// come after the tokenizer's errors inside the same token).
    located: LineTracker,
    max_token_bytes: usize,
    report_errors: bool,
    /// [`TokenizerConfig::processing_instructions`].
    processing_instructions: bool,
}

impl Tokenizer {
    /// A tokenizer with the given settings.
    pub fn new(config: TokenizerConfig) -> Self {
        let state = St::from(config.initial_state);
        let mut tokenizer = Tokenizer {
            input: InputBuffer {
                check_errors: config.report_errors,
                max_queued_errors: config.max_errors,
                ..Default::default()
            },
            pos: 0,
            input_done: false,
            eof_emitted: false,
            tails: Vec::new(),
            outer_done: false,
            utf8: None,
            state,
            return_state: St::Data,
            committed_pos: 0,
            committed_state: state,
            safe: None,
            retry_len: 0,
            release_at: 0,
            b: [TextBuilder::Empty; BUILDERS],
            doctype: DoctypeRefs::default(),
            pi: (TextRef::EMPTY, TextRef::EMPTY),
            scratch: String::new(),
            attrs: Vec::new(),
            attr_names: HashSet::new(),
            attr_name_start: 0,
            attr_value_span: Span::default(),
            attr_dropped: false,
            has_attr: false,
            self_closing: false,
            is_end_tag: false,
            force_quirks: false,
            dt_has_name: false,
            dt_has_public: false,
            dt_has_system: false,
            temp_start: 0,
            last_start_tag: None,
            pending_attr_name: None,
            cdata_allowed: false,
            attribute_mode: AttributeMode::All,
            reads_all: true,
            fast_tags: true,
            read_tags: TagSet::new(),
            read_triggers: false,
            text_mode: TextMode::Decoded,
            tag_atom: None,
            skimmed: false,
            atoms: AtomTable::new(),
            name_cache: [(0, crate::atom::HTML); 1 << NAME_CACHE_BITS],
            long_name_cache: [LongNameEntry::EMPTY; 1 << LONG_NAME_CACHE_BITS],
            token_errors: Vec::new(),
            token_errors_dropped: 0,
            errors: Vec::new(),
            errors_dropped: 0,
            max_errors: config.max_errors,
            lines: LineTracker::default(),
            located: LineTracker::default(),
            max_token_bytes: config.max_token_bytes,
            report_errors: config.report_errors,
            processing_instructions: config.processing_instructions,
        };
        tokenizer.set_last_start_tag(config.last_start_tag.as_deref());
        tokenizer
    }

    /// Appends decoded text.
    pub fn push_str(&mut self, chunk: &str) {
        if self.input_done {
            return;
        }
        if let Some(outer) = self.tails.first_mut() {
            // The document's own input goes after every insertion point.
            outer.push_str(chunk);
            return;
        }
        self.flush_utf8_tail();
        self.compact();
        self.input.push(chunk);
    }

    /// Appends UTF-8 bytes. A sequence split across calls is joined; invalid
    /// sequences become U+FFFD (per the WHATWG UTF-8 decoder), so any bytes are
    /// accepted. No BOM handling: strip it (or use the [`decoder`](crate)) first.
    pub fn push_bytes(&mut self, chunk: &[u8]) {
        if self.input_done {
            return;
        }
        if !self.tails.is_empty() {
            let decoder = self
                .utf8
                .get_or_insert_with(|| encoding_rs::UTF_8.new_decoder_without_bom_handling());
            let out = decode_utf8(decoder, chunk, false);
            return self.push_str(&out);
        }
        self.compact();
        // Fast path: no sequence pending from the last chunk and this one is valid.
        if self.utf8.is_none()
            && let Ok(text) = std::str::from_utf8(chunk)
        {
            self.input.push(text);
            return;
        }
        let decoder = self
            .utf8
            .get_or_insert_with(|| encoding_rs::UTF_8.new_decoder_without_bom_handling());
        let out = decode_utf8(decoder, chunk, false);
        self.input.push(&out);
        // Once the input is at a character boundary again, the decoder holds
        // nothing: drop it, so the next chunk takes the fast path (a stream cut at
        // fixed sizes splits a character now and then, which would otherwise send
        // every later chunk through the decoder and a copy).
        if ends_at_char_boundary(chunk) {
            self.utf8 = None;
        }
    }

    fn flush_utf8_tail(&mut self) {
        if let Some(mut decoder) = self.utf8.take() {
            let out = decode_utf8(&mut decoder, b"", true);
            self.input.push(&out);
        }
    }

    /// Prepares the buffer for about `additional` more bytes of text: a caller that
    /// is about to push a large input in pieces (the parse session decodes in
    /// slices) gets one exact allocation instead of repeated doubling, which could
    /// leave up to twice the input allocated. Small reservations are left to the
    /// usual amortized growth, so streaming in tiny chunks stays linear.
    pub fn reserve(&mut self, additional: usize) {
        const EXACT_FROM: usize = 16 * 1024;
        self.compact();
        let spare = self.input.buf.capacity() - self.input.buf.len();
        if additional >= EXACT_FROM && spare < additional {
            self.input.buf.reserve_exact(additional);
        }
    }

    /// Marks the end of input. Tokens up to and including [`Token::Eof`] follow.
    pub fn finish(&mut self) {
        if !self.tails.is_empty() {
            self.outer_done = true;
            return;
        }
        if !self.input_done {
            self.flush_utf8_tail();
            self.input_done = true;
        }
    }

    /// Switches state (the tree builder's RCDATA/RAWTEXT/script/PLAINTEXT switches).
    /// Takes effect at the next token.
    pub fn set_state(&mut self, state: State) {
        self.state = St::from(state);
        self.committed_state = self.state;
    }

    /// Whether `<![CDATA[` opens a CDATA section: true when there is an adjusted
    /// current node and it is not an element in the HTML namespace.
    pub fn set_cdata_allowed(&mut self, allowed: bool) {
        self.cdata_allowed = allowed;
    }

    /// Chooses which tags get their attributes read (see [`AttributeMode`]; the
    /// default reads all). Takes effect at the next tag.
    pub fn set_attribute_mode(&mut self, mode: AttributeMode) {
        (self.reads_all, self.read_tags, self.read_triggers) = match &mode {
            AttributeMode::All => (true, TagSet::new(), false),
            AttributeMode::Only(tags) => (false, tags.clone(), false),
            AttributeMode::OnlyWith { tags, .. } => (false, tags.clone(), true),
        };
        self.attribute_mode = mode;
    }

    /// Chooses whether data-state text is decoded (see [`TextMode`]; the default
    /// decodes). Takes effect at the next token.
    #[inline]
    pub fn set_text_mode(&mut self, mode: TextMode) {
        self.text_mode = mode;
    }

    /// Sets "the last start tag emitted" (fragment parsing sets it from the context).
    pub fn set_last_start_tag(&mut self, name: Option<&str>) {
        self.last_start_tag = name.map(|n| self.atoms.intern(&n.to_ascii_lowercase()));
    }

    /// Takes the parse errors recorded so far, in input order.
    pub fn take_errors(&mut self) -> Vec<ParseError> {
        std::mem::take(&mut self.errors)
    }

    /// The parse errors recorded so far.
    pub fn errors(&self) -> &[ParseError] {
        &self.errors
    }

    /// How many parse errors were counted but not stored because
    /// [`TokenizerConfig::max_errors`] were already held.
    pub fn errors_dropped(&self) -> usize {
        self.errors_dropped + self.input.dropped_errors
    }

    /// The table resolving this document's dynamic atoms.
    pub fn atoms(&self) -> &AtomTable {
        &self.atoms
    }

    /// Mutable access to the atom table (to intern names outside the tokenizer).
    pub fn atoms_mut(&mut self) -> &mut AtomTable {
        // The caller may replace the table: forget the cached dynamic atoms.
        self.name_cache = [(0, crate::atom::HTML); 1 << NAME_CACHE_BITS];
        self.long_name_cache = [LongNameEntry::EMPTY; 1 << LONG_NAME_CACHE_BITS];
        &mut self.atoms
    }

    /// Absolute offset of the first byte not yet tokenized.
    pub fn position(&self) -> usize {
        self.input.base + self.committed_pos
    }

    /// Absolute offset of the end of the input pushed so far.
    pub(crate) fn input_end(&self) -> usize {
        self.input.base + self.input.buf.len()
    }

    /// How many bytes of input are buffered (tokenized or not).
    pub fn buffered_len(&self) -> usize {
        self.input.buf.len()
    }

    /// The next token; `Ok(None)` when more input is needed (or after `Eof`).
    ///
    /// The token borrows the tokenizer: drop it before calling anything else.
    pub fn next_token(&mut self) -> Result<Option<Token<'_>>, TokenizerError> {
        let raw = match self.run()? {
            Some(raw) => raw,
            None => return Ok(None),
        };
        Ok(Some(self.view(raw)))
    }

    #[inline(always)]
    fn run(&mut self) -> Result<Option<RawToken>, TokenizerError> {
        if self.eof_emitted {
            return Ok(None);
        }
        let unconsumed = self.input.buf.len() - self.committed_pos;
        if !self.input_done && unconsumed < self.retry_len.max(1) {
            return Ok(None);
        }
        self.release_consumed();
        self.begin_token();
        let mut flow = self.first_step();
        loop {
            match flow {
                Flow::Continue => flow = self.step_out_of_line(),
                Flow::Emit(token) => {
                    self.commit();
                    return Ok(Some(token));
                }
                Flow::NeedMore => {
                    if let Some(safe) = self.safe.take()
                        && !safe.text.is_empty()
                    {
                        self.pos = safe.pos;
                        self.state = safe.state;
                        self.b[TEXT] = safe.text;
                        self.token_errors.truncate(safe.errors);
                        self.token_errors_dropped = safe.errors_dropped;
                        let token = self.text_token();
                        self.commit();
                        return Ok(Some(token));
                    }
                    let pending = self.input.buf.len() - self.committed_pos;
                    if pending > self.max_token_bytes {
                        // Left as between two tokens (`begin_token` relies on it).
                        self.pos = self.committed_pos;
                        self.state = self.committed_state;
                        self.token_errors.clear();
                        self.token_errors_dropped = 0;
                        return Err(TokenizerError::TokenTooLarge {
                            offset: self.input.base + self.committed_pos,
                            limit: self.max_token_bytes,
                        });
                    }
                    self.retry_len = pending.saturating_mul(2).max(pending + 1);
                    self.pos = self.committed_pos;
                    self.state = self.committed_state;
                    self.token_errors.clear();
                    self.token_errors_dropped = 0;
                    return Ok(None);
                }
            }
        }
    }

    /// The first step of a token: in the data state, a tag right at the read
    /// position (most tokens after text) is read from here and text goes
    /// straight to the text state; the rest by [`Self::step_out_of_line`]. Keeping the state machine out of `next_token`
    /// keeps its per-token work small (with every state inlined into it, the
    /// compiler spilled a dozen addresses per token).
    #[inline(always)]
    fn first_step(&mut self) -> Flow {
        if self.state != St::Data || self.text_mode != TextMode::Decoded {
            return self.step_out_of_line();
        }
        if self.byte_at(self.pos) == Some(b'<') {
            // No text is pending at a token's start (`begin_token`).
            self.pos += 1;
            if self.fast_tags && self.reads_all {
                match self.byte_at(self.pos) {
                    // `</name>`, the most common end tag, without a call.
                    Some(b'/') => {
                        if let Some(flow) = self.fast_end_tag() {
                            return flow;
                        }
                    }
                    Some(b) if b.is_ascii_lowercase() => return self.fast_start_tag(),
                    _ => {}
                }
            }
            self.state = St::TagOpen;
            return self.tag_open_state();
        }
        self.data_text()
    }

    /// [`Self::step`], as a call.
    #[inline(never)]
    fn step_out_of_line(&mut self) -> Flow {
        self.step()
    }

    /// While tokenizing a large buffer (a whole page pushed at once), gives the
    /// consumed part back to the allocator once it is at least 16 KiB and three
    /// quarters of the buffer: consumers copy what they keep, so holding the page
    /// until the next push would only add its size to the peak (on a 75 KB page,
    /// the whole page). Each release moves the unconsumed rest, at most a quarter
    /// of the buffer, and shrinks the allocation in place, so the total work stays
    /// linear.
    #[inline(always)]
    fn release_consumed(&mut self) {
        if self.committed_pos >= self.release_at {
            self.release_consumed_now();
        }
    }

    /// [`Self::release_consumed`] past `release_at`; then sets `release_at` to
    /// where the test can first pass for the buffer as it is (a push only makes
    /// the buffer longer, so an earlier look is merely early; whatever shrinks it
    /// resets `release_at`), or where the line count is next due. Out of line:
    /// it runs once in many tokens.
    #[inline(never)]
    fn release_consumed_now(&mut self) {
        const RELEASE_FROM: usize = 16 * 1024;
        let consumed = self.releasable();
        if self.report_errors {
            self.count_lines_read();
        }
        if consumed >= RELEASE_FROM && consumed * 4 >= self.input.buf.len() * 3 {
            self.compact();
            // A caller holding input sizes the buffer by its hold: it keeps its
            // capacity (shrunk, it would grow back as the held input does).
            let keep = self.input.buf.len() + self.input.room_to_keep();
            if self.input.hold.is_none()
                && self.input.buf.capacity() > keep + keep / 3 + RELEASE_FROM
            {
                self.input.buf.shrink_to(keep);
            }
        }
        let next_count = if self.report_errors {
            self.committed_pos + LINE_COUNT_STEP
        } else {
            usize::MAX
        };
        // Input held for the caller is looked at again when the hold moves.
        let release_at = if self.held_back() {
            usize::MAX
        } else {
            RELEASE_FROM
                .max((self.input.buf.len() * 3).div_ceil(4))
                .max(self.committed_pos + 1)
        };
        self.release_at = release_at.min(next_count);
    }

    /// Moves the line checkpoint up to the end of the last token, while the text
    /// read since the last count is still in the cache (counted only when the
    /// buffer is compacted, a page pushed whole was read a second time from
    /// memory, megabytes behind the tokenizer). Between tokens, so no error is
    /// located before it any more (the same rule as [`Self::compact`]'s).
    fn count_lines_read(&mut self) {
        let to = self.input.base + self.committed_pos;
        self.lines
            .advance(self.input.buf.as_bytes(), self.input.base, to);
        if self.located.offset() <= to {
            self.located = self.lines;
        }
    }

    /// Drops consumed input once it makes up most of the buffer. Called when new
    /// input arrives (never between tokens), so a document pushed whole is never
    /// moved, and a stream keeps about one chunk plus the current token.
    fn compact(&mut self) {
        self.release_at = 0;
        let consumed = self.releasable();
        if consumed >= 16 * 1024 && consumed * 2 >= self.input.buf.len() {
            let keep_from = self.input.base + consumed;
            if self.report_errors {
                let buf = self.input.buf.as_bytes();
                self.lines.advance(buf, self.input.base, keep_from);
                self.lines.settle_col(buf, self.input.base);
                // Both checkpoints are at most the end of the last token here.
                if self.located.offset() <= keep_from {
                    self.located = self.lines;
                }
            }
            self.input.discard_before(keep_from);
            self.pos -= consumed;
            self.committed_pos -= consumed;
        }
    }

    /// Between two tokens the read position and state are the committed ones
    /// and no token error is pending: `commit` leaves them so, and so does every
    /// way out of `run` without a token (the rewind on `NeedMore`, the error on
    /// a token too large) and every call that moves the input (`compact`,
    /// `set_state`, the insertion points). So only the text and the safe point
    /// are reset here.
    #[inline(always)]
    fn begin_token(&mut self) {
        debug_assert!(self.pos == self.committed_pos && self.state == self.committed_state);
        debug_assert!(self.token_errors.is_empty() && self.token_errors_dropped == 0);
        // The other builders and the attribute list are reset where their token
        // starts (`create_tag`, `start_attribute`, `create_doctype`, comments).
        self.b[TEXT] = TextBuilder::Empty;
        self.scratch.clear();
        self.safe = None;
    }

    /// Accepts the token just read: its errors are reported and the next token
    /// starts here.
    #[inline(always)]
    fn commit(&mut self) {
        self.committed_pos = self.pos;
        self.committed_state = self.state;
        self.retry_len = 0;
        // Errors are recorded (and counted past the bound) only when reported.
        if !self.report_errors {
            debug_assert!(self.token_errors.is_empty() && self.token_errors_dropped == 0);
            return;
        }
        // Input-stream errors are queued for the whole input pushed; only those
        // up to the token's end are due (see the loop below).
        let end = self.input.base + self.pos;
        let stream_due = matches!(self.input.stream_errors.front(),
            Some(&(offset, _)) if offset < end || (self.eof_emitted && offset <= end));
        if self.token_errors.is_empty() && !stream_due && self.token_errors_dropped == 0 {
            return;
        }
        self.report_token_errors(end);
    }

    /// Reports the errors of the token just accepted (ending at `end`) merged in
    /// offset order with the input-stream errors up to there.
    #[inline(never)]
    fn report_token_errors(&mut self, end: usize) {
        self.errors_dropped += std::mem::take(&mut self.token_errors_dropped);
        let token_errors = std::mem::take(&mut self.token_errors);
        for &(offset, code, before_next) in &token_errors {
            while let Some(&(stream_offset, stream_code)) = self.input.stream_errors.front() {
                // The input-stream error of a character comes when it is consumed:
                // before an error about that character, after one that happened
                // before it was read (`before_next`).
                if stream_offset > offset || (stream_offset == offset && before_next) {
                    break;
                }
                self.input.stream_errors.pop_front();
                self.report(stream_offset, stream_code);
            }
            self.report(offset, code);
        }
        self.token_errors = token_errors;
        self.token_errors.clear();
        while let Some(&(stream_offset, stream_code)) = self.input.stream_errors.front() {
            if stream_offset >= end && !(self.eof_emitted && stream_offset <= end) {
                break;
            }
            self.input.stream_errors.pop_front();
            self.report(stream_offset, stream_code);
        }
    }

    /// The offset, one-based line and column (UTF-16 units) of `offset`, for errors
    /// found outside the tokenizer (the tree builder's). Offsets should not
    /// decrease from one call to the next and must still be in the buffer: locate
    /// an error right after the token that caused it. An offset before the last one
    /// located (or released) is moved up to it. `None` when errors are not
    /// reported ([`TokenizerConfig::report_errors`]).
    pub(crate) fn locate(&mut self, offset: usize) -> Option<(usize, u32, u32)> {
        if !self.report_errors {
            return None;
        }
        let offset = offset.max(self.input.base).max(self.located.offset());
        self.located.catch_up(&self.lines, offset);
        let (line, col) = self
            .located
            .locate(self.input.buf.as_bytes(), self.input.base, offset);
        Some((offset, line, col))
    }

    fn report(&mut self, offset: usize, code: ErrorCode) {
        if self.errors.len() >= self.max_errors {
            self.errors_dropped += 1;
            return;
        }
        self.lines.catch_up(&self.located, offset);
        let (line, col) = self
            .lines
            .locate(self.input.buf.as_bytes(), self.input.base, offset);
        self.errors.push(ParseError {
            code,
            offset,
            line,
            col,
        });
    }

    /// A start or end tag over the attributes gathered for it.
    fn tag_view<'a>(
        &'a self,
        name: Atom,
        self_closing: bool,
        span: Span,
        source: TextSource<'a>,
    ) -> Tag<'a> {
        Tag {
            name,
            self_closing,
            attrs: Attributes::from_slots(&self.attrs, source),
            span,
            atoms: &self.atoms,
            skimmed: self.skimmed,
        }
    }

    fn view(&self, raw: RawToken) -> Token<'_> {
        let source = TextSource {
            buffer: &self.input.buf,
            base: self.input.base,
            scratch: &self.scratch,
        };
        match raw {
            RawToken::Characters { text, span } => Token::Characters(Text {
                text: source.resolve(text),
                span,
                borrowed: matches!(text, TextRef::Source { .. }),
            }),
            RawToken::Comment { text, span } => Token::Comment(Text {
                text: source.resolve(text),
                span,
                borrowed: matches!(text, TextRef::Source { .. }),
            }),
            RawToken::ProcessingInstruction { span } => {
                let (target, data) = self.pi;
                Token::ProcessingInstruction(ProcessingInstruction {
                    target: source.resolve(target),
                    data: source.resolve(data),
                    span,
                })
            }
            RawToken::Doctype { span } => {
                let d = self.doctype;
                Token::Doctype(Doctype {
                    name: d.name.map(|t| source.resolve(t)),
                    public_id: d.public_id.map(|t| source.resolve(t)),
                    system_id: d.system_id.map(|t| source.resolve(t)),
                    force_quirks: d.force_quirks,
                    span,
                })
            }
            RawToken::StartTag {
                name,
                self_closing,
                span,
            } => Token::StartTag(self.tag_view(name, self_closing, span, source)),
            RawToken::EndTag {
                name,
                self_closing,
                span,
            } => Token::EndTag(self.tag_view(name, self_closing, span, source)),
            RawToken::Eof => Token::Eof,
        }
    }

    // ----- reading primitives used by the states -----

    /// Absolute offset of the read position.
    #[inline]
    pub(crate) fn abs(&self) -> usize {
        self.input.base + self.pos
    }

    /// The next input character, preprocessed, without consuming it.
    #[inline]
    pub(crate) fn peek(&self) -> Result<Ch, End> {
        let bytes = self.input.buf.as_bytes();
        match bytes.get(self.pos) {
            Some(&b) if b < 0x80 => {
                if b == b'\r' {
                    match bytes.get(self.pos + 1) {
                        Some(b'\n') => Ok(Ch { c: b'\n', len: 2 }),
                        Some(_) => Ok(Ch { c: b'\n', len: 1 }),
                        None if self.input_done => Ok(Ch { c: b'\n', len: 1 }),
                        None => Err(End::NeedMore),
                    }
                } else {
                    Ok(Ch { c: b, len: 1 })
                }
            }
            Some(&b) => Ok(Ch {
                c: 0x80,
                len: utf8_len(b),
            }),
            None if self.input_done => Err(End::Eof),
            None => Err(End::NeedMore),
        }
    }

    /// The raw byte at relative position `at`.
    #[inline]
    pub(crate) fn byte_at(&self, at: usize) -> Option<u8> {
        self.input.buf.as_bytes().get(at).copied()
    }

    /// Records a parse error of the token being read. Past `max_errors` (counting
    /// those already reported), it is only counted: the errors kept are then the
    /// first ones of the token, which is what `report` keeps of the merged list.
    #[inline]
    fn token_error(&mut self, at: usize, code: ErrorCode, before_next: bool) {
        if !self.report_errors {
            return;
        }
        if self.errors.len() + self.token_errors.len() < self.max_errors {
            self.token_errors.push((at, code, before_next));
        } else {
            self.token_errors_dropped += 1;
        }
    }

    /// Records a parse error at the current read position.
    #[inline]
    pub(crate) fn error(&mut self, code: ErrorCode) {
        self.token_error(self.abs(), code, false);
    }

    /// Records a parse error at absolute offset `at`.
    #[inline]
    pub(crate) fn error_at(&mut self, code: ErrorCode, at: usize) {
        self.token_error(at, code, false);
    }

    /// Records a parse error at absolute offset `at`, the position of a character not
    /// yet consumed when the error happened (character references report their
    /// errors there).
    #[inline]
    pub(crate) fn error_before(&mut self, code: ErrorCode, at: usize) {
        self.token_error(at, code, true);
    }

    /// Appends the character `ch` at the read position to builder `which` and
    /// consumes it.
    #[inline]
    pub(crate) fn take_into(&mut self, which: usize, ch: Ch) {
        let start = self.abs();
        if self.byte_at(self.pos) == Some(b'\r') {
            self.b[which].push_char(&mut self.scratch, &self.input.buf, self.input.base, '\n');
        } else {
            self.b[which].push_source(
                &mut self.scratch,
                &self.input.buf,
                self.input.base,
                start,
                start + ch.len,
            );
        }
        self.pos += ch.len;
    }

    /// Appends source bytes `start..end` (relative) verbatim to builder `which`.
    #[inline]
    pub(crate) fn push_range(&mut self, which: usize, start: usize, end: usize) {
        let base = self.input.base;
        self.b[which].push_source(
            &mut self.scratch,
            &self.input.buf,
            base,
            base + start,
            base + end,
        );
    }

    /// The length of the run of bytes from the read position up to the first member
    /// of `stops` (or the end of the buffer). See [`run`] for the one scan every
    /// state's fast path goes through.
    #[inline]
    pub(crate) fn run_len<S: StopSet>(&self) -> usize {
        let rest = self.input.buf.as_bytes().get(self.pos..).unwrap_or(&[]);
        run::run_len_of::<S>(rest)
    }

    /// Appends the run of bytes from the read position up to the first member of
    /// `stops` (or the end of the buffer) to builder `which`, verbatim, and consumes
    /// it. Stop sets hold every byte the state must decide on (CR always, NUL where
    /// it is replaced or an error), so the run is always plain source text.
    #[inline]
    pub(crate) fn take_run<S: StopSet>(&mut self, which: usize) {
        let run = self.run_len::<S>();
        if run > 0 {
            self.push_range(which, self.pos, self.pos + run);
            self.pos += run;
        }
    }

    /// At a NUL: consumes the whole run of NULs there, each an
    /// unexpected-null-character error, appending them to builder `which` as
    /// `nul` says. Every state that stays put on a NUL reads a run of them here in
    /// one go, so a run costs one scan plus its errors (only counted past
    /// `max_errors`), not a trip through the state machine per NUL.
    pub(crate) fn take_nuls(&mut self, which: usize, nul: Nul) {
        let rest = self.input.buf.as_bytes().get(self.pos..).unwrap_or(&[]);
        let n = rest.iter().take_while(|&&b| b == 0).count();
        if self.report_errors {
            let held = self.errors.len() + self.token_errors.len();
            let kept = n.min(self.max_errors.saturating_sub(held));
            let at = self.abs();
            self.token_errors.extend(
                (at..at + kept).map(|offset| (offset, ErrorCode::UnexpectedNullCharacter, false)),
            );
            self.token_errors_dropped += n - kept;
        }
        match nul {
            Nul::Replace => self.b[which].push_repeated(
                &mut self.scratch,
                &self.input.buf,
                self.input.base,
                '\u{FFFD}',
                n,
            ),
            Nul::Keep => self.push_range(which, self.pos, self.pos + n),
            Nul::Skip => {}
        }
        self.pos += n;
    }

    /// Appends a character that is not the source text to builder `which`.
    #[inline]
    pub(crate) fn push_char(&mut self, which: usize, c: char) {
        self.b[which].push_char(&mut self.scratch, &self.input.buf, self.input.base, c);
    }

    /// Appends text that is not the source text to builder `which`.
    #[inline]
    pub(crate) fn push_text(&mut self, which: usize, s: &str) {
        self.b[which].push_str(&mut self.scratch, &self.input.buf, self.input.base, s);
    }

    /// Remembers that pending character data may be emitted up to here.
    #[inline]
    pub(crate) fn mark_safe(&mut self) {
        self.safe = Some(SafePoint {
            pos: self.pos,
            state: self.state,
            text: self.b[TEXT],
            errors: self.token_errors.len(),
            errors_dropped: self.token_errors_dropped,
        });
    }

    /// The pending character data as a token, ending at the read position.
    pub(crate) fn text_token(&mut self) -> RawToken {
        let text = self.b[TEXT].text_ref();
        self.b[TEXT] = TextBuilder::Empty;
        RawToken::Characters {
            text,
            span: Span::new(self.input.base + self.committed_pos, self.abs()),
        }
    }

    /// The span from the token start to the read position.
    #[inline]
    pub(crate) fn token_span(&self) -> Span {
        Span::new(self.input.base + self.committed_pos, self.abs())
    }

    /// Interns the name gathered in builder `which`, lowercased already. A name
    /// in the cache costs a 16-byte load and a compare, inline; others go to
    /// [`Self::intern_slow`].
    #[inline(always)]
    pub(crate) fn intern(&mut self, which: usize) -> Atom {
        // The key straight from the buffer the name lies in: no `&str` is made
        // unless the cache misses.
        let key = match self.b[which] {
            TextBuilder::Empty => 0,
            TextBuilder::Source { start, end } => name_key(
                self.input.buf.as_bytes(),
                start - self.input.base,
                end - self.input.base,
            ),
            TextBuilder::Scratch { start, end } => name_key(self.scratch.as_bytes(), start, end),
        };
        let slot = name_cache_slot(key);
        if let Some(atom) = self.cached_name(key, slot) {
            return atom;
        }
        self.intern_slow(which, key, slot)
    }

    /// The cached atom of name `key` (0: no key), looked up in its slot, then
    /// in the slot's partner (`slot ^ 1`), where the name the slot last held
    /// went (see [`Self::intern_slow`]): two names of one slot that alternate
    /// (`<p class>` with `<p>`) both stay cached.
    #[inline(always)]
    fn cached_name(&self, key: u128, slot: usize) -> Option<Atom> {
        if key == 0 {
            return None;
        }
        let &(cached, atom) = self.name_cache.get(slot)?;
        if cached == key {
            return Some(atom);
        }
        let &(cached, atom) = self.name_cache.get(slot ^ 1)?;
        (cached == key).then_some(atom)
    }

    /// [`Self::intern`] of the name that is the buffer's `start..end` (relative
    /// offsets, lowercased already), for the fused readers: the key comes
    /// straight from the buffer, and builder `which` is set to the name only
    /// when the cache misses.
    #[inline(always)]
    pub(crate) fn intern_source(&mut self, which: usize, start: usize, end: usize) -> Atom {
        let key = name_key(self.input.buf.as_bytes(), start, end);
        let slot = name_cache_slot(key);
        if let Some(atom) = self.cached_name(key, slot) {
            return atom;
        }
        let base = self.input.base;
        self.b[which] = TextBuilder::Source {
            start: base + start,
            end: base + end,
        };
        self.intern_slow(which, key, slot)
    }

    /// [`Self::intern`] past the cache: the static table or the document's
    /// dynamic atoms; the atom is then cached under `key` in `slot` (a dynamic
    /// one too: the table only grows, and [`Self::atoms_mut`], through which it
    /// could be replaced, empties the cache).
    #[inline(never)]
    fn intern_slow(&mut self, which: usize, key: u128, slot: usize) -> Atom {
        let source = TextSource {
            buffer: &self.input.buf,
            base: self.input.base,
            scratch: &self.scratch,
        };
        let name = source.resolve(self.b[which].text_ref());
        let long = long_name_key(name.as_bytes());
        let long_slot = long.map_or(0, |(first, last)| {
            let mixed = (first as u64) ^ (last as u64).rotate_left(29) ^ name.len() as u64;
            (mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - LONG_NAME_CACHE_BITS)) as usize
        });
        if let Some((first, last)) = long
            && let Some(entry) = self.long_name_cache.get(long_slot)
            && entry.len == name.len()
            && entry.first == first
            && entry.last == last
        {
            return entry.atom;
        }
        let atom = match Atom::lookup_static(name.as_bytes()) {
            Some(atom) => atom,
            None => self.atoms.intern_dynamic(name),
        };
        if let Some((first, last)) = long
            && let Some(entry) = self.long_name_cache.get_mut(long_slot)
        {
            *entry = LongNameEntry {
                first,
                last,
                len: name.len(),
                atom,
            };
        }
        // The slot's name moves to the partner slot (whose name is dropped):
        // a pair of slots keeps the two names last put in either.
        if key != 0
            && let Some(&held) = self.name_cache.get(slot)
        {
            if let Some(partner) = self.name_cache.get_mut(slot ^ 1) {
                *partner = held;
            }
            if let Some(entry) = self.name_cache.get_mut(slot) {
                *entry = (key, atom);
            }
        }
        atom
    }
}

/// The name cache has `1 << NAME_CACHE_BITS` slots.
const NAME_CACHE_BITS: u32 = 7;

/// The name cache's slot for `key`: Fibonacci hashing of the key's words.
#[inline(always)]
fn name_cache_slot(key: u128) -> usize {
    let mixed = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
    (mixed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> (64 - NAME_CACHE_BITS)) as usize
}

/// The long-name cache has `1 << LONG_NAME_CACHE_BITS` slots.
const LONG_NAME_CACHE_BITS: u32 = 4;

/// A slot of the long-name cache: a name of 17 to 32 bytes is its first and
/// last 16 bytes (overlapping) and its length.
#[derive(Clone, Copy, Debug)]
struct LongNameEntry {
    first: u128,
    last: u128,
    /// 0 in an empty slot (no long name has it).
    len: usize,
    atom: Atom,
}

impl LongNameEntry {
    const EMPTY: LongNameEntry = LongNameEntry {
        first: 0,
        last: 0,
        len: 0,
        atom: crate::atom::HTML,
    };
}

/// A name of 17 to 32 bytes as its first and last 16 bytes (which, with its
/// length, give every byte), or `None` for any other length.
#[inline]
fn long_name_key(name: &[u8]) -> Option<(u128, u128)> {
    if !(17..=32).contains(&name.len()) {
        return None;
    }
    let first = name.first_chunk::<16>()?;
    let last = name.last_chunk::<16>()?;
    Some((u128::from_le_bytes(*first), u128::from_le_bytes(*last)))
}

/// A name of 1 to 16 bytes as two words (little-endian, zero-padded), or 0 for
/// any other length. Names never hold a NUL byte (the tokenizer replaces it),
/// so the words identify the name.
#[inline]
fn short_name_key(name: &[u8]) -> u128 {
    if name.is_empty() || name.len() > 16 {
        return 0;
    }
    let fold = |bytes: &[u8]| {
        bytes
            .iter()
            .rev()
            .fold(0u64, |key, &byte| (key << 8) | u64::from(byte))
    };
    let (lo, hi) = name.split_at(name.len().min(8));
    let lo = match lo.first_chunk::<8>() {
        Some(word) => u64::from_le_bytes(*word),
        None => fold(lo),
    };
    (u128::from(fold(hi)) << 64) | u128::from(lo)
}

/// [`short_name_key`] of `buf[start..end]`, from one 16-byte load when the buffer
/// has 16 bytes from `start` (masked to the name's length).
#[inline(always)]
fn name_key(buf: &[u8], start: usize, end: usize) -> u128 {
    let len = end.wrapping_sub(start);
    if len == 0 || len > 16 {
        return 0;
    }
    match (
        buf.get(start..).and_then(<[u8]>::first_chunk::<16>),
        KEY_MASKS.get(len),
    ) {
        (Some(word), Some(&mask)) => u128::from_le_bytes(*word) & mask,
        _ => short_name_key(buf.get(start..end).unwrap_or_default()),
    }
}

/// `KEY_MASKS[len]` keeps the low `len` bytes of a key: a load instead of a
/// variable 128-bit shift (several instructions and a branch) per name.
const KEY_MASKS: [u128; 17] = {
    let mut masks = [0u128; 17];
    let mut len = 1;
    while len <= 16 {
        masks[len] = u128::MAX >> (128 - 8 * len);
        len += 1;
    }
    masks
};

/// Whether a UTF-8 decoder that has read `chunk` last holds no partial sequence:
/// the chunk's last three bytes (which a pending sequence would lie in, however
/// it started) do not end with the valid beginning of a longer one. Chunks under
/// three bytes answer false (the decoder is kept).
fn ends_at_char_boundary(chunk: &[u8]) -> bool {
    let Some(tail) = chunk.len().checked_sub(3).and_then(|at| chunk.get(at..)) else {
        return false;
    };
    // Only the last byte that is not a continuation byte can start an
    // unfinished sequence.
    match tail.iter().rposition(|&b| b >= 0xC0) {
        Some(lead) => !matches!(
            std::str::from_utf8(tail.get(lead..).unwrap_or_default()),
            Err(error) if error.error_len().is_none()
        ),
        None => true,
    }
}

/// Decodes `bytes` completely (a sequence cut at the end waits in the decoder).
fn decode_utf8(decoder: &mut encoding_rs::Decoder, bytes: &[u8], last: bool) -> String {
    let capacity = decoder
        .max_utf8_buffer_length(bytes.len())
        .unwrap_or(bytes.len() * 3 + 16);
    let mut out = String::with_capacity(capacity);
    let mut read = 0;
    loop {
        let (result, n, _) = decoder.decode_to_string(&bytes[read..], &mut out, last);
        read += n;
        match result {
            encoding_rs::CoderResult::InputEmpty => return out,
            encoding_rs::CoderResult::OutputFull => out.reserve(bytes.len() - read + 16),
        }
    }
}

/// Byte length of the UTF-8 sequence that starts with `lead`.
#[inline]
pub(crate) fn utf8_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

impl From<State> for St {
    fn from(state: State) -> St {
        match state {
            State::Data => St::Data,
            State::Rcdata => St::Rcdata,
            State::Rawtext => St::Rawtext,
            State::ScriptData => St::ScriptData,
            State::Plaintext => St::Plaintext,
            State::CdataSection => St::CdataSection,
        }
    }
}
