//! The HTML tokenizer (§13.2.5). API surface; the state machine lands next.

use crate::atom::AtomTable;
use crate::error::ParseError;
use crate::token::Token;

/// The states a consumer may switch the tokenizer to (the tree builder does so after
/// `<title>`, `<script>`, `<plaintext>`…; tests start in any of them).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum State {
    /// 13.2.5.1 Data state.
    #[default]
    Data,
    /// 13.2.5.2 RCDATA state.
    Rcdata,
    /// 13.2.5.3 RAWTEXT state.
    Rawtext,
    /// 13.2.5.4 Script data state.
    ScriptData,
    /// 13.2.5.5 PLAINTEXT state.
    Plaintext,
    /// 13.2.5.69 CDATA section state.
    CdataSection,
}

/// Tokenizer settings.
#[derive(Clone, Debug)]
pub struct TokenizerConfig {
    /// The state to start in.
    pub initial_state: State,
    /// "The tag name of the last start tag to have been emitted", for the appropriate
    /// end tag check when starting in RCDATA/RAWTEXT/script data.
    pub last_start_tag: Option<String>,
    /// The largest token (in bytes of decoded input) the tokenizer will buffer.
    pub max_token_bytes: usize,
}

impl Default for TokenizerConfig {
    fn default() -> Self {
        TokenizerConfig {
            initial_state: State::Data,
            last_start_tag: None,
            max_token_bytes: 64 << 20,
        }
    }
}

/// A failure that stops tokenization (as opposed to a [`ParseError`], which never does).
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum TokenizerError {
    /// A single token grew past [`TokenizerConfig::max_token_bytes`].
    #[error("a token starting at byte {offset} exceeds the limit of {limit} bytes")]
    TokenTooLarge {
        /// Where the token starts.
        offset: usize,
        /// The configured limit.
        limit: usize,
    },
}

/// The streaming tokenizer.
pub struct Tokenizer {
    atoms: AtomTable,
    errors: Vec<ParseError>,
}

impl Tokenizer {
    /// A tokenizer with the given settings.
    pub fn new(_config: TokenizerConfig) -> Self {
        Tokenizer { atoms: AtomTable::new(), errors: Vec::new() }
    }
    /// Appends decoded text.
    pub fn push_str(&mut self, _chunk: &str) {}
    /// Appends UTF-8 bytes; invalid sequences become U+FFFD.
    pub fn push_bytes(&mut self, _chunk: &[u8]) {}
    /// Marks the end of input.
    pub fn finish(&mut self) {}
    /// The next token, `Ok(None)` when more input is needed or after `Eof`.
    pub fn next_token(&mut self) -> Result<Option<Token<'_>>, TokenizerError> {
        Ok(None)
    }
    /// Switches state (the tree builder's RCDATA/RAWTEXT/script/PLAINTEXT switches).
    pub fn set_state(&mut self, _state: State) {}
    /// Whether `<![CDATA[` opens a CDATA section: true when the adjusted current node
    /// is an element not in the HTML namespace.
    pub fn set_cdata_allowed(&mut self, _allowed: bool) {}
    /// Takes the parse errors recorded so far.
    pub fn take_errors(&mut self) -> Vec<ParseError> {
        std::mem::take(&mut self.errors)
    }
    /// The table resolving dynamic atoms.
    pub fn atoms(&self) -> &AtomTable {
        &self.atoms
    }
}
