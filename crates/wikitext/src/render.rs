//! The wiring: tokenizer → pipeline (phase-3 transforms) → tree builder →
//! DOM passes → `<body>` serialization. Ref bodies render (once per distinct
//! body) to nodes in a table the page's Cite pass reads (`SharedBodies`).

use std::cell::RefCell;
use std::rc::Rc;
use std::sync::Arc;

use tagloom_html::atom;
use tagloom_html::dom_patch::{Namespace, PatchKey, QuirksMode};
use tagloom_html::token::{OwnedTag, OwnedToken};
use tagloom_html::tree_builder::is_formatting_atom;
use tagloom_html::tree_builder::{AppendRun, FragmentContext, TreeBuilder, TreeBuilderConfig};
use tagloom_transform::pipeline::{
    Handler, Match, Pipeline, PipelineConfig, PipelineError, Rank, Registry, Sink, block_on,
    check_ended, end_input,
};

use crate::dom::patch_tree::{AttrHandoff, SharedHandoff, SharedTree, TreeSlot};
use crate::dom::{self, Attr, Node, cite::placeholder::SharedBodies};
use crate::token::{Tok, WikiToken};
use crate::transclusion::Call;
use crate::transform::{
    Chain, Transform, cite::Cite, headings::HeadingIds, lists::ListHandler, pair::Pair,
    paragraphs::ParagraphWrapper, pre::PreHandler, quotes::QuoteTransformer,
};
use crate::{RenderOptions, WikiError, preprocess};

/// The most wikitext a page may have (Parsoid's limit).
pub const MAX_PAGE_BYTES: usize = 2 * 1024 * 1024;

/// A page, or a fragment in inline context (a ref body: no paragraphs, no
/// indent-pre).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Context {
    Page,
    Inline { depth: usize },
}

/// What a page's render and its ref bodies' inline renders share, made once
/// per page.
pub(crate) struct Page {
    /// The render's options.
    pub(crate) options: Arc<RenderOptions>,
    /// The page's normalized title ([`crate::normalize_title`] of the options').
    pub(crate) title: String,
    /// The page's marked calls (transclusion markers in the text refer to them).
    pub(crate) calls: Arc<[Call]>,
    /// The page's rendered ref bodies.
    pub(crate) bodies: SharedBodies,
    /// An inline renderer per nesting depth, kept for the next body at that
    /// depth (`None` while one of its bodies renders).
    inline: RefCell<Vec<Option<InlineRenderer>>>,
}

impl Page {
    /// The page its text's wikilinks are resolved for (by the tokenizer).
    pub(crate) fn link_page(&self) -> crate::tokenize::LinkPage<'_> {
        crate::tokenize::LinkPage {
            title: &self.title,
            pages: self.options.store.as_deref(),
        }
    }

    /// Drops the page's inline renderers (which hold the page): after its
    /// render, or the page is never freed.
    pub(crate) fn release_renderers(&self) {
        self.inline.take();
    }

    pub(crate) fn new(options: Arc<RenderOptions>, calls: Arc<[Call]>) -> Page {
        Page {
            title: crate::normalize_title(&options.title),
            options,
            calls,
            bodies: SharedBodies::default(),
            inline: RefCell::new(Vec::new()),
        }
    }
}

/// The phase-3 transforms (ranks 2.01 to 2.95, every token), in rank order.
fn stages(page: &Rc<Page>, context: Context) -> Vec<Box<dyn Transform>> {
    let depth = match context {
        Context::Page => 0,
        Context::Inline { depth } => depth,
    };
    let mut stages: Vec<Box<dyn Transform>> = vec![Box::new(Cite::new(Rc::clone(page), depth))];
    if context == Context::Page {
        stages.push(Box::new(PreHandler::default()));
    }
    stages.push(Box::new(QuoteTransformer::default()));
    // Lists and heading ids as one stage: one dispatch a token for both.
    stages.push(Box::new(Pair::<ListHandler, HeadingIds>::default()));
    if context == Context::Page {
        stages.push(Box::new(ParagraphWrapper::default()));
    }
    stages
}

/// `chain`, phase 3 as one handler (the links resolved before the pipeline,
/// by the tokenizer: [`crate::tokenize::LinkPage`]).
fn registry(
    chain: impl Handler<WikiToken> + 'static,
) -> Result<Registry<WikiToken>, PipelineError> {
    let mut r = Registry::new();
    r.add(chain, Rank::new(2.01)?, Match::Any)?;
    Ok(r)
}

/// The phase-3 stages of a page's ref bodies at one nesting depth, made
/// once and run for each of them (reset before each body: no state passes
/// from one body to the next). A body's tokens are one chunk with its end of
/// input, which the page's pipeline would hand its one handler whole: the
/// chain is called directly, no pipeline run per body. Its `Cite` stage
/// holds the page, which holds the renderer: [`Page::release_renderers`]
/// ends the page's renders.
struct InlineRenderer {
    chain: Chain,
    /// A reused buffer: the stages' output.
    out: Vec<WikiToken>,
}

impl InlineRenderer {
    fn new(page: &Rc<Page>, depth: usize) -> InlineRenderer {
        InlineRenderer {
            chain: Chain::new(stages(page, Context::Inline { depth })),
            out: Vec::new(),
        }
    }

