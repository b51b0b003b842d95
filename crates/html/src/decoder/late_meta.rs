//! The `<meta>` declarations the tree builder would act on, found without a tree
//! builder.
//!
//! While the confidence is tentative, the tree builder's `meta` rule ("in head",
//! reached from almost every insertion mode) calls "change the encoding" for the
//! first `<meta>` start tag that declares an encoding; that makes the confidence
//! certain, so only the first such tag matters. A `<meta>` after the first 1024
//! bytes, which the pre-scan cannot see, is found this way.
//!
//! [`first_meta_declaration`] reproduces that for [`sniff_document`](super::sniff_document)
//! (the `tagloom sniff` path) by running a reduced form of the tokenizer over the
//! decoded text: the data, tag-open, tag-name and attribute states (quoted and
//! unquoted values, duplicate attributes dropped, tags cut off by the end of the
//! input dropped), comments (with the `<!-->`, `<!--->` and `--!>` endings), bogus
//! comments and DOCTYPEs, and the RCDATA / RAWTEXT / script data / PLAINTEXT content
//! of `title`, `textarea`, `style`, `xmp`, `iframe`, `noembed`, `noframes`,
//! `noscript` (scripting enabled, as in a browser), `script` (including its escaped
//! and double-escaped states) and `plaintext`.
//!
//! Known simplifications, each a deviation from a full parse only in contrived
//! documents:
//! - character references in attribute values are not decoded;
//! - the tree builder's state is not modelled: inside `<svg>`/`<math>` the elements
//!   above are not raw text (and `<![CDATA[` opens a CDATA section), and after a
//!   `<frameset>` a `<meta>` is ignored; here neither is taken into account.

use encoding_rs::Encoding;

use super::prescan::meta_declared_encoding;

/// Tokenizer whitespace: TAB, LF, FF, SPACE, and CR (which input preprocessing turns
/// into LF).
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

/// A `<meta>` start tag that declares an encoding.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MetaDeclaration {
    /// Byte offset of the tag's `<` in the text.
    pub offset: usize,
    /// The declared encoding, unadjusted (see
    /// [`adjust_declared_encoding`](super::adjust_declared_encoding)).
    pub encoding: &'static Encoding,
}

/// The first `<meta>` start tag in `text` that the tree builder would act on (see
/// the module docs); `None` if there is none.
pub fn first_meta_declaration(text: &str) -> Option<MetaDeclaration> {
    let bytes = text.as_bytes();
    let mut pos = 0usize;
    loop {
        let lt = pos + memchr::memchr(b'<', bytes.get(pos..)?)?;
        let rest = bytes.get(lt..)?;
        match rest.get(1).copied() {
            Some(b'!') => {
                pos = if rest.starts_with(b"<!--") {
                    comment_end(bytes, lt + 4)?
                } else {
                    // DOCTYPE, bogus comment (and CDATA outside foreign content).
                    bogus_comment_end(bytes, lt + 2)?
                };
            }
            Some(b'?') => pos = bogus_comment_end(bytes, lt + 1)?,
            Some(b'/') => match rest.get(2).copied() {
                Some(c) if c.is_ascii_alphabetic() => pos = read_tag(bytes, lt + 2)?.end,
                Some(b'>') => pos = lt + 3,
                Some(_) => pos = bogus_comment_end(bytes, lt + 2)?,
                None => return None,
            },
            Some(c) if c.is_ascii_alphabetic() => {
                let tag = read_tag(bytes, lt + 1)?;
                pos = tag.end;
                match tag.name.as_str() {
                    "meta" => {
                        let declared = meta_declared_encoding(
                            tag.attr("charset"),
                            tag.attr("http-equiv"),
                            tag.attr("content"),
                        );
                        if let Some(encoding) = declared {
                            return Some(MetaDeclaration {
                                offset: lt,
                                encoding,
                            });
                        }
                    }
                    "title" | "textarea" | "style" | "xmp" | "iframe" | "noembed" | "noframes"
                    | "noscript" => {
                        pos = raw_text_end(bytes, pos, tag.name.as_bytes())?;
                    }
                    "script" => pos = script_data_end(bytes, pos)?,
                    "plaintext" => return None,
                    _ => {}
                }
            }
            _ => pos = lt + 1,
        }
    }
}

