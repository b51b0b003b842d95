//! The driver: tokenizer → text-type simulator → open-element stack → handlers →
//! output.

use std::borrow::Cow;

use tagloom_html::atom::{self, Atom};
use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
use tagloom_html::token::{Tag, Text, Token};
use tagloom_html::tokenizer::{State, TextMode, Tokenizer, TokenizerConfig, TokenizerError};
use tagloom_html::tree_builder::TokenizerSwitch;

use super::content::NodeEdits;
use super::element::{
    ContentEdits, Element, ElementContent, ElementEdits, EndCallback, write_start_tag,
};
use super::error::RewriteError;
use super::handlers::{
    CommentFn, ContentFn, DoctypeFn, ElementFn, EndFn, EndTagFn, Handlers, TextFn,
};
use super::nodes::{Comment, Doctype, DocumentEnd, EndTag, TextChunk};
use super::output::{Output, OutputSink};
use super::selector::{ElementInfo, OpenStack, Program};

/// The rewriter's limits and modes. Memory is bounded by the stack of open
/// elements (`max_depth` entries), the largest token (`max_token_bytes`), a text
/// node held for a whole-text-node handler (`max_text_node_bytes`) and the budgets
/// of element-content handlers.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The largest tag, comment or DOCTYPE (bytes); past it the rewrite stops with
    /// [`RewriteError::TokenTooLarge`]. Text is never held, whatever its size
    /// (except for whole-text-node handlers).
    pub max_token_bytes: usize,
    /// The largest text node held for a [`Handlers::text_nodes`] handler; past it
    /// the rewrite stops with [`RewriteError::TextNodeTooLarge`].
    pub max_text_node_bytes: usize,
    /// The deepest the stack of open elements grows (the tree builder's limit,
    /// 512, by default): deeper elements are matched as children of the deepest
    /// open one, as the tree builder nests them.
    pub max_depth: usize,
    /// The scripting flag: with it (the default, as in browsers) `<noscript>`
    /// content is raw text.
    pub scripting: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            max_token_bytes: TokenizerConfig::default().max_token_bytes,
            max_text_node_bytes: 16 << 20,
            max_depth: SimulatorConfig::default().max_depth,
            scripting: true,
        }
    }
}

