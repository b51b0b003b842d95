//! [`TextArena`]: the character data of every text and comment node of a store.
//!
//! A node keeps a [`TextRange`] (12 bytes) into a few large chunks instead of an
//! allocation of its own: a page has thousands of short text nodes (mostly
//! whitespace between tags), and one allocation each cost an allocator header,
//! a `malloc` while building and a `free` when the store is dropped. Chunks are
//! `String`s that are never regrown, so ranges stay valid and nothing is copied
//! when the arena grows.
//!
//! Appending to a text node (`AppendText`) writes in place when the node's data
//! ends the last chunk and the chunk has room, which is the parser's case (text
//! is appended to the node it just created). Otherwise the data moves to the end,
//! with room for as much again, so a text grown piece by piece is copied
//! O(log n) times in total, and the old bytes are left unused.

/// Smallest chunk (a document of a few nodes stays small).
const FIRST_CHUNK: usize = 1024;
/// Largest chunk made for short texts; longer texts get a chunk of their own.
const MAX_CHUNK: usize = 32 * 1024;

/// Where one node's data is: `len` bytes from `start` in chunk `chunk`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TextRange {
    chunk: u32,
    start: u32,
    len: u32,
}

impl TextRange {
    /// The data's length in bytes.
    pub(crate) fn len(self) -> usize {
        self.len as usize
    }
}

/// How far the arena was filled (to undo a rejected batch).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ArenaMark {
    chunks: usize,
    last_len: usize,
}

/// Text data too large for a [`TextRange`] (one node over 4 GiB, or more than
/// 4 Gi chunks).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TextTooLarge;

/// The chunks; see the module docs.
#[derive(Clone, Debug, Default)]
pub(crate) struct TextArena {
    chunks: Vec<String>,
}

impl TextArena {
    /// The data of `range` (empty for a range this arena never handed out).
    pub(crate) fn get(&self, range: TextRange) -> &str {
        let start = range.start as usize;
        self.chunks
            .get(range.chunk as usize)
            .and_then(|c| c.get(start..start + range.len as usize))
            .unwrap_or("")
    }

    /// Stores `text`, returning its range.
    #[inline]
    pub(crate) fn push(&mut self, text: &str) -> Result<TextRange, TextTooLarge> {
        // Fast path (nearly every call): the last chunk has room. Chunks hold at
        // most `u32::MAX` bytes and there are at most `u32::MAX` of them (see
        // `room_for`), so the conversions cannot truncate.
        let chunks = self.chunks.len();
        if let Some(last) = self.chunks.last_mut()
            && last.capacity() - last.len() >= text.len()
        {
            let start = last.len() as u32;
            last.push_str(text);
            return Ok(TextRange {
                chunk: (chunks - 1) as u32,
                start,
                len: text.len() as u32,
            });
        }
        let chunk = self.room_for(text.len(), text.len())?;
        self.write(chunk, text, "")
    }

    /// The range holding `range`'s data followed by `text`: `range` itself
    /// extended in place when possible, else a new range at the end.
    pub(crate) fn append(
        &mut self,
        range: TextRange,
        text: &str,
    ) -> Result<TextRange, TextTooLarge> {
        let last = self.chunks.len().checked_sub(1);
        if let Some(last) = last.filter(|&l| l == range.chunk as usize)
            && let Some(chunk) = self.chunks.get_mut(last)
            && chunk.len() == range.start as usize + range.len as usize
            && chunk.capacity() - chunk.len() >= text.len()
        {
            let len = u32::try_from(range.len as usize + text.len()).map_err(|_| TextTooLarge)?;
            chunk.push_str(text);
            return Ok(TextRange { len, ..range });
        }
        let total = range.len as usize + text.len();
        // Room for as much again: a text that keeps growing moves O(log n) times.
        let chunk = self.room_for(total, total.saturating_mul(2))?;
        let old = self.get(range).to_owned();
        self.write(chunk, &old, text)
    }

    /// Where the arena is now, for [`truncate`](Self::truncate).
    pub(crate) fn mark(&self) -> ArenaMark {
        ArenaMark {
            chunks: self.chunks.len(),
            last_len: self.chunks.last().map_or(0, String::len),
        }
    }

