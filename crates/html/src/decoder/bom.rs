//! BOM sniffing (Encoding Standard, "BOM sniff"; HTML §13.2.3.2 step 1).
//!
//! A byte order mark at the very start of the stream wins over every other source of
//! encoding information, including the transport layer.

use encoding_rs::Encoding;

/// The encoding announced by a byte order mark at the start of `bytes`, and the
/// length of that mark (3 for UTF-8, 2 for UTF-16LE/BE).
///
/// Returns `None` when `bytes` does not start with a complete BOM. A stream that has
/// delivered fewer than three bytes may still turn out to start with one; see
/// [`bom_undecided`].
pub fn sniff_bom(bytes: &[u8]) -> Option<(&'static Encoding, usize)> {
    Encoding::for_bom(bytes)
}

/// Whether `bytes`, the first bytes of a stream, are too short to say whether the
/// stream starts with a BOM (they are a proper prefix of one).
pub fn bom_undecided(bytes: &[u8]) -> bool {
    const BOMS: [&[u8]; 3] = [b"\xEF\xBB\xBF", b"\xFE\xFF", b"\xFF\xFE"];
    BOMS.iter()
        .any(|bom| bytes.len() < bom.len() && bom.starts_with(bytes))
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{UTF_8, UTF_16BE, UTF_16LE};

    #[test]
    fn recognises_the_three_boms() {
        assert_eq!(sniff_bom(b"\xEF\xBB\xBF<p>"), Some((UTF_8, 3)));
        assert_eq!(sniff_bom(b"\xFE\xFF\x00<"), Some((UTF_16BE, 2)));
        assert_eq!(sniff_bom(b"\xFF\xFE<\x00"), Some((UTF_16LE, 2)));
    }

    #[test]
    fn no_bom() {
        assert_eq!(sniff_bom(b""), None);
        assert_eq!(sniff_bom(b"\xEF\xBB"), None);
        assert_eq!(sniff_bom(b"<html>"), None);
        // UTF-32 is not an HTML encoding; FF FE 00 00 is read as a UTF-16LE BOM.
        assert_eq!(sniff_bom(b"\xFF\xFE\x00\x00"), Some((UTF_16LE, 2)));
    }

    #[test]
    fn undecided_prefixes() {
        assert!(bom_undecided(b""));
        assert!(bom_undecided(b"\xEF"));
        assert!(bom_undecided(b"\xEF\xBB"));
        assert!(bom_undecided(b"\xFE"));
        assert!(bom_undecided(b"\xFF"));
        assert!(!bom_undecided(b"\xEF\xBB\xBF"));
        assert!(!bom_undecided(b"\xFE\xFF"));
        assert!(!bom_undecided(b"<"));
        assert!(!bom_undecided(b"\xEF\xBC"));
    }
}
