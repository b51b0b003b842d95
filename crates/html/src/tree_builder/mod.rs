//! The HTML tree builder (§13.2.6 "tree construction", with the 2026 changes of
//! `spec/parsing.md` Part A): tokens in, [`DomPatch`]es out.
//!
//! The builder keeps a lightweight mirror of the tree it has described (names,
//! namespaces, links) — enough for foster parenting, the adoption agency algorithm
//! and text coalescing — and never builds a DOM. Patches accumulate in a buffer the
//! caller drains with [`TreeBuilder::take_patches`] — or, with a [`TreeSink`] of the
//! caller's ([`TreeBuilder::with_sink`]) or on the driver's store path, go straight
//! to the sink (see [`sink`]). Most callers want the
//! [`driver`](crate::driver) over an
//! [`Html5ParseSession`](crate::session::Html5ParseSession), which wires the
//! decoder, tokenizer and tree builder together.
//!
//! Parse errors are recorded with a code and the offset of the token being
//! processed ([`TreeBuilder::errors`]; an error about one character of verbatim
//! text is at that character); the session adds line and column.
//!
//! ```
//! use tagloom_html::dom::{self, DomStore};
//! use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
//! use tagloom_html::tree_builder::{TreeBuilder, TreeBuilderConfig};
//!
//! let mut tok = Tokenizer::new(TokenizerConfig::default());
//! let mut tb = TreeBuilder::new(TreeBuilderConfig::default());
//! tok.push_str("<p>Hi<b>there");
//! tok.finish();
//! while let Some(token) = tok.next_token().unwrap() {
//!     tb.process_token(token).unwrap();
//!     if let Some(state) = tb.take_tokenizer_state() {
//!         tok.set_state(state.into());
//!     }
//!     tok.set_cdata_allowed(tb.cdata_allowed());
//! }
//! let mut store = DomStore::new();
//! store.apply_patches(&tb.take_patches()).unwrap();
//! assert_eq!(
//!     dom::dump_document(&store),
//!     "| <html>\n|   <head>\n|   <body>\n|     <p>\n|       \"Hi\"\n|       <b>\n|         \"there\"\n"
//! );
//! ```
//!
//! Where things are (one spec concept per file): `stack.rs` (13.2.4.2 stack of
//! open elements and scopes), `open_stack.rs` (the stack and its index), `formatting.rs` (13.2.4.3 active formatting
//! elements), `adoption.rs` (the adoption agency algorithm), `insert.rs`
//! (13.2.6.1 / A.3 creating and inserting nodes, foster parenting),
//! `reset_mode.rs` (A.1 reset the insertion mode), `tag_sets.rs` (element
//! categories), `foreign.rs` (SVG/MathML adjustments, integration points),
//! `quirks.rs` (DOCTYPE → document mode), `selectedcontent.rs` (customizable
//! `<select>`), `mirror.rs` (what the builder remembers of the tree),
//! `mirror/compact.rs` and `compaction.rs` (forgetting what it will never read
//! again), and
//! `modes/` (13.2.6.4.x, one file per insertion mode, plus 13.2.6.5 foreign
//! content).
//!
//! Limits: [`TreeBuilderConfig::max_depth`] is Chromium's
//! `kMaximumHTMLParserDOMTreeDepth` rule, exactly: while more than `max_depth`
//! elements are open, a new element, comment or processing instruction is
//! attached to the *parent* of the node it would go into (foster parenting and
//! text are not limited) — and an element is still opened, so what follows it
//! (text, end tags) behaves as in Chromium. The tree's depth stays bounded; the
//! stack of open elements does not, so it keeps an index (`open_stack.rs`) that
//! answers the scope checks and walks of every token in constant time, and even
//! 100 000 unclosed `<div>`s parse in linear time.

mod adoption;
mod append_run;
mod compaction;
pub(crate) mod foreign;
mod formatting;
mod insert;
mod mirror;
mod modes;
mod open_stack;
mod quirks;
mod reset_mode;
mod script_host;
mod selectedcontent;
pub mod sink;
mod stack;
pub(crate) mod tag_sets;

use crate::atom::{self, Atom};
use crate::dom_patch::{DetachedText, DomPatch, Namespace, PatchAttr, PatchKey, QuirksMode};
use crate::error::{ErrorCode, TreeError};
use crate::token::{OwnedToken, Token};

pub use append_run::{AppendRun, RunStep};
pub use compaction::MirrorCompaction;
use formatting::FormattingList;
use mirror::{Kind, Mirror, NodeId};
use open_stack::OpenStack;
pub use script_host::DomChange;
use selectedcontent::SelectTracker;
pub use sink::{AttrIter, AttrName, AttrRef, ElementAttrs, NewElement, TreeSink};
use sink::{Emitter, Target};

