//! The skeleton's compact encodings: LEB128 lengths, and a block as the writer
//! needs it and no more.
//!
//! A block entry keeps the block's id, kind, runs, sub-blocks (id, kind, runs, and
//! where their value sits in a code) and `lang` positions. It leaves out what only
//! an interchange file needs (element, path, notes) and, when the skeleton reads
//! from the source file, the original bytes: they are the next bytes of the source,
//! so only their length is kept. A content id `c.` + 12 hex digits (`.N`) is kept
//! as its 6 digest bytes and `N`; any other id as the length of the prefix it
//! shares with the id before it (blocks and sub-blocks in order: structural keys
//! of neighbours share most of theirs) and the rest.
//!
//! ```text
//! block    = flags:1 [quote:1 if attribute] id runs original subs langs
//! flags    = 1 attribute | 2 preserve | 4 original in the source | 8 packed id
//!            | 16 named on decode (the id is the structural key: the decoder gives
//!              the content id, `ContentIds::rename_unanchored`, in block order)
//! mark     = flags:1 [len:varint if in the source]   (flags 32: the block itself
//!            travels beside the entry, `pipe.rs`; 16: named on read, 4: as above)
//! id       = digest:6 suffix:varint (packed) | shared:varint len:varint bytes
//! runs     = n:varint (tag:1 [code id:varint if tag > 0] len:varint bytes)*
//! original = len:varint [bytes unless in the source]
//! subs     = n:varint (run:varint start:varint end:varint block)*   (sub originals: empty)
//! langs    = n:varint (run:varint start:varint end:varint)*
//! ```

use crate::block::{Block, BlockKind, Run, SubRef};
use crate::ids::ContentIds;

const ATTRIBUTE: u8 = 1;
const PRESERVE: u8 = 2;
const IN_SOURCE: u8 = 4;
const PACKED_ID: u8 = 8;
const NAMED_ON_DECODE: u8 = 16;
const MARK: u8 = 32;

/// Appends `v` as LEB128.
pub(crate) fn put_varint(out: &mut Vec<u8>, mut v: u64) {
    while v >= 0x80 {
        out.push((v as u8) | 0x80);
        v >>= 7;
    }
    out.push(v as u8);
}

/// `v` as LEB128 in a buffer of its own (what [`put_varint`] appends), and how
/// many of its bytes are used: for headers written without a `Vec`.
pub(crate) fn varint_array(mut v: u64) -> ([u8; 10], usize) {
    let mut out = [0u8; 10];
    if v < 0x80 {
        out[0] = v as u8;
        return (out, 1);
    }
    let mut n = 0;
    for slot in out.iter_mut() {
        n += 1;
        if v < 0x80 {
            *slot = v as u8;
            break;
        }
        *slot = (v as u8) | 0x80;
        v >>= 7;
    }
    (out, n)
}

fn put_bytes(out: &mut Vec<u8>, b: &[u8]) {
    put_varint(out, b.len() as u64);
    out.extend_from_slice(b);
}

/// Where a block's original bytes go.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Original {
    /// Copied into the entry.
    Inline,
    /// The next `len` bytes of the source: only the length is kept (the block's
    /// `original` may be left empty by a reader that does not need the bytes).
    InSource { len: usize },
    /// Left out (sub-blocks: their bytes are inside their parent's).
    Dropped,
}

