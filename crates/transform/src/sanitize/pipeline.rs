//! The sanitizer as a pipeline's last phase: [`SanitizeHandler`] (the token
//! filter, at [`Rank::LAST`] for any token) and [`SanitizeSink`] (tree builder →
//! the authoritative tree pass → output checks). Together they give what
//! [`Sanitizer::sanitize`] gives for the same tokens.

use tagloom_html::dom::DomStore;
use tagloom_html::text_type::{SimulatorConfig, TextTypeSimulator};
use tagloom_html::token::OwnedToken;
use tagloom_html::tree_builder::TreeBuilder;

use super::{SanitizeFilter, Sanitized, Sanitizer, tree_config};
use crate::pipeline::{
    Ctx, Handler, HandlerError, HandlerId, Match, Outcome, PipelineError, Rank, Registry, Sink,
};

/// The sanitizer's token filter as a pipeline handler (register it with
/// [`Sanitizer::register`]). It measures dropped content with its own
/// text-type simulator over the tokens it sees, as [`Sanitizer::sanitize`] does
/// over its tokenizer's.
#[derive(Debug)]
pub struct SanitizeHandler {
    filter: SanitizeFilter,
    sim: TextTypeSimulator,
    out: Vec<OwnedToken>,
}

impl SanitizeHandler {
    /// A handler for `sanitizer`'s policy.
    pub fn new(sanitizer: &Sanitizer) -> SanitizeHandler {
        SanitizeHandler {
            filter: sanitizer.filter(),
            sim: TextTypeSimulator::new(SimulatorConfig {
                max_depth: sanitizer.policy.max_depth,
                ..SimulatorConfig::default()
            }),
            out: Vec::new(),
        }
    }
}

impl Handler<OwnedToken> for SanitizeHandler {
    fn handle(&mut self, token: OwnedToken, _: &Ctx) -> Result<Outcome<OwnedToken>, HandlerError> {
        let effect = match &token {
            OwnedToken::StartTag(_) | OwnedToken::EndTag(_) => Some(self.sim.process_owned(&token)),
            OwnedToken::Characters(_) => {
                self.sim.process_owned(&token);
                None
            }
            _ => None,
        };
        self.filter.filter_with(token, effect, &mut self.out);
        Ok(match self.out.len() {
            0 => Outcome::Delete,
            1 => match self.out.pop() {
                Some(t) => Outcome::Keep(t),
                None => Outcome::Delete,
            },
            _ => Outcome::Expand(std::mem::take(&mut self.out)),
        })
    }
}

/// The end of a sanitizing pipeline: builds the tree (fragment, context `body`,
/// the policy's depth cap) and finishes with [`Sanitizer::sanitize_tree`].
#[derive(Debug)]
pub struct SanitizeSink {
    sanitizer: Sanitizer,
    builder: TreeBuilder,
    store: DomStore,
}

impl Sink<OwnedToken> for SanitizeSink {
    type Output = Sanitized;

    fn write(&mut self, tokens: &mut Vec<OwnedToken>) -> Result<(), PipelineError> {
        for token in tokens.iter() {
            self.builder
                .process_owned(token)
                .map_err(|e| PipelineError::Sink(e.to_string()))?;
            // The tokens' source was driven by its own simulator.
            let _ = self.builder.take_tokenizer_state();
        }
        self.store
            .apply_patches_owned(self.builder.take_patches())
            .map_err(|e| PipelineError::Sink(e.to_string()))
    }

    fn finish(self) -> Result<Sanitized, PipelineError> {
        let root = self
            .builder
            .fragment_root_key()
            .and_then(|key| self.store.get(key))
            .ok_or_else(|| PipelineError::Sink("no fragment root".into()))?;
        Ok(self.sanitizer.sanitize_tree(root))
    }
}

impl Sanitizer {
    /// Registers the token filter as `registry`'s last handler ([`Rank::LAST`],
    /// any token). End the pipeline with [`sink`](Self::sink): the filter alone is
    /// only a candidate (it does not know namespaces); the sink's tree pass and
    /// output checks decide.
    ///
    /// ```
    /// use std::sync::Arc;
    /// use tagloom_html::token::OwnedToken;
    /// use tagloom_transform::pipeline::{block_on, Pipeline, PipelineConfig, Registry};
    /// use tagloom_transform::sanitize::{Policy, Sanitizer};
    ///
    /// let sanitizer = Sanitizer::new(Arc::new(Policy::default()));
    /// let mut registry = Registry::new();
    /// sanitizer.register(&mut registry)?;
    /// let input = [
    ///     OwnedToken::start("p"),
    ///     OwnedToken::start("script"),
    ///     OwnedToken::text("alert(1)"),
    ///     OwnedToken::end("script"),
    ///     OwnedToken::text("hi"),
    /// ]
    /// .map(Ok);
    /// let mut pipeline = Pipeline::new(registry, PipelineConfig::default());
    /// let (out, _) = block_on(pipeline.run(input, sanitizer.sink()))?;
    /// assert_eq!(out.html, "<p>hi</p>");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn register(
        &self,
        registry: &mut Registry<OwnedToken>,
    ) -> Result<HandlerId, PipelineError> {
        registry.add(SanitizeHandler::new(self), Rank::LAST, Match::Any)
    }

    /// The sink that finishes a pipeline ending with [`register`](Self::register)'s
    /// handler.
    pub fn sink(&self) -> SanitizeSink {
        SanitizeSink {
            sanitizer: self.clone(),
            builder: TreeBuilder::new(tree_config("body", self.policy.max_depth)),
            store: DomStore::new(),
        }
    }
}
