//! The fast path's [`TreeSink`]: the first parse's walker, tree pass and
//! writer run inside the tree builder's calls, as they come ([`Fused`]). No
//! call is recorded to be read again: an element's attributes are copied once
//! into a list taken from a pool (the writer hands the lists back once the
//! start tag is written, so their strings are reused: no `malloc`/`free` per
//! attribute), a created text into one buffer reused until the node is
//! inserted, and anything the walker refuses (a comment, a doctype, foster
//! parenting, the adoption agency's moves, template contents) ends the walk at
//! once ([`failed`]).
//!
//! The tree builder owns its sink (`TreeBuilder::with_sink` takes a boxed
//! `'static` one) and gives no access to it, so the state lives in a
//! thread-local cell: [`FusedSink`] is an empty handle, the tree builder calls
//! it while processing a token on this thread, and the front end installs the
//! state before the parse ([`start`]) and takes it back after it
//! ([`finish`]); between tokens it asks only whether a call failed (a
//! thread-local flag) and, around a start tag the token filter judged, says
//! which tag that is ([`judge`]). (A lock would do the same at about 20
//! instructions per call.)
//!
//! Which element comes from the judged tag is told by the addresses of the
//! texts its name and attributes borrow: the tree builder hands the
//! attributes of the token it processes as they are to an HTML element, so an
//! element whose name and every attribute's name and value are the very texts
//! of the judged tag (same address, same length) has the tag's name and
//! attributes. Any other element, even equal, is judged again by the tree pass.

use std::borrow::Cow;
use std::cell::{Cell, RefCell};

use tagloom_html::atom::{Atom, AtomTable};
use tagloom_html::dom_patch::{AttrNamespace, Namespace, PatchAttr, PatchKey, QuirksMode};
use tagloom_html::token::OwnedTag;
use tagloom_html::tree_builder::{AttrName, ElementAttrs, NewElement, TreeSink};

use super::Abandon;
use super::check::First;
use super::clean::Cleaner;
use super::walk::Walker;

/// The first parse past the tree builder: the walker, the tree pass and the
/// writer (with its check).
pub(crate) struct Fused {
    pub(crate) walker: Walker,
    pub(crate) cleaner: Cleaner<First>,
    /// The texts of created text nodes not yet inserted, one after the other.
    texts: String,
    /// The judged start tag being processed.
    judge: Judge,
    /// Why the walk ended, if it did.
    failed: Option<Abandon>,
}

impl Fused {
    pub(crate) fn new(walker: Walker, cleaner: Cleaner<First>) -> Fused {
        Fused {
            walker,
            cleaner,
            texts: String::new(),
            judge: Judge::default(),
            failed: None,
        }
    }
}

/// The texts of a judged start tag, by address and length.
#[derive(Default)]
struct Judge {
    on: bool,
    name: (usize, usize),
    /// Name and value of each attribute.
    attrs: Vec<[usize; 4]>,
}

fn span(text: &str) -> (usize, usize) {
    (text.as_ptr() as usize, text.len())
}

impl Judge {
    /// The texts of the judged tag's attributes, if `element` may be its
    /// element (same name text, as many attributes): [`copy_attrs`] compares
    /// them as it copies.
    fn candidate(&self, element: &NewElement<'_>) -> Option<&[[usize; 4]]> {
        (self.on
            && element.ns == Namespace::Html
            && span(&element.name) == self.name
            && element.attrs.len() == self.attrs.len())
        .then_some(&self.attrs[..])
    }
}

/// Attribute lists kept for reuse at most.
const POOL: usize = 64;

thread_local! {
    /// This thread's fast-path parse (see the [module docs](self)). Boxed: the
    /// thread-local block stays a few words, since a Python extension that links
    /// this crate has its TLS in the static TLS surplus (mimalloc's TLS model),
    /// where a 2.4 KiB block fails to load ("cannot allocate memory in static
    /// TLS block").
    static STATE: RefCell<Option<Box<Fused>>> = const { RefCell::new(None) };
    /// A call failed (or could not reach the state: never, by construction).
    static FAILED: Cell<bool> = const { Cell::new(false) };
    /// Attribute lists between parses (their strings keep their allocations).
    static LISTS: RefCell<Vec<Vec<PatchAttr>>> = const { RefCell::new(Vec::new()) };
}

/// Installs `state` for this thread's parse, with the lists kept from the
/// last one. `false` if a parse is under way (never).
pub(crate) fn start(mut state: Fused) -> bool {
    FAILED.with(|f| f.set(false));
    if let Some(lists) =
        LISTS.with(|l| l.try_borrow_mut().ok().map(|mut l| std::mem::take(&mut *l)))
    {
        state.cleaner.out.spent = lists;
    }
    STATE.with(|cell| match cell.try_borrow_mut() {
        Ok(mut slot) => {
            *slot = Some(Box::new(state));
            true
        }
        Err(_) => false,
    })
}

/// Takes this thread's parse back: its state, or why the walk ended.
pub(crate) fn finish() -> Result<Fused, Abandon> {
    let state = STATE
        .with(|cell| cell.try_borrow_mut().ok().and_then(|mut slot| slot.take()))
        .map(|state| *state)
        .ok_or(Abandon::Engine)?;
    let mut state = state;
    let mut lists = std::mem::take(&mut state.cleaner.out.spent);
    lists.truncate(POOL);
    LISTS.with(|l| {
        if let Ok(mut l) = l.try_borrow_mut() {
            *l = lists;
        }
    });
    match state.failed {
        Some(why) => Err(why),
        None if FAILED.with(Cell::get) => Err(Abandon::Engine),
        None => Ok(state),
    }
}

