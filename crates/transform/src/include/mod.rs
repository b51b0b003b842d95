//! Includes: `<include src="…">` and ESI's `<esi:include src="…"/>` replaced by the
//! content they name, resolved concurrently in the pipeline's asynchronous phase.
//!
//! An [`Includes`] builds the pipeline: an asynchronous handler (rank 1.5) for start
//! tags named `include` and `esi:include` asks the [`Resolver`] (a [`DirResolver`] by
//! default: paths under a root, never outside it) for the text, tokenizes it as an
//! HTML fragment ([`tokenize`]: the tokenizer driven by the text-type simulator),
//! and runs it through an independent sub-pipeline with the same handlers (phases
//! 0 and 1; phase 2 runs once on the merged page), so includes nest. A phase-0
//! handler drops `</include>` and `</esi:include>` end tags; content between an
//! include's tags stays.
//!
//! Problems never fail the page and never hang: a missing `src`, a path that is
//! absolute, has `..` or leads out of the root, a missing or unreadable file, a
//! loop (a file including one of its ancestors) and an include deeper than
//! [`PipelineConfig::max_depth`] (40) or past [`IncludeConfig::max_includes`] each become visible error markup in place of
//! the include:
//!
//! ```html
//! <span class="tagloom-error" data-tagloom-error="loop">expansion loop: a.html -> b.html -> a.html</span>
//! ```
//!
//! (codes: `missing-src`, `bad-path`, `not-found`, `io`, `not-utf8`, `loop`,
//! `too-deep`, `too-many`, `tokenizer`).
//!
//! Output ([`IncludeOutput`]): `Tokens` writes the page's untouched tokens back
//! byte for byte and serializes only what changed (included content, markup);
//! `Tree` builds the spec tree and serializes it (well-formed, normalized).
//!
//! ```
//! use tagloom_transform::include::{DirResolver, IncludeOutput, Includes};
//!
//! let dir = std::env::temp_dir().join(format!("tagloom-include-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! std::fs::write(dir.join("nav.html"), "<nav>Home</nav>")?;
//! let includes = Includes::new(DirResolver::new(&dir)?, Default::default());
//! let (html, _) = includes.process("<body ><include src=nav.html></include><p>Hi", IncludeOutput::Tokens)?;
//! assert_eq!(html, "<body ><nav>Home</nav><p>Hi");
//! let (html, _) = includes.process("<include src=../etc/passwd>", IncludeOutput::Tokens)?;
//! assert!(html.starts_with(r#"<span class="tagloom-error" data-tagloom-error="bad-path">"#));
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod resolve;
mod source;

pub use resolve::{DirResolver, ResolveError, ResolveFuture, Resolved, Resolver};
pub use source::tokenize;

use std::cell::Cell;
use std::rc::Rc;
use std::sync::Arc;

use tagloom_html::token::{OwnedTag, OwnedToken, TokenKind};

use crate::pipeline::{
    AsyncHandler, Ctx, ExpansionError, HandlerError, HandlerFuture, Match, Outcome, Pipeline,
    PipelineConfig, PipelineError, Rank, Registry, RunStats, Sink, TokenSink, TreeSink, block_on,
    enter,
};

/// The tag names that include.
pub const INCLUDE_TAGS: [&str; 2] = ["include", "esi:include"];

/// The rank of the include handler (phase 1).
pub const INCLUDE_RANK: f64 = 1.5;

/// How [`Includes::process`] writes the page.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum IncludeOutput {
    /// Untouched input byte for byte; changed and included tokens serialized.
    #[default]
    Tokens,
    /// The serialization of the spec tree built from the tokens.
    Tree,
}

type ExtraHandlers = dyn Fn(&mut Registry<OwnedToken>) -> Result<(), PipelineError> + Send + Sync;

struct Inner {
    resolver: Box<dyn Resolver>,
    config: IncludeConfig,
    extra: Option<Box<ExtraHandlers>>,
}

/// The limits of an include run.
#[derive(Clone, Debug)]
pub struct IncludeConfig {
    /// The pipelines' configuration; its `max_depth` (default 40) is the deepest
    /// nesting of includes.
    pub pipeline: PipelineConfig,
    /// The most includes resolved for one page, all levels together (default
    /// 10 000): the depth limit alone lets a file that includes the next one twice
    /// grow as 2^depth. Includes past it become `too-many` error markup.
    pub max_includes: usize,
}

impl Default for IncludeConfig {
    fn default() -> Self {
        IncludeConfig {
            pipeline: PipelineConfig::default(),
            max_includes: 10_000,
        }
    }
}

/// The include pipeline: a resolver, the pipeline configuration, and optionally
/// more handlers for every (sub-)pipeline. Cheap to clone; shareable across
/// threads (each run is single-threaded).
#[derive(Clone)]
pub struct Includes(Arc<Inner>);

impl Includes {
    /// Includes resolved by `resolver`, with this pipeline configuration (depth
    /// limit, cap on pending includes, chunk size).
    pub fn new(resolver: impl Resolver + 'static, config: IncludeConfig) -> Includes {
        Includes(Arc::new(Inner {
            resolver: Box::new(resolver),
            config,
            extra: None,
        }))
    }

