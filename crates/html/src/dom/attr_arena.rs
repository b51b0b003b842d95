//! [`AttrArena`]: the attributes and non-static names of every element of a store.
//!
//! An element keeps an [`AttrRange`] (12 bytes): a contiguous run of
//! [`AttrRec`]s in one of the arena's record chunks. A record holds its name
//! (a static atom's `&'static str`, or a range of the arena's strings), its
//! value (a range of the strings) and its namespace; the strings live in a
//! [`TextArena`] of their own. Nothing here is freed record by record: a page
//! with tens of thousands of attributes costs a few dozen large allocations
//! while parsing and as many frees when the store is dropped, where a `Vec` of
//! `String`s per element cost one `malloc` per element and per value and as
//! many `free`s.
//!
//! Chunks are never regrown (as the text arena's), so ranges stay valid.
//! Changes after parsing (`AddAttributes`, a script's `setAttribute` and
//! `removeAttribute`) work in place where they can: a removal shifts the
//! element's own run; a new value is written at the end of the strings; a new
//! attribute extends the run in place when it ends the last chunk, else the run
//! moves to the end with room for as much again. What they leave unused is
//! counted ([`AttrArena::garbage`]); the store compacts the arena when that
//! exceeds both [`COMPACT_MIN`] bytes and what is still in use, so a script
//! setting one attribute a million times keeps at most about twice the live
//! data plus [`COMPACT_MIN`] (compaction is O(live data), paid once per as
//! much garbage).

use crate::atom::AtomTable;
use crate::dom_patch::{AttrNamespace, PatchAttr};
use crate::token::{AttrSlot, TextSource};
use crate::tree_builder::{AttrName, AttrRef};

use super::text_arena::{ArenaMark, TextArena, TextRange, TextTooLarge};

/// Records in the first chunk (a document of a few elements stays small).
const FIRST_CHUNK: usize = 64;
/// Records in the largest chunk made for short runs (40 bytes each).
const MAX_CHUNK: usize = 4096;
/// Unused bytes tolerated before a compaction is considered.
pub(crate) const COMPACT_MIN: usize = 1 << 20;

/// A name: a static atom's text (no copy), or a range of the arena's strings.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Name {
    Static(&'static str),
    Stored(TextRange),
}

/// One stored attribute.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AttrRec {
    pub(crate) name: Name,
    pub(crate) value: TextRange,
    pub(crate) ns: AttrNamespace,
}

/// One attribute stored: its name and value in `strings` (inlined into the
/// loops that call it: a call per attribute cost more than the work).
#[inline(always)]
fn record(
    strings: &mut TextArena,
    used: &mut usize,
    attr: AttrRef<'_>,
) -> Result<AttrRec, TextTooLarge> {
    let name = match attr.name {
        AttrName::Static(s) => Name::Static(s),
        AttrName::Borrowed(s) => {
            *used += s.len();
            Name::Stored(strings.push(s)?)
        }
    };
    *used += attr.value.len() + REC;
    Ok(AttrRec {
        name,
        value: strings.push(attr.value)?,
        ns: attr.ns,
    })
}

/// An element's attributes: `len` records from `start` in chunk `chunk`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct AttrRange {
    chunk: u32,
    start: u32,
    len: u32,
}

impl AttrRange {
    pub(crate) fn len(self) -> usize {
        self.len as usize
    }
}

/// How far the arena was filled (to undo a rejected batch).
#[derive(Clone, Copy, Debug)]
pub(crate) struct AttrMark {
    chunks: usize,
    last_len: usize,
    strings: ArenaMark,
    used: usize,
    garbage: usize,
}

/// See the module docs.
#[derive(Clone, Debug, Default)]
pub(crate) struct AttrArena {
    chunks: Vec<Vec<AttrRec>>,
    strings: TextArena,
    /// Bytes written (records and strings).
    used: usize,
    /// Bytes of `used` that no element refers to any more.
    garbage: usize,
}

const REC: usize = std::mem::size_of::<AttrRec>();

impl AttrArena {
    /// The records of `range` (empty for a range this arena never handed out).
    #[inline]
    pub(crate) fn get(&self, range: AttrRange) -> &[AttrRec] {
        let start = range.start as usize;
        self.chunks
            .get(range.chunk as usize)
            .and_then(|c| c.get(start..start + range.len as usize))
            .unwrap_or(&[])
    }

