//! The errors of this crate: every failure is a value, none panics.

use std::path::PathBuf;

/// Result alias of this crate.
pub type Result<T, E = L10nError> = std::result::Result<T, E>;

/// Everything that can stop an extraction, a merge or a pseudo-translation.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum L10nError {
    /// Reading or writing a file failed (including a full disk for the skeleton store
    /// or the output: nothing partial is left behind).
    #[error("{context}: {source}")]
    Io {
        /// What was being done, with the path.
        context: String,
        /// The I/O error.
        #[source]
        source: std::io::Error,
    },
    /// The tokenizer gave up (a single token larger than its limit).
    #[error("{path}: {source}")]
    Tokenizer {
        /// The input file.
        path: PathBuf,
        /// The tokenizer's error.
        #[source]
        source: tagloom_html::tokenizer::TokenizerError,
    },
    /// An encoding label that names no encoding.
    #[error("unknown encoding label {0:?}")]
    UnknownEncoding(String),
    /// The skeleton store holds an entry that cannot be decoded (a corrupt temp file).
    #[error("corrupt skeleton store: {0}")]
    CorruptSkeleton(String),
    /// An XLIFF file that is not well-formed or not XLIFF 2.x.
    #[error("{path}: invalid XLIFF: {message}")]
    Xliff {
        /// The XLIFF file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// A PO file that cannot be parsed.
    #[error("{path}:{line}: invalid PO: {message}")]
    Po {
        /// The PO file.
        path: PathBuf,
        /// 1-based line.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// A language value that is not a well-formed BCP 47 tag (a command-line
    /// option, XLIFF `srcLang`/`trgLang`, a PO `Language:` header).
    #[error("{context}: {source}")]
    Language {
        /// Where the value came from (`--target`, `page.xlf: trgLang`…).
        context: String,
        /// The value and what is wrong with it.
        #[source]
        source: crate::lang::LanguageTagError,
    },
    /// A rules file that cannot be read or parsed.
    #[error("{path}: invalid rules: {message}")]
    Rules {
        /// The rules file.
        path: PathBuf,
        /// What is wrong.
        message: String,
    },
    /// Translations that were not applied (stale source, unit not in the page,
    /// broken inline codes…), when [`crate::flow::PartialMerge::Fail`] is chosen.
    #[error("{count} translation(s) not applied, first: {first}")]
    NotApplied {
        /// How many.
        count: usize,
        /// The first one, as text (unit id and reason).
        first: String,
    },
    /// The input is larger than the re-parse fallback takes on
    /// ([`crate::flow::Common::reparse_limit`]): it would hold the whole document,
    /// its tree and a translated copy in memory.
    #[error(
        "{path}: {size} bytes is over the re-parse fallback's limit of {limit} bytes (about {} MB of memory per MB of input)",
        crate::writer::reparse::BYTES_PER_INPUT_BYTE
    )]
    ReparseLimit {
        /// The input.
        path: PathBuf,
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// Bad usage: a directory where a file was expected, an unknown extension...
    #[error("{0}")]
    Usage(String),
}

impl L10nError {
    /// An [`L10nError::Io`] with a context message.
    pub fn io(context: impl Into<String>, source: std::io::Error) -> Self {
        L10nError::Io {
            context: context.into(),
            source,
        }
    }
}

/// Adds context to I/O results.
pub(crate) trait IoContext<T> {
    /// Maps an I/O error to [`L10nError::Io`] with `context()` as its message.
    fn ctx<F: FnOnce() -> String>(self, context: F) -> Result<T>;
}

impl<T> IoContext<T> for std::io::Result<T> {
    fn ctx<F: FnOnce() -> String>(self, context: F) -> Result<T> {
        self.map_err(|e| L10nError::io(context(), e))
    }
}
