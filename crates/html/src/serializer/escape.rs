//! "Escaping a string" (HTML §13.3, current text in `spec/parsing.md` A.8): the one
//! escaping routine shared by the DOM serializer and the token serializer.
//!
//! `&` → `&amp;`, U+00A0 → `&nbsp;`, `<` → `&lt;`, `>` → `&gt;`; in attribute mode
//! also the quote character (`"` → `&quot;`, or `'` → `&#39;` for the token
//! serializer's single-quoted values). Since 2025 `<` and `>` are escaped in
//! attribute values too.
//!
//! The text is tested sixteen bytes at a time (the tokenizer's [`Lanes`]: one
//! comparison per escaped byte and block), the bytes found are replaced and the
//! runs between them copied whole: nothing is allocated, and unescaped text
//! costs a handful of instructions per sixteen bytes. Onto bytes
//! ([`escape_into`], the wikitext serializer's form) the copies are of fixed
//! size: a short clean text is one block, a run and the replacement after it
//! one piece (the bytes past them cut off again).

use std::fmt::{self, Write};

use crate::tokenizer::lanes::{Lanes, WIDTH, block_at};

/// What is being escaped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum EscapeMode {
    /// Text content (and unquoted attribute values): `&`, U+00A0, `<`, `>`.
    Text,
    /// A double-quoted attribute value: the text set plus `"`.
    DoubleQuoted,
    /// A single-quoted attribute value: the text set plus `'`.
    SingleQuoted,
}

/// Writes `s` escaped for `mode` (the one escaping routine of tagloom: the DOM and
/// token serializers and the streaming rewriter use it).
pub fn write_escaped<W: Write + ?Sized>(out: &mut W, s: &str, mode: EscapeMode) -> fmt::Result {
    escape(&mut Formatter(out), s, mode)
}

/// [`write_escaped`] onto UTF-8 bytes (valid when `out` was: only whole
/// characters are added), for serializers that build their output as bytes.
/// Text of at most a block with nothing to escape (most of a page's text
/// nodes and attribute values) is tested and copied inline as one block; the
/// rest is escaped by `escape_bytes`, out of the caller's loop.
#[inline(always)]
pub fn escape_into(out: &mut Vec<u8>, s: &str, mode: EscapeMode) {
    let bytes = s.as_bytes();
    let quote = quote_byte(mode);
    if bytes.len() <= WIDTH {
        let block = padded(bytes);
        if specials(&block, quote) == 0 {
            push_prefix(out, &block, bytes.len());
            return;
        }
    } else if let (Some(head), Some(tail)) = (block_at(bytes, 0), bytes.last_chunk::<WIDTH>())
        && bytes.len() <= 2 * WIDTH
        && specials(head, quote) | specials(tail, quote) == 0
    {
        // Two blocks that overlap: the second written over the first's end.
        push_prefix(out, head, bytes.len() - WIDTH);
        out.extend_from_slice(tail);
        return;
    }
    escape_bytes(out, bytes, quote);
}

/// [`escape`] for a `Vec`: each run between replacements, when at most a
/// block long, copied with the replacement after it as one fixed-size piece
/// (the block that starts with the run, the replacement's eight bytes written
/// over the bytes past the run, the bytes past the replacement cut off
/// again); longer runs copied whole. No call, one capacity test a replacement.
#[inline(never)]
fn escape_bytes(out: &mut Vec<u8>, bytes: &[u8], quote: u8) {
    // `start`: the first byte not written yet; `at`: the block tested.
    let (mut start, mut at) = escape_blocks(out, bytes, quote);
    while at < bytes.len() {
        let mut hits = match block_at(bytes, at) {
            Some(block) => specials(block, quote),
            None => tail_specials(bytes, at, quote),
        };
        while hits != 0 {
            let i = at + hits.trailing_zeros() as usize;
            hits &= hits - 1;
            let byte = bytes.get(i).copied().unwrap_or_default();
            let Some(run_end) = clean_run_end(bytes, i, byte) else {
                continue;
            };
            let (text, padded_text) = replacement(byte);
            let text_len = text.len();
            let run_len = run_end.saturating_sub(start);
            let mut piece = [0u8; 2 * WIDTH];
            match block_at(bytes, start) {
                Some(block) if run_len <= WIDTH => copy_at(&mut piece, 0, block),
                _ if run_len <= WIDTH => copy_at(
                    &mut piece,
                    0,
                    &padded(bytes.get(start..run_end).unwrap_or_default()),
                ),
                _ => {
                    out.extend_from_slice(bytes.get(start..run_end).unwrap_or_default());
                    push_prefix(out, &padded_text, text_len);
                    start = i + 1;
                    continue;
                }
            }
            copy_at(&mut piece, run_len, &padded_text);
            push_prefix(out, &piece, run_len + text_len);
            start = i + 1;
        }
        at += WIDTH;
    }
    push_run(out, bytes, start, bytes.len());
}