/// The handlers with their selectors compiled (bits of the [`Program`]).
struct Compiled<'h> {
    prog: Program,
    element: Vec<(Vec<u32>, ElementFn<'h>)>,
    end_tag: Vec<(Vec<u32>, EndTagFn<'h>)>,
    content: Vec<(Vec<u32>, usize, ContentFn<'h>)>,
    text: Vec<(Option<Vec<u32>>, bool, TextFn<'h>)>,
    comments: Vec<(Option<Vec<u32>>, CommentFn<'h>)>,
    doctype: Vec<DoctypeFn<'h>>,
    end: Vec<EndFn<'h>>,
    /// Any handler that looks at start tags.
    any_start: bool,
    /// The rightmost compounds of the handlers that look at start tags.
    start_mask: Vec<u64>,
    /// By compound: the element handler it is the rightmost compound of
    /// (`u32::MAX`: none). Element handlers are compiled first, in order, so
    /// their compounds' numbers follow the handlers' order.
    element_of: Vec<u32>,
    /// No end-tag or content handler: an element the element handlers left
    /// untouched needs nothing at its end.
    no_end_handlers: bool,
}

impl<'h> Compiled<'h> {
    fn new(handlers: Handlers<'h>, tok: &mut Tokenizer) -> Self {
        let mut prog = Program::default();
        let atoms = tok.atoms_mut();
        let element = (handlers.element.into_iter())
            .map(|(s, f)| (prog.add(s, atoms), f))
            .collect::<Vec<_>>();
        let end_tag = (handlers.end_tag.into_iter())
            .map(|(s, f)| (prog.add(s, atoms), f))
            .collect::<Vec<_>>();
        let content = (handlers.content.into_iter())
            .map(|(s, b, f)| (prog.add(s, atoms), b, f))
            .collect::<Vec<_>>();
        let text = (handlers.text.into_iter())
            .map(|(s, w, f)| (s.map(|s| prog.add(s, atoms)), w, f))
            .collect();
        let comments = (handlers.comments.into_iter())
            .map(|(s, f)| (s.map(|s| prog.add(s, atoms)), f))
            .collect();
        prog.finish();
        let any_start = !element.is_empty() || !end_tag.is_empty() || !content.is_empty();
        let mut start_mask = vec![0u64; prog.words()];
        let ids = (element.iter().map(|e| &e.0))
            .chain(end_tag.iter().map(|e| &e.0))
            .chain(content.iter().map(|e| &e.0));
        for &id in ids.flatten() {
            if let Some(w) = start_mask.get_mut((id / 64) as usize) {
                *w |= 1u64 << (id % 64);
            }
        }
        // By compound: the element handler it is a rightmost compound of (each
        // `add` makes new compounds, so there is at most one).
        let mut element_of = vec![u32::MAX; prog.words() * 64];
        for (i, (ids, _)) in element.iter().enumerate() {
            for &id in ids {
                if let Some(slot) = element_of.get_mut(id as usize) {
                    *slot = i as u32;
                }
            }
        }
        Compiled {
            start_mask,
            element_of,
            no_end_handlers: end_tag.is_empty() && content.is_empty(),
            prog,
            element,
            end_tag,
            content,
            text,
            comments,
            doctype: handlers.doctype,
            end: handlers.end,
            any_start,
        }
    }
}

/// What an open element still has to do at its end.
#[derive(Default)]
struct EndState<'h> {
    name: String,
    renamed: Option<String>,
    append: String,
    after: String,
    suppress_inner: bool,
    removed: bool,
    drop_end_tag: bool,
    callbacks: Vec<EndCallback<'h>>,
    end_ids: Vec<u32>,
    /// Content handlers waiting for the element's end.
    capture: Option<Vec<u32>>,
}

/// How an element ends.
#[derive(Clone, Copy)]
enum Closing {
    /// Its end tag, at this span.
    EndTag(usize, usize),
    /// Closed implicitly (by another tag or the end of input) at this offset.
    Implicit(usize),
    /// Never opened (void, or past the depth limit): ends right after its start tag.
    Immediate(usize),
}

/// The current run of character tokens, for `last_in_text_node` and whole text
/// nodes.
#[derive(Default)]
struct TextRun {
    /// Chunk handlers saw chunks of this run.
    chunked: bool,
    /// A whole-text-node handler matched: the run is held from `start`.
    holding: bool,
    start: usize,
    end: usize,
    text: String,
    /// Indices of the text handlers that matched.
    ids: Vec<usize>,
}

/// What the tokenizer must do after a tag.
struct After {
    switch: Option<TokenizerSwitch>,
    cdata: bool,
}

struct Core<'h, O> {
    h: Compiled<'h>,
    sim: TextTypeSimulator,
    stack: OpenStack,
    ends: Vec<Option<Box<EndState<'h>>>>,
    out: Output<O>,
    edits: ElementEdits<'h>,
    node: NodeEdits,
    ids: Vec<usize>,
    /// Reused for serialized start tags.
    scratch: String,
    run: TextRun,
    settings: Settings,
    /// End of the last token.
    consumed: usize,
}

/// A streaming HTML rewriter: feed it bytes with [`write`](Self::write), finish
/// with [`end`](Self::end); the output goes to the sink as it is decided. See the
/// [module docs](super) for an example.
pub struct Rewriter<'h, O: OutputSink> {
    core: Core<'h, O>,
    tok: Tokenizer,
    /// An incomplete UTF-8 sequence at the end of the last chunk.
    utf8_tail: Vec<u8>,
    poisoned: bool,
}

impl<'h, O: OutputSink> Rewriter<'h, O> {
    /// A rewriter running `handlers`, writing to `sink`.
    pub fn new(handlers: Handlers<'h>, settings: Settings, sink: O) -> Self {
        let mut tok = Tokenizer::new(TokenizerConfig {
            max_token_bytes: settings.max_token_bytes,
            report_errors: false,
            ..TokenizerConfig::default()
        });
        // Every tag is read with its attributes: the fused tag reader reads a tag
        // in full for less than skimming it costs (`AttributeMode::Only`; see
        // BENCHMARKS.md, session 11), so there is nothing to choose.
        let h = Compiled::new(handlers, &mut tok);
        let mut sim = TextTypeSimulator::new(SimulatorConfig {
            scripting: settings.scripting,
            max_depth: settings.max_depth,
            quirks: false,
        });
        sim.set_implied_elements(true);
        let stack = OpenStack::new(&h.prog);
        Rewriter {
            core: Core {
                h,
                sim,
                stack,
                ends: Vec::new(),
                out: Output::new(sink),
                edits: ElementEdits::default(),
                node: NodeEdits::default(),
                ids: Vec::new(),
                scratch: String::new(),
                run: TextRun::default(),
                settings,
                consumed: 0,
            },
            tok,
            utf8_tail: Vec::new(),
            poisoned: false,
        }
    }

    /// Rewrites the next piece of input (UTF-8; a sequence split between pieces is
    /// joined, malformed sequences become U+FFFD).
    pub fn write(&mut self, chunk: &[u8]) -> Result<(), RewriteError> {
        if self.poisoned {
            return Err(RewriteError::Poisoned);
        }
        let result = self.write_inner(chunk);
        self.poisoned = result.is_err();
        result
    }

    fn write_inner(&mut self, chunk: &[u8]) -> Result<(), RewriteError> {
        let text = decode_utf8(&mut self.utf8_tail, chunk);
        self.core.out.src.push_str(&text);
        self.tok.push_str(&text);
        self.pump()?;
        // The tokenizer checks its limit only when it retries a token (each time
        // the input has doubled); the bytes past the last token are exactly the
        // unfinished token, so the limit is exact here.
        let out = &self.core.out;
        let pending = (out.base + out.src.len()).saturating_sub(self.core.consumed);
        let limit = self.core.settings.max_token_bytes;
        if pending > limit {
            return Err(RewriteError::TokenTooLarge {
                offset: self.core.consumed,
                limit,
            });
        }
        self.core.flush()
    }

    /// Finishes the input: closes what is open, runs the end handlers, writes the
    /// rest, and hands back the sink.
    pub fn end(mut self) -> Result<O, RewriteError> {
        if self.poisoned {
            return Err(RewriteError::Poisoned);
        }
        if !self.utf8_tail.is_empty() {
            self.utf8_tail.clear();
            self.core.out.src.push('\u{FFFD}');
            self.tok.push_str("\u{FFFD}");
        }
        self.tok.finish();
        self.pump()?;
        let core = &mut self.core;
        core.end_text_run()?;
        core.close_to(0, Closing::Implicit(core.consumed))?;
        let total = core.out.base + core.out.src.len();
        core.out.emit_to(total)?;
        let mut tail = String::new();
        for f in &mut core.h.end {
            f(&mut DocumentEnd { out: &mut tail }).map_err(RewriteError::Handler)?;
        }
        core.out.put(&tail)?;
        Ok(self.core.out.into_sink())
    }

    fn pump(&mut self) -> Result<(), RewriteError> {
        loop {
            let token = match self.tok.next_token() {
                Ok(Some(token)) => token,
                Ok(None) => return Ok(()),
                Err(TokenizerError::TokenTooLarge { offset, limit }) => {
                    return Err(RewriteError::TokenTooLarge { offset, limit });
                }
            };
            if let Token::Eof = token {
                return Ok(());
            }
            if let Some(after) = self.core.token(token)? {
                if let Some(state) = after.switch {
                    self.tok.set_state(State::from(state));
                }
                self.tok.set_cdata_allowed(after.cdata);
            }
            if self.core.h.text.is_empty() {
                self.tok.set_text_mode(self.core.text_mode());
            }
        }
    }
}

/// Rewrites a whole string.
pub fn rewrite_str(
    input: &str,
    handlers: Handlers<'_>,
    settings: Settings,
) -> Result<String, RewriteError> {
    let mut out = Vec::with_capacity(input.len());
    let mut rewriter = Rewriter::new(handlers, settings, |c: &[u8]| out.extend_from_slice(c));
    rewriter.write(input.as_bytes())?;
    let _sink = rewriter.end()?;
    // The output is made of the (valid) input and handlers' `&str`s.
    Ok(String::from_utf8(out)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned()))
}