    fn render(&mut self, text: &str, page: &Rc<Page>) -> Result<Vec<Node>, WikiError> {
        let tokens = page_tokens(text, page);
        // A flat run of HTML tokens (text, links, call markers), which no
        // phase-3 stage acts on, skips the stages too.
        if dom::flat::is_flat(&tokens, true) {
            // Debug builds check the shortcut against the render it skips.
            #[cfg(debug_assertions)]
            let expected = self
                .stages(page_tokens(text, page))
                .and_then(|staged| tree(staged, page))
                .ok();
            let nodes = flat_tree(tokens, page);
            #[cfg(debug_assertions)]
            assert_eq!(expected.as_ref(), Some(&nodes), "flat body {text:?}");
            return Ok(nodes);
        }
        let tokens = self.stages(tokens)?;
        if dom::flat::is_flat(&tokens, false) {
            #[cfg(debug_assertions)]
            let expected = tree(tokens.clone(), page).ok();
            let nodes = flat_tree(tokens, page);
            #[cfg(debug_assertions)]
            assert_eq!(expected.as_ref(), Some(&nodes), "flat staged body {text:?}");
            return Ok(nodes);
        }
        tree(tokens, page)
    }

    /// `tokens` through the phase-3 stages, as a pipeline of the chain alone
    /// runs them (`Pipeline::run_vec`): the input cut after its first end of
    /// input or given one, one chunk, and an error unless the output ends
    /// with the one end of input.
    fn stages(&mut self, mut tokens: Vec<WikiToken>) -> Result<Vec<WikiToken>, WikiError> {
        self.chain.reset();
        end_input(&mut tokens);
        let mut out = std::mem::take(&mut self.out);
        out.clear();
        self.chain.chunk(&mut tokens, &mut out);
        // The chunk's buffer, emptied, serves the next body.
        self.out = tokens;
        check_ended(&out)?;
        Ok(out)
    }
}

/// A ref body's staged `tokens` through the tree builder and the DOM passes.
fn tree(mut tokens: Vec<WikiToken>, page: &Page) -> Result<Vec<Node>, WikiError> {
    let mut sink = BodySink::new(
        false,
        tokens.len(),
        Arc::clone(&page.calls),
        Rc::clone(&page.bodies),
    )?;
    sink.write(&mut tokens)?;
    Ok(sink.finish()?)
}

/// A ref body's flat `tokens` ([`dom::flat::is_flat`]) built without the
/// tree builder, then through the DOM passes.
fn flat_tree(tokens: Vec<WikiToken>, page: &Page) -> Vec<Node> {
    let nodes = dom::flat::build(|tree| {
        // Token by token: HTML tokens straight in, pseudo-tokens as what
        // they flatten to.
        let mut flat = Vec::new();
        for t in tokens {
            match t.tok {
                Tok::Html(t) => tree.push(t),
                Tok::Newline => tree.push_static("\n"),
                _ => push_pseudo(tree, t, &mut flat),
            }
        }
    });
    dom_passes(nodes, false, &page.calls, &page.bodies)
}

/// Appends the pseudo-token `token` to `tree` as [`flatten`] makes it: its
/// text without a token made for it, anything else through `flat` (a
/// reused buffer).
fn push_pseudo(tree: &mut dom::flat::Appender, token: WikiToken, flat: &mut Vec<OwnedToken>) {
    if let Some(text) = flat_text(&token.tok) {
        tree.push_text(text);
    } else {
        flatten(token, flat);
        for t in flat.drain(..) {
            tree.push(t);
        }
    }
}

/// The tree builder of an inline render: a fragment in `<body>` rather than a
/// document fed `<body>` first (its `<html>`, `<head>` and `<body>` made for
/// each ref body). The same tree for every token wikitext makes (no `<html>`,
/// `<body>`, `<frameset>` or comment tokens, whose handling differs): the
/// document's mode (no doctype: quirks) and, the stack lacking the
/// document's `<body>`, a depth limit one less.
fn inline_config() -> TreeBuilderConfig {
    let mut config = TreeBuilderConfig::default();
    let mut context = FragmentContext::new(Namespace::Html, "body");
    context.quirks_mode = QuirksMode::Quirks;
    config.fragment_context = Some(context);
    config.max_depth = config.max_depth.saturating_sub(1);
    config
}

/// The text a pseudo-token that reaches the end is written as, when it is
/// one piece of text ([`flatten`]): a tree built by appending takes it as
/// it is, no token made.
fn flat_text(tok: &Tok) -> Option<&str> {
    match tok {
        Tok::Newline => Some("\n"),
        Tok::ListItem(b) | Tok::Template(b) | Tok::TemplateArg(b) => Some(b),
        _ => None,
    }
}

/// Pseudo-tokens that reach the end become the text they were written as.
fn flatten(token: WikiToken, out: &mut Vec<OwnedToken>) {
    match token.tok {
        Tok::Html(t) => out.push(t),
        Tok::Newline | Tok::ListItem(_) | Tok::Template(_) | Tok::TemplateArg(_) => {
            out.push(OwnedToken::text(flat_text(&token.tok).unwrap_or_default()));
        }
        Tok::Quote(n) => out.push(OwnedToken::text("'".repeat(n as usize))),
        Tok::IndentPre(inner) | Tok::EmptyLine(inner) => {
            for t in inner {
                flatten(t, out);
            }
        }
        Tok::WikiLink(target) => out.push(OwnedToken::StartTag(crate::transform::links::link_tag(
            *target, "", None,
        ))),
        Tok::Ref(_) | Tok::References(_) | Tok::IndentPreWs => {}
        Tok::Eof => out.push(OwnedToken::Eof),
    }
}

