//! Step 8 of the encoding sniffing algorithm (§13.2.3.2): "the user agent may attempt
//! to autodetect the character encoding". Runs only when a caller opts in
//! ([`Autodetect::Statistical`]) and nothing else decided: no BOM, no transport
//! encoding, no `<meta>` in the pre-scan.
//!
//! Two checks, in order, over a fixed prefix of the document (so the guess never
//! depends on how the input was chunked):
//!
//! - UTF-16 without a BOM, which the statistical detector does not cover: markup is
//!   mostly ASCII, so in UTF-16LE nearly every odd byte is NUL and few even ones are
//!   (mirrored for UTF-16BE).
//! - `chardetng`, the detector Firefox uses, with UTF-8 allowed (as Firefox does for
//!   local files) and ISO-2022-JP not (it can hide markup from other decoders).
//!
//! A prefix that is all ASCII gives no evidence: the result is then "no guess" and
//! the default stands.

use chardetng::{EncodingDetector, Iso2022JpDetection, Utf8Detection};
use encoding_rs::{Encoding, UTF_16BE, UTF_16LE};

/// Whether the decoder guesses the encoding of a document that declares none.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Autodetect {
    /// Nothing declared means the default, windows-1252 (what html5lib-tests expect).
    #[default]
    Off,
    /// Nothing declared: guess from the bytes (UTF-16 by its NUL pattern, otherwise
    /// `chardetng`), confidence tentative, so a `<meta>` the tree builder meets
    /// later still changes it. An all-ASCII prefix keeps the default.
    Statistical,
}

/// How few bytes are too few to call UTF-16 by the NUL pattern.
const UTF16_MIN_LEN: usize = 16;

/// The guess for `prefix`, the first bytes of a document (all of it when
/// `complete`), or `None` when the bytes give no evidence (all ASCII).
pub(crate) fn guess(prefix: &[u8], complete: bool) -> Option<&'static Encoding> {
    if let Some(utf16) = utf16_by_nul_pattern(prefix) {
        return Some(utf16);
    }
    let mut detector = EncodingDetector::new(Iso2022JpDetection::Deny);
    if !detector.feed(prefix, complete) {
        return None;
    }
    Some(detector.guess(None, Utf8Detection::Allow))
}

/// UTF-16LE when at least 90% of the odd bytes and at most 10% of the even ones are
/// NUL, UTF-16BE for the mirror image, else `None`.
fn utf16_by_nul_pattern(prefix: &[u8]) -> Option<&'static Encoding> {
    let len = prefix.len() & !1;
    if len < UTF16_MIN_LEN {
        return None;
    }
    let units = len / 2;
    let (mut even, mut odd) = (0usize, 0usize);
    for pair in prefix.chunks_exact(2) {
        if let [a, b] = pair {
            even += usize::from(*a == 0);
            odd += usize::from(*b == 0);
        }
    }
    let most = |n: usize| n * 10 >= units * 9;
    let few = |n: usize| n * 10 <= units;
    if most(odd) && few(even) {
        Some(UTF_16LE)
    } else if most(even) && few(odd) {
        Some(UTF_16BE)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{SHIFT_JIS, UTF_8, WINDOWS_1251};

    #[test]
    fn ascii_gives_no_evidence() {
        assert_eq!(guess(b"<!DOCTYPE html><p>hello</p>", true), None);
        assert_eq!(guess(b"", true), None);
    }

    #[test]
    fn legacy_and_utf8_text_are_recognized() {
        let ru = "<p>Съешь же ещё этих мягких французских булок, да выпей чаю.</p>";
        let bytes = WINDOWS_1251.encode(ru).0;
        assert_eq!(guess(&bytes, true), Some(WINDOWS_1251));
        assert_eq!(guess(ru.as_bytes(), true), Some(UTF_8));
        let ja = "<p>吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。</p>";
        assert_eq!(guess(&SHIFT_JIS.encode(ja).0, true), Some(SHIFT_JIS));
    }

    #[test]
    fn utf16_without_bom_by_its_nul_pattern() {
        let le: Vec<u8> = "<p>hello world</p>"
            .encode_utf16()
            .flat_map(u16::to_le_bytes)
            .collect();
        let be: Vec<u8> = "<p>hello world</p>"
            .encode_utf16()
            .flat_map(u16::to_be_bytes)
            .collect();
        assert_eq!(guess(&le, true), Some(UTF_16LE));
        assert_eq!(guess(&be, true), Some(UTF_16BE));
        assert_eq!(utf16_by_nul_pattern(b"<\0p\0"), None, "too short");
        assert_eq!(utf16_by_nul_pattern(&[0; 64]), None, "all NUL");
    }
}