/// `chunk` as text, joined with the tail of the previous chunk.
fn decode_utf8<'c>(tail: &mut Vec<u8>, chunk: &'c [u8]) -> Cow<'c, str> {
    if tail.is_empty()
        && let Ok(text) = std::str::from_utf8(chunk)
    {
        return Cow::Borrowed(text);
    }
    let mut bytes = std::mem::take(tail);
    bytes.extend_from_slice(chunk);
    let mut out = String::with_capacity(bytes.len());
    let mut rest = bytes.as_slice();
    loop {
        match std::str::from_utf8(rest) {
            Ok(text) => {
                out.push_str(text);
                break;
            }
            Err(e) => {
                let (valid, after) = rest.split_at(e.valid_up_to());
                out.push_str(std::str::from_utf8(valid).unwrap_or_default());
                match e.error_len() {
                    Some(len) => {
                        out.push('\u{FFFD}');
                        rest = after.get(len..).unwrap_or_default();
                    }
                    None => {
                        tail.extend_from_slice(after);
                        break;
                    }
                }
            }
        }
    }
    Cow::Owned(out)
}

impl<'h, O: OutputSink> Core<'h, O> {
    fn token(&mut self, token: Token<'_>) -> Result<Option<After>, RewriteError> {
        let span = token.span();
        let after = match token {
            Token::StartTag(tag) => Some(self.start_tag(&tag)?),
            Token::EndTag(tag) => {
                self.end_tag(&tag)?;
                Some(After {
                    switch: None,
                    cdata: self.sim.cdata_allowed(),
                })
            }
            Token::Characters(text) => {
                self.characters(&text)?;
                None
            }
            Token::Comment(text) => {
                self.end_text_run()?;
                self.comment(&text)?;
                None
            }
            Token::Doctype(d) => {
                self.end_text_run()?;
                if !self.h.doctype.is_empty() {
                    self.node.clear();
                    let mut view = Doctype {
                        name: d.name,
                        public_id: d.public_id,
                        system_id: d.system_id,
                        edits: &mut self.node,
                    };
                    for f in &mut self.h.doctype {
                        f(&mut view).map_err(RewriteError::Handler)?;
                    }
                    self.apply_node(d.span.start, d.span.end)?;
                }
                None
            }
            Token::ProcessingInstruction(_) => {
                self.end_text_run()?;
                None
            }
            Token::Eof => None,
        };
        self.consumed = span.end.max(self.consumed);
        if self.out.cap.len() > self.out.cap_limit {
            return Err(self.content_too_large());
        }
        Ok(after)
    }