/// The settings of a [`TreeBuilder`].
#[derive(Clone, Debug)]
pub struct TreeBuilderConfig {
    /// The scripting flag (A.1 "scripting mode" is not *Disabled*): `noscript`
    /// content is raw text when on, markup when off.
    pub scripting: bool,
    /// Parse a fragment in this context element (A.9) instead of a document.
    pub fragment_context: Option<FragmentContext>,
    /// The number of open elements above which new nodes are attached to the
    /// current node's parent (see the module docs). Default 512, Chromium's
    /// `kMaximumHTMLParserDOMTreeDepth`; values below 2 count as 2.
    pub max_depth: usize,
    /// The most entries the list of active formatting elements holds after its
    /// last marker (values below 3 count as 3). Pushing one more drops the earliest
    /// of them, as the Noah's Ark clause drops the earliest of four equal ones.
    /// The spec has no such bound, and without one each push compares the new
    /// element with every entry, and each text reconstructs every entry: input of
    /// distinct unclosed formatting elements (`<b id=1><b id=2>…`) costs quadratic
    /// time. Default 256: real pages keep a few dozen open at most.
    pub max_active_formatting: usize,
    /// The key of the first node created (at least 1). A restarted parse uses a
    /// base above every key of the previous one, so keys are never reused.
    pub first_key: u64,
    /// Return [`TreeBuilderStep::Suspend`] after a `</script>` end tag in HTML
    /// content (where a browser would run the script).
    pub suspend_at_script: bool,
    /// The most parse errors held at once (see [`TreeBuilder::take_errors`]); past
    /// it they are only counted ([`TreeBuilder::error_count`] counts them all).
    /// Default 65 536, as the tokenizer's.
    pub max_errors: usize,
    /// When the builder's mirror of the tree forgets closed nodes it will never
    /// read again (see [`MirrorCompaction`]; patches and keys are the same
    /// either way). Checked by the session at the end of each pump; a tree
    /// builder driven directly never compacts. Default [`MirrorCompaction::Never`].
    pub mirror_compaction: MirrorCompaction,
}

impl Default for TreeBuilderConfig {
    fn default() -> Self {
        TreeBuilderConfig {
            scripting: false,
            fragment_context: None,
            max_depth: 512,
            max_active_formatting: 256,
            first_key: 1,
            suspend_at_script: false,
            max_errors: 1 << 16,
            mirror_compaction: MirrorCompaction::Never,
        }
    }
}

/// The context element of fragment parsing (A.9).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FragmentContext {
    /// Its namespace.
    pub ns: Namespace,
    /// Its local name (`td`, `path`, `foreignObject`; compared ASCII-lowercased).
    pub local_name: String,
    /// Its attributes (only `encoding` of a MathML `annotation-xml` matters).
    pub attrs: Vec<PatchAttr>,
    /// Whether it is, or is inside, a `form` element (sets the form pointer).
    pub in_form: bool,
    /// The document's mode (A.9 steps 6–7).
    pub quirks_mode: QuirksMode,
}

impl FragmentContext {
    /// A context element without attributes, outside any form, in a no-quirks
    /// document.
    pub fn new(ns: Namespace, local_name: impl Into<String>) -> FragmentContext {
        FragmentContext {
            ns,
            local_name: local_name.into(),
            attrs: Vec::new(),
            in_form: false,
            quirks_mode: QuirksMode::NoQuirks,
        }
    }
}

/// What processing one token asks of the caller.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TreeBuilderStep {
    /// Feed the next token.
    Continue,
    /// Stop pumping here; the next token continues exactly after this one.
    Suspend(SuspendReason),
}

/// Why the tree builder (or the session) suspended.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SuspendReason {
    /// A `script` element was just closed (13.2.6.4.8 "text": `</script>`).
    Script,
    /// A batch is ready under
    /// [`BatchPolicy::Bounded`](crate::session::BatchPolicy::Bounded): take it and
    /// pump again. Only an [`Html5ParseSession`](crate::session::Html5ParseSession)
    /// returns this, never the tree builder itself.
    BatchReady,
}

/// The tokenizer state the tree builder asks for after a token (§13.2.6.2 and
/// `<plaintext>`); the caller applies it before reading the next token.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TokenizerSwitch {
    /// RCDATA (`title`, `textarea`).
    Rcdata,
    /// RAWTEXT (`style`, `xmp`, `iframe`, `noembed`, `noframes`, `noscript`).
    Rawtext,
    /// Script data (`script`).
    ScriptData,
    /// PLAINTEXT (`plaintext`).
    Plaintext,
}

impl From<TokenizerSwitch> for crate::tokenizer::State {
    fn from(s: TokenizerSwitch) -> Self {
        use crate::tokenizer::State;
        match s {
            TokenizerSwitch::Rcdata => State::Rcdata,
            TokenizerSwitch::Rawtext => State::Rawtext,
            TokenizerSwitch::ScriptData => State::ScriptData,
            TokenizerSwitch::Plaintext => State::Plaintext,
        }
    }
}

