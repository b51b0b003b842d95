//! Unit ids that survive page edits, and the source digest they are made of.
//!
//! With [`IdScheme::Content`] (the default) a unit's id is, in order:
//!
//! * `id.hello` (and `id.hello:title` for its attributes) when its own element has
//!   an `id` attribute, unique on the page: the id stays when the text is edited, and
//!   the merge's source check catches the edit;
//! * else `c.` and 12 hex digits of [`source_digest`] (the text and the code
//!   markers, not the codes' markup), with `.2`, `.3`… for the second and later
//!   units of the same digest: inserting, deleting or moving other blocks leaves
//!   the id alone, editing the block's own text gives it a new one.
//!
//! The structural path stays beside the id as the unit's `name` (XLIFF) or `#:`
//! reference (PO). A page has at most [`MAX_CONTENT_IDS`] distinct digests; later
//! units keep their structural key (never of the `c.` form), so ids stay unique and
//! memory bounded on any page. [`IdScheme::Structural`] keeps the structural key
//! for every unit (the scheme of earlier versions).
//!
//! Files made with structural ids still merge: a unit whose id the page does not
//! have is looked up by its source ([`crate::matching::SourceIndex`]).

use crate::{FastMap, FastSet};

use crate::block::{Block, BlockKind, Run};
use crate::reader::{FNV_START, fnv1a};
use crate::rules::IdScheme;

/// The most distinct source digests a page's content ids are counted for.
pub const MAX_CONTENT_IDS: usize = 1 << 16;

/// A digest of a unit's source as translators see it: the text (runs joined, so
/// however it was split) and each code's kind and number, not its markup.
/// Attribute units digest apart from content units of the same text.
pub fn source_digest(kind: BlockKind, runs: &[Run]) -> u64 {
    let mut h = match kind {
        BlockKind::Content => FNV_START,
        BlockKind::Attribute { .. } => fnv1a(FNV_START, &[0xFE]),
    };
    for run in runs {
        let (tag, id) = match run {
            Run::Text(t) => {
                h = fnv1a(h, t.as_bytes());
                continue;
            }
            Run::Open { id, .. } => (b'o', id),
            Run::Close { id, .. } => (b'c', id),
            Run::Placeholder { id, .. } => (b'p', id),
        };
        // 0xFF never occurs in UTF-8 text: a code cannot read as text.
        h = fnv1a(h, &[0xFF, tag]);
        h = fnv1a(h, &id.to_be_bytes());
    }
    h
}

/// Gives the reader's blocks their ids under the rules' [`IdScheme`].
#[derive(Debug)]
pub(crate) struct ContentIds {
    scheme: IdScheme,
    /// Digest → units named with it so far.
    seen: FastMap<u64, u32>,
}

impl ContentIds {
    pub(crate) fn new(scheme: IdScheme) -> Self {
        ContentIds {
            scheme,
            seen: FastMap::default(),
        }
    }

    /// Renames `block` and its sub-blocks (which arrive with structural keys);
    /// `anchors` are the `id.…` keys of the page's element ids.
    pub(crate) fn assign(&mut self, block: &mut Block, anchors: &Anchors) {
        if self.scheme == IdScheme::Structural {
            return;
        }
        self.rename(block, anchors);
        for sub in &mut block.subs {
            self.rename(sub, anchors);
        }
    }

    /// Pushes to `anchored`, for `block` and then each of its sub-blocks, whether
    /// its own key is one of `anchors` (it keeps it): what [`ContentIds::assign`]
    /// asks of the page, for [`ContentIds::assign_anchored`] on another thread.
    /// Nothing under the structural scheme.
    pub(crate) fn anchored(&self, block: &Block, anchors: &Anchors, anchored: &mut Vec<bool>) {
        if self.scheme == IdScheme::Structural {
            return;
        }
        anchored.push(anchors.contains(own_key(block)));
        anchored.extend(block.subs.iter().map(|s| anchors.contains(own_key(s))));
    }

    /// [`ContentIds::assign`] with the answers of [`ContentIds::anchored`] (taken
    /// from the front of `anchored`, which moves past them).
    pub(crate) fn assign_anchored(&mut self, block: &mut Block, anchored: &mut &[bool]) {
        if self.scheme == IdScheme::Structural {
            return;
        }
        let mut next = || match anchored.split_first() {
            Some((&first, rest)) => {
                *anchored = rest;
                first
            }
            None => false,
        };
        if !next() {
            self.rename_unanchored(block);
        }
        for sub in &mut block.subs {
            if !next() {
                self.rename_unanchored(sub);
            }
        }
    }

    fn rename(&mut self, block: &mut Block, anchors: &Anchors) {
        if !anchors.contains(own_key(block)) {
            self.rename_unanchored(block);
        }
    }

