//! The fast path's [`TreeSink`]: what the tree builder creates and links,
//! recorded for the [`Walker`](super::walk::Walker) without a [`DomPatch`]
//! value and without an allocation per node. Text goes into one buffer reused
//! from token to token; an element's attributes are copied into a list taken
//! from a pool (the tree pass hands the lists back once the output is
//! written, so their strings are reused: no `malloc`/`free` per attribute);
//! anything the walker refuses anyway (a comment, a doctype, foster
//! parenting, the adoption agency's moves, template contents) is recorded as
//! such, without its data.
//!
//! The tree builder owns its sink (`TreeBuilder::with_sink` takes a boxed
//! `'static` one) and gives no access to it, so the log it writes lives in a
//! thread-local cell: [`LogSink`] is an empty handle, the tree builder calls
//! it while processing a token on this thread, and the front end reads the
//! log between tokens ([`with_log`]) on the same thread; the two never hold
//! the cell at once. (A lock would do the same at about 20 instructions per
//! call, a tenth of the tree pass's cost on a text-heavy page.) The front end
//! clears the log before each parse ([`reset`]), so nothing a parse abandoned
//! halfway leaks into the next one.
//!
//! [`DomPatch`]: tagloom_html::dom_patch::DomPatch

use std::borrow::Cow;
use std::cell::{Cell, RefCell};
use std::ops::Range;

use tagloom_html::dom_patch::{Namespace, PatchAttr, PatchKey, QuirksMode};
use tagloom_html::tree_builder::{AttrName, ElementAttrs, NewElement, TreeSink};

/// One call of the tree builder, as the walker reads it.
pub(crate) enum Event {
    /// `create_element` of an element without template contents.
    Element {
        key: PatchKey,
        ns: Namespace,
        name: Cow<'static, str>,
        attrs: Vec<PatchAttr>,
    },
    /// `create_text`: its text is `Log::texts[text]`.
    Text { key: PatchKey, text: Range<usize> },
    /// `append_child`.
    Append { parent: PatchKey, child: PatchKey },
    /// `append_text`: `Log::texts[text]` added to the text node `node`.
    AppendText { node: PatchKey, text: Range<usize> },
    /// The document node (the first call).
    Document { key: PatchKey },
    /// Anything else: a call the walker refuses (the input then takes the
    /// general path).
    Other,
}

/// The calls recorded since the front end last read them.
pub(crate) struct Log {
    pub(crate) events: Vec<Event>,
    /// The texts of the recorded text events, one after the other.
    pub(crate) texts: String,
    /// Attribute lists to reuse (their strings keep their allocations).
    pub(crate) pool: Vec<Vec<PatchAttr>>,
}

/// Lists kept in [`Log::pool`] at most.
const POOL: usize = 64;

impl Log {
    const fn new() -> Log {
        Log {
            events: Vec::new(),
            texts: String::new(),
            pool: Vec::new(),
        }
    }

    fn text(&mut self, text: &str) -> Range<usize> {
        let start = self.texts.len();
        self.texts.push_str(text);
        start..self.texts.len()
    }

    /// A copy of `attrs` in a list from the pool.
    fn attrs(&mut self, attrs: ElementAttrs<'_>) -> Vec<PatchAttr> {
        if attrs.is_empty() {
            return Vec::new();
        }
        let mut list = self.pool.pop().unwrap_or_default();
        let mut n = 0;
        for a in attrs.iter() {
            match list.get_mut(n) {
                Some(slot) => {
                    slot.ns = a.ns;
                    match a.name {
                        AttrName::Static(s) => slot.name = Cow::Borrowed(s),
                        AttrName::Borrowed(s) => slot.name = Cow::Owned(s.to_owned()),
                    }
                    slot.value.clear();
                    slot.value.push_str(a.value);
                }
                None => list.push(a.to_patch_attr()),
            }
            n += 1;
        }
        list.truncate(n);
        list
    }

    /// Gives attribute lists back to the pool.
    pub(crate) fn recycle(&mut self, lists: &mut Vec<Vec<PatchAttr>>) {
        if lists.is_empty() {
            return;
        }
        for list in lists.drain(..) {
            if self.pool.len() < POOL && list.capacity() > 0 {
                self.pool.push(list);
            }
        }
    }
}

thread_local! {
    /// The log of this thread's fast-path parse (see the [module docs](self)).
    static LOG: RefCell<Log> = const { RefCell::new(Log::new()) };
    /// A call could not be recorded (the log was in use: never, by
    /// construction); the parse's log is then incomplete and the front end
    /// gives up ([`lost`]).
    static LOST: Cell<bool> = const { Cell::new(false) };
}

/// Whether a call of this parse could not be recorded.
pub(crate) fn lost() -> bool {
    LOST.with(Cell::get)
}

/// Runs `f` on this thread's log; `None` if the log is in use (never, by
/// construction: see the [module docs](self)).
pub(crate) fn with_log<R>(f: impl FnOnce(&mut Log) -> R) -> Option<R> {
    LOG.with(|log| log.try_borrow_mut().ok().map(|mut log| f(&mut log)))
}

/// Clears this thread's log for a new parse (the pool stays). `false` if the
/// log is in use.
pub(crate) fn reset() -> bool {
    LOST.with(|lost| lost.set(false));
    with_log(|log| {
        log.events.clear();
        log.texts.clear();
    })
    .is_some()
}

/// The sink the tree builder writes to (see the [module docs](self)).
pub(crate) struct LogSink;

impl LogSink {
    fn record(&mut self, f: impl FnOnce(&mut Log) -> Event) {
        let recorded = with_log(|log| {
            let event = f(log);
            log.events.push(event);
        });
        // The front end never holds the log while the tree builder runs; if
        // it did, the parse must not go on with a log missing a call.
        if recorded.is_none() {
            LOST.with(|lost| lost.set(true));
        }
    }
}

impl TreeSink for LogSink {
    fn create_document(&mut self, key: PatchKey) {
        self.record(|_| Event::Document { key });
    }

    fn set_quirks_mode(&mut self, _: QuirksMode) {
        self.record(|_| Event::Other);
    }

    fn create_doctype(&mut self, _: PatchKey, _: &str, _: &str, _: &str) {
        self.record(|_| Event::Other);
    }

    fn create_element(&mut self, key: PatchKey, element: NewElement<'_>) {
        self.record(|log| {
            if element.contents.is_some() {
                return Event::Other;
            }
            Event::Element {
                key,
                ns: element.ns,
                name: element.name,
                attrs: log.attrs(element.attrs),
            }
        });
    }

    fn create_text(&mut self, key: PatchKey, text: &str) {
        self.record(|log| Event::Text {
            key,
            text: log.text(text),
        });
    }

    fn create_comment(&mut self, _: PatchKey, _: &str) {
        self.record(|_| Event::Other);
    }

    fn create_processing_instruction(&mut self, _: PatchKey, _: &str, _: &str) {
        self.record(|_| Event::Other);
    }

    fn append_child(&mut self, parent: PatchKey, child: PatchKey) {
        self.record(|_| Event::Append { parent, child });
    }

    fn insert_before(&mut self, _: PatchKey, _: PatchKey, _: PatchKey) {
        self.record(|_| Event::Other);
    }

    fn remove(&mut self, _: PatchKey) {
        self.record(|_| Event::Other);
    }

    fn append_text(&mut self, node: PatchKey, text: &str) {
        self.record(|log| Event::AppendText {
            node,
            text: log.text(text),
        });
    }

    fn add_attributes(&mut self, _: PatchKey, _: ElementAttrs<'_>) {
        self.record(|_| Event::Other);
    }
}