/// Room for one block's output in [`escape_blocks`]: the pending run before
/// it (at most a block), each of its bytes replaced by at most six (a power
/// of two: offsets masked by it need no bounds check); the buffer has a
/// block more for the last fixed-size copy's overshoot.
const BLOCK_OUT: usize = 2 * WIDTH + 6 * WIDTH;

/// The part of [`escape_bytes`] where every fixed-size read stays inside
/// `bytes` (up to the last two blocks): a block with bytes to escape is
/// written into a local buffer (runs as blocks, replacements as eight bytes,
/// each written over the bytes past the one before) and appended as one
/// piece, so the `Vec`'s length and capacity are looked at once a block, not
/// once a replacement (dense in `data-mw` values: ≈ 3 `&quot;` a block).
/// Returns where the caller goes on: the first byte not written and the
/// first block not tested.
#[inline(always)]
fn escape_blocks(out: &mut Vec<u8>, bytes: &[u8], quote: u8) -> (usize, usize) {
    let mut start = 0;
    let mut at = 0;
    let mut buf = [0u8; BLOCK_OUT + WIDTH];
    while at + 2 * WIDTH <= bytes.len() {
        // The block and the one after it: each run inside the block is read
        // as the block that starts with it (offsets masked: no bounds check).
        let Some(window) = bytes
            .get(at..)
            .and_then(<[u8]>::first_chunk::<{ 2 * WIDTH }>)
        else {
            break;
        };
        let Some(block) = window.first_chunk::<WIDTH>() else {
            break;
        };
        let mut hits = specials(block, quote);
        if hits == 0 {
            at += WIDTH;
            continue;
        }
        // A long pending run is written but its last block (which may end
        // with the lead byte of a no-break space starting the block).
        if at - start > WIDTH {
            out.extend_from_slice(bytes.get(start..at - WIDTH).unwrap_or_default());
            start = at - WIDTH;
        }
        // The pending run (at most a block), then from `at` on every run is
        // inside the block.
        let mut o = at - start;
        if let Some(run) = block_at(bytes, start) {
            copy_at(&mut buf, 0, run);
        }
        // The block's first byte not written yet, from `at` (at most the
        // next hit's offset).
        let mut s = 0;
        if hits == Lanes::load(block).eq(quote).bits() {
            // Only the quote (most blocks of a JSON value, `"` after `"`):
            // one replacement, no byte read, no no-break space to tell.
            let word = replacement_word(quote);
            while hits != 0 {
                let offset = hits.trailing_zeros() as usize & (WIDTH - 1);
                hits &= hits - 1;
                copy_run(&mut buf, o, window, s);
                o += offset - s;
                copy_at(&mut buf, o & (BLOCK_OUT - 1), &word.to_le_bytes());
                o += (word >> 56) as usize;
                s = offset + 1;
            }
        }
        while hits != 0 {
            let offset = hits.trailing_zeros() as usize & (WIDTH - 1);
            hits &= hits - 1;
            let byte = block.get(offset).copied().unwrap_or_default();
            if byte == 0xA0 {
                let i = at + offset;
                if i == 0 || bytes.get(i - 1) != Some(&0xC2) {
                    continue;
                }
                // The lead byte was written with the run before: written
                // over by the replacement.
                copy_run(&mut buf, o, window, s);
                o = (o + offset - 1) - s;
            } else {
                copy_run(&mut buf, o, window, s);
                o += offset - s;
            }
            let word = replacement_word(byte);
            copy_at(&mut buf, o & (BLOCK_OUT - 1), &word.to_le_bytes());
            o += (word >> 56) as usize;
            s = offset + 1;
        }
        start = at + s;
        match (
            buf.first_chunk::<{ 4 * WIDTH }>(),
            buf.first_chunk::<BLOCK_OUT>(),
        ) {
            (Some(head), _) if o <= 4 * WIDTH => push_prefix(out, head, o),
            (_, Some(all)) => push_prefix(out, all, o),
            _ => {}
        }
        at += WIDTH;
    }
    (start, at)
}

