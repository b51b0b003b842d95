//! [`SegVec`]: a growable array that never moves what it holds.
//!
//! The `DomStore` arena and the tree builder's mirror hold one record per node of
//! the document, and both live for the whole parse. In a `Vec` they grow by
//! doubling: each growth copies every record and, right after it, up to half of
//! the new capacity is spare (a 4,100-node page held room for 6,500 nodes in
//! both). A `SegVec` grows one fixed-size segment at a time instead, so at most
//! one segment is spare and nothing is ever copied. Indexing costs one shift,
//! one mask and one extra load.

/// Items per full segment (a power of two, so a slot splits with a shift).
const SEGMENT_BITS: u32 = 8;
const SEGMENT: usize = 1 << SEGMENT_BITS;
const MASK: usize = SEGMENT - 1;

/// A list of items addressed by index, stored in segments of `SEGMENT` items.
///
/// Every segment but the last is full. The first segment grows like a `Vec` up
/// to `SEGMENT` items, so a tiny document does not pay for a whole segment; the
/// later ones are allocated at their full size at once.
#[derive(Clone, Debug)]
pub(crate) struct SegVec<T> {
    segments: Vec<Vec<T>>,
    len: usize,
}

impl<T> Default for SegVec<T> {
    fn default() -> Self {
        SegVec {
            segments: Vec::new(),
            len: 0,
        }
    }
}

impl<T> SegVec<T> {
    /// An empty list with room for `items` items in its first segment (at most
    /// one segment: later segments are never reserved ahead).
    pub(crate) fn with_first_segment(items: usize) -> Self {
        SegVec {
            segments: vec![Vec::with_capacity(items.min(SEGMENT))],
            len: 0,
        }
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.len == 0
    }

    #[inline(always)]
    pub(crate) fn push(&mut self, item: T) {
        // Common case inline: the last segment has room (spare capacity).
        if let Some(last) = self.segments.last_mut()
            && last.len() < last.capacity()
            && last.len() < SEGMENT
        {
            last.push(item);
            self.len += 1;
            return;
        }
        self.push_slow(item);
    }

    #[cold]
    #[inline(never)]
    fn push_slow(&mut self, item: T) {
        match self.segments.last_mut() {
            Some(last) if last.len() < SEGMENT => {
                // Only the first segment is ever short of room: double it, but
                // never past one segment.
                if last.len() == last.capacity() {
                    let want = (last.capacity() * 2).clamp(4, SEGMENT);
                    last.reserve_exact(want - last.len());
                }
                last.push(item);
            }
            _ => {
                let mut segment = if self.segments.is_empty() {
                    Vec::new()
                } else {
                    Vec::with_capacity(SEGMENT)
                };
                segment.push(item);
                self.segments.push(segment);
            }
        }
        self.len += 1;
    }

    #[inline]
    pub(crate) fn get(&self, index: usize) -> Option<&T> {
        self.segments
            .get(index >> SEGMENT_BITS)
            .and_then(|s| s.get(index & MASK))
    }

    #[inline]
    pub(crate) fn get_mut(&mut self, index: usize) -> Option<&mut T> {
        self.segments
            .get_mut(index >> SEGMENT_BITS)
            .and_then(|s| s.get_mut(index & MASK))
    }

    pub(crate) fn first(&self) -> Option<&T> {
        self.get(0)
    }

    /// Drops the items from `len` on (nothing when `len >= self.len()`), and the
    /// segments left empty.
    pub(crate) fn truncate(&mut self, len: usize) {
        if len >= self.len {
            return;
        }
        let keep_segments = len.div_ceil(SEGMENT);
        self.segments.truncate(keep_segments.max(1));
        if let Some(last) = self.segments.last_mut() {
            last.truncate(len - (keep_segments.max(1) - 1) * SEGMENT);
        }
        self.len = len;
    }

    /// Binary search over items sorted by `f` (as [`slice::binary_search_by_key`];
    /// `Err` carries no insertion point because no caller needs one).
    pub(crate) fn binary_search_by_key<K: Ord>(
        &self,
        key: &K,
        f: impl Fn(&T) -> K,
    ) -> Option<usize> {
        let (mut low, mut high) = (0, self.len);
        while low < high {
            let mid = low + (high - low) / 2;
            let probe = f(self.get(mid)?);
            match probe.cmp(key) {
                std::cmp::Ordering::Less => low = mid + 1,
                std::cmp::Ordering::Greater => high = mid,
                std::cmp::Ordering::Equal => return Some(mid),
            }
        }
        None
    }

    /// The items in order.
    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl Iterator<Item = &T> {
        self.segments.iter().flatten()
    }
}

impl<T> std::ops::Index<usize> for SegVec<T> {
    type Output = T;

    /// Panics when `index` is out of range, as `Vec` does: for slots the owner
    /// itself handed out, never for anything read from input.
    #[inline]
    fn index(&self, index: usize) -> &T {
        &self.segments[index >> SEGMENT_BITS][index & MASK]
    }
}

impl<T> std::ops::IndexMut<usize> for SegVec<T> {
    #[inline]
    fn index_mut(&mut self, index: usize) -> &mut T {
        &mut self.segments[index >> SEGMENT_BITS][index & MASK]
    }
}

#[cfg(test)]
mod tests {
    use super::{SEGMENT, SegVec};

    #[test]
    fn indexes_across_segments_and_truncates_to_any_length() {
        let total = SEGMENT * 3 + 7;
        for cut in [0, 1, SEGMENT - 1, SEGMENT, SEGMENT + 1, 2 * SEGMENT, total] {
            let mut v = SegVec::default();
            for i in 0..total {
                v.push(i);
            }
            assert_eq!(v.len(), total);
            assert_eq!(v.get(total), None);
            assert!((0..total).all(|i| v[i] == i && v.get(i) == Some(&i)));
            v.truncate(cut);
            assert_eq!(v.len(), cut);
            assert_eq!(
                v.iter().copied().collect::<Vec<_>>(),
                (0..cut).collect::<Vec<_>>()
            );
            // Growing again after a cut keeps indexes dense.
            v.push(usize::MAX);
            assert_eq!(v[cut], usize::MAX);
            assert_eq!(v.len(), cut + 1);
        }
    }

    #[test]
    fn full_segments_are_never_regrown() {
        let mut v = SegVec::with_first_segment(10);
        for i in 0..(SEGMENT * 4) {
            v.push(i);
        }
        assert!(
            v.segments
                .iter()
                .all(|s| s.len() == SEGMENT && s.capacity() == SEGMENT)
        );
    }

    #[test]
    fn binary_search_finds_every_item_and_nothing_else() {
        let mut v = SegVec::default();
        for i in 0..(SEGMENT * 2 + 3) {
            v.push(i * 2);
        }
        for i in 0..(SEGMENT * 2 + 3) {
            assert_eq!(v.binary_search_by_key(&(i * 2), |&x| x), Some(i));
            assert_eq!(v.binary_search_by_key(&(i * 2 + 1), |&x| x), None);
        }
        assert_eq!(
            SegVec::<usize>::default().binary_search_by_key(&0, |&x| x),
            None
        );
    }
}
