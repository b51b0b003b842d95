//! Where a run's tokens go: the [`Sink`] trait and its three implementations.

use std::fmt::Write;

use tagloom_html::dom::DomStore;
use tagloom_html::serializer::{
    AttrQuoting, FragmentOptions, SerializeOptions, SerializerToken, TokenAttr, TokenSerializer,
    is_raw_text_element, serialize_children,
};
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
            .apply_owned(patches)
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

/// Writes tokens as HTML without building a tree: a token that is unmodified and
/// has a span is written as its bytes of `source` (so untouched input comes back
/// byte for byte); any other goes through the [`TokenSerializer`] (attribute values
/// quoted, no optional tags omitted; text inside raw-text elements literally). A thin adapter, to be
/// switched to the owned-token serializer when it lands.
#[derive(Debug)]
pub struct TokenSink {
    source: String,
    out: String,
    serializer: TokenSerializer,
    /// Inside a raw-text element (set by its start tag, cleared by any end tag).
    raw: bool,
}

impl TokenSink {
    /// A token sink for tokens read from `source` (the decoded text their spans
    /// address).
    pub fn new(source: String) -> Self {
        TokenSink {
            source,
            out: String::new(),
            serializer: TokenSerializer::new(SerializeOptions {
                omit_optional_tags: false,
                minimize_boolean_attributes: false,
                quote_attr_values: AttrQuoting::Always,
                ..SerializeOptions::default()
            }),
            raw: false,
        }
    }

    fn write_one(&mut self, token: &OwnedToken) {
        let from_source = match token.span() {
            Some(span) if !token.is_modified() => self.source.get(span.start..span.end),
            _ => None,
        };
        let raw = self.raw;
        match token {
            OwnedToken::StartTag(tag) => {
                self.raw = is_raw_text_element(tag.ns(), tag.name().as_str(), false);
            }
            OwnedToken::EndTag(_) => self.raw = false,
            _ => {}
        }
        if let Some(bytes) = from_source {
            self.out.push_str(bytes);
            return;
        }
        let one = |t: SerializerToken<'_>, s: &mut TokenSerializer| s.to_string(&[t]);
        match token {
            OwnedToken::Characters(text) if raw => self.out.push_str(text.text()),
            OwnedToken::Characters(text) => {
                let html = one(
                    SerializerToken::Characters(text.text()),
                    &mut self.serializer,
                );
                self.out.push_str(&html);
            }
            OwnedToken::Comment(text) => {
                let html = one(SerializerToken::Comment(text.text()), &mut self.serializer);
                self.out.push_str(&html);
            }
            OwnedToken::Doctype(d) => {
                let html = one(
                    SerializerToken::Doctype {
                        name: d.name().unwrap_or(""),
                        public_id: d.public_id().unwrap_or(""),
                        system_id: d.system_id().unwrap_or(""),
                    },
                    &mut self.serializer,
                );
                self.out.push_str(&html);
            }
            OwnedToken::StartTag(tag) => {
                let attrs: Vec<TokenAttr<'_>> = tag
                    .attrs()
                    .iter()
                    .map(|a| TokenAttr {
                        ns: a.ns,
                        name: a.name.as_str(),
                        value: &a.value,
                    })
                    .collect();
                let mut html = one(
                    SerializerToken::StartTag {
                        ns: tag.ns(),
                        name: tag.name().as_str(),
                        attrs: &attrs,
                    },
                    &mut self.serializer,
                );
                if tag.self_closing() && html.ends_with('>') {
                    html.pop();
                    html.push_str("/>");
                }
                self.out.push_str(&html);
            }
            OwnedToken::EndTag(tag) => {
                // Written directly: the serializer omits end tags of void elements.
                let _ = write!(self.out, "</{}>", tag.name().as_str());
            }
            OwnedToken::ProcessingInstruction(pi) => {
                let _ = write!(self.out, "<?{} {}>", pi.target(), pi.data());
            }
            OwnedToken::Eof => {}
        }
    }
}

impl Sink<OwnedToken> for TokenSink {
    type Output = String;

    fn write(&mut self, tokens: &mut Vec<OwnedToken>) -> Result<(), PipelineError> {
        for token in tokens.iter() {
            self.write_one(token);
        }
        Ok(())
    }

    fn finish(self) -> Result<String, PipelineError> {
        Ok(self.out)
    }
}
