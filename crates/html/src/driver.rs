//! The one-shot driver: bytes in, versioned [`PatchBatch`]es (or a whole
//! [`DomStore`]) out, over an [`Html5ParseSession`].
//!
//! A session is a pull machine (`push_bytes`, `pump`, `next_batch`, `finish`);
//! [`Driver`] is the one loop over it that every caller shares:
//!
//! - it pushes the input at most [`ParseConfig::chunk_size`] bytes at a time
//!   (whole slices, pieces of a stream, or anything [`Read`]);
//! - after each push it pumps and hands every ready batch to a closure, in order;
//! - it pumps on through suspensions: after `</script>` (no script runs here) and
//!   when a batch is full under [`BatchPolicy::Bounded`];
//! - "change the encoding" needs nothing from it: the session restarts by itself and
//!   the next batch opens with [`DomPatch::Clear`](crate::dom_patch::DomPatch::Clear), which a [`DomStore`] applies;
//! - an engine failure ends the run with [`DriveError::Session`]; the consumer keeps
//!   the last batch that passed (see the session's failure policy).
//!
//! ```
//! use tagloom_html::dom::{self, DomStore};
//! use tagloom_html::driver::{Driver, ParseConfig};
//!
//! let mut driver = Driver::new(&ParseConfig::default());
//! let mut store = DomStore::new();
//! let mut apply = |batch| store.apply_owned(batch);
//! for piece in [&b"<title>a<b"[..], b"</title><p>x"] {
//!     driver.push(piece, &mut apply).unwrap();
//! }
//! driver.finish(&mut apply).unwrap();
//! assert!(dom::dump_document(&store).contains("|     <p>\n|       \"x\"\n"));
//! ```

use std::io::Read;

use crate::batch::PatchBatch;
use crate::dom::{DomStore, NodeRef, PatchError};
use crate::dom_patch::PatchKey;
use crate::error::ParseError;
use crate::session::{
    BYTES_PER_NODE, BatchPolicy, Html5ParseSession, PumpStatus, SessionConfig, SessionError,
};
use crate::tree_builder::FragmentContext;

/// The batch size of [`ParseConfig::default`]: small enough that the patches held at
/// once stay a few hundred KB, large enough that batching costs nothing measurable.
pub const DEFAULT_BATCH_PATCHES: usize = 1024;

/// The bytes read at a time by [`Driver::read`].
pub const READ_PIECE: usize = 64 * 1024;

/// The settings of a driven parse.
#[derive(Clone, Debug)]
pub struct ParseConfig {
    /// Decoder, tokenizer and tree builder settings, and the batching policy.
    pub session: SessionConfig,
    /// The most bytes pushed into the session at once (at least 1). The result does
    /// not depend on it; `usize::MAX` (the default) pushes a slice whole.
    pub chunk_size: usize,
}

impl Default for ParseConfig {
    /// Default session settings with batches of at most
    /// [`DEFAULT_BATCH_PATCHES`] patches, handed out while the parse runs.
    fn default() -> Self {
        ParseConfig {
            session: SessionConfig {
                batching: BatchPolicy::Bounded(DEFAULT_BATCH_PATCHES),
                ..SessionConfig::default()
            },
            chunk_size: usize::MAX,
        }
    }
}

