//! Small numbers' decimal texts as static text: the one home of the tables
//! that let a page's counters (marker call indices, `about` ids, Cite's
//! labels and backlink numbers) become attribute values and texts without a
//! string made and freed for each.
//!
//! A table holds `prefix` + the decimal digits of every number below
//! [`LIMIT`], one after another (`p0p1…p9p10…p999`), built at compile time by
//! [`decimals!`]; [`Decimals::get`] slices one out. Numbers from [`LIMIT`] on
//! are the caller's to format.

/// The numbers a table holds: `0..LIMIT` (every page of the bench corpus
/// stays below it).
pub(crate) const LIMIT: usize = 1000;

/// The length of a table whose entries start with `prefix` bytes.
pub(crate) const fn table_len(prefix: usize) -> usize {
    LIMIT * prefix + 10 + 90 * 2 + 900 * 3
}

/// The bytes of a table: `prefix` and the digits of each number below
/// [`LIMIT`]. `N` must be [`table_len`] of the prefix (checked at compile
/// time: an index out of range fails the build, not a render).
pub(crate) const fn table<const N: usize>(prefix: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    let (mut n, mut at) = (0usize, 0usize);
    while n < LIMIT {
        let mut i = 0;
        while i < prefix.len() {
            out[at] = prefix[i];
            at += 1;
            i += 1;
        }
        if n >= 100 {
            out[at] = b'0' + (n / 100) as u8;
            at += 1;
        }
        if n >= 10 {
            out[at] = b'0' + (n / 10 % 10) as u8;
            at += 1;
        }
        out[at] = b'0' + (n % 10) as u8;
        at += 1;
        n += 1;
    }
    assert!(at == N, "a decimal table's length is table_len(prefix)");
    out
}

/// A table of `prefix` + decimal text for the numbers below [`LIMIT`].
pub(crate) struct Decimals {
    text: &'static str,
    prefix: usize,
}

impl Decimals {
    /// The table over `bytes` (made by [`table`] with a `prefix`-byte prefix).
    pub(crate) const fn new(bytes: &'static [u8], prefix: usize) -> Self {
        match std::str::from_utf8(bytes) {
            Ok(text) => Self { text, prefix },
            Err(_) => panic!("a decimal table's prefix is UTF-8"),
        }
    }

    /// The prefix and `n`'s digits, for `n` below [`LIMIT`].
    pub(crate) fn get(&self, n: usize) -> Option<&'static str> {
        let p = self.prefix;
        let (at, digits) = match n {
            0..10 => (n * (p + 1), 1),
            10..100 => (10 * (p + 1) + (n - 10) * (p + 2), 2),
            100..LIMIT => (10 * (p + 1) + 90 * (p + 2) + (n - 100) * (p + 3), 3),
            _ => return None,
        };
        self.text.get(at..at + p + digits)
    }
}

/// A [`Decimals`] table for a byte-string `prefix` (`b""` for plain
/// numbers), built at compile time.
macro_rules! decimals {
    ($prefix:expr) => {{
        const BYTES: [u8; $crate::decimal::table_len($prefix.len())] =
            $crate::decimal::table($prefix);
        $crate::decimal::Decimals::new(&BYTES, $prefix.len())
    }};
}
pub(crate) use decimals;

#[cfg(test)]
mod tests {
    use super::*;

    /// Every entry is its prefix and number; none past the limit.
    #[test]
    fn entries_are_prefix_and_number() {
        const PLAIN: Decimals = decimals!(b"");
        const MWT: Decimals = decimals!(b"#mwt");
        for n in 0..LIMIT {
            assert_eq!(PLAIN.get(n), Some(n.to_string()).as_deref(), "{n}");
            assert_eq!(MWT.get(n), Some(format!("#mwt{n}")).as_deref(), "{n}");
        }
        for n in [LIMIT, LIMIT + 1, usize::MAX] {
            assert_eq!(PLAIN.get(n), None);
            assert_eq!(MWT.get(n), None);
        }
    }
}