    /// Names `block` by its source digest (its own key is no anchor).
    pub(crate) fn rename_unanchored(&mut self, block: &mut Block) {
        let digest = source_digest(block.kind, &block.runs);
        let full = self.seen.len() >= MAX_CONTENT_IDS;
        let n = match self.seen.get_mut(&digest) {
            Some(n) => {
                *n += 1;
                *n
            }
            None if full => return, // past the cap: the structural key
            None => {
                self.seen.insert(digest, 1);
                1
            }
        };
        // Written over the structural key: its buffer is reused.
        block.id.clear();
        push_content_id(&mut block.id, digest, n);
    }
}

/// A block's own key: its id as the reader made it, without an attribute
/// block's `:attr`.
fn own_key(block: &Block) -> &str {
    match block.kind {
        BlockKind::Content => block.id.as_str(),
        BlockKind::Attribute { .. } => block.id.rsplit_once(':').map_or("", |(k, _)| k),
    }
}

/// The `id.…` keys of a page's element ids, kept as 64-bit FNV-1a digests: a set
/// of 8-byte entries, not of strings (a page of 65 536 ids kept about 7 MB of
/// strings and table; the digests keep about 1 MB). Two distinct keys of one page
/// with the same digest (odds about 2^-33 at the cap) would read as one.
#[derive(Debug, Default)]
pub(crate) struct Anchors {
    digests: FastSet<u64>,
    /// Whether a key without the [`ANCHOR_PREFIX`] was added (the reader adds
    /// none): until then, such a key is no anchor without a look.
    unprefixed: bool,
    /// The lengths of the keys added, one bit each ([`Anchors::length_bit`]): a
    /// key of another length is no anchor without a digest (a unit below an
    /// element with an id has a longer key than the id's own).
    lengths: u64,
}

/// How the keys of element ids begin (`id.hello`).
const ANCHOR_PREFIX: &str = "id.";

impl Anchors {
    fn digest(key: &str) -> u64 {
        fnv1a(FNV_START, key.as_bytes())
    }

    /// The bit of [`Anchors::lengths`] for keys of `len` bytes (keys of 63
    /// bytes and more share the last one).
    fn length_bit(len: usize) -> u64 {
        1 << len.min(63)
    }

    /// How many keys are kept.
    pub(crate) fn len(&self) -> usize {
        self.digests.len()
    }

    /// Adds `key`; `false` when it was there.
    pub(crate) fn insert(&mut self, key: &str) -> bool {
        self.unprefixed |= !key.starts_with(ANCHOR_PREFIX);
        self.lengths |= Self::length_bit(key.len());
        self.digests.insert(Self::digest(key))
    }

    /// Whether `key` was added.
    pub(crate) fn contains(&self, key: &str) -> bool {
        // Most units' keys are structural (`html-1.body-1.p-2`): no digest.
        if !self.unprefixed && !key.starts_with(ANCHOR_PREFIX)
            || self.lengths & Self::length_bit(key.len()) == 0
        {
            return false;
        }
        self.digests.contains(&Self::digest(key))
    }
}

#[cfg(test)]
fn content_id(digest: u64, n: u32) -> String {
    let mut id = String::with_capacity(20);
    push_content_id(&mut id, digest, n);
    id
}

/// Appends the content id of the `n`th unit with source digest `digest`: `c.` and
/// the digest's top 48 bits in hex, `.n` from the second unit on.
fn push_content_id(id: &mut String, digest: u64, n: u32) {
    id.reserve(24);
    id.push_str("c.");
    // The 48 high bits: 12 lowercase hex digits.
    push_hex(id, digest, 12);
    if n != 1 {
        id.push('.');
        push_decimal(id, n);
    }
}

/// Appends the `digits` high nibbles of `value` as lowercase hex, most
/// significant first (`push_hex(out, v, 16)` writes what `{v:016x}` writes).
pub(crate) fn push_hex(out: &mut String, value: u64, digits: u32) {
    let digits = digits.min(16) as usize;
    // Two digits per byte, from the bytes a digit is taken from only.
    let mut all = HexDigits([b'0'; 16]);
    for (pair, byte) in all
        .0
        .chunks_exact_mut(2)
        .zip(value.to_be_bytes())
        .take(digits.div_ceil(2))
    {
        pair.copy_from_slice(&HEX_PAIRS[usize::from(byte)]);
    }
    // Hex digits are ASCII: one push, not one per digit. All 16 bytes are
    // checked (aligned: two word tests), then the digits wanted taken.
    let all = std::str::from_utf8(&all.0).unwrap_or_default();
    out.push_str(all.get(..digits).unwrap_or_default());
}

/// The digits [`push_hex`] writes, aligned so that checking they are UTF-8
/// goes a word at a time (12 unaligned bytes were checked one by one: about 100
/// instructions, most of a content id's making).
#[repr(align(8))]
struct HexDigits([u8; 16]);

/// The two lowercase hex digits of each byte.
static HEX_PAIRS: [[u8; 2]; 256] = {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut table = [[0u8; 2]; 256];
    let mut b = 0;
    while b < 256 {
        table[b] = [HEX[b >> 4], HEX[b & 0xF]];
        b += 1;
    }
    table
};