/// Copies the block of `window` at `from` (under a block: a run inside
/// [`escape_blocks`]' block) to `buf` at `o` (under [`BLOCK_OUT`]), both
/// masked so that neither needs a bounds check (they hold already).
#[inline(always)]
fn copy_run(buf: &mut [u8; BLOCK_OUT + WIDTH], o: usize, window: &[u8; 2 * WIDTH], from: usize) {
    if let Some(run) = window
        .get(from & (WIDTH - 1)..)
        .and_then(<[u8]>::first_chunk::<WIDTH>)
    {
        copy_at(buf, o & (BLOCK_OUT - 1), run);
    }
}

/// Appends `bytes[from..to]`: a run of at most a block as a block (the one
/// starting with it, else the run padded), a longer one whole.
#[inline(always)]
fn push_run(out: &mut Vec<u8>, bytes: &[u8], from: usize, to: usize) {
    let len = to.saturating_sub(from);
    if len > WIDTH {
        out.extend_from_slice(bytes.get(from..to).unwrap_or_default());
    } else if let Some(block) = block_at(bytes, from) {
        push_prefix(out, block, len);
    } else if len > 0 {
        push_prefix(out, &padded(bytes.get(from..to).unwrap_or_default()), len);
    }
}

/// Appends the first `len` bytes of `block` (a fixed-size copy of the whole
/// block, the rest cut off again).
#[inline(always)]
pub(super) fn push_prefix<const N: usize>(out: &mut Vec<u8>, block: &[u8; N], len: usize) {
    let keep = out.len() + len;
    out.extend_from_slice(block);
    out.truncate(keep);
}

/// Each byte [`specials`] finds and its replacement (0xA0: U+00A0's second
/// byte, the no-break space).
const ESCAPES: [(u8, &str); 6] = [
    (b'&', "&amp;"),
    (b'<', "&lt;"),
    (b'>', "&gt;"),
    (b'"', "&quot;"),
    (b'\'', "&#39;"),
    (0xA0, "&nbsp;"),
];

/// [`ESCAPES`]' replacements at their byte's last five bits (distinct for
/// the six bytes: the tests check it): as text, and padded to eight bytes
/// (copied by [`escape_bytes`] as one piece).
const REPLACEMENTS: [(&str, [u8; 8]); 32] = {
    let mut table = [("", [0u8; 8]); 32];
    let mut e = 0;
    while e < ESCAPES.len() {
        let (byte, text) = ESCAPES[e];
        let mut padded = [0u8; 8];
        let mut i = 0;
        while i < text.len() {
            padded[i] = text.as_bytes()[i];
            i += 1;
        }
        table[(byte & 31) as usize] = (text, padded);
        e += 1;
    }
    table
};

/// [`REPLACEMENTS`]' padded texts as words, each with its text's length in
/// its top byte (past the longest text, six bytes: written past the text
/// like the padding, and written over or cut off again): one load gives
/// [`escape_blocks`] both.
const REPLACEMENT_WORDS: [u64; 32] = {
    let mut words = [0u64; 32];
    let mut i = 0;
    while i < words.len() {
        let (text, padded) = REPLACEMENTS[i];
        words[i] = u64::from_le_bytes(padded) | ((text.len() as u64) << 56);
        i += 1;
    }
    words
};