/// Where a comment whose body starts at `start` ends (just after its `>`), or `None`
/// at the end of the input.
fn comment_end(bytes: &[u8], start: usize) -> Option<usize> {
    let body = bytes.get(start..)?;
    if body.starts_with(b">") {
        return Some(start + 1);
    }
    if body.starts_with(b"->") {
        return Some(start + 2);
    }
    let mut from = 0usize;
    loop {
        let dashes = from + memchr::memmem::find(body.get(from..)?, b"--")?;
        let after = body.get(dashes + 2..)?;
        if after.starts_with(b">") {
            return Some(start + dashes + 3);
        }
        if after.starts_with(b"!>") {
            return Some(start + dashes + 4);
        }
        from = dashes + 1;
    }
}

/// Just after the first `>` at or after `from`.
fn bogus_comment_end(bytes: &[u8], from: usize) -> Option<usize> {
    Some(from + memchr::memchr(b'>', bytes.get(from..)?)? + 1)
}

/// A start or end tag as the tokenizer would emit it.
struct Tag {
    /// ASCII-lowercased name.
    name: String,
    /// Attributes in order, first occurrence of each name only.
    attrs: Vec<(String, String)>,
    /// Offset just after the tag's `>`.
    end: usize,
}

impl Tag {
    fn attr(&self, name: &str) -> Option<&str> {
        self.attrs
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    fn add(&mut self, name: String, value: String) {
        if !self.attrs.iter().any(|(n, _)| *n == name) {
            self.attrs.push((name, value));
        }
    }
}

/// Pushes the bytes of `bytes[from..to]` (whole UTF-8 sequences, since `from` and
/// `to` sit at ASCII delimiters) onto `out`, ASCII-lowercased if `lower`.
fn push_text(out: &mut String, bytes: &[u8], from: usize, to: usize, lower: bool) {
    if let Some(piece) = bytes.get(from..to) {
        let piece = String::from_utf8_lossy(piece);
        if lower {
            out.push_str(&piece.to_ascii_lowercase());
        } else {
            out.push_str(&piece);
        }
    }
}

/// Reads a tag whose name starts at `start` (just after `<` or `</`). `None` if the
/// input ends inside the tag (the tokenizer then emits nothing).
fn read_tag(bytes: &[u8], start: usize) -> Option<Tag> {
    let name_len = bytes
        .get(start..)?
        .iter()
        .position(|&b| is_space(b) || b == b'/' || b == b'>')?;
    let mut tag = Tag {
        name: String::new(),
        attrs: Vec::new(),
        end: 0,
    };
    push_text(&mut tag.name, bytes, start, start + name_len, true);
    let mut pos = start + name_len;
    loop {
        // Before attribute name.
        let b = *bytes.get(pos)?;
        if is_space(b) {
            pos += 1;
            continue;
        }
        match b {
            b'>' => {
                tag.end = pos + 1;
                return Some(tag);
            }
            // Self-closing start tag state: "/>" ends the tag, otherwise the "/" is
            // dropped and the next byte is reconsumed before an attribute name.
            b'/' => {
                pos += 1;
                continue;
            }
            _ => {}
        }
        // Attribute name: the first byte is always part of it (even "=").
        let name_start = pos;
        pos += 1;
        while let Some(&b) = bytes.get(pos) {
            if is_space(b) || matches!(b, b'/' | b'>' | b'=') {
                break;
            }
            pos += 1;
        }
        let mut name = String::new();
        push_text(&mut name, bytes, name_start, pos, true);
        // After attribute name.
        while is_space(*bytes.get(pos)?) {
            pos += 1;
        }
        if *bytes.get(pos)? != b'=' {
            tag.add(name, String::new());
            continue;
        }
        pos += 1;
        // Before attribute value.
        while is_space(*bytes.get(pos)?) {
            pos += 1;
        }
        let mut value = String::new();
        match *bytes.get(pos)? {
            quote @ (b'"' | b'\'') => {
                let body = pos + 1;
                let len = memchr::memchr(quote, bytes.get(body..)?)?;
                push_text(&mut value, bytes, body, body + len, false);
                // After attribute value (quoted): whatever follows is reconsumed
                // before an attribute name, which handles spaces, "/" and ">".
                pos = body + len + 1;
            }
            b'>' => {
                // Missing attribute value: the tag ends here.
                tag.add(name, value);
                tag.end = pos + 1;
                return Some(tag);
            }
            _ => {
                let len = bytes
                    .get(pos..)?
                    .iter()
                    .position(|&b| is_space(b) || b == b'>')?;
                push_text(&mut value, bytes, pos, pos + len, false);
                pos += len;
            }
        }
        tag.add(name, value);
    }
}

/// Whether `bytes[at..]` is `</name` (ASCII case-insensitive) followed by a space,
/// `/` or `>`: an appropriate end tag for the raw text element `name`.
fn is_end_tag_for(bytes: &[u8], at: usize, name: &[u8]) -> bool {
    let Some(rest) = bytes.get(at..) else {
        return false;
    };
    let Some(candidate) = rest.get(2..2 + name.len()) else {
        return false;
    };
    rest.starts_with(b"</")
        && candidate.eq_ignore_ascii_case(name)
        && rest
            .get(2 + name.len())
            .is_some_and(|&b| is_space(b) || b == b'/' || b == b'>')
}

/// RCDATA / RAWTEXT content from `from`: the offset after the end tag that closes
/// it, or `None` if the input ends first.
fn raw_text_end(bytes: &[u8], from: usize, name: &[u8]) -> Option<usize> {
    let mut pos = from;
    loop {
        let lt = pos + memchr::memchr(b'<', bytes.get(pos..)?)?;
        if is_end_tag_for(bytes, lt, name) {
            return Some(read_tag(bytes, lt + 2)?.end);
        }
        pos = lt + 1;
    }
}

/// Script data from `from`: the offset after the `</script>` that ends it, following
/// the escaped (`<!--`) and double-escaped (`<!--<script>`) states.
fn script_data_end(bytes: &[u8], from: usize) -> Option<usize> {
    #[derive(PartialEq)]
    enum State {
        Data,
        Escaped,
        DoubleEscaped,
    }
    let mut state = State::Data;
    // Consecutive '-' just before pos, counting those of an opening "<!--".
    let mut dashes = 0usize;
    let mut pos = from;
    loop {
        let b = *bytes.get(pos)?;
        if state == State::Data {
            let lt = pos + memchr::memchr(b'<', bytes.get(pos..)?)?;
            if is_end_tag_for(bytes, lt, b"script") {
                return Some(read_tag(bytes, lt + 2)?.end);
            }
            if bytes.get(lt..)?.starts_with(b"<!--") {
                state = State::Escaped;
                dashes = 2;
                pos = lt + 4;
            } else {
                pos = lt + 1;
            }
            continue;
        }
        match b {
            b'-' => {
                dashes += 1;
                pos += 1;
                continue;
            }
            b'>' if dashes >= 2 => state = State::Data,
            b'<' if state == State::Escaped => {
                if is_end_tag_for(bytes, pos, b"script") {
                    return Some(read_tag(bytes, pos + 2)?.end);
                }
                if is_script_open(bytes, pos + 1) {
                    state = State::DoubleEscaped;
                    pos += 7;
                    dashes = 0;
                    continue;
                }
            }
            b'<' if bytes.get(pos + 1) == Some(&b'/') && is_script_open(bytes, pos + 2) => {
                state = State::Escaped;
                pos += 8;
                dashes = 0;
                continue;
            }
            _ => {}
        }
        dashes = 0;
        pos += 1;
    }
}

/// `script` (ASCII case-insensitive) at `at`, followed by a space, `/` or `>`.
fn is_script_open(bytes: &[u8], at: usize) -> bool {
    bytes
        .get(at..at + 6)
        .is_some_and(|w| w.eq_ignore_ascii_case(b"script"))
        && bytes
            .get(at + 6)
            .is_some_and(|&b| is_space(b) || b == b'/' || b == b'>')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Option<&'static str> {
        first_meta_declaration(text).map(|m| m.encoding.name())
    }