/// Whether a call of this parse failed (the parse can stop).
pub(crate) fn failed() -> bool {
    FAILED.with(Cell::get)
}

/// The start tag the token filter judged, just before the tree builder
/// processes it (`Some`: the filter's copy, its names' atoms and their
/// table, as [`OwnedToken::view`] takes them), and just after (`None`).
///
/// [`OwnedToken::view`]: tagloom_html::token::OwnedToken::view
pub(crate) fn judge(tag: Option<Judged<'_>>) {
    with_state(|state| {
        let judge = &mut state.judge;
        judge.on = false;
        if let Some((tag, names, atoms)) = tag {
            let mut names = names.iter().map(|&a| span(atoms.name(a)));
            judge.name = names.next().ok_or(Abandon::Engine)?;
            judge.attrs.clear();
            for (a, name) in tag.attrs().iter().zip(names) {
                let ((n, nl), (v, vl)) = (name, span(&a.value));
                judge.attrs.push([n, nl, v, vl]);
            }
            // A view names every attribute (else the fingerprint is short
            // and no element matches).
            judge.on = judge.attrs.len() == tag.attrs().len();
        }
        Ok(())
    });
}

/// A start tag as [`OwnedToken::view`](tagloom_html::token::OwnedToken::view)
/// takes it: the tag, its names' atoms, their table.
pub(crate) type Judged<'a> = (&'a OwnedTag, &'a [Atom], &'a AtomTable);

/// Runs `f` on this thread's state unless the walk already ended; an error
/// ends it.
fn with_state(f: impl FnOnce(&mut Fused) -> Result<(), Abandon>) {
    let going = STATE.with(|cell| {
        let Ok(mut slot) = cell.try_borrow_mut() else {
            return false;
        };
        let Some(state) = slot.as_mut() else {
            return false;
        };
        if state.failed.is_some() {
            return false;
        }
        match f(state) {
            Ok(()) => true,
            Err(why) => {
                state.failed = Some(why);
                false
            }
        }
    });
    if !going {
        FAILED.with(|f| f.set(true));
    }
}

/// Attributes kept in [`Cleaner::slots`] at most.
const SLOTS: usize = 64;

/// A copy of `attrs` in a list from `pool` (the list's attributes past them
/// go to `slots`), and whether their texts are those of `judged` (see
/// [`Judge`]; `false` without it).
fn copy_attrs(
    pool: &mut Vec<Vec<PatchAttr>>,
    slots: &mut Vec<PatchAttr>,
    attrs: ElementAttrs<'_>,
    judged: Option<&[[usize; 4]]>,
) -> (Vec<PatchAttr>, bool) {
    if attrs.is_empty() {
        return (Vec::new(), judged.is_some());
    }
    let mut same = judged.is_some();
    let fingerprint = judged.unwrap_or_default();
    let mut list = pool.pop().unwrap_or_default();
    let mut n = 0;
    for a in attrs.iter() {
        if same {
            let (name, name_len) = span(a.name.as_str());
            let (value, value_len) = span(a.value);
            same = a.ns == AttrNamespace::None
                && fingerprint.get(n) == Some(&[name, name_len, value, value_len]);
        }
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
    if list.len() > n {
        let room = SLOTS.saturating_sub(slots.len());
        let end = list.len().min(n + room);
        slots.extend(list.drain(n..end));
        list.truncate(n);
    }
    (list, same)
}

/// The sink the tree builder writes to (see the [module docs](self)).
pub(crate) struct FusedSink;

fn refuse() {
    with_state(|_| Err(Abandon::Patch));
}

impl TreeSink for FusedSink {
    fn create_document(&mut self, key: PatchKey) {
        with_state(|state| state.walker.created_document(key));
    }

    fn set_quirks_mode(&mut self, _: QuirksMode) {
        refuse();
    }

    fn create_doctype(&mut self, _: PatchKey, _: &str, _: &str, _: &str) {
        refuse();
    }

    fn create_element(&mut self, key: PatchKey, element: NewElement<'_>) {
        with_state(|state| {
            if element.contents.is_some() {
                return Err(Abandon::Patch);
            }
            let candidate = state.judge.candidate(&element);
            let cleaner = &mut state.cleaner;
            let (attrs, judged) = copy_attrs(
                &mut cleaner.out.spent,
                &mut cleaner.slots,
                element.attrs,
                candidate,
            );
            state
                .walker
                .created_element(key, element.ns, element.name, attrs, judged);
            Ok(())
        });
    }

    fn create_text(&mut self, key: PatchKey, text: &str) {
        with_state(|state| {
            let start = state.texts.len();
            state.texts.push_str(text);
            state.walker.created_text(key, start..state.texts.len());
            Ok(())
        });
    }

    fn create_comment(&mut self, _: PatchKey, _: &str) {
        refuse();
    }

    fn create_processing_instruction(&mut self, _: PatchKey, _: &str, _: &str) {
        refuse();
    }

    fn append_child(&mut self, parent: PatchKey, child: PatchKey) {
        with_state(|state| {
            let Fused {
                walker,
                cleaner,
                texts,
                ..
            } = state;
            walker.append_child(parent, child, texts, cleaner)?;
            // The ranges of created texts not yet inserted point into it.
            if !walker.holds_created() {
                texts.clear();
            }
            Ok(())
        });
    }

    fn insert_before(&mut self, _: PatchKey, _: PatchKey, _: PatchKey) {
        refuse();
    }

    fn remove(&mut self, _: PatchKey) {
        refuse();
    }

    fn append_text(&mut self, node: PatchKey, text: &str) {
        with_state(|state| state.walker.append_text(node, text, &mut state.cleaner));
    }

    fn add_attributes(&mut self, _: PatchKey, _: ElementAttrs<'_>) {
        refuse();
    }
}