/// Why a driven parse stopped. `E` is the error of the caller's batch closure.
#[derive(Debug, thiserror::Error)]
pub enum DriveError<E> {
    /// The session failed: a tokenizer limit or an engine failure (never malformed
    /// markup alone).
    #[error(transparent)]
    Session(#[from] SessionError),
    /// The input could not be read ([`Driver::read`]).
    #[error("cannot read the input: {0}")]
    Read(#[source] std::io::Error),
    /// The batch closure returned an error; the parse stopped there.
    #[error("{0}")]
    Sink(E),
}

/// The error of [`parse_document`] and [`parse_fragment`]: the batches go into a
/// [`DomStore`], which rejects a batch only on an engine bug.
pub type ParseFailure = DriveError<PatchError>;

/// A parsed fragment: the store and the key of the `html` root whose children are
/// the fragment's nodes (A.9).
#[derive(Debug)]
pub struct Fragment {
    /// The tree: a document node holding the `html` root.
    pub store: DomStore,
    /// The `html` root.
    pub root: PatchKey,
}

impl Fragment {
    /// The `html` root, whose children are the fragment's nodes.
    pub fn root(&self) -> Option<NodeRef<'_>> {
        self.store.get(self.root)
    }
}

/// The parse loop over one session. See the [module docs](self).
#[derive(Debug)]
pub struct Driver {
    session: Html5ParseSession,
    chunk_size: usize,
}

impl Driver {
    /// A driver for a whole document.
    pub fn new(config: &ParseConfig) -> Driver {
        Driver {
            session: Html5ParseSession::new(config.session.clone()),
            chunk_size: config.chunk_size.max(1),
        }
    }

    /// A driver for the fragment parsing algorithm in `context` (the bytes are read
    /// as UTF-8).
    pub fn new_fragment(config: &ParseConfig, context: FragmentContext) -> Driver {
        Driver {
            session: Html5ParseSession::new_fragment(config.session.clone(), context),
            chunk_size: config.chunk_size.max(1),
        }
    }

    /// Feeds `bytes` (in pieces of at most the chunk size), handing every batch that
    /// becomes ready to `on_batch`.
    pub fn push<E>(
        &mut self,
        bytes: &[u8],
        mut on_batch: impl FnMut(PatchBatch) -> Result<(), E>,
    ) -> Result<(), DriveError<E>> {
        for piece in bytes.chunks(self.chunk_size) {
            self.session.push_bytes(piece)?;
            let status = self.session.pump()?;
            self.drain(status, &mut on_batch)?;
        }
        Ok(())
    }

    /// Ends the input and hands the remaining batches to `on_batch`.
    pub fn finish<E>(
        &mut self,
        mut on_batch: impl FnMut(PatchBatch) -> Result<(), E>,
    ) -> Result<(), DriveError<E>> {
        let status = self.session.finish()?;
        self.drain(status, &mut on_batch)?;
        Ok(())
    }

    /// Feeds `bytes` like [`push`](Self::push) and applies every ready batch to
    /// `store`: what `push(bytes, |batch| store.apply_owned(batch))` does, cheaper.
    /// The batches come from this driver's own tree builder, so the store skips
    /// the checks the builder guarantees (the cycle walk and the document's
    /// hierarchy rules; keys, links and limits are still checked, and a batch still
    /// applies whole or not at all), each emptied batch buffer goes back to the
    /// session instead of being freed, and the texts of text and comment nodes
    /// travel in one buffer per batch instead of a `String` per patch.
    ///
    /// ```
    /// use tagloom_html::dom::{self, DomStore};
    /// use tagloom_html::driver::{Driver, ParseConfig};
    ///
    /// let mut driver = Driver::new(&ParseConfig::default());
    /// let mut store = DomStore::new();
    /// for piece in [&b"<ul><li>a"[..], b"<li>b</ul>"] {
    ///     driver.push_into(piece, &mut store).unwrap();
    /// }
    /// driver.finish_into(&mut store).unwrap();
    /// assert!(dom::dump_document(&store).ends_with("|       <li>\n|         \"b\"\n"));
    /// ```
    pub fn push_into(&mut self, bytes: &[u8], store: &mut DomStore) -> Result<(), ParseFailure> {
        self.attach(store)?;
        let result = (|| {
            for piece in bytes.chunks(self.chunk_size) {
                self.session.push_bytes(piece)?;
                let status = self.session.pump()?;
                self.drain_into(status, store)?;
            }
            Ok(())
        })();
        self.detach(store, result)
    }

    /// Ends the input and applies the remaining batches to `store` (see
    /// [`push_into`](Self::push_into)).
    pub fn finish_into(&mut self, store: &mut DomStore) -> Result<(), ParseFailure> {
        self.attach(store)?;
        let result = (|| {
            let status = self.session.finish()?;
            self.drain_into(status, store)?;
            Ok(())
        })();
        self.detach(store, result)
    }