/// A `<meta>` in "in head" that declares a character encoding (13.2.6.4.4), for
/// the session's "change the encoding".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EncodingRequest {
    /// The declared encoding (`charset`, or from `content` with `http-equiv`),
    /// not yet adjusted.
    pub encoding: &'static crate::decoder::Encoding,
    /// Offset of the `<meta>` in the decoded input.
    pub offset: usize,
}

/// A violated engine invariant: a bug, not a property of the input.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum TreeBuilderError {
    /// A token arrived after end of file was processed.
    #[error("token after end of file")]
    TokenAfterEof,
    /// Borrowed tokens ([`TreeBuilder::process_token`]) and owned ones
    /// ([`TreeBuilder::process_owned`]) were mixed: their dynamic atoms come from
    /// different tables, so one tree builder takes one kind.
    #[error("borrowed and owned tokens mixed in one tree builder")]
    MixedTokenSources,
}

/// Which kind of token a tree builder has been fed (see
/// [`TreeBuilderError::MixedTokenSources`]).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(crate) enum TokenSource {
    #[default]
    None,
    Borrowed,
    Owned,
}

/// The atom table and scratch space [`TreeBuilder::process_owned`] views owned
/// tokens through.
#[derive(Debug, Default)]
pub(crate) struct OwnedTokenAtoms {
    atoms: crate::atom::AtomTable,
    names: Vec<Atom>,
}

/// 13.2.4.1 the insertion modes (A.1: no "in select" ones any more).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum InsertionMode {
    Initial,
    BeforeHtml,
    BeforeHead,
    InHead,
    InHeadNoscript,
    AfterHead,
    InBody,
    Text,
    InTable,
    InTableText,
    InCaption,
    InColumnGroup,
    InTableBody,
    InRow,
    InCell,
    InTemplate,
    AfterBody,
    InFrameset,
    AfterFrameset,
    AfterAfterBody,
    AfterAfterFrameset,
}

/// What a mode's rules decided about the token.
pub(crate) enum Flow<'a> {
    /// Done with it.
    Done,
    /// Reprocess (this token, or what is left of a character run) in the current
    /// insertion mode.
    Reprocess(Token<'a>),
    /// Done, and suspend the parser.
    Suspend(SuspendReason),
}

/// The HTML tree builder. See the [module docs](self).
#[derive(Debug)]
pub struct TreeBuilder {
    pub(crate) config: TreeBuilderConfig,
    pub(crate) mirror: Mirror,
    pub(crate) document: NodeId,
    /// Fragment case: the context element (a mirror node never emitted).
    pub(crate) context: Option<NodeId>,
    /// Fragment case: the `html` root holding the fragment's nodes.
    pub(crate) fragment_root: Option<NodeId>,
    pub(crate) mode: InsertionMode,
    pub(crate) original_mode: InsertionMode,
    pub(crate) template_modes: Vec<InsertionMode>,
    pub(crate) open: OpenStack,
    pub(crate) active: FormattingList,
    pub(crate) head: Option<NodeId>,
    pub(crate) form: Option<NodeId>,
    pub(crate) frameset_ok: bool,
    pub(crate) foster_parenting: bool,
    /// 13.2.6.4.10 "pending table character tokens".
    pub(crate) pending_table_text: String,
    pub(crate) pending_table_text_non_ws: bool,
    /// Ignore a LF at the start of the next token (`pre`, `listing`, `textarea`).
    pub(crate) skip_newline: bool,
    pub(crate) quirks: QuirksMode,
    /// Where the created nodes and links go: patches (the default), a store, or
    /// a program's [`TreeSink`].
    pub(crate) emit: Emitter,
    /// Parse errors counted (held or not).
    pub(crate) errors: usize,
    /// Parse errors held, at most `config.max_errors`.
    pub(crate) error_log: Vec<TreeError>,
    /// The offset errors of the current token are reported at.
    pub(crate) token_offset: Option<usize>,
    /// The end of the furthest token span seen: where end of file is.
    pub(crate) input_end: Option<usize>,
    /// For a character token whose text is verbatim input: the address and length
    /// of that text and its source offset, so an error about one character (a NUL,
    /// an ignored character) is reported at that character.
    pub(crate) text_origin: Option<(usize, usize, usize)>,
    pub(crate) tokenizer_switch: Option<TokenizerSwitch>,
    pub(crate) encoding_request: Option<EncodingRequest>,
    pub(crate) finished: bool,
    pub(crate) select_tracker: SelectTracker,
    pub(crate) token_source: TokenSource,
    /// Made at the first owned token; out of its place while a token is
    /// processed (taking it leaves `None`: no empty table made and dropped per
    /// token).
    pub(crate) owned_atoms: Option<OwnedTokenAtoms>,
    /// The `script` element of the last [`SuspendReason::Script`].
    pub(crate) last_script: Option<NodeId>,
    /// The mirror size at which it is compacted next (see `compaction.rs`).
    pub(crate) compact_at: usize,
    /// The first node created since the store was attached: the store slots
    /// the mirror records are trusted from here on (see [`TreeBuilder::slot`];
    /// an earlier attach's store may have been changed by its owner since).
    pub(crate) slot_floor: NodeId,
}

