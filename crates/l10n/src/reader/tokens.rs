//! Owned tokens (tagloom-html's [`OwnedToken`]; text the tokenizer did not change
//! as a range of the decoded window, [`Payload::Text`]; tags boxed and reused, with
//! their attribute buffers, once the reader hands them back) with lookahead over the
//! tagloom tokenizer. Each tag carries what the element rules say about its name
//! ([`Tok::class`]), told once when it is fetched. No tree builder runs
//! here: the shared [`TextTypeSimulator`] of tagloom-html answers what one would do —
//! the tokenizer state after a start tag (RCDATA, RAWTEXT, script data, PLAINTEXT;
//! none in foreign content), whether CDATA sections are allowed, and which open
//! elements each tag closes. Each token records the latter ([`Tok::kept`],
//! [`Tok::opened_at`]) so the reader can follow the tree builder's nesting when it
//! gets to the token.
//!
//! The switch must happen right after the start tag is tokenized, before the next
//! token, so it is made here when the token is fetched — not when the reader gets
//! to it, which may be later because of the forward scan.

use std::collections::VecDeque;
use std::io::Read;

use tagloom_html::Span;
use tagloom_html::atom::Atom;
use tagloom_html::dom_patch::AttrNamespace;
use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
use tagloom_html::token::{Name, OwnedAttribute, OwnedTag, OwnedToken, Token, TokenKind};
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};

use super::input::SourceWindow;
use crate::error::{IoContext, L10nError, Result};
use crate::rules::{NameClass, Rules};

/// The most spent tags kept for reuse ([`TokenStream::recycle`]) of each
/// attribute count ([`SpareTags`]): about a scan's worth of start tags; more
/// would only hold memory.
const MAX_SPARE_TAGS: usize = 256;

/// Spent tags by attribute count: 0, 1, 2, 3 or more.
const SPARE_KINDS: usize = 4;

/// Spent tags kept for reuse, by attribute count ([`spare_kind`]): a tag is
/// copied into a spent one of its own count where there is one, so its
/// attribute slots are reused in place instead of moved to and from
/// [`TokenStream::spare_attrs`] (an end tag in the box of a start tag with
/// attributes, then a start tag in the box of an end tag, moved every slot
/// twice).
// The boxes are what is reused (a token holds its tag boxed).
#[allow(clippy::vec_box)]
type SpareTags = [Vec<Box<OwnedTag>>; SPARE_KINDS];

/// Which of [`SpareTags`] keeps a tag of `attrs` attributes.
#[inline(always)]
fn spare_kind(attrs: usize) -> usize {
    attrs.min(SPARE_KINDS - 1)
}

/// The most attribute slots kept for reuse ([`TokenStream::spare_attrs`]).
const MAX_SPARE_ATTRS: usize = 256;

/// Tokens fetched past the one asked for, from the input the tokenizer already
/// holds (no read for them): the tokenizer then runs for a stretch of tokens
/// instead of taking turns with the reader at each one, so its code stays in the
/// instruction cache (the reader's own code is as large).
const FETCH_AHEAD: usize = 64;

/// A token, with what the simulator said about it.
#[derive(Clone, Debug)]
pub(crate) struct Tok {
    pub(crate) token: Payload,
    /// The open elements below this simulated stack index survived the token; the
    /// ones at or above it were closed by it (see [`TextTypeSimulator`]).
    pub(crate) kept: usize,
    /// The simulated stack index of the element this start tag opened (`None`:
    /// not a start tag, void, ignored, or past the depth limit).
    pub(crate) opened_at: Option<usize>,
    /// A text token of HTML whitespace only.
    pub(crate) blank: bool,
    /// What the rules say about a tag's name (told once, when fetched); empty for
    /// other tokens.
    pub(crate) class: NameClass,
}

/// What a [`Tok`] holds: a tag (boxed, so that a token is a few words to move
/// through the queue, and the box reused with its buffers: [`TokenStream::recycle`]),
/// for text the tokenizer did not change (no character reference, no NUL, no
/// newline normalization) only its range of the decoded window, where the text
/// still is while the token is buffered (the window releases only what the
/// skeleton has been given), any other token as the shared owned type.
#[derive(Clone, Debug)]
pub(crate) enum Payload {
    /// A start tag.
    Start(Box<OwnedTag>),
    /// An end tag.
    End(Box<OwnedTag>),
    /// A text token whose characters are the window's text over `Span`.
    Text(Span),
    /// End of input.
    Eof,
    /// Comments, doctypes, processing instructions, text the tokenizer changed.
    Other(Box<OwnedToken>),
}