    /// The text of a stored name or value.
    #[inline]
    pub(crate) fn text(&self, range: TextRange) -> &str {
        self.strings.get(range)
    }

    /// The text of a name.
    #[inline]
    pub(crate) fn name(&self, name: Name) -> &str {
        match name {
            Name::Static(s) => s,
            Name::Stored(r) => self.strings.get(r),
        }
    }

    /// Stores an element or attribute name: static names are not copied.
    #[inline]
    pub(crate) fn store_name(&mut self, name: AttrName<'_>) -> Result<Name, TextTooLarge> {
        match name {
            AttrName::Static(s) => Ok(Name::Static(s)),
            AttrName::Borrowed(s) => {
                self.used += s.len();
                Ok(Name::Stored(self.strings.push(s)?))
            }
        }
    }

    fn record(&mut self, attr: AttrRef<'_>) -> Result<AttrRec, TextTooLarge> {
        record(&mut self.strings, &mut self.used, attr)
    }

    /// Stores a new element's attributes as one run.
    #[inline]
    pub(crate) fn push_list<'a>(
        &mut self,
        attrs: impl ExactSizeIterator<Item = AttrRef<'a>>,
    ) -> Result<AttrRange, TextTooLarge> {
        let n = attrs.len();
        if n == 0 {
            return Ok(AttrRange::default());
        }
        let chunk = self.room_for(n, n)?;
        let Some(run) = self.chunks.get_mut(chunk) else {
            return Err(TextTooLarge);
        };
        let start = run.len();
        for attr in attrs {
            run.push(record(&mut self.strings, &mut self.used, attr)?);
        }
        range(chunk, start, run.len() - start)
    }

    /// Stores a new element's attributes as one run, straight from a
    /// tokenizer's slots (what [`push_list`](Self::push_list) does with a
    /// token's [`ElementAttrs`](crate::tree_builder::ElementAttrs), one
    /// attribute per turn of a plain loop).
    #[inline]
    pub(crate) fn push_slots(
        &mut self,
        slots: &[AttrSlot],
        source: TextSource<'_>,
        atoms: &AtomTable,
    ) -> Result<AttrRange, TextTooLarge> {
        let n = slots.len();
        if n == 0 {
            return Ok(AttrRange::default());
        }
        let chunk = self.room_for(n, n)?;
        let Some(run) = self.chunks.get_mut(chunk) else {
            return Err(TextTooLarge);
        };
        let start = run.len();
        for slot in slots {
            let name = match slot.name.static_name() {
                Some(s) => Name::Static(s),
                None => {
                    let s = atoms.name(slot.name);
                    self.used += s.len();
                    Name::Stored(self.strings.push(s)?)
                }
            };
            let value = source.resolve(slot.value);
            self.used += value.len() + REC;
            run.push(AttrRec {
                name,
                value: self.strings.push(value)?,
                ns: AttrNamespace::None,
            });
        }
        range(chunk, start, run.len() - start)
    }

    /// `range`'s run followed by `attr`: extended in place when it ends the last
    /// chunk and the chunk has room, else moved to the end.
    pub(crate) fn append(
        &mut self,
        range: AttrRange,
        attr: AttrRef<'_>,
    ) -> Result<AttrRange, TextTooLarge> {
        let rec = self.record(attr)?;
        let last = self.chunks.len().checked_sub(1);
        if range.len > 0
            && let Some(last) = last.filter(|&l| l == range.chunk as usize)
            && let Some(chunk) = self.chunks.get_mut(last)
            && chunk.len() == range.start as usize + range.len as usize
            && chunk.len() < chunk.capacity()
        {
            chunk.push(rec);
            return Ok(AttrRange {
                len: range.len + 1,
                ..range
            });
        }
        let total = range.len() + 1;
        // Room for as much again: a list that keeps growing moves O(log n) times.
        let chunk = self.room_for(total, total.saturating_mul(2))?;
        let start = self.chunk_len(chunk);
        let old: Vec<AttrRec> = self.get(range).to_vec();
        self.garbage += old.len() * REC;
        self.used += old.len() * REC;
        for r in old {
            self.push_rec(chunk, r)?;
        }
        self.push_rec(chunk, rec)?;
        self.range(chunk, start, total)
    }

    /// Gives record `index` of `range` the value `value` (the old bytes become
    /// garbage).
    pub(crate) fn set_value(
        &mut self,
        range: AttrRange,
        index: usize,
        value: &str,
    ) -> Result<(), TextTooLarge> {
        let new = self.strings.push(value)?;
        self.used += value.len();
        let mut freed = 0;
        if let Some(rec) = self.run_mut(range).get_mut(index) {
            freed = rec.value.len();
            rec.value = new;
        }
        self.garbage += freed;
        Ok(())
    }

    /// `range` without record `index` (the run shrinks in place).
    pub(crate) fn remove(&mut self, range: AttrRange, index: usize) -> AttrRange {
        let Some(rec) = self.get(range).get(index).copied() else {
            return range;
        };
        if let Some(tail) = self.run_mut(range).get_mut(index..) {
            tail.rotate_left(1);
        }
        self.garbage += REC
            + rec.value.len()
            + match rec.name {
                Name::Stored(r) => r.len(),
                Name::Static(_) => 0,
            };
        AttrRange {
            len: range.len - 1,
            ..range
        }
    }

    /// Bytes written that nothing refers to any more.
    #[cfg(test)]
    pub(crate) fn garbage(&self) -> usize {
        self.garbage
    }

    /// Bytes written, garbage included.
    #[cfg(test)]
    pub(crate) fn used(&self) -> usize {
        self.used
    }

    /// Whether a compaction is due (see the module docs).
    pub(crate) fn wants_compaction(&self) -> bool {
        self.garbage > COMPACT_MIN && self.garbage > self.used - self.garbage
    }

    /// A copy of `range`'s run into `into` (compaction).
    pub(crate) fn copy_to(
        &self,
        range: AttrRange,
        into: &mut AttrArena,
    ) -> Result<AttrRange, TextTooLarge> {
        let recs = self.get(range);
        into.push_list(recs.iter().map(|r| AttrRef {
            ns: r.ns,
            name: match r.name {
                Name::Static(s) => AttrName::Static(s),
                Name::Stored(n) => AttrName::Borrowed(self.strings.get(n)),
            },
            value: self.strings.get(r.value),
        }))
    }

    /// A name copied into `into` (compaction).
    pub(crate) fn copy_name_to(
        &self,
        name: Name,
        into: &mut AttrArena,
    ) -> Result<Name, TextTooLarge> {
        match name {
            Name::Static(s) => Ok(Name::Static(s)),
            Name::Stored(r) => into.store_name(AttrName::Borrowed(self.strings.get(r))),
        }
    }

    /// Owned copies of `range`'s attributes (static names stay borrowed).
    pub(crate) fn to_patch_attrs(&self, recs: &[AttrRec]) -> Vec<PatchAttr> {
        recs.iter()
            .map(|r| PatchAttr {
                ns: r.ns,
                name: match r.name {
                    Name::Static(s) => s.into(),
                    Name::Stored(n) => self.strings.get(n).to_owned().into(),
                },
                value: self.strings.get(r.value).to_owned(),
            })
            .collect()
    }

    /// Where the arena is now, for [`truncate`](Self::truncate).
    pub(crate) fn mark(&self) -> AttrMark {
        AttrMark {
            chunks: self.chunks.len(),
            last_len: self.chunks.last().map_or(0, Vec::len),
            strings: self.strings.mark(),
            used: self.used,
            garbage: self.garbage,
        }
    }

    /// Drops everything written after `mark` (ranges handed out since become
    /// invalid; the caller restores the ones it changed).
    pub(crate) fn truncate(&mut self, mark: AttrMark) {
        self.chunks.truncate(mark.chunks);
        if let Some(last) = self.chunks.last_mut() {
            last.truncate(mark.last_len);
        }
        self.strings.truncate(mark.strings);
        self.used = mark.used;
        self.garbage = mark.garbage;
    }

    fn run_mut(&mut self, range: AttrRange) -> &mut [AttrRec] {
        let start = range.start as usize;
        self.chunks
            .get_mut(range.chunk as usize)
            .and_then(|c| c.get_mut(start..start + range.len as usize))
            .unwrap_or(&mut [])
    }

    fn chunk_len(&self, chunk: usize) -> usize {
        self.chunks.get(chunk).map_or(0, Vec::len)
    }

    #[inline]
    fn push_rec(&mut self, chunk: usize, rec: AttrRec) -> Result<(), TextTooLarge> {
        match self.chunks.get_mut(chunk) {
            Some(c) => {
                c.push(rec);
                Ok(())
            }
            None => Err(TextTooLarge),
        }
    }

    fn range(&self, chunk: usize, start: usize, len: usize) -> Result<AttrRange, TextTooLarge> {
        range(chunk, start, len)
    }

    /// Index of a chunk with room for `needed` records: the last one if it has
    /// it, else a new one of at least `wanted` records.
    #[inline]
    fn room_for(&mut self, needed: usize, wanted: usize) -> Result<usize, TextTooLarge> {
        match self.chunks.last() {
            Some(last) if last.capacity() - last.len() >= needed => Ok(self.chunks.len() - 1),
            _ => self.new_chunk(needed, wanted),
        }
    }

    #[cold]
    fn new_chunk(&mut self, needed: usize, wanted: usize) -> Result<usize, TextTooLarge> {
        if u32::try_from(self.chunks.len()).is_err() || u32::try_from(needed).is_err() {
            return Err(TextTooLarge);
        }
        let next = self
            .chunks
            .last()
            .map_or(FIRST_CHUNK, |c| (c.capacity() * 2).min(MAX_CHUNK));
        self.chunks.push(Vec::with_capacity(wanted.max(next)));
        Ok(self.chunks.len() - 1)
    }
}