/// Whether `name` is an HTML element of the spec's "formatting" category
/// (13.2.4.2: `a`, `b`, `big`, `code`, `em`, `font`, `i`, `nobr`, `s`, `small`,
/// `strike`, `strong`, `tt`, `u`): the elements the list of active formatting
/// elements holds and the adoption agency reparents.
///
/// ```
/// use tagloom_html::tree_builder::is_formatting_element;
/// assert!(is_formatting_element("nobr"));
/// assert!(!is_formatting_element("div"));
/// ```
pub fn is_formatting_element(name: &str) -> bool {
    Atom::lookup_static(name.as_bytes()).is_some_and(is_formatting_atom)
}

/// [`is_formatting_element`] of a static atom (no name lookup).
///
/// ```
/// use tagloom_html::atom;
/// use tagloom_html::tree_builder::is_formatting_atom;
/// assert!(is_formatting_atom(atom::B));
/// assert!(!is_formatting_atom(atom::P));
/// ```
pub fn is_formatting_atom(name: Atom) -> bool {
    tag_sets::is_formatting(name)
}

/// The tree builder's element categories of the HTML element `name` (the
/// spec's 13.2.4.2 and A.1 lists, as `tag_sets` holds them), for code that
/// reasons about what a parse would do with a tree (the sanitizer's proof that
/// its output re-parses to itself).
///
/// ```
/// use tagloom_html::atom;
/// use tagloom_html::tree_builder::html_element_categories;
/// let div = html_element_categories(atom::DIV);
/// assert!(div.special && !div.scope_boundary && !div.implied_end_tag);
/// assert!(html_element_categories(atom::TD).scope_boundary);
/// ```
pub fn html_element_categories(name: Atom) -> ElementCategories {
    ElementCategories {
        special: tag_sets::is_special_html(name),
        formatting: tag_sets::is_formatting(name),
        scope_boundary: tag_sets::SCOPE_BOUNDARIES_HTML.contains(&name),
        implied_end_tag: tag_sets::has_implied_end_tag(name),
        heading: tag_sets::is_heading(name),
    }
}

/// See [`html_element_categories`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ElementCategories {
    /// The "special" category.
    pub special: bool,
    /// The "formatting" category.
    pub formatting: bool,
    /// A boundary of "has an element in scope" (the default scope).
    pub scope_boundary: bool,
    /// Popped by "generate implied end tags".
    pub implied_end_tag: bool,
    /// `h1`–`h6`.
    pub heading: bool,
}

impl TreeBuilder {
    /// A tree builder; the first patches (`CreateDocument`, and in the fragment
    /// case the `html` root) are already buffered.
    pub fn new(config: TreeBuilderConfig) -> TreeBuilder {
        TreeBuilder::with_emitter(config, Emitter::patches())
    }

    /// A tree builder that hands what it builds to `sink` instead of buffering
    /// patches ([`take_patches`](Self::take_patches) then finds none). See
    /// [`TreeSink`].
    pub fn with_sink(config: TreeBuilderConfig, sink: Box<dyn TreeSink + Send>) -> TreeBuilder {
        let mut emit = Emitter::patches();
        emit.target = Target::Custom(sink);
        TreeBuilder::with_emitter(config, emit)
    }

    /// A tree builder writing to `emit` (a restart keeps its sink).
    pub(crate) fn with_emitter(config: TreeBuilderConfig, emit: Emitter) -> TreeBuilder {
        let mut mirror = Mirror::new(config.first_key);
        let document = mirror.add(Kind::Document);
        let mut tb = TreeBuilder {
            mirror,
            document,
            context: None,
            fragment_root: None,
            mode: InsertionMode::Initial,
            original_mode: InsertionMode::Initial,
            template_modes: Vec::new(),
            open: OpenStack::default(),
            active: FormattingList::default(),
            head: None,
            form: None,
            frameset_ok: true,
            foster_parenting: false,
            pending_table_text: String::new(),
            pending_table_text_non_ws: false,
            skip_newline: false,
            quirks: QuirksMode::NoQuirks,
            emit,
            errors: 0,
            error_log: Vec::new(),
            token_offset: None,
            input_end: None,
            text_origin: None,
            tokenizer_switch: None,
            encoding_request: None,
            finished: false,
            select_tracker: SelectTracker::default(),
            last_script: None,
            token_source: TokenSource::None,
            owned_atoms: None,
            compact_at: config.mirror_compaction.due_at(0),
            slot_floor: 0,
            config,
        };
        let key = tb.mirror.key(document);
        tb.emit.create_document(key);
        if let Some(context) = tb.config.fragment_context.clone() {
            tb.start_fragment(&context);
        }
        tb
    }