impl Tok {
    pub(crate) fn kind(&self) -> TokenKind {
        match &self.token {
            Payload::Start(_) => TokenKind::StartTag,
            Payload::End(_) => TokenKind::EndTag,
            Payload::Text(_) => TokenKind::Characters,
            Payload::Eof => TokenKind::Eof,
            Payload::Other(t) => t.kind(),
        }
    }

    fn tag(&self) -> Option<&OwnedTag> {
        match &self.token {
            Payload::Start(t) | Payload::End(t) => Some(t),
            _ => None,
        }
    }

    /// The tag name; empty for other tokens.
    pub(crate) fn name(&self) -> &str {
        self.tag().map_or("", |t| t.name().as_str())
    }

    /// The tag name as the tokenizer gave it; `None` for other tokens.
    pub(crate) fn tag_name(&self) -> Option<&Name> {
        self.tag().map(OwnedTag::name)
    }

    /// Whether `other` is a tag of the same name.
    pub(crate) fn same_name(&self, other: &Tok) -> bool {
        match (self.tag_name(), other.tag_name()) {
            (Some(a), Some(b)) => a == b,
            _ => false,
        }
    }

    /// The characters of a text token or the data of a comment; empty otherwise.
    /// `window` is the stream's: a buffered text token may be a range of it.
    pub(crate) fn text<'a, R: Read>(&'a self, window: &'a SourceWindow<R>) -> &'a str {
        match &self.token {
            Payload::Other(t) => match &**t {
                OwnedToken::Characters(t) | OwnedToken::Comment(t) => t.text(),
                _ => "",
            },
            Payload::Text(span) => window.text(span.start as u64, span.end as u64),
            _ => "",
        }
    }

    /// Whether this is a text token of HTML whitespace only (told when fetched).
    pub(crate) fn is_blank(&self) -> bool {
        self.blank
    }

    pub(crate) fn self_closing(&self) -> bool {
        self.tag().is_some_and(OwnedTag::self_closing)
    }

    pub(crate) fn attrs(&self) -> &[OwnedAttribute] {
        self.tag().map_or(&[], OwnedTag::attrs)
    }

    fn span(&self) -> Option<Span> {
        match &self.token {
            Payload::Start(t) | Payload::End(t) => t.span(),
            Payload::Text(span) => Some(*span),
            Payload::Eof => None,
            Payload::Other(t) => t.span(),
        }
    }

    /// Absolute decoded offset of the token's first byte.
    pub(crate) fn start(&self) -> u64 {
        self.span().map_or(0, |s| s.start as u64)
    }

    /// Absolute decoded offset one past the token's last byte.
    pub(crate) fn end(&self) -> u64 {
        self.span().map_or(0, |s| s.end as u64)
    }

    pub(crate) fn attr(&self, name: &str) -> Option<&str> {
        self.tag().and_then(|t| t.attr(name))
    }

    /// [`Tok::attr`] of a name that is a static atom: one compare per attribute,
    /// no text compared (the tokenizer names every such attribute by its atom).
    pub(crate) fn attr_atom(&self, name: Atom) -> Option<&str> {
        self.attrs()
            .iter()
            .find(|a| a.ns == AttrNamespace::None && a.name.is(name))
            .map(|a| a.value.as_str())
    }
}

/// The absolute decoded range of an attribute value read from the page.
pub(crate) trait ValueRange {
    fn value_start(&self) -> u64;
    fn value_end(&self) -> u64;
}

impl ValueRange for OwnedAttribute {
    fn value_start(&self) -> u64 {
        self.value_span.map_or(0, |s| s.start as u64)
    }

    fn value_end(&self) -> u64 {
        self.value_span.map_or(0, |s| s.end as u64)
    }
}

/// The token source of the reader.
pub(crate) struct TokenStream<'r, R: Read> {
    rules: &'r Rules,
    pub(crate) window: SourceWindow<R>,
    queue: VecDeque<Tok>,
    eof_queued: bool,
    sim: TextTypeSimulator,
    path: std::path::PathBuf,
    /// The tokenizer's error met while fetching ahead: returned when the reader
    /// gets to it (a fetch it asked for), as without fetching ahead.
    deferred: Option<L10nError>,
    /// Tags of spent tokens, reused for the next ones ([`OwnedTag::copy_from`]):
    /// no allocation per tag once their buffers have grown.
    spare: SpareTags,
    /// Attribute slots given up by reused tags with fewer attributes than before,
    /// for the next tags with more ([`OwnedTag::copy_from_reusing`]).
    spare_attrs: Vec<OwnedAttribute>,
    /// The forward scans' list of open inline elements (indexes of buffered
    /// tokens), reused from scan to scan ([`TokenStream::take_scratch`]).
    scratch: Vec<usize>,
}

