//! `tagloom-script`: parses a document and runs its inline scripts at
//! `</script>`, as a browser does while parsing, with the pure-Rust
//! [`boa_engine`] JavaScript engine.
//!
//! The embedder's DOM is a [`DomStore`] built
//! from the session's patch batches; scripts see it through a small DOM
//! surface for parsing-time scripts (`dom.rs`): `document.write`/`writeln`
//! (through the session's script host: written text is parsed at the
//! insertion point, nested scripts run at once), `getElementById`,
//! `getElementsByTagName`, and on elements `id`, `tagName`, `getAttribute`,
//! `setAttribute`, `removeAttribute`, `hasAttribute`, `parentNode`,
//! `textContent` (read), `getElementsByTagName`. Attribute changes are made in
//! the store and reported to the tree builder
//! ([`Html5ParseSession::dom_changed`](tagloom_html::session::Html5ParseSession::dom_changed)).
//!
//! Which API when:
//! - [`parse_document`]: all the bytes at hand, the finished tree wanted.
//! - [`ScriptedParser`]: bytes arriving in pieces ([`push`](ScriptedParser::push),
//!   [`finish`](ScriptedParser::finish)), or the versioned batches wanted as well
//!   ([`keep_batches`](ScriptedParser::keep_batches), as `tagloom parse --scripting execute` prints them).
//! - Without scripts, use `tagloom_html::driver` (no JavaScript engine).
//!
//! A script that throws is reported ([`ScriptFailure`]) and the parse goes on,
//! as in a browser. External scripts (`src`) and non-JavaScript `type`s are
//! not run. Nothing here reaches the network, timers or events.
//!
//! ```
//! use tagloom_html::dom;
//! use tagloom_script::{ScriptConfig, parse_document};
//!
//! let parsed = parse_document(
//!     b"1<script>document.write('<b>' + (1 + 1) + '</b>')</script>3",
//!     &ScriptConfig::default(),
//! )
//! .unwrap();
//! assert!(dom::dump_document(&parsed.store).contains("|     <b>\n|       \"2\"\n|     \"3\"\n"));
//! assert!(parsed.failures.is_empty());
//! ```

mod dom;
mod runner;

use tagloom_html::dom::{DomStore, PatchError};
use tagloom_html::dom_patch::PatchKey;
use tagloom_html::session::{Html5ParseSession, ScriptHostError, SessionConfig, SessionError};

pub use runner::ScriptedParser;

/// Limits of script execution (boa's runtime limits), all explicit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScriptLimits {
    /// The most iterations of any one loop (a script past it throws). Default 1,000,000.
    pub loop_iterations: u64,
    /// The deepest JavaScript call recursion. Default 256.
    pub recursion: usize,
    /// The engine's value stack size. Default 10,240.
    pub stack_size: usize,
    /// The most scripts run in one document (the rest are skipped and reported). Default 10,000.
    pub max_scripts: usize,
}

impl Default for ScriptLimits {
    fn default() -> Self {
        ScriptLimits {
            loop_iterations: 1_000_000,
            recursion: 256,
            stack_size: 10 * 1024,
            max_scripts: 10_000,
        }
    }
}

/// The settings of a scripted parse.
#[derive(Clone, Debug, Default)]
pub struct ScriptConfig {
    /// The session's settings; the scripting flag and `suspend_at_script` are
    /// turned on, and `document.write` limits are in `session.script`.
    pub session: SessionConfig,
    /// Script execution limits.
    pub limits: ScriptLimits,
}

/// A script that failed (threw, hit a limit, or was skipped by `max_scripts`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScriptFailure {
    /// The `script` element.
    pub script: Option<PatchKey>,
    /// The exception or the reason.
    pub message: String,
}

/// A failure that stops the parse.
#[derive(Debug, thiserror::Error)]
pub enum ScriptError {
    /// The parse session failed.
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The script host was misused (an engine bug here) or a session failure
    /// surfaced during a write.
    #[error(transparent)]
    ScriptHost(#[from] ScriptHostError),
    /// A patch batch did not apply to the store (an engine bug).
    #[error("internal error: a patch batch did not apply: {0}")]
    Patch(#[from] PatchError),
    /// The script engine still held the document after its context was dropped
    /// (an engine bug: the document cannot be handed out while a script object
    /// can still reach it).
    #[error("internal error: the script engine still holds the document")]
    DocumentStillHeld,
}

/// A parsed document with the outcome of its scripts.
#[derive(Debug)]
pub struct ScriptedDocument {
    /// The document as the scripts left it.
    pub store: DomStore,
    /// The session (errors, encoding, restarts).
    pub session: Html5ParseSession,
    /// Scripts that failed, in run order.
    pub failures: Vec<ScriptFailure>,
    /// How many scripts ran (nested ones included).
    pub scripts_run: usize,
}

/// Parses `bytes` as a whole document, running its scripts.
pub fn parse_document(
    bytes: &[u8],
    config: &ScriptConfig,
) -> Result<ScriptedDocument, ScriptError> {
    let mut parser = ScriptedParser::new(config);
    parser.push(bytes)?;
    parser.finish()?;
    parser.into_document()
}