    fn content_too_large(&self) -> RewriteError {
        let frame = self
            .out
            .frames
            .iter()
            .find(|f| self.out.cap.len() > f.content_start.saturating_add(f.budget));
        RewriteError::ContentTooLarge {
            element: frame.map(|f| f.element.clone()).unwrap_or_default(),
            offset: frame.map_or(0, |f| f.offset),
            limit: frame.map_or(0, |f| f.budget),
        }
    }

    /// Writes the untouched input up to the last token (or the held text node).
    fn flush(&mut self) -> Result<(), RewriteError> {
        let to = if self.run.holding {
            self.run.start
        } else {
            self.consumed
        };
        self.out.emit_to(to)?;
        if self.out.cap.len() > self.out.cap_limit {
            return Err(self.content_too_large());
        }
        self.out.compact(to);
        Ok(())
    }

    /// Mirrors the elements the simulator opened without a tag (an implied `html`,
    /// `head`, `body`, `tbody`, …) up to stack length `to`, and the ones the last
    /// token implied and closed at once, in the tree builder's order; element
    /// handlers see each as an implied element at offset `at` (where the token
    /// that implied it starts).
    #[inline]
    fn push_implied(&mut self, to: usize, at: usize) -> Result<(), RewriteError> {
        if to <= self.stack.len() && self.sim.transient_elements().is_empty() {
            return Ok(());
        }
        self.push_implied_slow(to, at)
    }

    #[inline(never)]
    fn push_implied_slow(&mut self, to: usize, at: usize) -> Result<(), RewriteError> {
        let transient = self.sim.transient_elements();
        if transient.is_empty() {
            for i in self.stack.len()..to {
                let Some(name) = self.sim.open_element(i) else {
                    break;
                };
                self.open_implied(name, at)?;
            }
            return Ok(());
        }
        let transient = transient.to_vec();
        let mut pending = transient.iter().peekable();
        loop {
            let len = self.stack.len();
            while let Some(&&(index, name)) = pending.peek() {
                if index > len {
                    break;
                }
                pending.next();
                if index == len {
                    self.open_implied(name, at)?;
                    self.close_top(Closing::Implicit(at))?;
                }
            }
            if len >= to {
                return Ok(());
            }
            let Some(name) = self.sim.open_element(len) else {
                return Ok(());
            };
            self.open_implied(name, at)?;
        }
    }

    /// Opens an implied element and runs the element handlers that match it.
    fn open_implied(&mut self, name: Atom, at: usize) -> Result<(), RewriteError> {
        self.stack
            .push(&self.h.prog, &ElementInfo { name, attrs: None });
        self.ends.push(None);
        if self.h.any_start && self.stack.top_hits(&self.h.start_mask) {
            self.element_handlers(None, name.static_name().unwrap_or(""), (at, at), true)?;
        }
        Ok(())
    }