/// Encodes `block` for the skeleton (see the module docs); `last` is the id of the
/// block encoded before (empty at first), and becomes its last sub-block's.
/// `anchored`: for the block and then each sub-block, whether its key is kept
/// ([`crate::ids::ContentIds::anchored`]); one that is not is named on decode.
/// Empty: every id is kept as it is.
pub(crate) fn encode_block(
    block: &Block,
    original: Original,
    anchored: &[bool],
    last: &mut String,
    out: &mut Vec<u8>,
) {
    let packed = pack_id(&block.id);
    let mut flags = 0;
    if anchored.first() == Some(&false) {
        flags |= NAMED_ON_DECODE;
    }
    if let BlockKind::Attribute { .. } = block.kind {
        flags |= ATTRIBUTE;
    }
    if block.preserve {
        flags |= PRESERVE;
    }
    if let Original::InSource { .. } = original {
        flags |= IN_SOURCE;
    }
    if packed.is_some() {
        flags |= PACKED_ID;
    }
    out.push(flags);
    if let BlockKind::Attribute { quote } = block.kind {
        out.push(quote);
    }
    match packed {
        Some((digest, suffix)) => {
            out.extend_from_slice(&digest.to_be_bytes()[2..]);
            put_varint(out, suffix);
        }
        None => {
            let id = block.id.as_str();
            let mut shared = shared_prefix(id.as_bytes(), last.as_bytes());
            while !id.is_char_boundary(shared) {
                shared -= 1;
            }
            put_varint(out, shared as u64);
            put_bytes(out, id.get(shared..).unwrap_or("").as_bytes());
        }
    }
    last.clear();
    last.push_str(&block.id);
    put_varint(out, block.runs.len() as u64);
    for run in &block.runs {
        let (tag, id, data) = match run {
            Run::Text(t) => (0, 0, t),
            Run::Open { id, data } => (1, *id, data),
            Run::Close { id, data } => (2, *id, data),
            Run::Placeholder { id, data } => (3, *id, data),
        };
        out.push(tag);
        if tag > 0 {
            put_varint(out, u64::from(id));
        }
        put_bytes(out, data.as_bytes());
    }
    match original {
        Original::Inline => put_bytes(out, &block.original),
        Original::InSource { len } => put_varint(out, len as u64),
        Original::Dropped => put_varint(out, 0),
    }
    put_varint(out, block.subs.len() as u64);
    for (i, (sub, at)) in block.subs.iter().zip(&block.sub_refs).enumerate() {
        put_ref(out, at);
        let own = anchored.get(i + 1..i + 2).unwrap_or_default();
        encode_block(sub, Original::Dropped, own, last, out);
    }
    put_varint(out, block.lang_refs.len() as u64);
    for at in &block.lang_refs {
        put_ref(out, at);
    }
}

/// The entry of a block that travels whole beside it (`pipe.rs`), header
/// included (`tag`, then the data's length: one byte): its flags (`named`:
/// named on read) and, when its original bytes are in the source, their length.
/// The bytes and how many are used.
pub(crate) fn encode_mark(tag: u8, original: Original, named: bool) -> ([u8; 13], usize) {
    let mut out = [0u8; 13];
    let mut flags = MARK;
    if named {
        flags |= NAMED_ON_DECODE;
    }
    let (len, n) = match original {
        Original::InSource { len } => {
            flags |= IN_SOURCE;
            varint_array(len as u64)
        }
        Original::Inline | Original::Dropped => ([0; 10], 0),
    };
    out[0] = tag;
    out[1] = 1 + n as u8;
    out[2] = flags;
    if let (Some(to), Some(from)) = (out.get_mut(3..3 + n), len.get(..n)) {
        to.copy_from_slice(from);
    }
    (out, 3 + n)
}

/// A mark's data ([`encode_mark`], after its header): whether the block is named on read, and the
/// length of its original bytes in the source; `None` when `data` is not a mark
/// (an encoded block, or nothing valid).
pub(crate) fn decode_mark(data: &[u8]) -> Option<(bool, Option<u64>)> {
    let mut c = Cursor { data, pos: 0 };
    let flags = c.byte()?;
    if flags & MARK == 0 {
        return None;
    }
    let in_source = if flags & IN_SOURCE != 0 {
        Some(c.varint()?)
    } else {
        None
    };
    (c.pos == data.len()).then_some((flags & NAMED_ON_DECODE != 0, in_source))
}

/// The length of the prefix `a` and `b` share, compared eight bytes at a time
/// (structural keys share tens of bytes with the block's before).
fn shared_prefix(a: &[u8], b: &[u8]) -> usize {
    let mut n = 0;
    for (x, y) in a.chunks_exact(8).zip(b.chunks_exact(8)) {
        if <[u8; 8]>::try_from(x).ok() != <[u8; 8]>::try_from(y).ok() {
            break;
        }
        n += 8;
    }
    let (a, b) = (
        a.get(n..).unwrap_or_default(),
        b.get(n..).unwrap_or_default(),
    );
    n + a.iter().zip(b).take_while(|(x, y)| x == y).count()
}

