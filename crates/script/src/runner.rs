//! [`ScriptedParser`]: the session, the store the scripts see, and the loop
//! that runs a script at each `</script>`.

use std::cell::RefCell;
use std::rc::Rc;

use boa_engine::{Context, Source};
use tagloom_html::batch::PatchBatch;
use tagloom_html::dom::{DomStore, NodeKind, NodeRef};
use tagloom_html::dom_patch::Namespace;
use tagloom_html::session::{Html5ParseSession, PumpStatus};
use tagloom_html::tree_builder::SuspendReason;

use crate::{ScriptConfig, ScriptError, ScriptFailure, ScriptedDocument};

/// What the scripts' natives and the runner share.
pub(crate) struct Shared {
    pub(crate) session: Html5ParseSession,
    pub(crate) store: DomStore,
    pub(crate) failures: Vec<ScriptFailure>,
    /// A failure that stops the parse, met inside a native (thrown to unwind).
    pub(crate) fatal: Option<ScriptError>,
    /// A write restarted the parse: every running script unwinds.
    pub(crate) restarted: bool,
    pub(crate) scripts_run: usize,
    max_scripts: usize,
    /// Copies of the batches, for an embedder that wants to see them.
    kept: Option<Vec<PatchBatch>>,
}

pub(crate) type SharedRef = Rc<RefCell<Shared>>;

impl Shared {
    /// Applies the session's ready batches to the store.
    pub(crate) fn apply_batches(&mut self) -> Result<(), ScriptError> {
        for batch in self.session.take_batches() {
            if let Some(kept) = &mut self.kept {
                kept.push(batch.clone());
            }
            self.store.apply_owned(batch)?;
        }
        Ok(())
    }

    /// Whether running scripts must stop (a restart or a fatal failure).
    pub(crate) fn unwinding(&self) -> bool {
        self.restarted || self.fatal.is_some()
    }
}

/// A streaming parse that runs the document's scripts. See the [crate docs](crate).
pub struct ScriptedParser {
    shared: SharedRef,
    context: Context,
}

impl std::fmt::Debug for ScriptedParser {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ScriptedParser").finish_non_exhaustive()
    }
}

impl ScriptedParser {
    /// A parser for a whole document.
    pub fn new(config: &ScriptConfig) -> ScriptedParser {
        let mut session_config = config.session.clone();
        session_config.tree.scripting = true;
        session_config.tree.suspend_at_script = true;
        let shared = Rc::new(RefCell::new(Shared {
            session: Html5ParseSession::new(session_config),
            store: DomStore::new(),
            failures: Vec::new(),
            fatal: None,
            restarted: false,
            scripts_run: 0,
            max_scripts: config.limits.max_scripts,
            kept: None,
        }));
        let mut context = Context::default();
        let limits = context.runtime_limits_mut();
        limits.set_loop_iteration_limit(config.limits.loop_iterations);
        limits.set_recursion_limit(config.limits.recursion);
        limits.set_stack_size_limit(config.limits.stack_size);
        context.insert_data(shared.clone());
        if let Err(err) = crate::dom::install(&mut context) {
            shared.borrow_mut().failures.push(ScriptFailure {
                script: None,
                message: format!("cannot set up the document object: {err}"),
            });
        }
        ScriptedParser { shared, context }
    }

    /// Keeps a copy of every batch for [`take_batches`](Self::take_batches)
    /// (e.g. to print the patch stream). Script edits of attributes are made
    /// in the store directly and are not part of any batch.
    pub fn keep_batches(&mut self) {
        self.shared.borrow_mut().kept.get_or_insert_with(Vec::new);
    }

    /// The batches kept since the last call (see [`keep_batches`](Self::keep_batches)).
    pub fn take_batches(&mut self) -> Vec<PatchBatch> {
        self.shared
            .borrow_mut()
            .kept
            .as_mut()
            .map(std::mem::take)
            .unwrap_or_default()
    }

    /// Feeds bytes and runs every script they complete.
    pub fn push(&mut self, bytes: &[u8]) -> Result<(), ScriptError> {
        let status = {
            let mut shared = self.shared.borrow_mut();
            shared.session.push_bytes(bytes)?;
            shared.session.pump()?
        };
        self.drain(status)?;
        Ok(())
    }

    /// Ends the input and runs the remaining scripts.
    pub fn finish(&mut self) -> Result<(), ScriptError> {
        let status = self.shared.borrow_mut().session.finish()?;
        self.drain(status)?;
        Ok(())
    }