    /// A.9 steps 6–20 (the parts that concern the tree builder).
    fn start_fragment(&mut self, context: &FragmentContext) {
        if context.quirks_mode != QuirksMode::NoQuirks {
            self.set_quirks(context.quirks_mode);
        }
        let lower = context.local_name.to_ascii_lowercase();
        let name = Atom::lookup_static(lower.as_bytes()).unwrap_or(atom::HTML);
        let encoding = context
            .attrs
            .iter()
            .find(|a| a.name == "encoding")
            .map(|a| a.value.as_str());
        let html_ip = insert::is_html_integration_point(context.ns, name, encoding);
        // The context element is mirrored (for the reset algorithm and the
        // integration point checks) but never emitted.
        let ctx = self.mirror.add_element(
            context.ns,
            name,
            context.local_name.clone().into(),
            ElementAttrs::list(&context.attrs),
            html_ip,
        );
        self.context = Some(ctx);
        // Steps 12–14: the root `html`, alone on the stack.
        let root = self.create_element(
            Namespace::Html,
            atom::HTML,
            "html".into(),
            ElementAttrs::none(),
        );
        self.append_to(self.document, root);
        self.open.push(root, &self.mirror);
        self.fragment_root = Some(root);
        // Step 11: the tokenizer state.
        self.tokenizer_switch =
            crate::text_type::fragment_context_state(context.ns, name, self.config.scripting);
        // Step 17.
        if context.ns == Namespace::Html && name == atom::TEMPLATE {
            self.template_modes.push(InsertionMode::InTemplate);
        }
        // Step 19.
        self.reset_insertion_mode();
        // Step 20.
        if context.in_form || (context.ns == Namespace::Html && name == atom::FORM) {
            self.form = Some(ctx);
        }
    }

    /// Processes one token (13.2.6 "tree construction dispatcher").
    ///
    /// Malformed markup never fails (parse errors are recorded, see
    /// [`errors`](Self::errors) and [`error_count`](Self::error_count)); the only error is a caller bug: a
    /// token after [`Token::Eof`].
    pub fn process_token(&mut self, token: Token<'_>) -> Result<TreeBuilderStep, TreeBuilderError> {
        self.check_source(TokenSource::Borrowed)?;
        let span = (!matches!(token, Token::Eof)).then(|| token.span());
        self.note_span(span);
        self.text_origin = match &token {
            Token::Characters(t) if t.borrowed => {
                Some((t.text.as_ptr() as usize, t.text.len(), t.span.start))
            }
            _ => None,
        };
        self.process(token)
    }

    /// Processes one owned token: tokens from any source (a transform pipeline, the
    /// wikitext front end, a program). A tree builder takes either owned tokens or
    /// borrowed ones from one tokenizer, never both.
    ///
    /// ```
    /// use tagloom_html::atom;
    /// use tagloom_html::dom::{DomStore, dump_document};
    /// use tagloom_html::token::{OwnedTag, OwnedToken};
    /// use tagloom_html::tree_builder::{TreeBuilder, TreeBuilderConfig};
    ///
    /// let mut tb = TreeBuilder::new(TreeBuilderConfig::default());
    /// for token in [
    ///     OwnedToken::StartTag(OwnedTag::new(atom::P).with_attr("class", "x")),
    ///     OwnedToken::text("hi"),
    ///     OwnedToken::Eof,
    /// ] {
    ///     tb.process_owned(&token).unwrap();
    /// }
    /// let mut store = DomStore::new();
    /// store.apply_patches(&tb.take_patches()).unwrap();
    /// assert!(dump_document(&store).contains("|     <p>\n|       class=\"x\"\n|       \"hi\""));
    /// ```
    pub fn process_owned(
        &mut self,
        token: &OwnedToken,
    ) -> Result<TreeBuilderStep, TreeBuilderError> {
        self.check_source(TokenSource::Owned)?;
        self.note_span(token.span());
        self.text_origin = None;
        let mut owned = self.owned_atoms.take().unwrap_or_default();
        owned.names.clear();
        token.intern_names(&mut owned.atoms, &mut owned.names);
        let result = self.process(token.view(&owned.atoms, &owned.names));
        self.owned_atoms = Some(owned);
        result
    }

    /// Sets where the errors of the next token are reported: its span's start, or
    /// for end of file the end of the furthest span seen.
    fn note_span(&mut self, span: Option<crate::span::Span>) {
        self.token_offset = match span {
            Some(span) => {
                self.input_end = Some(self.input_end.map_or(span.end, |e| e.max(span.end)));
                Some(span.start)
            }
            None => self.input_end,
        };
    }