    /// The store path's start: what is pending (patches of an earlier
    /// [`push`](Self::push), a restart's `Clear`) is applied to `store` as
    /// batches, then the tree builder takes `store` over and creates the nodes
    /// in it directly (no patches, see `dom/direct.rs`).
    fn attach(&mut self, store: &mut DomStore) -> Result<(), ParseFailure> {
        self.session.detach_text();
        self.session.flush_pending();
        self.drain_into(PumpStatus::NeedInput, store)?;
        self.session.attach_store(std::mem::take(store));
        Ok(())
    }

    /// The store path's end: `store` back from the tree builder, and the first
    /// error: the parse's, or the store's (a key of another parse, a limit).
    fn detach(
        &mut self,
        store: &mut DomStore,
        result: Result<(), ParseFailure>,
    ) -> Result<(), ParseFailure> {
        let sink_error = match self.session.detach_store() {
            Some((built, error)) => {
                *store = built;
                error
            }
            None => None,
        };
        result?;
        match sink_error {
            Some(error) => Err(DriveError::Sink(error)),
            None => Ok(()),
        }
    }

    /// [`drain`](Self::drain) into a store, handing the emptied buffers back.
    fn drain_into(
        &mut self,
        mut status: PumpStatus,
        store: &mut DomStore,
    ) -> Result<PumpStatus, ParseFailure> {
        loop {
            while let Some((mut batch, texts)) = self.session.take_batch() {
                store
                    .apply_trusted_batch(&mut batch, texts.as_ref())
                    .map_err(DriveError::Sink)?;
                self.session.recycle(batch.patches);
                if let Some(texts) = texts {
                    self.session.recycle_text(texts);
                }
            }
            match status {
                PumpStatus::Suspended(_) => status = self.session.pump()?,
                done => return Ok(done),
            }
        }
    }

    /// Reads `reader` to its end [`READ_PIECE`] bytes at a time, pushing each
    /// piece, then finishes: only one piece of the input is held at once.
    pub fn read<E>(
        &mut self,
        mut reader: impl Read,
        mut on_batch: impl FnMut(PatchBatch) -> Result<(), E>,
    ) -> Result<(), DriveError<E>> {
        let mut buffer = vec![0; READ_PIECE];
        loop {
            let read = match reader.read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => n,
                Err(err) if err.kind() == std::io::ErrorKind::Interrupted => continue,
                Err(err) => return Err(DriveError::Read(err)),
            };
            self.push(buffer.get(..read).unwrap_or(&buffer), &mut on_batch)?;
        }
        self.finish(on_batch)
    }

    /// Hands out every ready batch and pumps on while the session is suspended.
    fn drain<E>(
        &mut self,
        mut status: PumpStatus,
        on_batch: &mut impl FnMut(PatchBatch) -> Result<(), E>,
    ) -> Result<PumpStatus, DriveError<E>> {
        loop {
            while let Some(batch) = self.session.next_batch() {
                on_batch(batch).map_err(DriveError::Sink)?;
            }
            match status {
                PumpStatus::Suspended(_) => status = self.session.pump()?,
                done => return Ok(done),
            }
        }
    }

    /// The parse errors found so far (tokenizer and tree construction, in source
    /// order) that are no longer subject to an encoding restart; see
    /// [`Html5ParseSession::take_errors`].
    pub fn take_errors(&mut self) -> Vec<ParseError> {
        self.session.take_errors()
    }

    /// The session (decoder, tokenizer, tree builder, keys).
    pub fn session(&self) -> &Html5ParseSession {
        &self.session
    }

    /// The session, by value.
    pub fn into_session(self) -> Html5ParseSession {
        self.session
    }
}