/// Tree builder and the tree it builds (its sink); finishes as `<body>`'s
/// children after the DOM passes.
struct BodySink {
    /// Boxed: the sink moves into the pipeline's run and back out to finish,
    /// and a ref body's render is short (the builder would be most of what
    /// each move copies).
    builder: Box<TreeBuilder>,
    /// Where the tree builder's sink leaves the tree when the builder is dropped.
    tree: TreeSlot,
    /// Start tags' attributes the tree takes instead of copies ([`AttrHandoff`]).
    handoff: SharedHandoff,
    /// The attributes taken from the fed tokens, for the elements they created.
    moved: Vec<(PatchKey, Vec<Attr>)>,
    /// A reused buffer: the tokens a pseudo-token flattens to.
    scratch: Vec<OwnedToken>,
    /// A whole page (the paragraph DOM pass runs), not an inline fragment.
    page: bool,
    /// Formatting elements opened and not closed (an estimate of the tree
    /// builder's active formatting elements).
    formatting: usize,
    /// The page's marked calls (their preceding wikitext, `Call::gap`, for
    /// compound transclusions).
    calls: Arc<[Call]>,
    /// The page's rendered ref bodies (for the Cite pass).
    bodies: SharedBodies,
    /// A `</p>` and the newlines after it that the last write ended with, while
    /// what follows them is not known yet (at most three tokens): the next
    /// write starts with them, so chunk ends do not change the output.
    held: Vec<WikiToken>,
    /// Whether runs the tree builder would only append are built here
    /// ([`run_len`](Self::run_len)); not in debug builds' reference build.
    bypass: bool,
    /// The check of a run, reused.
    run: AppendRun,
    /// What builds the runs, reused.
    appender: dom::flat::Appender,
    /// The runs built here, each with the key of the comment the tree builder
    /// was fed in its place.
    runs: Vec<(PatchKey, Vec<Node>)>,
    /// Positions in the chunk (descending) of start tags where no run ends
    /// within the chunk's tokens seen so far: their elements were open where
    /// an earlier check stopped.
    doomed: Vec<usize>,
    /// The positions of the open elements of the run being checked.
    starts: Vec<usize>,
    /// Where (the token's index in the run) the run being checked closes
    /// more elements than a token's own end tag, or inserts elements the
    /// table model implies (`tagloom_html::tree_builder::RunStep`): how many
    /// close, which are inserted.
    steps: Vec<(usize, usize, &'static [atom::Atom])>,
    /// Debug builds: every write, to build the tree again through the tree
    /// builder alone and compare.
    #[cfg(debug_assertions)]
    writes: Vec<Vec<WikiToken>>,
}

/// What follows a `</p>` while formatting elements are open (Parsoid,
/// T368720): exactly two newlines go inside the paragraph, so they do not
/// reopen the formatting elements between paragraphs.
#[derive(PartialEq, Eq)]
enum AfterParagraph {
    TwoNewlines,
    Other,
    /// Only newlines so far, and too few to tell.
    Unknown,
}

/// Whether `tag` names a formatting element (its static atom, no name lookup).
fn is_formatting(tag: &OwnedTag) -> bool {
    tag.name().atom().is_some_and(is_formatting_atom)
}

/// `rest` is what follows the `</p>`; `end`: nothing comes after it.
fn after_paragraph(rest: &[WikiToken], end: bool) -> AfterParagraph {
    let seen = rest.len().min(3);
    let newlines = rest.iter().take(3).take_while(|t| t.is_newline()).count();
    if newlines == seen && seen < 3 && !end {
        AfterParagraph::Unknown
    } else if newlines == 2 {
        AfterParagraph::TwoNewlines
    } else {
        AfterParagraph::Other
    }
}

/// The tree's arena is made once for about three nodes per four tokens fed
/// (rounded down, plus a few): runs the tree builder would only append take
/// one node, so the nodes it makes follow the tokens it gets, not the text
/// (the corpus's 111 articles: at most 0.6 per token; at one node per 12
/// bytes of text, 2 pages grew by copies and 11 times the nodes used were
/// reserved; this reserves 6).
fn arena_nodes(tokens: usize) -> usize {
    tokens / 4 * 3 + 16
}

impl BodySink {
    /// A sink for about `tokens` tokens.
    fn new(
        page: bool,
        tokens: usize,
        calls: Arc<[Call]>,
        bodies: SharedBodies,
    ) -> Result<BodySink, PipelineError> {
        let (tree_sink, tree, handoff) = SharedTree::new(arena_nodes(tokens));
        let config = if page {
            TreeBuilderConfig::default()
        } else {
            inline_config()
        };
        let mut sink = BodySink {
            page,
            builder: Box::new(TreeBuilder::with_sink(config, Box::new(tree_sink))),
            tree,
            handoff,
            moved: Vec::new(),
            scratch: Vec::new(),
            formatting: 0,
            calls,
            bodies,
            held: Vec::new(),
            bypass: true,
            run: AppendRun::default(),
            appender: dom::flat::Appender::default(),
            runs: Vec::new(),
            doomed: Vec::new(),
            starts: Vec::new(),
            steps: Vec::new(),
            #[cfg(debug_assertions)]
            writes: Vec::new(),
        };
        if page {
            // Content goes into <body> from the start (a leading <meta> stays there).
            sink.feed(OwnedToken::start("body"))?;
        }
        Ok(sink)
    }

    fn feed(&mut self, mut token: OwnedToken) -> Result<(), PipelineError> {
        // The `<html>`/`<body>` merge adds attributes to an element later, so
        // those keep the copies.
        // Tags with nothing to move skip the handoff (and its lock).
        let expected = match &token {
            OwnedToken::StartTag(tag)
                if AttrHandoff::worth_moving(tag)
                    && !tag.name().is(atom::HTML)
                    && !tag.name().is(atom::BODY) =>
            {
                self.handoff
                    .lock()
                    .unwrap_or_else(|e| e.into_inner())
                    .expect(tag)
            }
            _ => false,
        };
        self.builder
            .process_owned(&token)
            .map_err(|e| PipelineError::Sink(e.to_string()))?;
        if expected {
            let claimed = self
                .handoff
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .claimed();
            if let (Some(key), OwnedToken::StartTag(tag)) = (claimed, &mut token) {
                let attrs = std::mem::take(tag.attrs_mut());
                self.moved.push((key, AttrHandoff::into_tree_attrs(attrs)));
            }
        }
        Ok(())
    }