    /// Tells the builder where the input ends, for the errors of end of file (the
    /// session passes the tokenizer's position: the furthest token span can end
    /// earlier, e.g. before an unterminated tag).
    pub(crate) fn note_input_end(&mut self, offset: usize) {
        self.input_end = Some(self.input_end.map_or(offset, |e| e.max(offset)));
    }

    #[inline]
    fn check_source(&mut self, source: TokenSource) -> Result<(), TreeBuilderError> {
        if self.token_source == source {
            return Ok(());
        }
        self.first_source(source)
    }

    #[cold]
    fn first_source(&mut self, source: TokenSource) -> Result<(), TreeBuilderError> {
        match self.token_source {
            TokenSource::None => {
                self.token_source = source;
                Ok(())
            }
            current if current == source => Ok(()),
            _ => Err(TreeBuilderError::MixedTokenSources),
        }
    }

    fn process(&mut self, token: Token<'_>) -> Result<TreeBuilderStep, TreeBuilderError> {
        if self.finished {
            return Err(TreeBuilderError::TokenAfterEof);
        }
        // The most common token of all, text in the body, straight to its rule
        // (what "in body" does with it, without the mode dispatch).
        if let Token::Characters(t) = &token
            && self.mode == InsertionMode::InBody
            && !self.skip_newline
            && self.adjusted_current_surely_html()
        {
            self.in_body_characters(t.text);
            self.after_token();
            return Ok(TreeBuilderStep::Continue);
        }
        let mut token = token;
        if std::mem::take(&mut self.skip_newline)
            && let Token::Characters(mut text) = token
            && let Some(rest) = text.text.strip_prefix('\n')
        {
            if rest.is_empty() {
                return Ok(TreeBuilderStep::Continue);
            }
            text.text = rest;
            token = Token::Characters(text);
        }
        let mut flow = if self.use_html_rules(&token) {
            self.process_in_mode(token)
        } else {
            self.foreign_content(token)
        };
        loop {
            match flow {
                Flow::Done => break,
                Flow::Suspend(reason) => {
                    self.after_token();
                    return Ok(TreeBuilderStep::Suspend(reason));
                }
                Flow::Reprocess(t) => flow = self.process_in_mode(t),
            }
        }
        self.after_token();
        if matches!(token, Token::Eof) {
            self.finished = true;
            self.release_after_eof();
        }
        Ok(TreeBuilderStep::Continue)
    }

    /// After end of file nothing reads the mirror or the parsing state again (only
    /// the keys, which are arithmetic): free them, so a caller that keeps the
    /// session while it applies the last batches does not hold a second copy of
    /// the tree's shape (about 64 bytes per node).
    fn release_after_eof(&mut self) {
        self.mirror.release();
        self.open = OpenStack::default();
        self.active = FormattingList::default();
        self.template_modes = Vec::new();
        self.pending_table_text = String::new();
        self.select_tracker = SelectTracker::default();
    }

    /// Work after each token: the option "popped" steps (inline: almost always
    /// there is no option to watch).
    #[inline]
    fn after_token(&mut self) {
        if !self.select_tracker.watched.is_empty() {
            self.check_popped_options();
        }
    }

    /// 13.2.6: whether the token goes to the insertion mode (true) or to the rules
    /// for foreign content (false).
    fn use_html_rules(&self, token: &Token<'_>) -> bool {
        if self.adjusted_current_surely_html() {
            return true;
        }
        let Some(node) = self.adjusted_current_node() else {
            return true;
        };
        let Some(e) = self.mirror.elem(node) else {
            return true;
        };
        if e.ns == Namespace::Html {
            return true;
        }
        let mathml_text_ip =
            e.ns == Namespace::MathMl && foreign::is_mathml_text_integration_point(e.name);
        match token {
            Token::StartTag(tag) => {
                (mathml_text_ip && tag.name != atom::MGLYPH && tag.name != atom::MALIGNMARK)
                    || (e.ns == Namespace::MathMl
                        && e.name == atom::ANNOTATION_XML
                        && tag.name == atom::SVG)
                    || e.html_integration_point
            }
            Token::Characters(_) => mathml_text_ip || e.html_integration_point,
            Token::Eof => true,
            _ => false,
        }
    }