fn put_ref(out: &mut Vec<u8>, at: &SubRef) {
    put_varint(out, at.run as u64);
    put_varint(out, at.start as u64);
    put_varint(out, at.end as u64);
}

/// A decoded block whose original bytes may still be in the source.
#[cfg(test)]
pub(crate) struct Decoded {
    pub(crate) block: Block,
    /// The length of the original bytes to take from the source (`None`: they were
    /// in the entry, already in `block.original`).
    pub(crate) in_source: Option<u64>,
}

/// Decodes a block written by [`encode_block`]; `None` when `data` is not one.
/// `last` as for [`encode_block`].
#[cfg(test)]
pub(crate) fn decode_block(data: &[u8], last: &mut String) -> Option<Decoded> {
    let mut block = empty_block();
    let mut names = ContentIds::new(crate::rules::IdScheme::Content);
    let in_source = decode_block_into(data, last, &mut block, &mut Vec::new(), &mut names)?;
    Some(Decoded { block, in_source })
}

/// [`decode_block`] into `block`, whose buffers (id, runs and their strings,
/// original bytes, sub-blocks) are reused: a replay decodes every block into the
/// same one, with no allocation once they are large enough. The length of the
/// original bytes to take from the source, as [`Decoded::in_source`]. `spare`
/// keeps the strings of runs a block had beyond the next one's, for a later
/// longer one (kept by the caller from block to block). `names` names the
/// blocks encoded to be named on decode (the same one for every block, in order).
pub(crate) fn decode_block_into(
    data: &[u8],
    last: &mut String,
    block: &mut Block,
    spare: &mut Vec<String>,
    names: &mut ContentIds,
) -> Option<Option<u64>> {
    let mut c = Cursor { data, pos: 0 };
    let in_source = decode_into(&mut c, 0, last, block, spare, names)?;
    (c.pos == data.len()).then_some(in_source)
}

/// A block with nothing in it, to decode into.
pub(crate) fn empty_block() -> Block {
    Block {
        id: String::new(),
        kind: BlockKind::Content,
        element: String::new(),
        path: String::new(),
        notes: Vec::new(),
        preserve: false,
        runs: Vec::new(),
        original: Vec::new(),
        subs: Vec::new(),
        sub_refs: Vec::new(),
        lang_refs: Vec::new(),
    }
}

/// Sub-blocks do not nest deeper than this (the reader makes one level).
const MAX_NESTING: u32 = 4;

/// Spare run strings kept at most (see [`decode_block_into`]).
const MAX_SPARE: usize = 256;