/// The replacement of a byte [`specials`] finds, as a word
/// ([`REPLACEMENT_WORDS`]).
#[inline(always)]
fn replacement_word(byte: u8) -> u64 {
    REPLACEMENT_WORDS
        .get(usize::from(byte & 31))
        .copied()
        .unwrap_or_default()
}

/// Where the clean run before the special byte at `i` ends: at `i`, or, for
/// 0xA0, at its lead byte 0xC2 (U+00A0); `None` for an 0xA0 that continues
/// another character (left alone).
#[inline(always)]
fn clean_run_end(bytes: &[u8], i: usize, byte: u8) -> Option<usize> {
    match byte {
        0xA0 if i > 0 && bytes.get(i - 1) == Some(&0xC2) => Some(i - 1),
        0xA0 => None,
        _ => Some(i),
    }
}

/// The replacement of a byte [`specials`] finds.
#[inline(always)]
fn replacement(byte: u8) -> (&'static str, [u8; 8]) {
    REPLACEMENTS
        .get(usize::from(byte & 31))
        .copied()
        .unwrap_or_default()
}

/// `bytes` (at most a block: only its first block otherwise) followed by
/// zeros (never escaped), copied by fixed-size pieces that overlap (no call).
#[inline(always)]
pub(super) fn padded(bytes: &[u8]) -> [u8; WIDTH] {
    if let Some(block) = bytes.first_chunk::<WIDTH>() {
        return *block;
    }
    let mut block = [0u8; WIDTH];
    let len = bytes.len();
    if let (Some(head), Some(tail)) = (bytes.first_chunk::<8>(), bytes.last_chunk::<8>()) {
        copy_at(&mut block, 0, head);
        copy_at(&mut block, len - 8, tail);
    } else if let (Some(head), Some(tail)) = (bytes.first_chunk::<4>(), bytes.last_chunk::<4>()) {
        copy_at(&mut block, 0, head);
        copy_at(&mut block, len - 4, tail);
    } else if let (Some(head), Some(tail)) = (bytes.first_chunk::<2>(), bytes.last_chunk::<2>()) {
        copy_at(&mut block, 0, head);
        copy_at(&mut block, len - 2, tail);
    } else if let (Some(&first), Some(to)) = (bytes.first(), block.first_mut()) {
        *to = first;
    }
    block
}

/// `piece` copied into `block` at `at` (in range for [`padded`]'s pieces and
/// [`escape_bytes`]' replacements).
#[inline(always)]
fn copy_at<const M: usize, const N: usize>(block: &mut [u8; M], at: usize, piece: &[u8; N]) {
    if let Some(to) = block.get_mut(at..at + N) {
        to.copy_from_slice(piece);
    }
}

/// Where [`escape`] writes: the runs of `s` left as they are, and replacements.
trait Sink {
    /// Writes `s[from..to]` (character boundaries).
    fn run(&mut self, s: &str, from: usize, to: usize) -> fmt::Result;
    /// Writes a replacement.
    fn text(&mut self, text: &'static str) -> fmt::Result;
}

/// A [`fmt::Write`] as a [`Sink`].
struct Formatter<'a, W: ?Sized>(&'a mut W);

impl<W: Write + ?Sized> Sink for Formatter<'_, W> {
    #[inline(always)]
    fn run(&mut self, s: &str, from: usize, to: usize) -> fmt::Result {
        self.0.write_str(s.get(from..to).unwrap_or_default())
    }

    #[inline(always)]
    fn text(&mut self, text: &'static str) -> fmt::Result {
        self.0.write_str(text)
    }
}

