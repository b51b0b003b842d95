//! The rewriter's errors and the handlers' result type.

use std::io;

/// What a handler returns: `Err` stops the rewrite with [`RewriteError::Handler`]
/// (the same shape as lol-html's `HandlerResult`).
pub type HandlerResult = Result<(), Box<dyn std::error::Error + Send + Sync>>;

/// A failure that stops a rewrite. After one, the rewriter accepts no more input
/// ([`RewriteError::Poisoned`]); what was already written to the sink stays written.
#[derive(Debug, thiserror::Error)]
pub enum RewriteError {
    /// A tag, comment or DOCTYPE grew past
    /// [`Settings::max_token_bytes`](super::Settings::max_token_bytes).
    #[error("a token starting at byte {offset} exceeds the limit of {limit} bytes")]
    TokenTooLarge {
        /// Where the token starts in the input.
        offset: usize,
        /// The configured limit.
        limit: usize,
    },
    /// A text node grew past
    /// [`Settings::max_text_node_bytes`](super::Settings::max_text_node_bytes)
    /// while a whole-text-node handler was waiting for its end.
    #[error("a text node starting at byte {offset} exceeds the limit of {limit} bytes")]
    TextNodeTooLarge {
        /// Where the text node starts in the input.
        offset: usize,
        /// The configured limit.
        limit: usize,
    },
    /// The content of an element captured for an element-content handler grew past
    /// the handler's budget.
    #[error(
        "the content of <{element}> starting at byte {offset} exceeds its budget of {limit} bytes"
    )]
    ContentTooLarge {
        /// The element's tag name.
        element: String,
        /// Where the element's start tag is in the input.
        offset: usize,
        /// The handler's budget.
        limit: usize,
    },
    /// A handler returned an error.
    #[error("handler failed: {0}")]
    Handler(Box<dyn std::error::Error + Send + Sync>),
    /// A handler gave an invalid tag or attribute name.
    #[error(
        "invalid name {0:?}: a tag or attribute name must be non-empty and contain no whitespace, '/', '>', '=', quotes or '<'"
    )]
    InvalidName(String),
    /// A comment text containing `-->` (it would end the comment early).
    #[error("comment text contains \"-->\"")]
    InvalidComment,
    /// The output sink failed.
    #[error("writing the output failed: {0}")]
    Output(#[from] io::Error),
    /// The rewriter failed earlier and accepts no more input.
    #[error("the rewriter failed earlier and accepts no more input")]
    Poisoned,
}
