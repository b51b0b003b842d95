//! The one error type of the crate.

use std::time::Duration;

/// Why a browser operation failed.
#[derive(Debug, thiserror::Error)]
pub enum BrowserError {
    /// No Chromium binary: none of the usual names on `PATH`, and no
    /// `TAGLOOM_CHROMIUM` naming a file.
    #[error("no chromium on PATH (apt-get install chromium, or set TAGLOOM_CHROMIUM)")]
    NotFound,
    /// The browser process could not be started.
    #[error("cannot start {program}: {source}")]
    Launch {
        /// The program run.
        program: String,
        /// The operating system's error.
        #[source]
        source: std::io::Error,
    },
    /// Writing a command to the browser failed (it has most likely exited).
    #[error("cannot write to the browser's pipe: {0}")]
    Write(#[source] std::io::Error),
    /// The browser closed its end of the pipe (it exited or crashed); `stderr`
    /// holds the end of what it printed.
    #[error("the browser closed the DevTools pipe; its stderr ends with:\n{stderr}")]
    Closed {
        /// The last few KB of the browser's stderr.
        stderr: String,
    },
    /// No answer to a command within the timeout.
    #[error("no answer to {method} within {after:?}")]
    Timeout {
        /// The DevTools method called (or the event awaited).
        method: String,
        /// The timeout that passed.
        after: Duration,
    },
    /// The browser answered a command with a protocol error.
    #[error("{method} failed: {message} (code {code})")]
    Protocol {
        /// The DevTools method called.
        method: String,
        /// The protocol's error code.
        code: i64,
        /// The protocol's error message.
        message: String,
    },
    /// A script passed to [`Page::evaluate`](crate::Page::evaluate) threw.
    #[error("script threw: {0}")]
    Script(String),
    /// An answer did not have the expected shape.
    #[error("unexpected answer to {method}: {detail}")]
    Malformed {
        /// The DevTools method called.
        method: String,
        /// What was wrong.
        detail: String,
    },
}