/// Appends `n` in decimal (what `write!(out, "{n}")` writes, without the
/// formatting machinery: ids and paths are built per unit).
#[inline]
pub(crate) fn push_decimal(out: &mut String, n: u32) {
    // One digit, mostly (an element's number among its siblings): inlined, no
    // loop, no buffer, and a push the compiler knows to be one byte.
    if n < 10 {
        out.push(char::from(b'0' + n as u8));
    } else {
        push_decimal_long(out, n);
    }
}

/// [`push_decimal`] for two digits or more: out of line (its registers and
/// buffer cost every call a longer entry and exit).
#[inline(never)]
fn push_decimal_long(out: &mut String, n: u32) {
    if n < 100 {
        out.push(char::from(b'0' + (n / 10) as u8));
        out.push(char::from(b'0' + (n % 10) as u8));
        return;
    }
    let mut digits = [0u8; 10];
    // Pushed one by one (one `push_str` cost a copy call).
    for &d in decimal(n, &mut digits) {
        out.push(char::from(d));
    }
}

/// The decimal digits of `n` (ASCII), written at the end of `digits`.
pub(crate) fn decimal(n: u32, digits: &mut [u8; 10]) -> &[u8] {
    let mut i = digits.len();
    let mut v = n;
    loop {
        i -= 1;
        if let Some(d) = digits.get_mut(i) {
            *d = b'0' + (v % 10) as u8;
        }
        v /= 10;
        if v == 0 || i == 0 {
            break;
        }
    }
    digits.get(i..).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(id: &str, text: &str) -> Block {
        Block::paragraph(id, text)
    }

    #[test]
    fn ids_and_numbers_render_as_formatted() {
        for n in [0, 1, 9, 10, 11, 42, 99, 100, 101, 4_294_967_295] {
            let mut s = String::from("x");
            push_decimal(&mut s, n);
            assert_eq!(s, format!("x{n}"));
        }
        for digest in [0u64, 1 << 16, u64::MAX, 0x0123_4567_89ab_cdef] {
            let short = digest >> 16;
            assert_eq!(content_id(digest, 1), format!("c.{short:012x}"));
            assert_eq!(content_id(digest, 12), format!("c.{short:012x}.12"));
            let mut full = String::new();
            push_hex(&mut full, digest, 16);
            assert_eq!(full, format!("{digest:016x}"));
        }
    }

    #[test]
    fn content_ids_repeat_with_a_counter_and_keep_anchors() {
        let mut anchors = Anchors::default();
        assert!(anchors.insert("id.intro"));
        assert!(!anchors.insert("id.intro"));
        assert!(!anchors.contains("id.intro2") && anchors.len() == 1);
        // Another key of the same length is looked up, and is none.
        assert!(!anchors.contains("id.intrO") && !anchors.contains("id.intro.p-1"));
        let long = format!("id.{}", "x".repeat(70));
        assert!(anchors.insert(&long) && anchors.contains(&long));
        assert!(!anchors.contains(&format!("id.{}", "x".repeat(80))));
        assert!(anchors.contains("id.intro") && !anchors.contains("html-1.p-1"));
        // Keys of another form are looked up once one was added.
        let mut other = Anchors::default();
        assert!(other.insert("plain") && other.contains("plain") && !other.contains("plan"));
        let mut ids = ContentIds::new(IdScheme::Content);
        let mut a = block("html-1.p-1", "Home");
        let mut b = block("html-1.p-2", "Home");
        let mut c = block("id.intro", "Home");
        for x in [&mut a, &mut b, &mut c] {
            ids.assign(x, &anchors);
        }
        assert!(a.id.starts_with("c.") && a.id.len() == 14, "{}", a.id);
        assert_eq!(b.id, format!("{}.2", a.id));
        assert_eq!(c.id, "id.intro");
        let mut structural = ContentIds::new(IdScheme::Structural);
        let mut d = block("html-1.p-1", "Home");
        structural.assign(&mut d, &anchors);
        assert_eq!(d.id, "html-1.p-1");
    }

    #[test]
    fn digest_ignores_splits_and_markup_not_codes() {
        let split = [Run::Text("a ".into()), Run::Text("b".into())];
        let whole = [Run::Text("a b".into())];
        assert_eq!(
            source_digest(BlockKind::Content, &split),
            source_digest(BlockKind::Content, &whole)
        );
        let code = |data: &str| Run::Placeholder {
            id: 1,
            data: data.into(),
        };
        assert_eq!(
            source_digest(BlockKind::Content, &[code("<br>")]),
            source_digest(BlockKind::Content, &[code("<br/>")])
        );
        assert_ne!(
            source_digest(BlockKind::Content, &whole),
            source_digest(BlockKind::Attribute { quote: b'"' }, &whole)
        );
    }
}