    /// Flattens `tokens` (after the held ones) and feeds them to the tree
    /// builder one at a time (no buffer of flat tokens: a chunk can hold a
    /// whole paragraph); `end`: no tokens come after them.
    fn feed_tokens(&mut self, tokens: &mut Vec<WikiToken>, end: bool) -> Result<(), PipelineError> {
        if !self.held.is_empty() {
            // Rare (a chunk ending right after a `</p>`) and at most three tokens.
            tokens.splice(0..0, self.held.drain(..));
        }
        let mut flat = std::mem::take(&mut self.scratch);
        self.doomed.clear();
        // Taken one by one (not cloned): only later tokens are looked at again.
        let mut rest = tokens.drain(..);
        // The position of `rest`'s first token in the chunk.
        let mut at = 0;
        loop {
            if self.bypass
                && let Some(WikiToken {
                    tok: Tok::Html(OwnedToken::StartTag(_)),
                    ..
                }) = rest.as_slice().first()
            {
                let len = self.run_len(rest.as_slice(), at);
                if len > 0 {
                    self.feed_run(rest.by_ref().take(len), &mut flat)?;
                    at += len;
                    continue;
                }
            }
            let Some(token) = rest.next() else {
                break;
            };
            at += 1;
            let (start, end_tag) = match &token.tok {
                Tok::Html(OwnedToken::StartTag(tag)) => (is_formatting(tag), None),
                Tok::Html(OwnedToken::EndTag(tag)) => (false, Some(tag)),
                _ => (false, None),
            };
            if let Some(tag) = end_tag {
                if self.formatting > 0 && tag.name().is(atom::P) {
                    match after_paragraph(rest.as_slice(), end) {
                        AfterParagraph::TwoNewlines => {
                            self.feed(OwnedToken::text("\n\n"))?;
                            self.feed(OwnedToken::end("p"))?;
                            // The two newlines are in the text pushed.
                            rest.nth(1);
                            at += 2;
                            continue;
                        }
                        AfterParagraph::Unknown => {
                            self.held.push(token);
                            self.held.extend(rest.by_ref());
                            break;
                        }
                        AfterParagraph::Other => {}
                    }
                }
                if is_formatting(tag) {
                    self.formatting = self.formatting.saturating_sub(1);
                }
            } else if start {
                self.formatting += 1;
            }
            match token.tok {
                // The usual case: straight to the tree builder, not through
                // `flat`.
                Tok::Html(t) => self.feed(t)?,
                _ => {
                    flatten(token, &mut flat);
                    for t in flat.drain(..) {
                        self.feed(t)?;
                    }
                }
            }
        }
        self.scratch = flat;
        Ok(())
    }

    /// How many of `tokens` (at `at` in the chunk, a start tag first) make a
    /// run the tree builder would only append where it is
    /// ([`AppendRun`]), ending with an element whose end closes the run's
    /// last open one (0: none). The run never starts or ends with text, so no
    /// text of the builder's joins one of the run's.
    fn run_len(&mut self, tokens: &[WikiToken], at: usize) -> usize {
        while self.doomed.last().is_some_and(|&d| d < at) {
            self.doomed.pop();
        }
        if self.doomed.last() == Some(&at) || !self.builder.start_append_run(&mut self.run) {
            return 0;
        }
        self.starts.clear();
        self.steps.clear();
        // The run's open formatting elements: with the builder's, what
        // `feed_tokens` counts for its `</p>` rule.
        let mut formatting = 0usize;
        let mut len = 0;
        let mut stop = tokens.len();
        // As `flatten` makes them: the pseudo-tokens are text, or nothing.
        for (i, t) in tokens.iter().enumerate() {
            let (ok, closed) = match &t.tok {
                Tok::Html(OwnedToken::StartTag(tag)) => match self.run.start(tag) {
                    Some(step) => {
                        if step.close > 0 || !step.implied.is_empty() {
                            self.steps.push((i, step.close, step.implied));
                        }
                        let kept = self.starts.len().saturating_sub(step.close);
                        self.starts.truncate(kept);
                        // An implied element is open where its tag would be.
                        for _ in step.implied {
                            self.starts.push(at + i);
                        }
                        if !step.void {
                            self.starts.push(at + i);
                            formatting += usize::from(is_formatting(tag));
                        }
                        (true, step.void)
                    }
                    None => (false, false),
                },
                Tok::Html(OwnedToken::EndTag(tag)) => {
                    // `feed_tokens` may rewrite what follows this `</p>`
                    // (not when it is `Other`, whatever follows the chunk).
                    let rewritten = self.formatting + formatting > 0
                        && tag.name().is(atom::P)
                        && after_paragraph(tokens.get(i + 1..).unwrap_or_default(), false)
                            != AfterParagraph::Other;
                    let closed = if rewritten { None } else { self.run.end(tag) };
                    if let Some(n) = closed {
                        // Only a tag's own element closes a formatting one.
                        formatting = formatting.saturating_sub(usize::from(is_formatting(tag)));
                        if n > 1 {
                            self.steps.push((i, n - 1, &[]));
                        }
                        let kept = self.starts.len().saturating_sub(n);
                        self.starts.truncate(kept);
                    }
                    (closed.is_some(), closed.is_some())
                }
                Tok::Html(OwnedToken::Characters(c)) => (self.run.text(c.text()), false),
                // The rest out of line: three kinds (and the default) make
                // two tests, not a jump through a table whose target
                // changes with nearly every token.
                other => self.run_other(other),
            };
            if !ok {
                stop = i;
                break;
            }
            if closed && self.run.depth() == 0 {
                len = i + 1;
            }
        }
        if self.run.depth() > 0 {
            // A run from a start tag still open at `stop` would stop there
            // too, before its element closes.
            let stop = at + stop;
            self.doomed.retain(|&d| d >= stop);
            self.doomed.extend(self.starts.iter().rev());
        }
        len
    }

