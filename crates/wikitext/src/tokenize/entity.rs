//! Character references in wikitext (`&amp;`, `&#160;`, `&#x2192;`): only
//! complete references with a `;` are recognized, as MediaWiki does.

/// The length of the reference at the start of `s` (which starts with `&`) and
/// its decoded text, if it is a valid one.
pub(crate) fn reference(s: &str) -> Option<(usize, String)> {
    let rest = s.strip_prefix('&')?;
    // Names are short: look for the `;` in the next 40 bytes only (linear time
    // on long runs of `&`).
    let semi = rest.bytes().take(40).position(|b| b == b';')?;
    let body = rest.get(..semi)?;
    let len = semi + 2;
    if let Some(num) = body.strip_prefix('#') {
        let code = if let Some(hex) = num.strip_prefix('x').or_else(|| num.strip_prefix('X')) {
            if hex.is_empty() || !hex.bytes().all(|b| b.is_ascii_hexdigit()) {
                return None;
            }
            let hex = hex.trim_start_matches('0');
            if hex.len() > 8 {
                return None;
            }
            if hex.is_empty() {
                0
            } else {
                u32::from_str_radix(hex, 16).ok()?
            }
        } else {
            if num.is_empty() || !num.bytes().all(|b| b.is_ascii_digit()) {
                return None;
            }
            let dec = num.trim_start_matches('0');
            if dec.len() > 8 {
                return None;
            }
            if dec.is_empty() {
                0
            } else {
                dec.parse::<u32>().ok()?
            }
        };
        return valid_code_point(code).map(|c| (len, c.to_string()));
    }
    // MediaWiki's own names for the right-to-left mark (Hebrew and Arabic).
    if matches!(body, "רלמ" | "رلم") {
        return Some((len, "\u{200f}".to_owned()));
    }
    if body.is_empty() || body.len() > 32 || !body.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return None;
    }
    named(body).map(|t| (len, t))
}

/// MediaWiki's validity rule for numeric references.
fn valid_code_point(code: u32) -> Option<char> {
    let ok = code == 0x09
        || code == 0x0a
        || (0x20..=0x7e).contains(&code)
        || (0xa0..=0xd7ff).contains(&code)
        || (0xe000..=0xfffd).contains(&code)
        || (0x10000..=0x10ffff).contains(&code);
    if ok { char::from_u32(code) } else { None }
}

/// The text of the named reference `&name;`, if it is one (tagloom-html's table,
/// the one source).
fn named(name: &str) -> Option<String> {
    tagloom_html::tokenizer::named_reference(name).map(str::to_owned)
}

/// Decodes every valid reference in `s` (attribute values, `<pre>` bodies).
pub(crate) fn decode_all(s: &str) -> String {
    decode(s).into_owned()
}

/// [`decode_all`], borrowing `s` when it has no `&`. (Every link target
/// comes here: short, so the first test is a word-at-a-time one.)
pub(crate) fn decode(s: &str) -> std::borrow::Cow<'_, str> {
    if !super::skip::has_byte(s.as_bytes(), b'&') {
        return std::borrow::Cow::Borrowed(s);
    }
    let amp = |s: &str| memchr::memchr(b'&', s.as_bytes());
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = amp(rest) {
        out.push_str(rest.get(..at).unwrap_or(""));
        let tail = rest.get(at..).unwrap_or("");
        match reference(tail) {
            Some((len, text)) => {
                out.push_str(&text);
                rest = tail.get(len..).unwrap_or("");
            }
            None => {
                out.push('&');
                rest = tail.get(1..).unwrap_or("");
            }
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn references() {
        assert_eq!(reference("&amp;x"), Some((5, "&".into())));
        assert_eq!(reference("&#x2192;"), Some((8, "→".into())));
        assert_eq!(reference("&#160;"), Some((6, "\u{a0}".into())));
        assert_eq!(reference("&bogus;"), None);
        assert_eq!(reference("&amp"), None);
        assert_eq!(reference("&#0;"), None);
        assert_eq!(decode_all("a &lt;b&gt; &c"), "a <b> &c");
    }

    #[test]
    fn named_references_need_their_semicolon_and_exact_case() {
        assert_eq!(reference("&ndash;x"), Some((7, "\u{2013}".into())));
        assert_eq!(reference("&nbsp;"), Some((6, "\u{a0}".into())));
        assert_eq!(reference("&AMP;"), Some((5, "&".into())));
        assert_eq!(reference("&semi;"), Some((6, ";".into())));
        assert_eq!(reference("&ampx;"), None);
        assert_eq!(reference("&Ndash;"), None);
        assert_eq!(decode_all("&nbsp &copy; &copy"), "&nbsp \u{a9} &copy");
    }
}