    fn start_tag(&mut self, tag: &Tag<'_>) -> Result<After, RewriteError> {
        self.end_text_run()?;
        let effect = self.sim.start_tag(tag);
        self.close_to(effect.kept, Closing::Implicit(tag.span.start))?;
        let depth = self.sim.depth();
        if effect.opened_at.is_some_and(|i| i < self.stack.len()) {
            // A `<body>` tag after content implied the body: the tree builder adds
            // its attributes to that element (handlers saw it, implied); no new one.
            self.push_implied(depth, tag.span.start)?;
            return Ok(After {
                switch: effect.switch,
                cdata: self.sim.cdata_allowed(),
            });
        }
        let own = effect
            .opened_at
            .is_some_and(|i| i + 1 == depth && i >= self.stack.len());
        self.push_implied(if own { depth - 1 } else { depth }, tag.span.start)?;
        self.stack.push(
            &self.h.prog,
            &ElementInfo {
                name: tag.name,
                attrs: Some(&tag.attrs),
            },
        );
        self.ends.push(None);
        if self.h.any_start && self.stack.top_hits(&self.h.start_mask) {
            let span = (tag.span.start, tag.span.end);
            self.element_handlers(Some(tag), tag.name_str(), span, own)?;
        }
        if !own {
            self.close_top(Closing::Immediate(tag.span.end))?;
        }
        Ok(After {
            switch: effect.switch,
            cdata: self.sim.cdata_allowed(),
        })
    }

    fn end_tag(&mut self, tag: &Tag<'_>) -> Result<(), RewriteError> {
        self.end_text_run()?;
        let effect = self.sim.end_tag(tag);
        let explicit =
            effect.kept < self.stack.len() && self.stack.name_at(effect.kept) == Some(tag.name);
        let keep = effect.kept + usize::from(explicit);
        self.close_to(keep, Closing::Implicit(tag.span.start))?;
        if explicit {
            self.close_top(Closing::EndTag(tag.span.start, tag.span.end))?;
        } else if matches!(tag.name, atom::BODY | atom::HTML) {
            self.end_tag_of_open(tag)?;
        }
        self.push_implied(self.sim.depth(), tag.span.start)?;
        Ok(())
    }

    /// `</body>` and `</html>` leave their element open (content after them still
    /// goes into the body), but they are where users expect `append` and end-tag
    /// handlers to act: do that part of the element's end here, once.
    fn end_tag_of_open(&mut self, tag: &Tag<'_>) -> Result<(), RewriteError> {
        let Some(i) = (0..self.stack.len())
            .rev()
            .find(|&i| self.stack.name_at(i) == Some(tag.name))
        else {
            return Ok(());
        };
        let Some(Some(st)) = self.ends.get_mut(i) else {
            return Ok(());
        };
        let mut name = st.renamed.take();
        self.node.clear();
        let mut view = EndTag {
            name: &mut name,
            original: &st.name,
            implicit: false,
            edits: &mut self.node,
        };
        for cb in st.callbacks.drain(..) {
            cb(&mut view).map_err(RewriteError::Handler)?;
        }
        for &id in &st.end_ids {
            if let Some((_, f)) = self.h.end_tag.get_mut(id as usize) {
                f(&mut view).map_err(RewriteError::Handler)?;
            }
        }
        st.end_ids.clear();
        let append = std::mem::take(&mut st.append);
        let drop_end_tag = st.drop_end_tag;
        let (start, end) = (tag.span.start, tag.span.end);
        self.out.emit_to(start)?;
        self.out.put(&append)?;
        self.out.put(&self.node.before)?;
        if drop_end_tag || self.node.replacement.is_some() {
            self.out.skip_to(end);
            if let Some(r) = &self.node.replacement {
                self.out.put(r)?;
            }
        } else if let Some(n) = &name {
            let text = format!("</{n}>");
            self.out.put(&text)?;
            self.out.skip_to(end);
        } else {
            self.out.emit_to(end)?;
        }
        self.out.put(&self.node.after)?;
        Ok(())
    }

    #[inline]
    fn close_to(&mut self, len: usize, closing: Closing) -> Result<(), RewriteError> {
        if self.stack.len() > len {
            self.close_many(len, closing)
        } else {
            Ok(())
        }
    }

    #[inline(never)]
    fn close_many(&mut self, len: usize, closing: Closing) -> Result<(), RewriteError> {
        while self.stack.len() > len {
            self.close_top(closing)?;
        }
        Ok(())
    }