/// Keeps `tok`'s tag in `spare` for reuse (bounded by [`MAX_SPARE_TAGS`]).
/// Inlined: only the token's kind and box are looked at, not the whole token
/// moved into a call.
#[inline(always)]
fn keep_spare(spare: &mut SpareTags, tok: Tok) {
    if let Payload::Start(tag) | Payload::End(tag) = tok.token
        && let Some(kind) = spare.get_mut(spare_kind(tag.attrs().len()))
        && kind.len() < MAX_SPARE_TAGS
    {
        kind.push(tag);
    }
}

/// A spent tag for a tag of `attrs` attributes: one of that count if kept,
/// else any, else a new one.
#[inline(always)]
fn take_spare(spare: &mut SpareTags, attrs: usize) -> Box<OwnedTag> {
    if let Some(tag) = spare.get_mut(spare_kind(attrs)).and_then(Vec::pop) {
        return tag;
    }
    spare
        .iter_mut()
        .find_map(Vec::pop)
        .unwrap_or_else(|| Box::new(OwnedTag::new(tagloom_html::atom::SPAN)))
}

/// The tokenizer the page reader's [`SourceWindow`] feeds.
pub(crate) fn tokenizer(rules: &Rules) -> Tokenizer {
    Tokenizer::new(TokenizerConfig {
        report_errors: false,
        max_token_bytes: rules.max_token_bytes,
        ..TokenizerConfig::default()
    })
}