/// The escaping: `s` tested a block at a time, the bytes found replaced, the
/// runs between them written whole.
#[inline(always)]
fn escape<S: Sink + ?Sized>(out: &mut S, s: &str, mode: EscapeMode) -> fmt::Result {
    let bytes = s.as_bytes();
    let quote = quote_byte(mode);
    // `start`: the first byte not written yet; `at`: the block tested.
    let mut start = 0;
    let mut at = 0;
    while at < bytes.len() {
        let mut hits = match block_at(bytes, at) {
            Some(block) => specials(block, quote),
            None => tail_specials(bytes, at, quote),
        };
        while hits != 0 {
            let i = at + hits.trailing_zeros() as usize;
            hits &= hits - 1;
            let byte = bytes.get(i).copied().unwrap_or_default();
            let Some(run_end) = clean_run_end(bytes, i, byte) else {
                continue;
            };
            if run_end > start {
                out.run(s, start, run_end)?;
            }
            out.text(replacement(byte).0)?;
            start = i + 1;
        }
        at += WIDTH;
    }
    if start < bytes.len() {
        out.run(s, start, bytes.len())?;
    }
    Ok(())
}

/// The mode's quote byte; `&` in text mode, which has none (a search for it
/// then only repeats the search for `&`).
const fn quote_byte(mode: EscapeMode) -> u8 {
    match mode {
        EscapeMode::Text => b'&',
        EscapeMode::DoubleQuoted => b'"',
        EscapeMode::SingleQuoted => b'\'',
    }
}

/// One bit per byte of `block` (bit *i* for byte *i*) that the mode escapes:
/// `&`, `<`, `>`, `quote`, and `0xA0` (U+00A0's second byte: the caller checks
/// the byte before it).
#[inline(always)]
fn specials(block: &[u8; WIDTH], quote: u8) -> u32 {
    let lanes = Lanes::load(block);
    lanes
        .eq(b'&')
        .or(lanes.eq(b'<'))
        .or(lanes.eq(b'>'))
        .or(lanes.eq(0xA0))
        .or(lanes.eq(quote))
        .bits()
}