    #[test]
    fn reports_the_offset() {
        let found = first_meta_declaration("<p>é</p><meta charset=euc-jp>");
        assert_eq!(found.map(|m| m.offset), Some(9));
    }

    #[test]
    fn finds_meta_anywhere() {
        assert_eq!(found("<p>x</p><meta charset=euc-jp>"), Some("EUC-JP"));
        assert_eq!(
            found("<meta http-equiv=Content-Type content='text/html;charset=euc-jp'>"),
            Some("EUC-JP")
        );
        assert_eq!(found("<svg><meta charset=euc-jp>"), Some("EUC-JP"));
        assert_eq!(found("<meta charset=euc-jp/>"), None);
        assert_eq!(found("<meta charset=euc-jp />"), Some("EUC-JP"));
    }

    #[test]
    fn first_effective_declaration_wins() {
        assert_eq!(
            found("<meta charset=bogus><meta charset=euc-jp><meta charset=shift_jis>"),
            Some("EUC-JP")
        );
        assert_eq!(found("<meta charset=a charset=euc-jp>"), None);
    }

    #[test]
    fn skips_comments_and_bogus_comments() {
        assert_eq!(found("<!-- <meta charset=euc-jp> -->"), None);
        assert_eq!(found("<!--><meta charset=euc-jp>"), Some("EUC-JP"));
        assert_eq!(found("<!---><meta charset=euc-jp>"), Some("EUC-JP"));
        assert_eq!(found("<!-- --!><meta charset=euc-jp>"), Some("EUC-JP"));
        assert_eq!(found("<!-- -- ><meta charset=euc-jp> -->"), None);
        assert_eq!(found("<? <meta charset=euc-jp>"), None);
        assert_eq!(found("<!DOCTYPE x><meta charset=euc-jp>"), Some("EUC-JP"));
        assert_eq!(found("</ x><meta charset=euc-jp>"), Some("EUC-JP"));
        assert_eq!(found("</x title='>'><meta charset=euc-jp>"), Some("EUC-JP"));
    }

