//! Code points to UTF-8: how the bindings read a non-ASCII Python `str`
//! (`py/unicode.rs`). CPython hands a string's code points out as UCS-4 about four
//! times faster than it encodes them to UTF-8 itself, and this encoder takes
//! blocks of ASCII at once, so the two together cost well under CPython's UTF-8
//! encoder (BENCHMARKS.md, "From Python", session 11).

/// Code points looked at together: a block of ASCII is narrowed in one go.
const BLOCK: usize = 16;

/// Appends the UTF-8 of `chars` (code points) to `out`. `Err(i)` when `chars[i]` is
/// not a Unicode scalar value (a lone surrogate, or above U+10FFFF); `out` then
/// holds the UTF-8 of the blocks before it, whole or partly.
pub fn push_utf8(out: &mut Vec<u8>, chars: &[u32]) -> Result<(), usize> {
    out.reserve(chars.len());
    let mut blocks = chars.chunks_exact(BLOCK);
    let mut at = 0;
    for block in blocks.by_ref() {
        if let Ok(block) = <&[u32; BLOCK]>::try_from(block)
            && block.iter().fold(0, |acc, &c| acc | c) < 0x80
        {
            // Each code point is below 0x80: the cast keeps it whole. Narrowed into
            // an array first, which the compiler does with vector packs.
            let bytes: [u8; BLOCK] = std::array::from_fn(|k| block[k] as u8);
            out.extend_from_slice(&bytes);
        } else {
            push_each(out, block, at)?;
        }
        at += BLOCK;
    }
    push_each(out, blocks.remainder(), at)
}

/// [`push_utf8`] one code point at a time; `at` is `chars[0]`'s index for errors.
fn push_each(out: &mut Vec<u8>, chars: &[u32], at: usize) -> Result<(), usize> {
    for (k, &c) in chars.iter().enumerate() {
        let ch = char::from_u32(c).ok_or(at + k)?;
        if ch.is_ascii() {
            out.push(c as u8);
        } else {
            out.extend_from_slice(ch.encode_utf8(&mut [0; 4]).as_bytes());
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utf8(text: &str) -> Vec<u8> {
        let chars: Vec<u32> = text.chars().map(u32::from).collect();
        let mut out = Vec::new();
        push_utf8(&mut out, &chars).unwrap();
        out
    }

    #[test]
    fn every_length_and_kind_of_text_round_trips() {
        let samples = [
            "",
            "a",
            "plain ASCII text, longer than a block of sixteen code points",
            "caf\u{e9} cr\u{e8}me \u{a0}\u{ff}",
            "\u{6f22}\u{5b57} \u{2014} \u{201c}quoted\u{201d}",
            "astral \u{1f600}\u{10348}\u{10ffff} and \u{0}\u{7f}\u{80}\u{7ff}\u{800}\u{ffff}\u{10000}",
        ];
        for sample in samples {
            // Every offset and length, so each falls on and off block edges.
            let long = sample.repeat(3);
            for (start, _) in long.char_indices() {
                let text = &long[start..];
                assert_eq!(utf8(text), text.as_bytes(), "{text:?}");
            }
        }
    }

    #[test]
    fn surrogates_and_out_of_range_are_errors_at_their_index() {
        for bad in [0xd800, 0xdfff, 0x11_0000, u32::MAX] {
            for at in [0, 5, 15, 16, 17, 40] {
                let mut chars = vec![u32::from(b'x'); 48];
                chars[at] = bad;
                let mut out = Vec::new();
                assert_eq!(push_utf8(&mut out, &chars), Err(at));
            }
        }
    }
}