    /// The document as the scripts left it (after [`finish`](Self::finish)).
    pub fn into_document(self) -> Result<ScriptedDocument, ScriptError> {
        let ScriptedParser { shared, context } = self;
        drop(context);
        // The context held the only other reference and is gone.
        let shared = Rc::try_unwrap(shared)
            .map_err(|_| ScriptError::DocumentStillHeld)?
            .into_inner();
        Ok(ScriptedDocument {
            store: shared.store,
            session: shared.session,
            failures: shared.failures,
            scripts_run: shared.scripts_run,
        })
    }

    /// The store as the scripts left it so far.
    pub fn with_store<R>(&self, f: impl FnOnce(&DomStore, &Html5ParseSession) -> R) -> R {
        let shared = self.shared.borrow();
        f(&shared.store, &shared.session)
    }

    /// Applies batches and runs scripts until the session needs input or finished.
    fn drain(&mut self, mut status: PumpStatus) -> Result<PumpStatus, ScriptError> {
        loop {
            self.shared.borrow_mut().apply_batches()?;
            match status {
                PumpStatus::Suspended(SuspendReason::Script) => {
                    run_running_script(&self.shared, &mut self.context);
                    let mut shared = self.shared.borrow_mut();
                    if let Some(fatal) = shared.fatal.take() {
                        return Err(fatal);
                    }
                    if !std::mem::take(&mut shared.restarted) {
                        shared.session.end_script()?;
                    }
                    status = shared.session.pump()?;
                }
                PumpStatus::Suspended(SuspendReason::BatchReady) => {
                    status = self.shared.borrow_mut().session.pump()?;
                }
                done => return Ok(done),
            }
        }
    }
}

/// Runs the script the session is suspended for (at any nesting level); a
/// script that throws is recorded in `failures`.
pub(crate) fn run_running_script(shared: &SharedRef, context: &mut Context) {
    let (key, source) = {
        let mut s = shared.borrow_mut();
        let key = s.session.running_script();
        if s.scripts_run >= s.max_scripts {
            let limit = s.max_scripts;
            s.failures.push(ScriptFailure {
                script: key,
                message: format!("not run: the document ran {limit} scripts already"),
            });
            return;
        }
        let source = key.and_then(|k| s.store.get(k)).and_then(runnable_source);
        if source.is_some() {
            s.scripts_run += 1;
        }
        (key, source)
    };
    let Some(source) = source else { return };
    let result = context.eval(Source::from_bytes(source.as_bytes()));
    let mut s = shared.borrow_mut();
    if let Err(err) = result
        && !s.unwinding()
    {
        // The first line: the error without boa's backtrace.
        let message = err.to_string();
        let message = message.lines().next().unwrap_or_default().to_owned();
        s.failures.push(ScriptFailure {
            script: key,
            message,
        });
    }
}

/// The text of `script` if it is a classic inline script in JavaScript (no
/// `src`: nothing is fetched; `type` absent, empty or a JavaScript MIME type).
fn runnable_source(script: NodeRef<'_>) -> Option<String> {
    let NodeKind::Element(e) = script.kind() else {
        return None;
    };
    if e.ns() != Namespace::Html || e.attr("src").is_some() {
        return None;
    }
    let javascript = match e.attr("type").map(str::trim) {
        None | Some("") => e
            .attr("language")
            .is_none_or(|l| l.is_empty() || l.eq_ignore_ascii_case("javascript")),
        Some(t) => is_javascript_mime(t),
    };
    if !javascript {
        return None;
    }
    let mut text = String::new();
    for child in script.children() {
        if let NodeKind::Text(t) = child.kind() {
            text.push_str(t);
        }
    }
    Some(text)
}

/// The JavaScript MIME type essence match of the HTML spec (a short list).
fn is_javascript_mime(t: &str) -> bool {
    let essence = t
        .split(';')
        .next()
        .unwrap_or("")
        .trim()
        .to_ascii_lowercase();
    matches!(
        essence.as_str(),
        "text/javascript"
            | "application/javascript"
            | "application/ecmascript"
            | "application/x-ecmascript"
            | "application/x-javascript"
            | "text/ecmascript"
            | "text/jscript"
            | "text/livescript"
            | "text/x-ecmascript"
            | "text/x-javascript"
    ) || essence.starts_with("text/javascript1.")
}