/// [`specials`] for the last bytes of `bytes`, from `at` (fewer than a
/// block): the block that ends with them when the text is that long (the
/// bits of the bytes before `at` shifted out), else the bytes padded with
/// zeros (never escaped).
fn tail_specials(bytes: &[u8], at: usize, quote: u8) -> u32 {
    let tail = bytes.len().saturating_sub(at);
    if let Some(block) = bytes
        .len()
        .checked_sub(WIDTH)
        .and_then(|from| block_at(bytes, from))
    {
        return specials(block, quote) >> (WIDTH - tail);
    }
    specials(&padded(bytes.get(at..).unwrap_or_default()), quote)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `s` escaped by both entry points, which must agree.
    fn esc(s: &str, mode: EscapeMode) -> String {
        let mut out = String::new();
        write_escaped(&mut out, s, mode).unwrap();
        let mut bytes = b"<".to_vec();
        escape_into(&mut bytes, s, mode);
        assert_eq!(bytes.get(1..), Some(out.as_bytes()), "{s:?} {mode:?}");
        out
    }

    #[test]
    fn text_mode() {
        assert_eq!(
            esc("a<b>c&d\"e'f", EscapeMode::Text),
            "a&lt;b&gt;c&amp;d\"e'f"
        );
        assert_eq!(esc("\u{a0}x\u{a0}", EscapeMode::Text), "&nbsp;x&nbsp;");
        // Other characters with an 0xA0 continuation byte are left alone.
        assert_eq!(
            esc("\u{1a0}\u{20a0}é", EscapeMode::Text),
            "\u{1a0}\u{20a0}é"
        );
        assert_eq!(esc("", EscapeMode::Text), "");
        assert_eq!(esc("plain", EscapeMode::Text), "plain");
    }

    #[test]
    fn attribute_modes() {
        assert_eq!(
            esc("a<b>\"c'&", EscapeMode::DoubleQuoted),
            "a&lt;b&gt;&quot;c'&amp;"
        );
        assert_eq!(
            esc("a<b>\"c'&", EscapeMode::SingleQuoted),
            "a&lt;b&gt;\"c&#39;&amp;"
        );
    }

    /// The escaping written out per character, as the spec says it.
    fn reference(s: &str, mode: EscapeMode) -> String {
        let mut out = String::new();
        for c in s.chars() {
            match (c, mode) {
                ('&', _) => out.push_str("&amp;"),
                ('\u{a0}', _) => out.push_str("&nbsp;"),
                ('<', _) => out.push_str("&lt;"),
                ('>', _) => out.push_str("&gt;"),
                ('"', EscapeMode::DoubleQuoted) => out.push_str("&quot;"),
                ('\'', EscapeMode::SingleQuoted) => out.push_str("&#39;"),
                _ => out.push(c),
            }
        }
        out
    }

    /// Every special character (and look-alike bytes: other characters with an
    /// 0xA0 or 0xC2 byte) at every offset of the word scan and its tail, alone
    /// and in pairs, in every mode.
    #[test]
    fn word_scan_agrees_with_the_reference_at_every_offset() {
        let pieces = [
            "&", "<", ">", "\"", "'", "\u{a0}", "\u{1a0}", "\u{20a0}", "\u{a9}", "é", "x",
        ];
        let modes = [
            EscapeMode::Text,
            EscapeMode::DoubleQuoted,
            EscapeMode::SingleQuoted,
        ];
        for len in 0..40 {
            for a in pieces {
                for b in pieces {
                    for gap in [0, 1, 7, 8, 9] {
                        let s = format!(
                            "{}{a}{}{b}{}",
                            "x".repeat(len),
                            "y".repeat(gap),
                            "z".repeat(len % 9)
                        );
                        for mode in modes {
                            assert_eq!(esc(&s, mode), reference(&s, mode), "{s:?} {mode:?}");
                        }
                    }
                }
            }
        }
    }

    /// A short text's block: its bytes, then zeros; a longer text's first
    /// block.
    #[test]
    fn padded_holds_the_bytes_then_zeros() {
        let text: Vec<u8> = (1..=20).collect();
        for len in 0..=text.len() {
            let bytes = text.get(..len).unwrap();
            let mut expected = [0u8; WIDTH];
            for (to, from) in expected.iter_mut().zip(bytes) {
                *to = *from;
            }
            assert_eq!(padded(bytes), expected, "{len}");
        }
    }

    /// Each escaped byte has its own slot in the replacement table.
    #[test]
    fn every_escaped_byte_has_its_replacement() {
        for (byte, text) in ESCAPES {
            let (found, padded) = replacement(byte);
            assert_eq!(found, text);
            assert_eq!(padded.get(..text.len()), Some(text.as_bytes()));
            assert!(padded.iter().skip(text.len()).all(|&b| b == 0));
            let word = replacement_word(byte).to_le_bytes();
            assert_eq!(word.get(..7), padded.get(..7));
            assert_eq!(usize::from(word[7]), text.len());
        }
    }

    /// Long text (the block loop of `escape_blocks` and the tail after it):
    /// clean runs of every length between special bytes, a no-break space
    /// split across blocks.
    #[test]
    fn long_text_escapes_as_the_reference() {
        for run in 0..40 {
            for piece in ["\"", "&", "\u{a0}", "\u{20a0}", "\"\"", "x"] {
                for shift in 0..17 {
                    let s = format!(
                        "{}{}",
                        "s".repeat(shift),
                        format!("{}{piece}", "y".repeat(run)).repeat(8)
                    );
                    for mode in [EscapeMode::Text, EscapeMode::DoubleQuoted] {
                        assert_eq!(esc(&s, mode), reference(&s, mode), "{s:?} {mode:?}");
                    }
                }
            }
        }
    }

    proptest::proptest! {
        #[test]
        fn long_runs_escape_as_the_reference(s in "(y{0,40}|[&<>\"'\u{a0}\u{1a0}\u{c2}é]){0,40}") {
            for mode in [EscapeMode::Text, EscapeMode::DoubleQuoted, EscapeMode::SingleQuoted] {
                proptest::prop_assert_eq!(esc(&s, mode), reference(&s, mode));
            }
        }

        #[test]
        fn any_text_escapes_as_the_reference(s in "[a&<>\"'\u{a0}\u{1a0}\u{c2}\u{a9}é ]{0,80}") {
            for mode in [EscapeMode::Text, EscapeMode::DoubleQuoted, EscapeMode::SingleQuoted] {
                proptest::prop_assert_eq!(esc(&s, mode), reference(&s, mode));
            }
        }
    }
}