fn range(chunk: usize, start: usize, len: usize) -> Result<AttrRange, TextTooLarge> {
    Ok(AttrRange {
        chunk: u32::try_from(chunk).map_err(|_| TextTooLarge)?,
        start: u32::try_from(start).map_err(|_| TextTooLarge)?,
        len: u32::try_from(len).map_err(|_| TextTooLarge)?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn attr<'a>(name: &'a str, value: &'a str) -> AttrRef<'a> {
        AttrRef {
            ns: AttrNamespace::None,
            name: AttrName::Borrowed(name),
            value,
        }
    }

    fn pairs(arena: &AttrArena, range: AttrRange) -> Vec<(String, String)> {
        arena
            .get(range)
            .iter()
            .map(|r| (arena.name(r.name).into(), arena.text(r.value).into()))
            .collect()
    }

    #[test]
    fn runs_read_back_across_chunks() {
        let mut arena = AttrArena::default();
        let lists: Vec<Vec<(String, String)>> = (0..3000)
            .map(|i| {
                (0..i % 5)
                    .map(|j| (format!("n{j}"), format!("v{i}-{j}")))
                    .collect()
            })
            .collect();
        let ranges: Vec<_> = lists
            .iter()
            .map(|l| {
                arena
                    .push_list(
                        l.iter()
                            .map(|(n, v)| attr(n, v))
                            .collect::<Vec<_>>()
                            .into_iter(),
                    )
                    .unwrap()
            })
            .collect();
        for (l, r) in lists.iter().zip(&ranges) {
            assert_eq!(&pairs(&arena, *r), l);
        }
        assert!(arena.chunks.iter().all(|c| c.capacity() <= MAX_CHUNK));
        assert_eq!(arena.garbage(), 0);
    }

    #[test]
    fn append_set_and_remove_keep_other_runs_intact() {
        let mut arena = AttrArena::default();
        let a = arena.push_list([attr("a", "1")].into_iter()).unwrap();
        let b = arena.push_list([attr("b", "2")].into_iter()).unwrap();
        // `b` ends the arena: extended in place.
        let b2 = arena.append(b, attr("c", "3")).unwrap();
        assert_eq!((b2.chunk, b2.start), (b.chunk, b.start));
        // `a` does not: moved, `b` untouched.
        let a2 = arena.append(a, attr("d", "4")).unwrap();
        assert_ne!(a2.start, a.start);
        arena.set_value(a2, 0, "one").unwrap();
        let a3 = arena.remove(a2, 1);
        assert_eq!(pairs(&arena, a3), [("a".into(), "one".into())]);
        assert_eq!(
            pairs(&arena, b2),
            [("b".into(), "2".into()), ("c".into(), "3".into())]
        );
        assert!(arena.garbage() > 0);
    }

    #[test]
    fn truncate_forgets_what_came_after_the_mark() {
        let mut arena = AttrArena::default();
        let a = arena.push_list([attr("kept", "x")].into_iter()).unwrap();
        let mark = arena.mark();
        let many: Vec<_> = (0..MAX_CHUNK * 2).map(|_| attr("n", "v")).collect();
        arena.push_list(many.into_iter()).unwrap();
        arena.append(a, attr("gone", "y")).unwrap();
        arena.truncate(mark);
        assert_eq!(pairs(&arena, a), [("kept".into(), "x".into())]);
        assert_eq!(arena.mark().chunks, mark.chunks);
    }
}