fn decode_into(
    c: &mut Cursor<'_>,
    depth: u32,
    last: &mut String,
    block: &mut Block,
    spare: &mut Vec<String>,
    names: &mut ContentIds,
) -> Option<Option<u64>> {
    if depth > MAX_NESTING {
        return None;
    }
    let flags = c.byte()?;
    block.kind = if flags & ATTRIBUTE != 0 {
        BlockKind::Attribute { quote: c.byte()? }
    } else {
        BlockKind::Content
    };
    block.preserve = flags & PRESERVE != 0;
    if flags & PACKED_ID != 0 {
        let mut digest = [0u8; 8];
        digest[2..].copy_from_slice(c.take(6)?);
        unpack_id(u64::from_be_bytes(digest), c.varint()?, &mut block.id);
    } else {
        let shared = usize::try_from(c.varint()?).ok()?;
        let rest = std::str::from_utf8(c.bytes()?).ok()?;
        block.id.clear();
        block.id.push_str(last.get(..shared)?);
        block.id.push_str(rest);
    }
    last.clear();
    last.push_str(&block.id);
    block.element.clear();
    block.path.clear();
    block.notes.clear();
    let n = usize::try_from(c.varint()?).ok()?;
    // Each run reuses the string of the run it replaces, or a spare one.
    while block.runs.len() > n {
        match block.runs.pop() {
            Some(mut run) if spare.len() < MAX_SPARE => spare.push(take_string(&mut run)),
            _ => {}
        }
    }
    for i in 0..n {
        let tag = c.byte()?;
        let id = if tag > 0 {
            u32::try_from(c.varint()?).ok()?
        } else {
            0
        };
        let text = std::str::from_utf8(c.bytes()?).ok()?;
        let mut data = match block.runs.get_mut(i) {
            Some(run) => take_string(run),
            None => spare.pop().unwrap_or_default(),
        };
        data.clear();
        data.push_str(text);
        let run = match tag {
            0 => Run::Text(data),
            1 => Run::Open { id, data },
            2 => Run::Close { id, data },
            3 => Run::Placeholder { id, data },
            _ => return None,
        };
        match block.runs.get_mut(i) {
            Some(slot) => *slot = run,
            None => block.runs.push(run),
        }
    }
    if flags & NAMED_ON_DECODE != 0 {
        // Before the sub-blocks: the order the page reader names them in.
        names.rename_unanchored(block);
    }
    block.original.clear();
    let in_source = if flags & IN_SOURCE != 0 {
        Some(c.varint()?)
    } else {
        block.original.extend_from_slice(c.bytes()?);
        None
    };
    let n = usize::try_from(c.varint()?).ok()?;
    block.subs.truncate(n);
    block.sub_refs.clear();
    for i in 0..n {
        block.sub_refs.push(c.sub_ref()?);
        if block.subs.len() <= i {
            block.subs.push(empty_block());
        }
        decode_into(c, depth + 1, last, block.subs.get_mut(i)?, spare, names)?;
    }
    let n = c.varint()?;
    block.lang_refs.clear();
    for _ in 0..n {
        block.lang_refs.push(c.sub_ref()?);
    }
    Some(in_source)
}

/// The string of a run, left empty in it.
fn take_string(run: &mut Run) -> String {
    match run {
        Run::Text(s)
        | Run::Open { data: s, .. }
        | Run::Close { data: s, .. }
        | Run::Placeholder { data: s, .. } => std::mem::take(s),
    }
}

/// `c.` + 12 lowercase hex digits, and `.N` (N ≥ 1, no leading zero): the digest
/// and N (0 without a suffix). `None` for any other id (kept as it is).
fn pack_id(id: &str) -> Option<(u64, u64)> {
    let rest = id.strip_prefix("c.")?.as_bytes();
    let (hex, suffix) = (rest.get(..12)?, rest.get(12..)?);
    let mut digest = 0u64;
    for &b in hex {
        let v = match b {
            b'0'..=b'9' => b - b'0',
            b'a'..=b'f' => b - b'a' + 10,
            _ => return None,
        };
        digest = digest << 4 | u64::from(v);
    }
    let n = match suffix {
        [] => 0,
        [b'.', b'1'..=b'9', digits @ ..] if digits.len() < 18 => {
            let mut n = 0u64;
            for &b in &suffix[1..] {
                if !b.is_ascii_digit() {
                    return None;
                }
                n = n * 10 + u64::from(b - b'0');
            }
            n
        }
        _ => return None,
    };
    Some((digest, n))
}

/// Writes the id of `digest` and `suffix` ([`pack_id`]) into `id`.
fn unpack_id(digest: u64, suffix: u64, id: &mut String) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    id.clear();
    id.push_str("c.");
    for shift in (0..12).rev() {
        id.push(char::from(HEX[(digest >> (shift * 4)) as usize & 15]));
    }
    if suffix > 0 {
        // Writing into a `String` cannot fail.
        let _ = std::fmt::Write::write_fmt(id, format_args!(".{suffix}"));
    }
}

/// A bounds-checked reader of encoded bytes.
pub(crate) struct Cursor<'a> {
    pub(crate) data: &'a [u8],
    pub(crate) pos: usize,
}

impl<'a> Cursor<'a> {
    fn byte(&mut self) -> Option<u8> {
        let b = *self.data.get(self.pos)?;
        self.pos += 1;
        Some(b)
    }