    /// Runs the element, end-tag and content handlers whose selectors match the
    /// element on top of the stack: its start `tag` at `span` (`None` and an
    /// empty span for an implied element). The caller checked that one matches.
    fn element_handlers(
        &mut self,
        tag: Option<&Tag<'_>>,
        name: &str,
        span: (usize, usize),
        opened: bool,
    ) -> Result<(), RewriteError> {
        let stack = &self.stack;
        let top = stack.top_matched();
        let hit = |ids: &[u32]| {
            ids.iter().any(|&id| {
                top.get((id / 64) as usize)
                    .is_some_and(|w| w & (1u64 << (id % 64)) != 0)
            })
        };
        // The element handlers of the matched compounds, in registration order.
        let h = &mut self.h;
        // Every change sets `touched`, so untouched edits are still empty.
        if self.edits.touched {
            self.edits.clear();
        }
        if let [(ids, f)] = h.element.as_mut_slice() {
            if hit(ids) {
                let mut el = Element {
                    tag,
                    name,
                    edits: &mut self.edits,
                    opened,
                };
                f(&mut el).map_err(RewriteError::Handler)?;
            }
        } else {
            // Element handlers' compounds are numbered in registration order, so
            // the matched bits, lowest first, give the handlers in order; a
            // handler whose list matched twice is run once.
            let mut last = None;
            for (wi, (&m, &mask)) in top.iter().zip(&h.start_mask).enumerate() {
                let mut bits = m & mask;
                while bits != 0 {
                    let id = wi * 64 + bits.trailing_zeros() as usize;
                    bits &= bits - 1;
                    let Some(&i) = h.element_of.get(id) else {
                        continue;
                    };
                    if i == u32::MAX || last == Some(i) {
                        continue;
                    }
                    last = Some(i);
                    let Some((_, f)) = h.element.get_mut(i as usize) else {
                        continue;
                    };
                    let mut el = Element {
                        tag,
                        name,
                        edits: &mut self.edits,
                        opened,
                    };
                    f(&mut el).map_err(RewriteError::Handler)?;
                }
            }
        }
        if !self.edits.touched && (!opened || self.h.no_end_handlers) {
            return Ok(());
        }
        let mut end_ids = Vec::new();
        if opened {
            for (i, (ids, _)) in self.h.end_tag.iter().enumerate() {
                if hit(ids) {
                    end_ids.push(i as u32);
                }
            }
        }
        let mut capture: Option<(Vec<u32>, usize)> = None;
        if opened {
            for (i, (ids, budget, _)) in self.h.content.iter().enumerate() {
                if hit(ids) {
                    let c = capture.get_or_insert((Vec::new(), usize::MAX));
                    c.0.push(i as u32);
                    c.1 = c.1.min(*budget);
                }
            }
        }
        if !self.edits.touched && end_ids.is_empty() && capture.is_none() {
            return Ok(());
        }
        self.apply_start(tag, name, span, end_ids, capture)?;
        Ok(())
    }

    /// Writes what the handlers did to a start tag and records what is left for
    /// the element's end.
    fn apply_start(
        &mut self,
        tag: Option<&Tag<'_>>,
        name: &str,
        (start, end): (usize, usize),
        end_ids: Vec<u32>,
        capture: Option<(Vec<u32>, usize)>,
    ) -> Result<(), RewriteError> {
        self.out.emit_to(start)?;
        self.out.put(&self.edits.before)?;
        let e = &mut self.edits;
        let needs_end = e.removed
            || e.keep_content
            || e.name.is_some()
            || e.inner.is_some()
            || !e.append.is_empty()
            || !e.after.is_empty()
            || !e.end_callbacks.is_empty()
            || !end_ids.is_empty()
            || capture.is_some();
        let mut st = needs_end.then(|| EndState {
            name: name.to_owned(),
            end_ids,
            ..EndState::default()
        });
        if let (Some((ids, budget)), Some(st)) = (capture, st.as_mut()) {
            self.out.open_frame(budget, &st.name, start);
            st.capture = Some(ids);
        }
        if e.removed {
            self.out.skip_to(end);
            self.out.suppress += 1;
        } else {
            if e.keep_content {
                self.out.skip_to(end);
            } else if e.name.is_some() || !e.attr_edits.is_empty() {
                write_start_tag(&mut self.out, &mut self.scratch, tag, name, e)?;
                self.out.skip_to(end);
            } else {
                self.out.emit_to(end)?;
            }
            if st.as_ref().is_some_and(|st| st.capture.is_some()) {
                let at = self.out.cap.len();
                if let Some(f) = self.out.frames.last_mut() {
                    f.content_start = at;
                }
                self.out.recompute_limit();
            }
            self.out.put(&e.prepend)?;
            if let Some(inner) = &e.inner {
                self.out.put(inner)?;
                self.out.suppress += 1;
            }
        }
        if let Some(mut st) = st {
            st.removed = e.removed;
            st.drop_end_tag = e.keep_content && !e.removed;
            st.suppress_inner = e.inner.is_some() && !e.removed;
            st.renamed = if e.keep_content { None } else { e.name.clone() };
            st.append = std::mem::take(&mut e.append);
            st.after = std::mem::take(&mut e.after);
            st.callbacks = std::mem::take(&mut e.end_callbacks);
            if let Some(slot) = self.ends.last_mut() {
                *slot = Some(Box::new(st));
            }
        }
        Ok(())
    }