    /// The same, with `add` called on every pipeline's registry (the page's and
    /// each include's) to register more handlers (a sanitizer in phase 2, say).
    pub fn with_handlers(
        resolver: impl Resolver + 'static,
        config: IncludeConfig,
        add: impl Fn(&mut Registry<OwnedToken>) -> Result<(), PipelineError> + Send + Sync + 'static,
    ) -> Includes {
        Includes(Arc::new(Inner {
            resolver: Box::new(resolver),
            config,
            extra: Some(Box::new(add)),
        }))
    }

    /// A registry with the include handlers and the extra ones, for one page
    /// (`count` is the page's number of includes so far).
    fn registry(&self, count: &Rc<Cell<usize>>) -> Result<Registry<OwnedToken>, PipelineError> {
        let mut registry = Registry::new();
        for name in INCLUDE_TAGS {
            registry.add_async(
                IncludeHandler(self.clone(), Rc::clone(count)),
                Rank::new(INCLUDE_RANK)?,
                Match::tag(TokenKind::StartTag, name),
            )?;
            registry.add(
                |_, _: &Ctx| Ok(Outcome::Delete),
                Rank::new(0.5)?,
                Match::tag(TokenKind::EndTag, name),
            )?;
        }
        if let Some(extra) = &self.0.extra {
            extra(&mut registry)?;
        }
        Ok(registry)
    }

    /// Resolves the includes of the page `text` and writes it as `output` says.
    pub fn process(
        &self,
        text: &str,
        output: IncludeOutput,
    ) -> Result<(String, RunStats), PipelineError> {
        match output {
            IncludeOutput::Tokens => self.process_into(text, TokenSink::new(text.to_owned())),
            IncludeOutput::Tree => self.process_into(text, TreeSink::default()),
        }
    }

    /// Resolves the includes of the page `text` into `sink` (a sanitizer's
    /// [`SanitizeSink`](crate::sanitize::SanitizeSink), say).
    pub fn process_into<S: Sink<OwnedToken>>(
        &self,
        text: &str,
        sink: S,
    ) -> Result<(S::Output, RunStats), PipelineError> {
        let tokens = tokenize(text)?;
        let count = Rc::new(Cell::new(0));
        let mut pipeline = Pipeline::new(self.registry(&count)?, self.0.config.pipeline.clone());
        block_on(pipeline.run(tokens.into_iter().map(Ok), sink))
    }

    /// The tokens an include start tag stands for.
    async fn expand(
        &self,
        token: OwnedToken,
        ctx: Ctx,
        count: Rc<Cell<usize>>,
    ) -> Result<Vec<OwnedToken>, HandlerError> {
        if count.get() >= self.0.config.max_includes {
            let message = format!(
                "more than {} includes in one page",
                self.0.config.max_includes
            );
            return Ok(error_markup("too-many", &message));
        }
        count.set(count.get() + 1);
        let Some(src) = token
            .as_tag()
            .and_then(|t| t.attr("src"))
            .map(str::to_owned)
        else {
            return Ok(error_markup(
                "missing-src",
                "include without a src attribute",
            ));
        };
        let resolved = match self.0.resolver.resolve(&src).await {
            Ok(resolved) => resolved,
            Err(e) => return Ok(error_markup(e.code(), &e.to_string())),
        };
        let child = match enter(&ctx, &resolved.name) {
            Ok(child) => child,
            Err(e) => {
                let code = match e {
                    ExpansionError::Loop { .. } => "loop",
                    ExpansionError::TooDeep { .. } => "too-deep",
                };
                return Ok(error_markup(code, &e.to_string()));
            }
        };
        let tokens = match tokenize(&resolved.text) {
            Ok(tokens) => tokens,
            Err(e) => {
                return Ok(error_markup(
                    "tokenizer",
                    &format!("{}: {e}", resolved.name),
                ));
            }
        };
        let registry = self.registry(&count)?;
        let mut sub = Pipeline::for_expansion(registry, self.0.config.pipeline.clone(), child);
        let mut out = Box::pin(sub.expand(tokens.into_iter().map(Ok))).await?;
        out.iter_mut().for_each(OwnedToken::mark_modified);
        Ok(out)
    }
}

struct IncludeHandler(Includes, Rc<Cell<usize>>);

impl AsyncHandler<OwnedToken> for IncludeHandler {
    fn handle(&self, token: OwnedToken, ctx: &Ctx) -> HandlerFuture<OwnedToken> {
        let (includes, count) = (self.0.clone(), Rc::clone(&self.1));
        let ctx = ctx.clone();
        Box::pin(async move { Ok(Outcome::Expand(includes.expand(token, ctx, count).await?)) })
    }
}

/// Visible error markup: `<span class="tagloom-error" data-tagloom-error="CODE">MESSAGE</span>`.
pub fn error_markup(code: &str, message: &str) -> Vec<OwnedToken> {
    let span = OwnedTag::new("span")
        .with_attr("class", "tagloom-error")
        .with_attr("data-tagloom-error", code.to_owned());
    vec![
        OwnedToken::StartTag(span),
        OwnedToken::text(message),
        OwnedToken::end("span"),
    ]
}