    /// A LEB128 value (at most 10 bytes).
    pub(crate) fn varint(&mut self) -> Option<u64> {
        let mut v = 0u64;
        for shift in (0..64).step_by(7) {
            let b = self.byte()?;
            v |= u64::from(b & 0x7F).checked_shl(shift)?;
            if b & 0x80 == 0 {
                return Some(v);
            }
        }
        None
    }

    fn take(&mut self, n: usize) -> Option<&'a [u8]> {
        let b = self.data.get(self.pos..self.pos.checked_add(n)?)?;
        self.pos += n;
        Some(b)
    }

    fn bytes(&mut self) -> Option<&'a [u8]> {
        let n = usize::try_from(self.varint()?).ok()?;
        self.take(n)
    }

    fn sub_ref(&mut self) -> Option<SubRef> {
        let mut v = || usize::try_from(self.varint()?).ok();
        Some(SubRef {
            run: v()?,
            start: v()?,
            end: v()?,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample() -> Block {
        Block {
            id: "c.11af8bb845a1".into(),
            kind: BlockKind::Content,
            element: String::new(),
            path: String::new(),
            notes: vec![],
            preserve: true,
            runs: vec![
                Run::Text("a ".into()),
                Run::Open {
                    id: 1,
                    data: "<a title=\"t\">".into(),
                },
                Run::Text("b".into()),
                Run::Close {
                    id: 1,
                    data: "</a>".into(),
                },
                Run::Placeholder {
                    id: 300,
                    data: "<br>".into(),
                },
            ],
            original: b"a <a title=\"t\">b</a><br>".to_vec(),
            subs: vec![Block {
                id: "p-1/a-1:title".into(),
                kind: BlockKind::Attribute { quote: b'"' },
                element: String::new(),
                path: String::new(),
                notes: vec![],
                preserve: false,
                runs: vec![Run::Text("t".into())],
                original: vec![],
                subs: vec![],
                sub_refs: vec![],
                lang_refs: vec![],
            }],
            sub_refs: vec![SubRef {
                run: 1,
                start: 10,
                end: 11,
            }],
            lang_refs: vec![SubRef {
                run: 3,
                start: 0,
                end: 200,
            }],
        }
    }

    #[test]
    fn shared_prefixes_by_words_and_bytes() {
        let long = b"body.1/div.2/section.3/p.14";
        for (a, b) in [
            (&long[..], &long[..]),
            (&long[..], &b"body.1/div.2/section.3/p.15"[..]),
            (&long[..], &b"body.1/div.2/x"[..]),
            (&long[..], &b"body.1/d"[..]),
            (&long[..], &b"c"[..]),
            (&b""[..], &long[..]),
        ] {
            let bytewise = a.iter().zip(b).take_while(|(x, y)| x == y).count();
            assert_eq!(shared_prefix(a, b), bytewise);
            assert_eq!(shared_prefix(b, a), bytewise);
        }
    }

    #[test]
    fn blocks_round_trip_inline_and_in_source() {
        let block = sample();
        let mut buf = Vec::new();
        encode_block(&block, Original::Inline, &[], &mut String::new(), &mut buf);
        let decoded = decode_block(&buf, &mut String::new()).unwrap();
        assert_eq!(decoded.block, block);
        assert_eq!(decoded.in_source, None);
        assert!(decode_block(&buf[..buf.len() - 1], &mut String::new()).is_none());

        buf.clear();
        encode_block(
            &block,
            Original::InSource {
                len: block.original.len(),
            },
            &[],
            &mut String::new(),
            &mut buf,
        );
        let decoded = decode_block(&buf, &mut String::new()).unwrap();
        assert_eq!(decoded.in_source, Some(block.original.len() as u64));
        assert_eq!(decoded.block.original, b"");
        assert_eq!(decoded.block.runs, block.runs);
    }

    #[test]
    fn blocks_left_unnamed_are_named_on_decode_in_order() {
        let mut named = ContentIds::new(crate::rules::IdScheme::Content);
        let (mut written, mut read) = (String::new(), String::new());
        let mut decoder = ContentIds::new(crate::rules::IdScheme::Content);
        let mut into = empty_block();
        for (key, text, anchored) in [
            ("html-1.p-1", "Home", false),
            ("id.intro", "Home", true),
            ("html-1.p-2", "Home", false),
            ("html-1.p-3", "Away", false),
        ] {
            let mut block = Block::paragraph(key, text);
            let mut buf = Vec::new();
            encode_block(
                &block,
                Original::Inline,
                &[anchored],
                &mut written,
                &mut buf,
            );
            decode_block_into(&buf, &mut read, &mut into, &mut Vec::new(), &mut decoder).unwrap();
            if !anchored {
                named.rename_unanchored(&mut block);
            }
            assert_eq!(into.id, block.id);
            assert_eq!(read, key);
        }
        assert!(
            into.id.starts_with("c.") && !into.id.contains(".2"),
            "{}",
            into.id
        );
    }

    #[test]
    fn element_path_and_notes_are_left_out() {
        let mut block = sample();
        let mut small = Vec::new();
        encode_block(
            &block,
            Original::InSource {
                len: block.original.len(),
            },
            &[],
            &mut String::new(),
            &mut small,
        );
        block.element = "p".into();
        block.path = "/html[1]/body[1]/section[1]/p[1]".into();
        block.notes = vec!["a comment".into()];
        let mut buf = Vec::new();
        encode_block(
            &block,
            Original::InSource {
                len: block.original.len(),
            },
            &[],
            &mut String::new(),
            &mut buf,
        );
        assert_eq!(buf, small);
    }

    #[test]
    fn ids_share_their_prefix_with_the_one_before() {
        let ids = [
            "html-1.body-1.section-40000.p-1",
            "html-1.body-1.section-40000.p-2",
            "c.0123456789ab",
            "html-1.body-1.section-40001.h2-1",
            "id.été",
            "id.éta",
            "id.\u{e9}",
            "",
        ];
        let (mut written, mut read) = (String::new(), String::new());
        let mut sizes = Vec::new();
        for id in ids {
            let mut block = Block::paragraph(id, "x");
            block.original = b"x".to_vec();
            let mut buf = Vec::new();
            encode_block(
                &block,
                Original::InSource {
                    len: block.original.len(),
                },
                &[],
                &mut written,
                &mut buf,
            );
            sizes.push(buf.len());
            let decoded = decode_block(&buf, &mut read).unwrap();
            assert_eq!(decoded.block.id, id);
            assert_eq!(read, id);
        }
        // The second structural key costs its last byte, not its 31.
        assert!(sizes[1] < sizes[0] - 25, "{sizes:?}");
    }

    #[test]
    fn content_ids_are_packed_exactly() {
        for id in [
            "c.11af8bb845a1",
            "c.000000000000.2",
            "c.ffffffffffff.1234",
            "c.0123456789ab.1",
            "c.0123456789ab.99999999999999999",
        ] {
            let (digest, suffix) = pack_id(id).unwrap();
            let mut unpacked = String::from("stale");
            unpack_id(digest, suffix, &mut unpacked);
            assert_eq!(unpacked, id);
        }
        for id in [
            "c.11af8bb845a",
            "c.11AF8BB845A1",
            "c.11af8bb845a1.",
            "c.11af8bb845a1.0",
            "c.11af8bb845a1.02",
            "c.11af8bb845a1.1x",
            "c.11af8bb845a1.9999999999999999999",
            "c.11af8bb845a1x",
            "id.intro",
            "p-1",
        ] {
            assert_eq!(pack_id(id), None, "{id}");
        }
    }

    #[test]
    fn varints() {
        for v in [0, 1, 127, 128, 300, u64::from(u32::MAX), u64::MAX] {
            let mut buf = Vec::new();
            put_varint(&mut buf, v);
            let mut c = Cursor { data: &buf, pos: 0 };
            assert_eq!(c.varint(), Some(v));
            assert_eq!(c.pos, buf.len());
            let (array, n) = varint_array(v);
            assert_eq!(&array[..n], &buf[..]);
        }
        let mut c = Cursor {
            data: &[0xFF; 11],
            pos: 0,
        };
        assert_eq!(c.varint(), None);
    }
}