    #[test]
    fn attribute_values_hide_tags() {
        assert_eq!(found("<p title=\"<meta charset=euc-jp>\">"), None);
        assert_eq!(found("<p title='x><meta charset=euc-jp>'>"), None);
        assert_eq!(
            found("<p title=\"x>\"><meta charset=euc-jp>"),
            Some("EUC-JP")
        );
        assert_eq!(found("<meta charset=euc-jp"), None);
    }

    #[test]
    fn raw_text_elements() {
        assert_eq!(found("<title><meta charset=euc-jp></title>"), None);
        assert_eq!(
            found("<title><meta charset=euc-jp></TITLE ><meta charset=shift_jis>"),
            Some("Shift_JIS")
        );
        assert_eq!(found("<style></styles><meta charset=euc-jp>"), None);
        assert_eq!(found("<plaintext></plaintext><meta charset=euc-jp>"), None);
        assert_eq!(found("<script>'<meta charset=euc-jp>'</script>"), None);
        assert_eq!(
            found("<script>x</script><meta charset=euc-jp>"),
            Some("EUC-JP")
        );
    }

    #[test]
    fn script_escapes() {
        // "<!--" then "</script>" still ends the script.
        assert_eq!(
            found("<script><!-- </script><meta charset=euc-jp>"),
            Some("EUC-JP")
        );
        // Double-escaped: the first "</script>" only leaves the double escape.
        assert_eq!(
            found("<script><!--<script></script><meta charset=euc-jp>"),
            None
        );
        assert_eq!(
            found("<script><!--<script></script>--></script><meta charset=euc-jp>"),
            Some("EUC-JP")
        );
        assert_eq!(
            found("<script><!--<script>--></script><meta charset=euc-jp>"),
            Some("EUC-JP")
        );
        assert_eq!(
            found("<script><!--></script><meta charset=euc-jp>"),
            Some("EUC-JP")
        );
    }

    #[test]
    fn non_ascii_is_harmless() {
        assert_eq!(
            found("<p é='ñ' ü>ßþ<meta charset=\"euc-jp\">"),
            Some("EUC-JP")
        );
    }
}