impl<'r, R: Read> TokenStream<'r, R> {
    /// `window` holds a tokenizer made by [`tokenizer`] for `rules`.
    pub(crate) fn new(window: SourceWindow<R>, rules: &'r Rules, path: &std::path::Path) -> Self {
        TokenStream {
            rules,
            window,
            queue: VecDeque::new(),
            eof_queued: false,
            sim: TextTypeSimulator::new(SimulatorConfig {
                scripting: rules.noscript_rawtext,
                max_depth: rules.max_depth,
                ..SimulatorConfig::default()
            }),
            path: path.to_path_buf(),
            deferred: None,
            spare: Default::default(),
            spare_attrs: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Hands a spent token back: its tag is reused for a later one.
    pub(crate) fn recycle(&mut self, tok: Tok) {
        keep_spare(&mut self.spare, tok);
    }

    /// A token already buffered by [`TokenStream::peek`].
    pub(crate) fn buffered_token(&self, i: usize) -> Option<&Tok> {
        self.queue.get(i)
    }

    /// An empty list for a forward scan (reused: give it back with
    /// [`TokenStream::put_scratch`]).
    pub(crate) fn take_scratch(&mut self) -> Vec<usize> {
        std::mem::take(&mut self.scratch)
    }

    /// Takes back [`TokenStream::take_scratch`]'s list.
    pub(crate) fn put_scratch(&mut self, mut list: Vec<usize>) {
        list.clear();
        self.scratch = list;
    }

    /// Moves the buffered tokens into one slice for [`TokenStream::buffered_run`]
    /// (the queue is a ring: it may wrap).
    pub(crate) fn make_contiguous(&mut self) {
        self.queue.make_contiguous();
    }

    /// The next `len` buffered tokens (fewer when fewer are buffered), as one
    /// slice: those before the queue's wrap point, all of them after
    /// [`TokenStream::make_contiguous`].
    pub(crate) fn buffered_run(&self, len: usize) -> &[Tok] {
        let (head, _) = self.queue.as_slices();
        head.get(..len).unwrap_or(head)
    }

    /// Drops the next `n` buffered tokens (a few: popped one by one, which
    /// costs less than setting up and closing a drain of the ring); returns the
    /// least [`Tok::kept`] among them (`None` when none was buffered), found on
    /// the way rather than in a walk of its own.
    pub(crate) fn skip(&mut self, n: usize) -> Option<usize> {
        let mut kept = None;
        for _ in 0..n {
            let Some(tok) = self.queue.pop_front() else {
                break;
            };
            kept = Some(kept.map_or(tok.kept, |k: usize| k.min(tok.kept)));
            keep_spare(&mut self.spare, tok);
        }
        kept
    }

    /// The token `i` places ahead (0: the next one); `None` past EOF.
    pub(crate) fn peek(&mut self, i: usize) -> Result<Option<&Tok>> {
        if self.queue.len() <= i {
            self.refill(i + 1)?;
        }
        Ok(self.queue.get(i))
    }

    /// The next token.
    pub(crate) fn next(&mut self) -> Result<Option<Tok>> {
        if self.queue.is_empty() {
            self.refill(1)?;
        }
        Ok(self.queue.pop_front())
    }

    /// Fetches until `need` tokens are queued (or the input ends), then up to
    /// [`FETCH_AHEAD`] more from what the tokenizer holds.
    #[inline(never)]
    fn refill(&mut self, need: usize) -> Result<()> {
        // Nothing is fetched past a deferred error.
        if let Some(e) = self.deferred.take() {
            if self.queue.len() < need {
                return Err(e);
            }
            self.deferred = Some(e);
            return Ok(());
        }
        self.fetch(need, need + FETCH_AHEAD)
    }

    /// Queues tokens until `ahead` are queued, the input ends, or the tokenizer
    /// needs input while `need` are queued (input is read only for the first
    /// `need`). A tokenizer error met past the first `need` is kept in
    /// `deferred`, returned when the reader gets to it (as without fetching ahead).
    /// One loop for the whole stretch: the per-token work is a pass of it, not a
    /// call.
    fn fetch(&mut self, need: usize, ahead: usize) -> Result<()> {
        while self.queue.len() < ahead && !self.eof_queued {
            // The token is looked at where the tokenizer returned it (a view of
            // about 100 bytes): binding it by value would copy it once per
            // pattern on the way to its fields.
            let res = self.window.tok.next_token();
            let Ok(Some(token)) = &res else {
                if let Err(source) = res {
                    let e = L10nError::Tokenizer {
                        path: self.path.clone(),
                        source,
                    };
                    if self.queue.len() < need {
                        return Err(e);
                    }
                    self.deferred = Some(e);
                    return Ok(());
                }
                if self.queue.len() >= need {
                    return Ok(());
                }
                let path = &self.path;
                self.window
                    .fill()
                    .ctx(|| format!("reading {}", path.display()))?;
                continue;
            };
            // Other tokens keep the depth and switch nothing.
            let mut class = NameClass::default();
            let (token, effect, blank) = match token {
                Token::Characters(text) => {
                    // HTML whitespace is ASCII: a byte test is a character
                    // test (a byte of a longer character is none).
                    let blank = text.text.bytes().all(|b| super::is_ws(char::from(b)));
                    let effect = self.sim.characters(text.text);
                    if text.borrowed {
                        (Payload::Text(text.span), effect, blank)
                    } else {
                        let owned = Token::Characters(*text).to_owned();
                        (Payload::Other(Box::new(owned)), effect, blank)
                    }
                }
                Token::StartTag(tag) | Token::EndTag(tag) => {
                    let mut owned = take_spare(&mut self.spare, tag.attrs.len());
                    // Only the values the reader reads are copied (all of
                    // them for the tags whose attributes the simulator reads,
                    // as when it read the copy).
                    let (rules, slots) = (self.rules, &mut self.spare_attrs);
                    if TextTypeSimulator::ATTRIBUTE_TAGS.contains(&tag.name) {
                        owned.copy_from_reusing(tag, |_| true, slots);
                    } else {
                        owned.copy_from_reusing(tag, |name| rules.attr_class(name).read(), slots);
                    }
                    slots.truncate(MAX_SPARE_ATTRS);
                    class = self.rules.class_of(owned.name());
                    // The simulator reads the tokenizer's tag (the same name
                    // and, for its attribute tags, the same values as the copy).
                    if matches!(token, Token::StartTag(_)) {
                        let effect = self.sim.start_tag(tag);
                        (Payload::Start(owned), effect, false)
                    } else {
                        let effect = self.sim.end_tag(tag);
                        (Payload::End(owned), effect, false)
                    }
                }
                Token::Eof => {
                    let effect = self.sim.process_owned(&OwnedToken::Eof);
                    self.eof_queued = true;
                    (Payload::Eof, effect, false)
                }
                token => {
                    let owned = (*token).to_owned();
                    let effect = self.sim.process_owned(&owned);
                    (Payload::Other(Box::new(owned)), effect, false)
                }
            };
            if let Some(state) = effect.switch {
                self.window.tok.set_state(state.into());
            }
            self.window.tok.set_cdata_allowed(self.sim.cdata_allowed());
            self.queue.push_back(Tok {
                token,
                kept: effect.kept,
                opened_at: effect.opened_at,
                blank,
                class,
            });
        }
        Ok(())
    }
}
