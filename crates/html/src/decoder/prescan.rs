//! The byte-level pre-scan for a `<meta>` character encoding declaration
//! (HTML §13.2.3.2, "prescan a byte stream to determine its encoding", with its
//! sub-algorithms "get an attribute" and "get an XML encoding"), and the algorithm
//! for extracting a character encoding from a `meta` element's `content` value.
//!
//! The pre-scan is a deliberately crude tokenizer: it knows comments, tags and their
//! attributes, and `<!`, `</`, `<?` constructs, but not raw text elements or
//! character references. Running out of bytes anywhere aborts it, in which case the
//! result of "get an XML encoding" over the same bytes is returned instead.

use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE, WINDOWS_1252, X_USER_DEFINED};

/// The scan ran past the end of the bytes it was given (the spec's "runs out of
/// bytes").
struct Exhausted;

type Step<T> = Result<T, Exhausted>;

/// Whitespace as the pre-scan sees it: HT, LF, FF, CR, SP.
fn is_space(b: u8) -> bool {
    matches!(b, b'\t' | b'\n' | b'\x0C' | b'\r' | b' ')
}

fn byte_at(bytes: &[u8], pos: usize) -> Step<u8> {
    bytes.get(pos).copied().ok_or(Exhausted)
}

/// The encoding a `<meta>` declaration names, as the pre-scan (steps 14-15) and
/// "change the encoding" (steps 2-3) adjust it: UTF-16BE/LE become UTF-8 (a
/// document that could read its own ASCII `<meta>` is not UTF-16), and
/// x-user-defined becomes windows-1252.
pub fn adjust_declared_encoding(encoding: &'static Encoding) -> &'static Encoding {
    if encoding == UTF_16BE || encoding == UTF_16LE {
        UTF_8
    } else if encoding == X_USER_DEFINED {
        WINDOWS_1252
    } else {
        encoding
    }
}

/// Runs the pre-scan over `bytes` (the caller cuts them at its end condition, e.g.
/// the first 1024 bytes) and returns the declared encoding, or `None` for failure.
///
/// This is the complete spec algorithm: the UTF-16 `<?x` checks, the `<meta>` scan
/// with its "need pragma" logic, and the "get an XML encoding" fallback when the
/// bytes run out.
pub fn prescan(bytes: &[u8]) -> Option<&'static Encoding> {
    match prescan_meta(bytes) {
        Ok(encoding) => Some(encoding),
        Err(Exhausted) => xml_encoding(bytes),
    }
}

/// Steps 1-5 of the pre-scan. Only returns by finding an encoding or running out of
/// bytes.
fn prescan_meta(bytes: &[u8]) -> Step<&'static Encoding> {
    // Step 3: UTF-16 XML declarations.
    if bytes.starts_with(b"<\0?\0x\0") {
        return Ok(UTF_16LE);
    }
    if bytes.starts_with(b"\0<\0?\0x") {
        return Ok(UTF_16BE);
    }
    let mut pos = 0usize;
    loop {
        let rest = bytes.get(pos..).unwrap_or_default();
        if rest.is_empty() {
            return Err(Exhausted);
        }
        if rest.starts_with(b"<!--") {
            // The '>' of the first "-->" whose dashes may be those of "<!--" itself.
            let from = pos + 2;
            let tail = bytes.get(from..).unwrap_or_default();
            let found = memchr::memmem::find(tail, b"-->").ok_or(Exhausted)?;
            pos = from + found + 2;
        } else if is_meta_open(rest) {
            pos += 5; // at the space or slash after "<meta"
            if let Some(encoding) = meta_attributes(bytes, &mut pos)? {
                return Ok(encoding);
            }
        } else if is_tag_open(rest) {
            let tail = bytes.get(pos..).unwrap_or_default();
            let skip = tail
                .iter()
                .position(|&b| is_space(b) || b == b'>')
                .ok_or(Exhausted)?;
            pos += skip;
            while get_attribute(bytes, &mut pos)?.is_some() {}
        } else if rest.starts_with(b"<!") || rest.starts_with(b"</") || rest.starts_with(b"<?") {
            let from = pos + 1;
            let tail = bytes.get(from..).unwrap_or_default();
            pos = from + memchr::memchr(b'>', tail).ok_or(Exhausted)?;
        }
        // Next byte.
        pos += 1;
    }
}