/// Parses `bytes` as a whole document, handing each batch to `on_batch`; returns
/// the finished session (errors, keys, the encoding used).
///
/// ```
/// use tagloom_html::driver::{ParseConfig, drive};
///
/// let mut patches = 0;
/// let session = drive(b"<p>a<p>b", &ParseConfig::default(), |batch| {
///     patches += batch.len();
///     Ok::<(), std::convert::Infallible>(())
/// })
/// .unwrap();
/// assert!(patches > 0);
/// assert!(session.tree_builder().is_finished());
/// ```
pub fn drive<E>(
    bytes: &[u8],
    config: &ParseConfig,
    mut on_batch: impl FnMut(PatchBatch) -> Result<(), E>,
) -> Result<Html5ParseSession, DriveError<E>> {
    let mut driver = Driver::new(config);
    driver.push(bytes, &mut on_batch)?;
    driver.finish(on_batch)?;
    Ok(driver.into_session())
}

/// Parses a whole document into a [`DomStore`].
///
/// ```
/// use tagloom_html::dom;
/// use tagloom_html::driver::{ParseConfig, parse_document};
///
/// let store = parse_document(b"<!DOCTYPE html><p>Hi", &ParseConfig::default()).unwrap();
/// assert_eq!(
///     dom::dump_document(&store),
///     "| <!DOCTYPE html>\n| <html>\n|   <head>\n|   <body>\n|     <p>\n|       \"Hi\"\n"
/// );
/// ```
pub fn parse_document(bytes: &[u8], config: &ParseConfig) -> Result<DomStore, ParseFailure> {
    let mut store = DomStore::with_capacity(bytes.len() / BYTES_PER_NODE);
    let mut driver = Driver::new(config);
    driver.push_into(bytes, &mut store)?;
    driver.finish_into(&mut store)?;
    Ok(store)
}