    /// [`run_len`](Self::run_len) for a token neither a tag nor text: whether
    /// the run takes it (as `flatten` makes it: text, a comment, or nothing),
    /// and whether it is a node of its own (a comment).
    #[inline(never)]
    fn run_other(&mut self, tok: &Tok) -> (bool, bool) {
        let ok = match tok {
            Tok::Html(OwnedToken::Comment(_)) => {
                let ok = self.run.comment();
                return (ok, ok);
            }
            Tok::Newline => self.run.text("\n"),
            // Apostrophes (text other than whitespace).
            Tok::Quote(_) => self.run.text("'"),
            Tok::ListItem(s) | Tok::Template(s) | Tok::TemplateArg(s) => self.run.text(s),
            Tok::Ref(_) | Tok::References(_) | Tok::IndentPreWs => true,
            // An empty line's comments and whitespace (one in a table
            // stopped the whole table's run).
            Tok::EmptyLine(inner) => inner.iter().all(|t| match &t.tok {
                Tok::Html(OwnedToken::Comment(_)) => self.run.comment(),
                Tok::Html(OwnedToken::Characters(c)) => self.run.text(c.text()),
                Tok::Newline => self.run.text("\n"),
                _ => false,
            }),
            _ => false,
        };
        (ok, false)
    }

    /// Builds the run `tokens` ([`run_len`](Self::run_len)) and feeds the tree
    /// builder a comment in its place (neither text nor a change of state:
    /// its key is where the run goes, [`PatchTree::give_runs`]).
    ///
    /// [`PatchTree::give_runs`]: crate::dom::patch_tree::PatchTree::give_runs
    fn feed_run(
        &mut self,
        tokens: impl Iterator<Item = WikiToken>,
        flat: &mut Vec<OwnedToken>,
    ) -> Result<(), PipelineError> {
        let key = PatchKey::new(self.builder.next_key())
            .ok_or_else(|| PipelineError::Sink("no key for a run".into()))?;
        self.feed(OwnedToken::comment(String::new()))?;
        let mut tree = std::mem::take(&mut self.appender);
        let mut steps = self.steps.iter();
        // The index of the next token with a step (none: past every token).
        let mut next = usize::MAX;
        let mut step = steps.next();
        if let Some(&(at, ..)) = step {
            next = at;
        }
        for (i, t) in tokens.enumerate() {
            if i == next
                && let Some(&(_, close, implied)) = step
            {
                tree.close(close);
                for &name in implied {
                    tree.push(OwnedToken::StartTag(OwnedTag::new(name)));
                }
                step = steps.next();
                next = step.map_or(usize::MAX, |&(at, ..)| at);
            }
            match t.tok {
                Tok::Html(t) => tree.push(t),
                // Most pseudo-tokens here (no call, token moved or dropped).
                Tok::Newline => tree.push_static("\n"),
                _ => push_pseudo(&mut tree, t, flat),
            }
        }
        self.runs.push((key, tree.finish()));
        self.appender = tree;
        Ok(())
    }
}

impl Sink<WikiToken> for BodySink {
    type Output = Vec<Node>;

    fn write(&mut self, tokens: &mut Vec<WikiToken>) -> Result<(), PipelineError> {
        #[cfg(debug_assertions)]
        self.writes.push(tokens.clone());
        self.feed_tokens(tokens, false)
    }

    fn finish(self) -> Result<Vec<Node>, PipelineError> {
        let (page, calls, bodies) = (self.page, Arc::clone(&self.calls), Rc::clone(&self.bodies));
        let nodes = self.content()?;
        Ok(dom_passes(nodes, page, &calls, &bodies))
    }
}

impl BodySink {
    /// The tree built, before the DOM passes (debug builds check it against
    /// the tree builder's alone).
    fn content(mut self) -> Result<Vec<Node>, PipelineError> {
        let mut held = std::mem::take(&mut self.held);
        self.feed_tokens(&mut held, true)?;
        #[cfg(debug_assertions)]
        let expected = self.reference()?;
        // Dropping the tree builder hands its sink's tree back.
        drop(self.builder);
        let tree = self.tree.lock().unwrap_or_else(|e| e.into_inner()).take();
        let mut tree = tree.ok_or_else(|| PipelineError::Sink("the tree was not built".into()))?;
        tree.give_attrs(std::mem::take(&mut self.moved));
        tree.give_runs(std::mem::take(&mut self.runs));
        tree.take_error()
            .map_err(|e| PipelineError::Sink(e.to_string()))?;
        let nodes = tree.into_content(!self.page);
        #[cfg(debug_assertions)]
        if let Some(expected) = expected {
            assert_eq!(nodes, expected, "runs built without the tree builder");
            assert!(dom::flat::same_marks(&nodes, &expected), "runs' marks");
        }
        Ok(nodes)
    }