/// `<meta` (ASCII case-insensitive) followed by a space or a slash.
fn is_meta_open(rest: &[u8]) -> bool {
    match rest.get(..6) {
        Some([b'<', m, e, t, a, after]) => {
            [*m, *e, *t, *a].eq_ignore_ascii_case(b"meta") && (is_space(*after) || *after == b'/')
        }
        _ => false,
    }
}

/// `<`, optionally `/`, then an ASCII letter.
fn is_tag_open(rest: &[u8]) -> bool {
    matches!(rest, [b'<', b'/', c, ..] | [b'<', c, ..] if c.is_ascii_alphabetic())
}

/// Steps 2-16 of the `<meta` branch: reads the attributes and decides. `Ok(None)`
/// means "jump to next byte".
fn meta_attributes(bytes: &[u8], pos: &mut usize) -> Step<Option<&'static Encoding>> {
    let mut names: Vec<Vec<u8>> = Vec::new();
    let mut got_pragma = false;
    let mut need_pragma: Option<bool> = None;
    // None: null; Some(None): failure; Some(Some(e)): an encoding.
    let mut charset: Option<Option<&'static Encoding>> = None;
    while let Some(Attribute { name, value }) = get_attribute(bytes, pos)? {
        if names.contains(&name) {
            continue;
        }
        match name.as_slice() {
            b"http-equiv" if value == b"content-type" => got_pragma = true,
            b"content" => {
                if let Some(encoding) = extract_encoding_from_meta_content(&value)
                    && charset.is_none()
                {
                    charset = Some(Some(encoding));
                    need_pragma = Some(true);
                }
            }
            b"charset" => {
                charset = Some(Encoding::for_label(&value));
                need_pragma = Some(false);
            }
            _ => {}
        }
        names.push(name);
    }
    // Processing.
    let result = match (need_pragma, charset) {
        (None, _) => None,
        (Some(true), _) if !got_pragma => None,
        (Some(_), Some(Some(encoding))) => Some(adjust_declared_encoding(encoding)),
        (Some(_), _) => None,
    };
    Ok(result)
}

/// One attribute as "get an attribute" returns it: name and value, ASCII-lowercased.
struct Attribute {
    name: Vec<u8>,
    value: Vec<u8>,
}

/// The spec's "get an attribute". `Ok(None)`: there isn't one (at a `>`).
fn get_attribute(bytes: &[u8], pos: &mut usize) -> Step<Option<Attribute>> {
    // Step 1.
    loop {
        let b = byte_at(bytes, *pos)?;
        if is_space(b) || b == b'/' {
            *pos += 1;
        } else {
            break;
        }
    }
    // Step 2.
    if byte_at(bytes, *pos)? == b'>' {
        return Ok(None);
    }
    let mut name = Vec::new();
    let mut value = Vec::new();
    // Step 4: the name, up to "=" (value), a space (spaces), or "/" / ">" (done).
    let to_value = loop {
        let b = byte_at(bytes, *pos)?;
        match b {
            b'=' if !name.is_empty() => {
                *pos += 1;
                break true;
            }
            b if is_space(b) => break false,
            b'/' | b'>' => return Ok(Some(Attribute { name, value })),
            b => name.push(b.to_ascii_lowercase()),
        }
        *pos += 1;
    };
    if !to_value {
        // Steps 6-8: spaces, then "=" or the end of a value-less attribute.
        while is_space(byte_at(bytes, *pos)?) {
            *pos += 1;
        }
        if byte_at(bytes, *pos)? != b'=' {
            return Ok(Some(Attribute { name, value }));
        }
        *pos += 1;
    }
    // Step 9.
    while is_space(byte_at(bytes, *pos)?) {
        *pos += 1;
    }
    // Step 10.
    match byte_at(bytes, *pos)? {
        quote @ (b'"' | b'\'') => loop {
            *pos += 1;
            let b = byte_at(bytes, *pos)?;
            if b == quote {
                *pos += 1;
                return Ok(Some(Attribute { name, value }));
            }
            value.push(b.to_ascii_lowercase());
        },
        b'>' => return Ok(Some(Attribute { name, value })),
        b => {
            value.push(b.to_ascii_lowercase());
            *pos += 1;
        }
    }
    // Steps 11-12: the rest of an unquoted value.
    loop {
        let b = byte_at(bytes, *pos)?;
        if is_space(b) || b == b'>' {
            return Ok(Some(Attribute { name, value }));
        }
        value.push(b.to_ascii_lowercase());
        *pos += 1;
    }
}