    /// Closes the element on top of the stack.
    #[inline]
    fn close_top(&mut self, closing: Closing) -> Result<(), RewriteError> {
        self.stack.pop();
        match self.ends.pop().flatten() {
            None => Ok(()),
            Some(st) => self.close_with(*st, closing),
        }
    }

    /// The end of an element handlers left something to do at.
    #[inline(never)]
    fn close_with(&mut self, mut st: EndState<'h>, closing: Closing) -> Result<(), RewriteError> {
        let (start, end, has_tag) = match closing {
            Closing::EndTag(s, e) => (s, e, true),
            Closing::Implicit(p) | Closing::Immediate(p) => (p, p, false),
        };
        let immediate = matches!(closing, Closing::Immediate(_));
        let mut name = st.renamed.clone();
        self.node.clear();
        if !immediate && (!st.callbacks.is_empty() || !st.end_ids.is_empty()) {
            let mut view = EndTag {
                name: &mut name,
                original: &st.name,
                implicit: !has_tag,
                edits: &mut self.node,
            };
            for cb in st.callbacks.drain(..) {
                cb(&mut view).map_err(RewriteError::Handler)?;
            }
            for &id in &st.end_ids {
                if let Some((_, f)) = self.h.end_tag.get_mut(id as usize) {
                    f(&mut view).map_err(RewriteError::Handler)?;
                }
            }
        }
        self.out.emit_to(start)?;
        if st.suppress_inner {
            self.out.suppress = self.out.suppress.saturating_sub(1);
        }
        let content = match &st.capture {
            Some(ids) => Some(self.content_handlers(ids, &st.name)?),
            None => None,
        };
        self.out.put(&st.append)?;
        // The end tag.
        self.out.put(&self.node.before)?;
        if st.drop_end_tag || self.node.replacement.is_some() {
            self.out.skip_to(end);
            if let Some(r) = &self.node.replacement {
                self.out.put(r)?;
            }
        } else if let Some(n) = &name {
            if !immediate {
                let text = format!("</{n}>");
                self.out.put(&text)?;
            }
            self.out.skip_to(end);
        } else {
            self.out.emit_to(end)?;
        }
        self.out.put(&self.node.after)?;
        if let Some(ce) = content {
            self.finish_capture(ce)?;
        }
        if st.removed {
            self.out.suppress = self.out.suppress.saturating_sub(1);
        }
        self.out.put(&st.after)?;
        Ok(())
    }

    /// Runs the content handlers of the innermost capture frame; applies a new
    /// inner content at once (the rest waits for the end tag).
    fn content_handlers(&mut self, ids: &[u32], name: &str) -> Result<ContentEdits, RewriteError> {
        let mut edits = ContentEdits::default();
        if self.out.cap.len() > self.out.cap_limit {
            return Err(self.content_too_large());
        }
        let Some(frame) = self.out.frames.last() else {
            return Ok(edits);
        };
        let (cs, ts) = (frame.content_start, frame.text_start);
        {
            let mut view = ElementContent {
                name,
                html: self.out.cap.get(cs..).unwrap_or(""),
                text: self.out.cap_text.get(ts..).unwrap_or(""),
                edits: &mut edits,
            };
            for &id in ids {
                if let Some((_, _, f)) = self.h.content.get_mut(id as usize) {
                    f(&mut view).map_err(RewriteError::Handler)?;
                }
            }
        }
        if let Some(inner) = edits.inner.take()
            && self.out.suppress == 0
        {
            self.out.cap.truncate(cs);
            self.out.cap.push_str(&inner);
        }
        Ok(edits)
    }

    fn finish_capture(&mut self, edits: ContentEdits) -> Result<(), RewriteError> {
        if self.out.suppress == 0
            && let Some(frame) = self.out.frames.last()
        {
            let ts = frame.tag_start;
            if edits.removed {
                self.out.cap.truncate(ts);
            }
            self.out.cap.insert_str(ts, &edits.before);
            self.out.cap.push_str(&edits.after);
        }
        self.out.close_frame()?;
        Ok(())
    }

    /// Whether text here changes nesting (the simulator must see it, decoded).
    #[inline]
    fn text_changes_nesting(&self) -> bool {
        match self.stack.top_name() {
            None => true,
            Some(n) => matches!(n, atom::HTML | atom::HEAD | atom::NOSCRIPT | atom::COLGROUP),
        }
    }

    /// How the tokenizer should read the next text: raw (not decoded, the
    /// source is copied anyway) unless a text handler, a content capture or the
    /// simulator reads it.
    #[inline]
    fn text_mode(&self) -> TextMode {
        if self.h.text.is_empty() && self.out.frames.is_empty() && !self.text_changes_nesting() {
            TextMode::Raw
        } else {
            TextMode::Decoded
        }
    }