/// Parses `bytes` (UTF-8) as a fragment in `context` (A.9).
///
/// ```
/// use tagloom_html::dom;
/// use tagloom_html::dom_patch::Namespace;
/// use tagloom_html::driver::{ParseConfig, parse_fragment};
/// use tagloom_html::tree_builder::FragmentContext;
///
/// let context = FragmentContext::new(Namespace::Html, "tr");
/// let fragment = parse_fragment(b"<td>a<td>b", context, &ParseConfig::default()).unwrap();
/// let root = fragment.root().unwrap();
/// assert_eq!(dom::dump_children(root), "| <td>\n|   \"a\"\n| <td>\n|   \"b\"\n");
/// ```
pub fn parse_fragment(
    bytes: &[u8],
    context: FragmentContext,
    config: &ParseConfig,
) -> Result<Fragment, ParseFailure> {
    let mut store = DomStore::with_capacity(bytes.len() / BYTES_PER_NODE);
    let mut driver = Driver::new_fragment(config, context);
    driver.push_into(bytes, &mut store)?;
    driver.finish_into(&mut store)?;
    let root = driver
        .session()
        .fragment_root_key()
        .ok_or(DriveError::Session(SessionError::Failed))?;
    Ok(Fragment { store, root })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::dom::dump_document;
    use crate::dom_patch::DomPatch;

    #[test]
    fn chunk_sizes_and_readers_give_the_same_tree() {
        let page = b"<!DOCTYPE html><table><tr><td>a<b>b<p>c</b>d</table><script>x</script>\
            <ul><li>1<li>2</ul><template><i>t</i></template>tail";
        let whole = dump_document(&parse_document(page, &ParseConfig::default()).unwrap());
        for chunk_size in [1, 3, 7, 64] {
            for batching in [BatchPolicy::PerPump, BatchPolicy::Bounded(2)] {
                let mut config = ParseConfig {
                    chunk_size,
                    ..ParseConfig::default()
                };
                config.session.batching = batching;
                config.session.tree.suspend_at_script = true;
                let store = parse_document(page, &config).unwrap();
                assert_eq!(dump_document(&store), whole, "{chunk_size} {batching:?}");
                let mut read = DomStore::new();
                Driver::new(&config)
                    .read(&page[..], |batch| read.apply_owned(batch))
                    .unwrap();
                assert_eq!(dump_document(&read), whole, "read, {chunk_size}");
            }
        }
    }

    #[test]
    fn a_late_meta_restarts_and_the_store_follows() {
        let mut page = b"<title>".to_vec();
        page.resize(2000, b'x');
        page.extend_from_slice("</title><meta charset=iso-8859-2><p>\u{e9}".as_bytes());
        let mut clears = 0;
        let mut store = DomStore::new();
        let config = ParseConfig {
            chunk_size: 100,
            ..ParseConfig::default()
        };
        let session = drive(&page, &config, |batch| {
            clears += batch.iter().filter(|p| **p == DomPatch::Clear).count();
            store.apply_owned(batch)
        })
        .unwrap();
        assert_eq!((session.restarts(), clears), (1, 1));
        assert!(dump_document(&store).contains("\"\u{102}\u{160}\""));
    }

    #[test]
    fn a_sink_error_stops_the_parse() {
        let mut calls = 0;
        let config = ParseConfig {
            chunk_size: 1,
            ..ParseConfig::default()
        };
        let err = drive(b"<p>a<p>b<p>c", &config, |_| {
            calls += 1;
            Err("full")
        })
        .unwrap_err();
        assert!(matches!(err, DriveError::Sink("full")));
        assert_eq!(calls, 1);
    }

    #[test]
    fn a_read_error_is_typed() {
        struct Broken;
        impl Read for Broken {
            fn read(&mut self, _: &mut [u8]) -> std::io::Result<usize> {
                Err(std::io::Error::other("disk on fire"))
            }
        }
        let err = Driver::new(&ParseConfig::default())
            .read(Broken, |_| Ok::<(), PatchError>(()))
            .unwrap_err();
        assert!(matches!(err, DriveError::Read(_)), "{err}");
    }

    /// The store path (`push_into`: trusted batches, texts kept apart, buffers
    /// recycled) builds the tree `push` + `apply_owned` builds, at any chunking and
    /// batching, through a restart ("change the encoding"), and when a driver
    /// switches from one path to the other; the patches handed out after the
    /// switch own their texts again.
    #[test]
    fn the_store_path_builds_the_same_tree_as_the_patch_path() {
        let mut late_meta = b"<title>".to_vec();
        late_meta.resize(2000, b'x');
        late_meta.extend_from_slice(
            "</title><meta charset=iso-8859-2><p>\u{e9}<!-- c --><!---->".as_bytes(),
        );
        let pages: [&[u8]; 3] = [
            b"<!DOCTYPE html><!--a--><table>x<tr><td>a<b>b<p>c</b>d</table>t<!---->\
              <select><option>o<!--c-->p</select><textarea>\nq</textarea>tail<!--z-->",
            b"<select><button><selectedcontent></selectedcontent></button>\
              <option>one<!--c--><b>two</b></option></select>after",
            &late_meta,
        ];
        for page in pages {
            for chunk_size in [1, 5, usize::MAX] {
                for batching in [
                    BatchPolicy::Bounded(3),
                    BatchPolicy::Bounded(1024),
                    BatchPolicy::MaxPatches(4),
                    BatchPolicy::PerPump,
                ] {
                    let mut config = ParseConfig {
                        chunk_size,
                        ..ParseConfig::default()
                    };
                    config.session.batching = batching;
                    let mut expected = DomStore::new();
                    drive(page, &config, |batch| expected.apply_owned(batch)).unwrap();
                    let expected = dump_document(&expected);
                    let mut store = DomStore::new();
                    let mut driver = Driver::new(&config);
                    driver.push_into(page, &mut store).unwrap();
                    driver.finish_into(&mut store).unwrap();
                    assert_eq!(dump_document(&store), expected, "{chunk_size} {batching:?}");

                    // Half through the store path, the rest as patches.
                    let (head, tail) = page.split_at(page.len() / 2);
                    let mut store = DomStore::new();
                    let mut driver = Driver::new(&config);
                    driver.push_into(head, &mut store).unwrap();
                    let mut apply = |batch: PatchBatch| store.apply_owned(batch);
                    driver.push(tail, &mut apply).unwrap();
                    driver.finish(&mut apply).unwrap();
                    assert_eq!(
                        dump_document(&store),
                        expected,
                        "switch {chunk_size} {batching:?}"
                    );
                }
            }
        }
    }
}
