//! Where a run's tokens go: the [`Sink`] trait and its three implementations.

use tagloom_html::dom::DomStore;
use tagloom_html::serializer::{FragmentOptions, TokenWriter, serialize_children};
use tagloom_html::token::OwnedToken;
use tagloom_html::tree_builder::{TreeBuilder, TreeBuilderConfig};

use super::PipelineError;

/// The end of a pipeline. [`write`](Self::write) takes each released batch (in
/// order; the last ends with end of input); [`finish`](Self::finish) is called only
/// after a successful run, so a failed run produces no output.
pub trait Sink<T> {
    /// What a finished sink gives.
    type Output;
    /// Takes `tokens` (leaving the vector empty or not: the pipeline clears it).
    fn write(&mut self, tokens: &mut Vec<T>) -> Result<(), PipelineError>;
    /// The output.
    fn finish(self) -> Result<Self::Output, PipelineError>;
}

/// Collects the tokens.
#[derive(Debug)]
pub struct VecSink<T>(Vec<T>);

impl<T> Default for VecSink<T> {
    fn default() -> Self {
        VecSink(Vec::new())
    }
}

impl<T> Sink<T> for VecSink<T> {
    type Output = Vec<T>;

    fn write(&mut self, tokens: &mut Vec<T>) -> Result<(), PipelineError> {
        self.0.append(tokens);
        Ok(())
    }

    fn finish(self) -> Result<Vec<T>, PipelineError> {
        Ok(self.0)
    }
}

/// Builds a tree: tokens → [`TreeBuilder::process_owned`] → patches → [`DomStore`];
/// finishes as the document's HTML serialization (well-formed whatever the tokens).
/// The tree builder's tokenizer-state requests are not used: the source's tokenizer
/// was driven by the text-type simulator before the pipeline.
#[derive(Debug)]
pub struct TreeSink {
    builder: TreeBuilder,
    store: DomStore,
}

impl TreeSink {
    /// A tree sink with this tree builder configuration.
    pub fn new(config: TreeBuilderConfig) -> Self {
        TreeSink {
            builder: TreeBuilder::new(config),
            store: DomStore::new(),
        }
    }

    /// The tree so far (for callers that want more than the serialization).
    pub fn store(&self) -> &DomStore {
        &self.store
    }
}

impl Default for TreeSink {
    fn default() -> Self {
        Self::new(TreeBuilderConfig::default())
    }
}

impl Sink<OwnedToken> for TreeSink {
    type Output = String;

    fn write(&mut self, tokens: &mut Vec<OwnedToken>) -> Result<(), PipelineError> {
        for token in tokens.iter() {
            self.builder
                .process_owned(token)
                .map_err(|e| PipelineError::Sink(e.to_string()))?;
        }
        let patches = self.builder.take_patches();
        self.store
            .apply_patches_owned(patches)
            .map_err(|e| PipelineError::Sink(e.to_string()))
    }

    fn finish(self) -> Result<String, PipelineError> {
        let mut html = String::new();
        if let Some(document) = self.store.document() {
            serialize_children(document, FragmentOptions::default(), &mut html)
                .map_err(|e| PipelineError::Sink(e.to_string()))?;
        }
        Ok(html)
    }
}

/// Writes tokens as HTML without building a tree, through the shared
/// [`TokenWriter`] in its byte-preserving mode: a token that is unmodified and has a
/// span is written as its text in `source` (so untouched input comes back byte for
/// byte); any other is serialized with the spec's escaping (text inside raw-text
/// elements literally: set [`OwnedTag::set_ns`](tagloom_html::token::OwnedTag::set_ns)
/// on tokens a handler makes inside foreign content).
#[derive(Debug)]
pub struct TokenSink {
    source: String,
    out: String,
    writer: TokenWriter,
}

impl TokenSink {
    /// A token sink for tokens read from `source` (the decoded text their spans
    /// address).
    pub fn new(source: String) -> Self {
        TokenSink {
            source,
            out: String::new(),
            writer: TokenWriter::new(),
        }
    }
}

impl Sink<OwnedToken> for TokenSink {
    type Output = String;

    fn write(&mut self, tokens: &mut Vec<OwnedToken>) -> Result<(), PipelineError> {
        for token in tokens.iter() {
            self.writer
                .write_preserving(token, self.source.as_str(), &mut self.out)
                .map_err(|e| PipelineError::Sink(e.to_string()))?;
        }
        Ok(())
    }

    fn finish(self) -> Result<String, PipelineError> {
        Ok(self.out)
    }
}