    /// Drops everything written after `mark` (ranges handed out since become
    /// invalid; the caller restores the ones it changed).
    pub(crate) fn truncate(&mut self, mark: ArenaMark) {
        self.chunks.truncate(mark.chunks);
        if let Some(last) = self.chunks.last_mut() {
            last.truncate(mark.last_len);
        }
    }

    /// Index of a chunk with `needed` bytes free: the last one if it has them,
    /// else a new one of at least `wanted` bytes.
    fn room_for(&mut self, needed: usize, wanted: usize) -> Result<usize, TextTooLarge> {
        match self.chunks.last() {
            Some(last) if last.capacity() - last.len() >= needed => Ok(self.chunks.len() - 1),
            last => {
                if u32::try_from(self.chunks.len()).is_err() || u32::try_from(needed).is_err() {
                    return Err(TextTooLarge);
                }
                let next = last.map_or(FIRST_CHUNK, |c| (c.capacity() * 2).min(MAX_CHUNK));
                // `wanted` is capped below: a chunk never exceeds `u32::MAX` bytes.
                self.chunks.push(String::with_capacity(
                    wanted.max(next).min(u32::MAX as usize),
                ));
                Ok(self.chunks.len() - 1)
            }
        }
    }

    fn write(&mut self, chunk: usize, text: &str, more: &str) -> Result<TextRange, TextTooLarge> {
        let Some(c) = self.chunks.get_mut(chunk) else {
            return Err(TextTooLarge);
        };
        let start = u32::try_from(c.len()).map_err(|_| TextTooLarge)?;
        let len = u32::try_from(text.len() + more.len()).map_err(|_| TextTooLarge)?;
        c.push_str(text);
        c.push_str(more);
        Ok(TextRange {
            chunk: u32::try_from(chunk).map_err(|_| TextTooLarge)?,
            start,
            len,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{MAX_CHUNK, TextArena};

    #[test]
    fn texts_read_back_across_chunks() {
        let mut arena = TextArena::default();
        let texts: Vec<String> = (0..5000)
            .map(|i| format!("text {i} ").repeat(i % 7))
            .collect();
        let ranges: Vec<_> = texts.iter().map(|t| arena.push(t).unwrap()).collect();
        for (t, r) in texts.iter().zip(&ranges) {
            assert_eq!(arena.get(*r), t);
        }
        assert!(arena.chunks.iter().all(|c| c.capacity() <= MAX_CHUNK));
    }

    #[test]
    fn append_extends_in_place_or_moves_without_touching_others() {
        let mut arena = TextArena::default();
        let a = arena.push("alpha").unwrap();
        let b = arena.push("beta").unwrap();
        // `b` ends the arena: extended in place.
        let b2 = arena.append(b, "-more").unwrap();
        assert_eq!((b2.chunk, b2.start), (b.chunk, b.start));
        // `a` does not: moved, `b` untouched.
        let a2 = arena.append(a, "-more").unwrap();
        assert_ne!(a2.start, a.start);
        assert_eq!(arena.get(a2), "alpha-more");
        assert_eq!(arena.get(b2), "beta-more");
    }

    #[test]
    fn a_text_grown_byte_by_byte_is_copied_logarithmically_often() {
        let mut arena = TextArena::default();
        let mut r = arena.push("x").unwrap();
        for _ in 0..200_000 {
            r = arena.append(r, "y").unwrap();
        }
        assert_eq!(arena.get(r).len(), 200_001);
        // Each move at least doubles the room: few chunks, not one per append.
        assert!(arena.chunks.len() < 40, "{} chunks", arena.chunks.len());
    }

    #[test]
    fn truncate_forgets_what_came_after_the_mark() {
        let mut arena = TextArena::default();
        let a = arena.push("kept").unwrap();
        let mark = arena.mark();
        let big = "z".repeat(MAX_CHUNK * 3);
        arena.push(&big).unwrap();
        arena.append(a, "-gone").unwrap();
        arena.truncate(mark);
        assert_eq!(arena.get(a), "kept");
        assert_eq!(arena.mark().chunks, mark.chunks);
        let b = arena.push("next").unwrap();
        assert_eq!(arena.get(b), "next");
    }
}