/// "Get an XML encoding": an encoding named by a leading `<?xml … encoding="…"`, or
/// `None`.
///
/// Follows the steps as written in the project's copy of the spec: the first
/// `encoding` at or after the start is used, and the `>` that ends the declaration
/// only has to exist.
fn xml_encoding(bytes: &[u8]) -> Option<&'static Encoding> {
    if !bytes.starts_with(b"<?xml") {
        return None;
    }
    memchr::memchr(b'>', bytes)?;
    let start = memchr::memmem::find(bytes, b"encoding")? + b"encoding".len();
    let mut rest = bytes.get(start..)?;
    rest = skip_controls_and_space(rest)?;
    rest = rest.strip_prefix(b"=")?;
    rest = skip_controls_and_space(rest)?;
    let (&quote, after_quote) = rest.split_first()?;
    if quote != b'"' && quote != b'\'' {
        return None;
    }
    let end = memchr::memchr(quote, after_quote)?;
    let potential = after_quote.get(..end)?;
    if potential.iter().any(|&b| b <= 0x20) {
        return None;
    }
    let encoding = Encoding::for_label(potential)?;
    if encoding == UTF_16BE || encoding == UTF_16LE {
        Some(UTF_8)
    } else {
        Some(encoding)
    }
}

/// Skips bytes `<= 0x20`; `None` if that leaves nothing.
fn skip_controls_and_space(bytes: &[u8]) -> Option<&[u8]> {
    let start = bytes.iter().position(|&b| b > 0x20)?;
    bytes.get(start..)
}

/// ASCII whitespace as the `content` extraction algorithm sees it: TAB, LF, FF, CR,
/// SPACE.
fn is_ascii_whitespace(b: u8) -> bool {
    is_space(b)
}

/// The algorithm for extracting a character encoding from a `meta` element: finds
/// `charset` (ASCII case-insensitive), optional whitespace, `=`, optional whitespace,
/// then a value that is either quoted (and must be closed) or runs to whitespace or
/// `;`, and gets an encoding from that value.
///
/// `content` is the value of a `content` attribute, e.g. `text/html; charset=utf-8`.
/// Returns `None` when there is no such declaration or its label is unknown. The
/// result is not adjusted (UTF-16 stays UTF-16); the callers adjust it.
///
/// ```
/// use tagloom_html::decoder::extract_encoding_from_meta_content;
/// let enc = extract_encoding_from_meta_content(b"text/html; charset='euc-jp'");
/// assert_eq!(enc.map(|e| e.name()), Some("EUC-JP"));
/// assert_eq!(extract_encoding_from_meta_content(b"text/html; charset='euc-jp"), None);
/// ```
pub fn extract_encoding_from_meta_content(content: &[u8]) -> Option<&'static Encoding> {
    let mut pos = 0usize;
    loop {
        // Loop: the next "charset" at or after pos.
        let found = content
            .get(pos..)?
            .windows(7)
            .position(|w| w.eq_ignore_ascii_case(b"charset"))?;
        pos += found + 7;
        while content.get(pos).copied().is_some_and(is_ascii_whitespace) {
            pos += 1;
        }
        if content.get(pos) != Some(&b'=') {
            // Position is now just before that character: look again from there.
            continue;
        }
        pos += 1;
        while content.get(pos).copied().is_some_and(is_ascii_whitespace) {
            pos += 1;
        }
        let rest = content.get(pos..)?;
        return match rest.split_first() {
            None => None,
            Some((&quote, after)) if quote == b'"' || quote == b'\'' => {
                let end = memchr::memchr(quote, after)?;
                Encoding::for_label(after.get(..end)?)
            }
            Some(_) => {
                let end = rest
                    .iter()
                    .position(|&b| is_ascii_whitespace(b) || b == b';')
                    .unwrap_or(rest.len());
                Encoding::for_label(rest.get(..end)?)
            }
        };
    }
}