    /// Applies the rules of the current insertion mode.
    pub(crate) fn process_in_mode<'a>(&mut self, token: Token<'a>) -> Flow<'a> {
        self.process_using(self.mode, token)
    }

    /// "Process the token using the rules for" `mode`.
    pub(crate) fn process_using<'a>(&mut self, mode: InsertionMode, token: Token<'a>) -> Flow<'a> {
        use InsertionMode::*;
        match mode {
            Initial => self.initial(token),
            BeforeHtml => self.before_html(token),
            BeforeHead => self.before_head(token),
            InHead => self.in_head(token),
            InHeadNoscript => self.in_head_noscript(token),
            AfterHead => self.after_head(token),
            InBody => self.in_body(token),
            Text => self.text(token),
            InTable => self.in_table(token),
            InTableText => self.in_table_text(token),
            InCaption => self.in_caption(token),
            InColumnGroup => self.in_column_group(token),
            InTableBody => self.in_table_body(token),
            InRow => self.in_row(token),
            InCell => self.in_cell(token),
            InTemplate => self.in_template(token),
            AfterBody => self.after_body(token),
            InFrameset => self.in_frameset(token),
            AfterFrameset => self.after_frameset(token),
            AfterAfterBody => self.after_after_body(token),
            AfterAfterFrameset => self.after_after_frameset(token),
        }
    }

    /// Takes the patches buffered so far.
    pub fn take_patches(&mut self) -> Vec<DomPatch> {
        std::mem::take(&mut self.emit.patches.patches)
    }

    /// Removes and yields the patches buffered so far, keeping the buffer's
    /// capacity (a caller that consumes patches after every token allocates no
    /// new buffer each time).
    pub fn drain_patches(&mut self) -> std::vec::Drain<'_, DomPatch> {
        self.emit.patches.patches.drain(..)
    }

    /// Takes the patches buffered so far and leaves an empty buffer with room for
    /// `capacity` patches (so a streaming caller does not regrow it per batch).
    pub(crate) fn take_patches_reserving(&mut self, capacity: usize) -> Vec<DomPatch> {
        std::mem::replace(&mut self.emit.patches.patches, Vec::with_capacity(capacity))
    }

    /// From now on, writes the tree into `store` instead of buffering patches
    /// (the driver's store path; `store` holds what this builder emitted so
    /// far). Pending patches must have been taken first.
    pub(crate) fn attach_store(&mut self, store: crate::dom::DomStore) {
        debug_assert!(self.emit.patches.patches.is_empty());
        self.emit.target = Target::Store(crate::dom::StoreSink::new(store));
        self.slot_floor = self.mirror.len();
    }

    /// Back to patches: the store written since [`attach_store`](Self::attach_store),
    /// with the first error it met.
    pub(crate) fn detach_store(
        &mut self,
    ) -> Option<(crate::dom::DomStore, Option<crate::dom::PatchError>)> {
        if self.emit.reads_attrs() {
            self.keep_sink_attrs();
        }
        self.slot_floor = self.mirror.len();
        match std::mem::replace(&mut self.emit.target, Target::Patches) {
            Target::Store(sink) => Some(sink.finish()),
            other => {
                self.emit.target = other;
                None
            }
        }
    }

    /// The sink, for the tree builder of a restarted parse: a store is cleared
    /// (what `Clear` does) and kept; `true` when the next batch must start with
    /// `Clear` instead (patches, a program's sink). Pending patches are dropped.
    pub(crate) fn take_emitter_for_restart(&mut self) -> (Emitter, bool) {
        let mut emit = Emitter::patches();
        let clear_pending = match std::mem::replace(&mut self.emit.target, Target::Patches) {
            Target::Store(mut sink) => {
                sink.clear();
                emit.target = Target::Store(sink);
                false
            }
            other => {
                emit.target = other;
                true
            }
        };
        (emit, clear_pending)
    }

    /// Keeps the texts of text patches beside the patches from now on. Only
    /// while no pending patch carries text of its own (the texts are read in
    /// patch order); otherwise nothing changes and the caller may try again
    /// after taking the patches.
    pub(crate) fn detach_text(&mut self) {
        if self.emit.patches.detached.is_some() {
            return;
        }
        let text_pending = self.emit.patches.patches.iter().any(|p| {
            matches!(
                p,
                DomPatch::CreateText { .. }
                    | DomPatch::AppendText { .. }
                    | DomPatch::CreateComment { .. }
            )
        });
        if !text_pending {
            self.emit.patches.detached = Some(DetachedText::default());
        }
    }

    /// In detached mode, takes the texts of the patches taken with them and
    /// continues in `spare`.
    pub(crate) fn take_detached(&mut self, spare: DetachedText) -> Option<DetachedText> {
        self.emit
            .patches
            .detached
            .as_mut()
            .map(|texts| std::mem::replace(texts, spare))
    }

    /// Makes room for `additional` more buffered patches (a bounded batch's worth
    /// up front, instead of doubling up to it).
    pub(crate) fn reserve_patches(&mut self, additional: usize) {
        self.emit.patches.patches.reserve(additional);
    }

    /// Takes the patches buffered so far and continues in `spare` (an emptied
    /// buffer handed back by the consumer: no allocation per batch).
    pub(crate) fn take_patches_into(&mut self, spare: Vec<DomPatch>) -> Vec<DomPatch> {
        debug_assert!(spare.is_empty());
        std::mem::replace(&mut self.emit.patches.patches, spare)
    }

    /// Tells the builder to expect about `additional` more nodes (the session
    /// passes an estimate from the input length). The mirror grows in fixed-size
    /// segments and never copies its nodes, so this only sizes the first segment
    /// of a mirror that holds no node yet.
    pub(crate) fn reserve_nodes(&mut self, additional: usize) {
        self.mirror.reserve(additional);
    }

    /// The number of elements on the stack of open elements (the fragment root
    /// included): past [`TreeBuilderConfig::max_depth`] the depth rule applies.
    pub fn open_elements(&self) -> usize {
        self.open.len()
    }

    /// How many patches are buffered.
    pub fn pending_patches(&self) -> usize {
        self.emit.patches.patches.len()
    }

    /// The tokenizer state switch requested by the last token, if any (take it
    /// before reading the next token).
    pub fn take_tokenizer_state(&mut self) -> Option<TokenizerSwitch> {
        self.tokenizer_switch.take()
    }

    /// Whether a tokenizer switch or an encoding declaration waits to be taken
    /// (one test for the two on a driver's per-token path).
    #[inline]
    pub(crate) fn has_requests(&self) -> bool {
        self.tokenizer_switch.is_some() || self.encoding_request.is_some()
    }

    /// A `<meta>` encoding declaration seen by the last token, if any.
    pub fn take_encoding_request(&mut self) -> Option<EncodingRequest> {
        self.encoding_request.take()
    }

    /// Whether the tokenizer may open CDATA sections: there is an adjusted current
    /// node and it is not in the HTML namespace (13.2.5.42).
    pub fn cdata_allowed(&self) -> bool {
        if self.adjusted_current_surely_html() {
            return false;
        }
        self.adjusted_current_node()
            .and_then(|n| self.mirror.elem(n))
            .is_some_and(|e| e.ns != Namespace::Html)
    }

    /// The number of tree-construction parse errors so far (held, taken and
    /// dropped past [`TreeBuilderConfig::max_errors`]).
    pub fn error_count(&self) -> usize {
        self.errors
    }

    /// The parse errors held (not yet taken), in the order found.
    pub fn errors(&self) -> &[TreeError] {
        &self.error_log
    }

    /// Takes the parse errors held, making room for more.
    pub fn take_errors(&mut self) -> Vec<TreeError> {
        std::mem::take(&mut self.error_log)
    }

    /// Removes and yields the errors held, keeping the buffer (the session's
    /// per-token path).
    pub(crate) fn drain_errors(&mut self) -> std::vec::Drain<'_, TreeError> {
        self.error_log.drain(..)
    }

    /// The document's mode.
    pub fn quirks_mode(&self) -> QuirksMode {
        self.quirks
    }

    /// The document node's key.
    pub fn document_key(&self) -> PatchKey {
        self.mirror.key(self.document)
    }

    /// In the fragment case, the key of the `html` root whose children are the
    /// fragment's nodes.
    pub fn fragment_root_key(&self) -> Option<PatchKey> {
        self.fragment_root.map(|r| self.mirror.key(r))
    }

    /// The key the next created node will get (a restarted parse starts above it).
    pub fn next_key(&self) -> u64 {
        self.mirror.next_key()
    }

    /// Whether [`Token::Eof`] has been processed.
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Records a tree-construction parse error at the current token.
    pub(crate) fn parse_error(&mut self, code: ErrorCode) {
        self.parse_errors(code, 1);
    }

    /// One error for each character of `text` that `is_error` says is one, at that
    /// character when `text` is part of the current token's verbatim text (else at
    /// the token).
    pub(crate) fn text_errors(
        &mut self,
        code: ErrorCode,
        text: &str,
        is_error: impl Fn(char) -> bool,
    ) {
        let at_token = self.token_offset;
        // Where `text` starts in the source: pointer arithmetic on two live slices,
        // compared as addresses only (a slice of another allocation is never in
        // the token's range).
        let base = self.text_origin.and_then(|(addr, len, start)| {
            let at = text.as_ptr() as usize;
            (at >= addr && at + text.len() <= addr + len).then(|| start + (at - addr))
        });
        for (i, c) in text.char_indices() {
            if is_error(c) {
                if self.error_log.len() >= self.config.max_errors {
                    self.errors += 1;
                    continue;
                }
                self.token_offset = base.map(|b| b + i).or(at_token);
                self.parse_error(code);
            }
        }
        self.token_offset = at_token;
    }

    /// Records `count` errors of one kind at the current token (one per ignored
    /// character of a run).
    pub(crate) fn parse_errors(&mut self, code: ErrorCode, count: usize) {
        self.errors += count;
        let room = self.config.max_errors.saturating_sub(self.error_log.len());
        let error = TreeError {
            code,
            offset: self.token_offset,
        };
        self.error_log
            .extend(std::iter::repeat_n(error, count.min(room)));
    }

    pub(crate) fn set_quirks(&mut self, mode: QuirksMode) {
        self.quirks = mode;
        self.emit.set_quirks_mode(mode);
    }
}

#[cfg(test)]
mod tests;