    /// Debug builds: the writes so far through a sink that builds no run
    /// (`None` when this one built none either).
    #[cfg(debug_assertions)]
    fn reference(&mut self) -> Result<Option<Vec<Node>>, PipelineError> {
        if self.runs.is_empty() {
            return Ok(None);
        }
        let mut sink = BodySink::new(
            self.page,
            0,
            Arc::clone(&self.calls),
            Rc::clone(&self.bodies),
        )?;
        sink.bypass = false;
        for mut tokens in std::mem::take(&mut self.writes) {
            sink.write(&mut tokens)?;
        }
        sink.content().map(Some)
    }
}

/// The DOM passes on a built tree, a page's (`page`) or a ref body's.
fn dom_passes(
    mut nodes: Vec<Node>,
    page: bool,
    calls: &[Call],
    bodies: &SharedBodies,
) -> Vec<Node> {
    // Debug builds check `migrate_nls` done inside other passes' walks
    // against the passes one after another.
    #[cfg(debug_assertions)]
    let expected = {
        let mut nodes = nodes.clone();
        if page {
            nodes = dom::pwrap::pwrap(nodes, |_, _| {});
        }
        dom::table_fixups::table_fixups(&mut nodes, calls);
        nodes = dom::encapsulate::encapsulate(nodes);
        dom::migrate_nls::migrate_trailing_nls(&mut nodes);
        if !page {
            dom::flag_empty_and_display_space(&mut nodes);
        }
        nodes
    };
    // A page's `migrate_nls` in two parts: the elements below an unmarked
    // one in pwrap's walk (the marker passes leave them as they are), the
    // rest after the marker passes, if that walk saw anything for them:
    // one whole walk of the tree, not two.
    let mut migrate = dom::migrate_nls::Split::default();
    if page {
        nodes = dom::pwrap::pwrap(nodes, |e, below| migrate.early(e, below));
    }
    dom::table_fixups::table_fixups(&mut nodes, calls);
    nodes = dom::encapsulate::encapsulate(nodes);
    if page {
        migrate.late(&mut nodes);
    } else {
        // A body's last passes, with `migrate_nls`, in one walk (a page's
        // are made by its serializer, `dom::serialize::serialize_page`).
        dom::migrate_flag_and_display_space(&mut nodes);
    }
    #[cfg(debug_assertions)]
    assert_eq!(nodes, expected, "migrate_nls in other walks (page {page})");
    if page {
        dom::cite::process(&mut nodes, bodies);
    }
    nodes
}

/// HTML bytes reserved per wikitext byte of a page ([`render`]).
const HTML_PER_WIKITEXT_BYTE: usize = 10;

/// HTML bytes reserved for any page besides [`HTML_PER_WIKITEXT_BYTE`]: a
/// short page's HTML is many times its wikitext (a references list, the
/// calls' `data-mw`).
const HTML_PER_PAGE: usize = 64 * 1024;

pub(crate) fn render(wikitext: &str, options: &RenderOptions) -> Result<String, WikiError> {
    if wikitext.len() > options.max_page_bytes {
        return Err(WikiError::TooLarge {
            size: wikitext.len(),
            limit: options.max_page_bytes,
        });
    }
    // Templates, parser functions and magic words expand first (the preprocessor
    // works on text, as MediaWiki's does); the result is tokenized.
    let store: &dyn preprocess::PageStore = match &options.store {
        Some(store) => store.as_ref(),
        None => &preprocess::NoPages,
    };
    let site = &options.preprocess.site;
    let title = preprocess::Title::parse(&options.title, 0, site)
        .or_else(|_| preprocess::Title::parse("Main Page", 0, site))
        .map_err(|e| WikiError::Title(e.to_string()))?;
    // `<ref>` stays an extension tag (its body is opaque to template argument
    // splitting); the preprocessor expands its body in the frame it appears in
    // (`Config::preprocessed_tags`), and at page level `transclusion::expand`
    // marks the body's calls like the page's own.
    // The configuration borrowed, not cloned with its strings for each page.
    let pre = preprocess::Preprocessor::with_config(
        store,
        std::borrow::Cow::Borrowed(&options.preprocess),
    );
    let tree = preprocess::parse_with(wikitext, pre.parse_options(preprocess::Mode::Page));
    let mut page = pre.page(title);
    let (text, calls) = crate::transclusion::expand(&mut page, wikitext, &tree, site)?;
    // One copy of the options for the page's handlers and its ref bodies' renders.
    let page = Rc::new(Page::new(Arc::new(options.clone()), Arc::from(calls)));
    let nodes = run_marked(&text, &page);
    page.release_renderers();
    let nodes = nodes?;
    // The HTML is about five times the wikitext (the corpus's 111 articles:
    // 4.7 overall, median 4.6, but 1.7 to 15 per page, with no better
    // predictor among the expanded text and the calls' `data-mw`; the high
    // ratios are short pages): room for ten times and 64 KiB is made once
    // rather than grown by copies (none of the 111 outgrows it, the closest
    // by 15 %; 3 did at eight times). Pages the size is not touched for are
    // only address space: at most 20 MiB for a 2 MiB page.
    let mut html = String::with_capacity(
        wikitext
            .len()
            .saturating_mul(HTML_PER_WIKITEXT_BYTE)
            .saturating_add(HTML_PER_PAGE),
    );
    write_and_drop(nodes, &mut html);
    Ok(html)
}

/// Top-level nodes the page's HTML is written for at a time
/// ([`write_and_drop`]).
const WRITE_GROUP: usize = 8;

/// Writes the page's HTML ([`dom::serialize::serialize_page`]) a few
/// top-level nodes at a time, each group dropped right after it is written,
/// while its nodes and strings are still in the cache: dropped after the
/// whole page, the tree was read again from memory (its drop's misses were
/// ≈ a tenth of the render's). The page's top level is its paragraphs,
/// headings, lists and tables and the newlines between them (no sections),
/// and a list's serializer keeps no state from one node to the next, so
/// the groups' HTML is the whole list's.
fn write_and_drop(nodes: Vec<Node>, html: &mut String) {
    let mut rest = nodes.into_iter();
    while !rest.as_slice().is_empty() {
        let group = rest.as_slice().len().min(WRITE_GROUP);
        dom::serialize::serialize_page(rest.as_slice().get(..group).unwrap_or_default(), html);
        rest.by_ref().take(group).for_each(drop);
    }
}

/// `text`'s tokens for the pipeline, a page's or a ref body's: tokenized with
/// the page's calls, links resolved (Parsoid's phase 2, at rank 1.5).
fn page_tokens(text: &str, page: &Page) -> Vec<WikiToken> {
    crate::tokenize::tokenize_page(
        text,
        &page.calls,
        &page.options.preprocess.site,
        page.link_page(),
    )
}

fn run_marked(text: &str, page: &Rc<Page>) -> Result<Vec<Node>, WikiError> {
    let tokens = page_tokens(text, page);
    let chain = Chain::new(stages(page, Context::Page));
    let mut pipeline = Pipeline::new(registry(chain)?, PipelineConfig::default());
    let sink = BodySink::new(
        true,
        tokens.len(),
        Arc::clone(&page.calls),
        Rc::clone(&page.bodies),
    )?;
    // The tokenizer's output ends with its one end of input: not read
    // whole again for it.
    let (html, _) = block_on(pipeline.run_ended(tokens, sink))?;
    Ok(html)
}

/// A ref body (already preprocessed with its page; the page's calls are the
/// transclusions its markers refer to) as nodes, in inline context (refs in it
/// add their bodies to the page's); errors render as nothing. The page's
/// renderer for `depth` runs it ([`InlineRenderer`]). Not inlined: its
/// callers' profiles show the inner renders as one entry.
#[inline(never)]
pub(crate) fn render_inline(text: &str, page: &Rc<Page>, depth: usize) -> Vec<Node> {
    with_inline_renderer(page, depth, |renderer| {
        renderer.render(text, page).unwrap_or_default()
    })
}

/// The page's inline renderer for `depth` (the pool's, or a new one) lent to
/// `f`, and put back in the pool after (a nested body's render, at a deeper
/// depth, takes its own).
fn with_inline_renderer<R>(
    page: &Rc<Page>,
    depth: usize,
    f: impl FnOnce(&mut InlineRenderer) -> R,
) -> R {
    let slot = page
        .inline
        .borrow_mut()
        .get_mut(depth)
        .and_then(Option::take);
    let mut renderer = slot.unwrap_or_else(|| InlineRenderer::new(page, depth));
    let out = f(&mut renderer);
    let mut pool = page.inline.borrow_mut();
    if pool.len() <= depth {
        pool.resize_with(depth + 1, || None);
    }
    if let Some(slot) = pool.get_mut(depth) {
        *slot = Some(renderer);
    }
    out
}

/// Ref bodies rendered as [`render_inline`] renders each, one phase at a
/// time over all of them: every body tokenized, then each that needs them
/// through the stages, then each built and through the DOM passes. A phase's
/// code stays in the instruction cache from one body to the next (a body's
/// whole render is more code than the cache holds, and each would load it
/// all again). Per body, its nodes and whether its render made placeholders
/// (only the stages make them: its nested refs, rendered as its stages meet
/// them, as a body's own render would).
pub(crate) fn render_inline_all(
    texts: &[&str],
    page: &Rc<Page>,
    depth: usize,
) -> Vec<(Vec<Node>, bool)> {
    let rendered = with_inline_renderer(page, depth, |renderer| {
        let tokenized: Vec<Vec<WikiToken>> = texts.iter().map(|t| page_tokens(t, page)).collect();
        // Per body: its tokens staged (or as tokenized when flat: `true`), and
        // whether its stages made placeholders.
        let staged: Vec<(Result<Vec<WikiToken>, WikiError>, bool, bool)> = tokenized
            .into_iter()
            .map(|tokens| {
                if dom::flat::is_flat(&tokens, true) {
                    return (Ok(tokens), true, false);
                }
                let made = page.bodies.borrow().tags_made();
                let staged = renderer.stages(tokens);
                (staged, false, page.bodies.borrow().tags_made() != made)
            })
            .collect();
        staged
            .into_iter()
            .map(|(tokens, raw, nests)| {
                let nodes = match tokens {
                    Ok(tokens) if raw || dom::flat::is_flat(&tokens, false) => {
                        flat_tree(tokens, page)
                    }
                    Ok(tokens) => tree(tokens, page).unwrap_or_default(),
                    Err(_) => Vec::new(),
                };
                (nodes, nests)
            })
            .collect::<Vec<(Vec<Node>, bool)>>()
    });
    // Debug builds check each body against its own render (which runs the
    // render's own checks of its flat shortcuts).
    #[cfg(debug_assertions)]
    for (text, (nodes, _)) in texts.iter().zip(&rendered) {
        assert_eq!(nodes, &render_inline(text, page, depth), "body {text:?}");
    }
    rendered
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::serialize::serialize;

    /// What `tokens` build as a document's `<body>` content and as an inline
    /// fragment ([`inline_config`]), as HTML.
    fn document_and_fragment(tokens: &[OwnedToken]) -> (String, String) {
        let build = |fragment: bool| {
            let (sink, slot, _) = SharedTree::new(0);
            let config = if fragment {
                inline_config()
            } else {
                TreeBuilderConfig::default()
            };
            let mut builder = TreeBuilder::with_sink(config, Box::new(sink));
            let body = OwnedToken::start("body");
            let lead = (!fragment).then_some(&body);
            for t in lead.into_iter().chain(tokens).chain([&OwnedToken::Eof]) {
                assert!(builder.process_owned(t).is_ok());
            }
            drop(builder);
            let tree = slot.lock().unwrap_or_else(|e| e.into_inner()).take();
            let mut html = String::new();
            if let Some(tree) = tree {
                serialize(&tree.into_content(fragment), &mut html);
            }
            html
        };
        (build(false), build(true))
    }

    /// `body` rendered in inline context as HTML.
    fn inline_html(body: &str, page: &Rc<Page>) -> String {
        let mut html = String::new();
        serialize(&render_inline(body, page, 1), &mut html);
        html
    }

    fn empty_page() -> Rc<Page> {
        Rc::new(Page::new(
            Arc::new(RenderOptions::default()),
            Arc::from(Vec::new()),
        ))
    }

    #[test]
    fn a_page_written_in_groups_is_written_as_a_whole() {
        // A heading, paragraphs with spaces to armor, a link, a list and a
        // `pre`; every prefix of the page's top level, so lists shorter
        // and longer than a group, ending inside one and at its end.
        let text =
            "== H ==\nA « b » : c.\n\n{{t}} ''x'' [[y]]\n\n* l\n* m\n\n<pre>q ?</pre>\n\nz !";
        let options = RenderOptions::default();
        let page = Rc::new(Page::new(Arc::new(options), Arc::from(Vec::new())));
        let nodes = run_marked(text, &page).unwrap_or_else(|e| panic!("{e}"));
        page.release_renderers();
        assert!(nodes.len() > WRITE_GROUP, "{nodes:?}");
        for n in 0..=nodes.len() {
            let list = nodes.get(..n).unwrap_or_default().to_vec();
            let mut whole = String::new();
            dom::serialize::serialize_page(&list, &mut whole);
            let mut grouped = String::new();
            write_and_drop(list, &mut grouped);
            assert_eq!(grouped, whole, "{n} nodes");
        }
    }

    #[test]
    fn a_reused_inline_renderer_renders_what_a_new_one_does() {
        // Bodies that leave quotes, lists, heading ids and nested refs behind.
        let bodies = [
            "''open italics and '''bold",
            "* a list\n** deeper",
            "== Same ==\n== Same ==",
            "x<ref>nested</ref> ''y",
            ": defined\n; term",
        ];
        let reused = empty_page();
        for first in &bodies {
            for second in &bodies {
                inline_html(first, &reused);
                let fresh = empty_page();
                assert_eq!(inline_html(second, &reused), inline_html(second, &fresh));
                fresh.release_renderers();
            }
        }
        reused.release_renderers();
    }

    #[test]
    fn bodies_rendered_by_phases_render_as_each_alone() {
        // Flat, staged, tree-built and nesting bodies, and an empty one.
        let bodies = [
            "plain words",
            "''italic'' and [[a link]]",
            "* a list\n** deeper",
            "<table><tr><td>cell</td></tr></table>",
            "outer<ref>inner ''ref''</ref> text",
            "",
            "x<ref name=\"n\">again</ref>",
        ];
        let batch = empty_page();
        let rendered = render_inline_all(&bodies, &batch, 1);
        assert_eq!(rendered.len(), bodies.len());
        // Each alone on the same page (a nested ref's tag, at the same
        // depth, keeps its index).
        for (body, (nodes, nests)) in bodies.iter().zip(&rendered) {
            assert_eq!(nodes, &render_inline(body, &batch, 1), "{body:?}");
            assert_eq!(*nests, body.contains("<ref"), "{body:?}");
        }
        batch.release_renderers();
    }

    #[test]
    fn runs_built_without_the_tree_builder_build_its_tree() {
        // Debug builds compare each page's tree with the tree builder's alone
        // (`BodySink::content`).
        let deep = "<span>".repeat(600) + "x";
        let pages = [
            "a ''b'' [[c]]\n\n== H ==\n* one\n** two\n# three\n; t\n: d\n",
            "''open\n\nnext'' para\n\n'''b''' <b>x<i>y</b>z</i>",
            "{| class=wikitable\n|-\n| a [[b]] || ''c''\n|-\n! h\n|}\ntext",
            "<div>x\n\n<p>y</p></div>\n <pre>z</pre>\n<!-- c -->\n<h2><h3>x</h3></h2>",
            "* a\n*: b\n<ul><li><p>x</p></li></ul><dl><dd><div>y</div></dd></dl>",
            "<blockquote>q<br>r<img src=x></blockquote><p>a<table><tr><td>b</table>",
            deep.as_str(),
        ];
        for page in pages {
            let html = crate::render(page, &RenderOptions::default());
            assert!(html.is_ok_and(|h| !h.is_empty()), "{page}");
        }
    }

    #[test]
    fn released_renderers_free_the_page() {
        let page = empty_page();
        assert!(!inline_html("''x'' [[y]]", &page).is_empty());
        assert!(Rc::strong_count(&page) > 1);
        page.release_renderers();
        assert_eq!(Rc::strong_count(&page), 1);
    }

    #[test]
    fn inline_fragments_build_what_the_document_builds() {
        let s = OwnedToken::start;
        let e = OwnedToken::end;
        let t = OwnedToken::text;
        let cases: Vec<Vec<OwnedToken>> = vec![
            // Quirks: a table does not close the paragraph.
            vec![
                s("p"),
                t("a"),
                s("table"),
                s("tr"),
                s("td"),
                t("x"),
                e("table"),
            ],
            // The adoption agency, foster parenting, a leading meta.
            vec![s("meta"), s("b"), t("x"), s("p"), t("y"), e("b"), t("z")],
            vec![
                s("table"),
                t("fostered"),
                s("i"),
                t("w"),
                e("table"),
                e("p"),
            ],
            vec![s("li"), t("a"), s("li"), s("dd"), e("li"), s("h2"), s("h3")],
            // Past the depth limit elements become siblings.
            std::iter::repeat_with(|| s("span")).take(600).collect(),
        ];
        for tokens in &cases {
            let (document, fragment) = document_and_fragment(tokens);
            assert!(!document.is_empty());
            assert_eq!(document, fragment);
        }
    }
}

#[cfg(test)]
mod run_tests {
    use crate::RenderOptions;

    /// A `</p>` inside a run's formatting element, followed by two newlines:
    /// the paragraph rule (`after_paragraph`) applies as it does without
    /// runs (debug builds compare both trees).
    #[test]
    fn paragraph_end_in_a_runs_formatting_element() {
        for page in [
            "<b><p>x</p>\n\ny</b>",
            "<i><div><p>x</p>\n\n</div></i>",
            // The rule leaves these `</p>` as they are: the run takes them.
            "<i><div><p>x</p>\ny</div></i>",
            "<b><p>x</p><p>y</p>\n\n\nz</b>",
            "{|\n|<b><p>x</p>\n\ny</b>\n|}",
        ] {
            assert!(
                crate::render(page, &RenderOptions::default()).is_ok(),
                "{page}"
            );
        }
    }
}