/// The encoding a `<meta>` start tag asks the tree builder to change to (the "in
/// head" insertion mode's `meta` rule), given the tag's `charset`, `http-equiv` and
/// `content` attribute values (`None` when absent).
///
/// A `charset` whose value is a known label wins; otherwise `http-equiv` must be an
/// ASCII case-insensitive match for `Content-Type` and `content` must yield an
/// encoding. The result is not adjusted; "change the encoding" does that (see
/// [`ByteStreamDecoder::change_encoding`](super::ByteStreamDecoder::change_encoding)).
/// The caller applies it only while the confidence is tentative.
pub fn meta_declared_encoding(
    charset: Option<&str>,
    http_equiv: Option<&str>,
    content: Option<&str>,
) -> Option<&'static Encoding> {
    if let Some(encoding) = charset.and_then(|c| Encoding::for_label(c.as_bytes())) {
        return Some(encoding);
    }
    let pragma = http_equiv.is_some_and(|h| h.eq_ignore_ascii_case("content-type"));
    if pragma {
        content.and_then(|c| extract_encoding_from_meta_content(c.as_bytes()))
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use encoding_rs::{EUC_JP, ISO_8859_2, SHIFT_JIS};

    fn name(bytes: &[u8]) -> Option<&'static str> {
        prescan(bytes).map(Encoding::name)
    }

    #[test]
    fn charset_attribute_forms() {
        assert_eq!(name(b"<meta charset=\"iso8859-2\">"), Some("ISO-8859-2"));
        assert_eq!(name(b"<meta charset='iso8859-2'>"), Some("ISO-8859-2"));
        assert_eq!(name(b"<meta charset=iso8859-2>"), Some("ISO-8859-2"));
        assert_eq!(name(b"<META\nCHARSET=ISO8859-2>"), Some("ISO-8859-2"));
        assert_eq!(name(b"<meta/charset=euc-jp>"), Some("EUC-JP"));
        assert_eq!(name(b"<meta   charset  =   'euc-jp'>"), Some("EUC-JP"));
        assert_eq!(name(b"<metacharset=iso8859-2>"), None);
        assert_eq!(name(b"<meta charset=\"bogus\">"), None);
    }

    #[test]
    fn pragma_logic() {
        let ok = b"<meta http-equiv=\"Content-Type\" content=\"text/html; charset=euc-jp\">";
        assert_eq!(name(ok), Some("EUC-JP"));
        let reversed = b"<meta content=\"text/html; charset=euc-jp\" http-equiv=content-type>";
        assert_eq!(name(reversed), Some("EUC-JP"));
        // Content without the pragma does not count.
        assert_eq!(name(b"<meta content=\"text/html; charset=euc-jp\">"), None);
        assert_eq!(
            name(b"<meta http-equiv=\"Content-Type \" content=\"charset=euc-jp\">"),
            None
        );
        // charset beats content, whatever the order, and needs no pragma.
        assert_eq!(
            name(b"<meta content=\"charset=euc-jp\" charset=shift_jis>"),
            Some("Shift_JIS")
        );
        // Duplicate attributes: the first one counts.
        assert_eq!(
            name(b"<meta charset=euc-jp charset=shift_jis>"),
            Some("EUC-JP")
        );
    }

    #[test]
    fn utf16_and_x_user_defined_are_adjusted() {
        assert_eq!(name(b"<meta charset=utf-16>"), Some("UTF-8"));
        assert_eq!(name(b"<meta charset=utf-16be>"), Some("UTF-8"));
        assert_eq!(name(b"<meta charset=x-user-defined>"), Some("windows-1252"));
    }

    #[test]
    fn comments_and_other_constructs_are_skipped() {
        assert_eq!(
            name(b"<!--<meta charset=euc-jp>--><meta charset=shift_jis>"),
            Some("Shift_JIS")
        );
        assert_eq!(name(b"<!--><meta charset=euc-jp>"), Some("EUC-JP"));
        assert_eq!(
            name(b"<!DOCTYPE html><?php x ?></x><meta charset=euc-jp>"),
            Some("EUC-JP")
        );
        // An attribute value hides a <meta>.
        assert_eq!(name(b"<p title=\"<meta charset=euc-jp>\">"), None);
        assert_eq!(
            name(b"<p title=\"x>\"><meta charset=euc-jp>"),
            Some("EUC-JP")
        );
        // But the pre-scan does not know raw text elements.
        assert_eq!(
            name(b"<script>'<meta charset=euc-jp>'</script>"),
            Some("EUC-JP")
        );
    }

    #[test]
    fn running_out_of_bytes_fails() {
        for input in [
            &b"<meta"[..],
            b"<",
            b"<!",
            b"<meta charset = \"",
            b"<meta charset=euc-jp",
            b"<!-- <meta charset=euc-jp>",
        ] {
            assert_eq!(name(input), None, "{input:?}");
        }
    }

    #[test]
    fn utf16_xml_declarations() {
        assert_eq!(prescan(b"<\0?\0x\0m\0l\0"), Some(UTF_16LE));
        assert_eq!(prescan(b"\0<\0?\0x\0m\0l"), Some(UTF_16BE));
    }

    #[test]
    fn xml_declaration_fallback() {
        assert_eq!(
            prescan(b"<?xml version=\"1.0\" encoding=\"Shift_JIS\"?><x>"),
            Some(SHIFT_JIS)
        );
        assert_eq!(prescan(b"<?xml encoding = 'utf-16'?>"), Some(UTF_8));
        assert_eq!(prescan(b"<?xml encoding=\"euc jp\"?>"), None);
        assert_eq!(prescan(b"<?xml encoding=\"euc-jp\""), None);
        assert_eq!(prescan(b"<?xml encoding=euc-jp?>"), None);
        assert_eq!(prescan(b" <?xml encoding=\"euc-jp\"?>"), None);
        // A complete <meta> is found before the bytes run out.
        assert_eq!(
            prescan(b"<?xml encoding=\"euc-jp\"?><meta charset=iso-8859-2>"),
            Some(ISO_8859_2)
        );
    }

    #[test]
    fn content_extraction() {
        let get = |s: &[u8]| extract_encoding_from_meta_content(s).map(Encoding::name);
        assert_eq!(get(b"text/html; charset=euc-jp"), Some("EUC-JP"));
        assert_eq!(get(b"text/html; CHARSET = \"euc-jp\" "), Some("EUC-JP"));
        assert_eq!(get(b"text/html; charset=euc-jp;foo"), Some("EUC-JP"));
        assert_eq!(get(b"charsetcharset=euc-jp"), Some("EUC-JP"));
        assert_eq!(get(b"charset x; charset=euc-jp"), Some("EUC-JP"));
        assert_eq!(get(b"text/html; charset=\"euc-jp"), None);
        assert_eq!(get(b"text/html; charset="), None);
        assert_eq!(get(b"text/html"), None);
        assert_eq!(get(b"charset=bogus"), None);
        assert_eq!(get(b"charset=\"utf-16\""), Some("UTF-16LE"));
    }

    #[test]
    fn tree_builder_meta_rule() {
        assert_eq!(
            meta_declared_encoding(Some("euc-jp"), None, None),
            Some(EUC_JP)
        );
        assert_eq!(
            meta_declared_encoding(Some("bogus"), Some("CONTENT-type"), Some("charset=euc-jp")),
            Some(EUC_JP)
        );
        assert_eq!(
            meta_declared_encoding(None, Some("content-type "), Some("charset=euc-jp")),
            None
        );
        assert_eq!(
            meta_declared_encoding(None, None, Some("charset=euc-jp")),
            None
        );
    }

    #[test]
    fn adjusts() {
        assert_eq!(adjust_declared_encoding(UTF_16LE), UTF_8);
        assert_eq!(adjust_declared_encoding(X_USER_DEFINED), WINDOWS_1252);
        assert_eq!(adjust_declared_encoding(EUC_JP), EUC_JP);
    }
}