    fn characters(&mut self, text: &Text<'_>) -> Result<(), RewriteError> {
        let span = text.span;
        if self.text_changes_nesting() {
            let effect = self.sim.characters(text.text);
            self.close_to(effect.kept, Closing::Implicit(span.start))?;
            self.push_implied(self.sim.depth(), span.start)?;
        }
        if !self.out.frames.is_empty() && self.out.suppress == 0 {
            self.out.cap_text.push_str(text.text);
        }
        if self.h.text.is_empty() {
            return Ok(());
        }
        self.ids.clear();
        let mut whole = false;
        for (i, (sel, w, _)) in self.h.text.iter().enumerate() {
            let hit = match sel {
                None => true,
                Some(ids) => ids.iter().any(|&id| self.stack.inside(id)),
            };
            if hit {
                self.ids.push(i);
                whole |= *w;
            }
        }
        if self.ids.is_empty() {
            return Ok(());
        }
        self.run.ids.clone_from(&self.ids);
        self.run.end = span.end;
        if whole || self.run.holding {
            if !self.run.holding {
                self.out.emit_to(span.start)?;
                self.run.holding = true;
                self.run.start = span.start;
                self.run.text.clear();
            }
            self.run.text.push_str(text.text);
            if self.run.end - self.run.start > self.settings.max_text_node_bytes {
                return Err(RewriteError::TextNodeTooLarge {
                    offset: self.run.start,
                    limit: self.settings.max_text_node_bytes,
                });
            }
            return Ok(());
        }
        self.run.chunked = true;
        self.node.clear();
        let mut chunk = TextChunk {
            text: text.text,
            source: self.out.source(span.start, span.end),
            last: false,
            edits: &mut self.node,
        };
        for &i in &self.ids {
            if let Some((_, _, f)) = self.h.text.get_mut(i) {
                f(&mut chunk).map_err(RewriteError::Handler)?;
            }
        }
        self.apply_node(span.start, span.end)?;
        Ok(())
    }

    /// Ends the current run of text: the last chunk (empty) for chunk handlers, or
    /// the whole held node for every matching handler.
    #[inline]
    fn end_text_run(&mut self) -> Result<(), RewriteError> {
        if self.run.holding || self.run.chunked {
            self.end_text_run_slow()
        } else {
            Ok(())
        }
    }

    #[inline(never)]
    fn end_text_run_slow(&mut self) -> Result<(), RewriteError> {
        if self.run.holding {
            self.run.holding = false;
            self.run.chunked = false;
            self.node.clear();
            let (start, end) = (self.run.start, self.run.end);
            let mut chunk = TextChunk {
                text: &self.run.text,
                source: self.out.source(start, end),
                last: true,
                edits: &mut self.node,
            };
            for &i in &self.run.ids {
                if let Some((_, _, f)) = self.h.text.get_mut(i) {
                    f(&mut chunk).map_err(RewriteError::Handler)?;
                }
            }
            self.apply_node(start, end)?;
        } else if self.run.chunked {
            self.run.chunked = false;
            self.node.clear();
            let mut chunk = TextChunk {
                text: "",
                source: "",
                last: true,
                edits: &mut self.node,
            };
            for &i in &self.run.ids {
                if let Some((_, _, f)) = self.h.text.get_mut(i) {
                    f(&mut chunk).map_err(RewriteError::Handler)?;
                }
            }
            let end = self.run.end;
            self.apply_node(end, end)?;
        }
        Ok(())
    }

    fn comment(&mut self, text: &Text<'_>) -> Result<(), RewriteError> {
        if self.h.comments.is_empty() {
            return Ok(());
        }
        self.node.clear();
        let mut view = Comment {
            text: text.text,
            edits: &mut self.node,
        };
        for (sel, f) in &mut self.h.comments {
            let hit = match sel {
                None => true,
                Some(ids) => ids.iter().any(|&id| self.stack.inside(id)),
            };
            if hit {
                f(&mut view).map_err(RewriteError::Handler)?;
            }
        }
        self.apply_node(text.span.start, text.span.end)?;
        Ok(())
    }

    /// Writes the edits of a text chunk, comment or DOCTYPE at `start..end`.
    fn apply_node(&mut self, start: usize, end: usize) -> Result<(), RewriteError> {
        if !self.node.touched() {
            return Ok(());
        }
        self.out.emit_to(start)?;
        self.out.put(&self.node.before)?;
        match &self.node.replacement {
            Some(r) => {
                self.out.put(r)?;
                self.out.skip_to(end);
            }
            None => self.out.emit_to(end)?,
        }
        self.out.put(&self.node.after)?;
        Ok(())
    }
}
