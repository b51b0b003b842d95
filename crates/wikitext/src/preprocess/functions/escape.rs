//! Small text helpers the functions share: character references, MediaWiki's
//! `wfEscapeWikiText`, and PHP's loose comparison of numeric strings.

/// Named references decoded by [`decode_entities`] (a small common set; the full
/// HTML table lives in tagloom-html's tokenizer, which is not public).
const NAMED: &[(&str, char)] = &[
    ("amp", '&'),
    ("lt", '<'),
    ("gt", '>'),
    ("quot", '"'),
    ("apos", '\''),
    ("nbsp", '\u{a0}'),
    ("ndash", '\u{2013}'),
    ("mdash", '\u{2014}'),
    ("minus", '\u{2212}'),
    ("times", '\u{d7}'),
    ("hellip", '\u{2026}'),
    ("copy", '\u{a9}'),
    ("reg", '\u{ae}'),
    ("deg", '\u{b0}'),
    ("euro", '\u{20ac}'),
    ("middot", '\u{b7}'),
    ("bull", '\u{2022}'),
    ("shy", '\u{ad}'),
    ("laquo", '\u{ab}'),
    ("raquo", '\u{bb}'),
    ("lsquo", '\u{2018}'),
    ("rsquo", '\u{2019}'),
    ("ldquo", '\u{201c}'),
    ("rdquo", '\u{201d}'),
    ("thinsp", '\u{2009}'),
    ("ensp", '\u{2002}'),
    ("emsp", '\u{2003}'),
    ("zwj", '\u{200d}'),
    ("zwnj", '\u{200c}'),
    ("lrm", '\u{200e}'),
    ("rlm", '\u{200f}'),
];

/// Decodes `&#NN;`, `&#xHH;` and the common named references; others stay.
pub(crate) fn decode_entities(s: &str) -> String {
    if !s.contains('&') {
        return s.to_owned();
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let decoded = rest.find(';').filter(|&e| e <= 33).and_then(|e| {
            let body = &rest[1..e];
            let c = if let Some(num) = body.strip_prefix('#') {
                let v = match num.strip_prefix(['x', 'X']) {
                    Some(hex) => u32::from_str_radix(hex, 16).ok(),
                    None => num.parse::<u32>().ok(),
                };
                v.and_then(char::from_u32)
            } else {
                NAMED.iter().find(|(n, _)| *n == body).map(|(_, c)| *c)
            };
            c.map(|c| (c, e + 1))
        });
        match decoded {
            Some((c, len)) => {
                out.push(c);
                rest = &rest[len..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// MediaWiki's `wfEscapeWikiText`: characters and sequences that wikitext would
/// interpret, as numeric references (used for page names in magic words).
pub(crate) fn escape_wikitext(s: &str) -> String {
    const SEQ: &[(&str, &str)] = &[
        ("\n----", "\n&#45;---"),
        ("\r----", "\r&#45;---"),
        ("ISBN ", "ISBN&#32;"),
        ("PMID ", "PMID&#32;"),
        ("RFC ", "RFC&#32;"),
        ("://", "&#58;//"),
        ("~~~", "~~&#126;"),
        ("__", "_&#95;"),
        ("\n#", "\n&#35;"),
        ("\r#", "\r&#35;"),
        ("\n*", "\n&#42;"),
        ("\r*", "\r&#42;"),
        ("\n:", "\n&#58;"),
        ("\r:", "\r&#58;"),
        ("\n ", "\n&#32;"),
        ("\r ", "\r&#32;"),
        ("\n\n", "\n&#10;"),
        ("\r\n", "&#13;\n"),
        ("\n\r", "\n&#13;"),
        ("\r\r", "\r&#13;"),
        ("\n\t", "\n&#9;"),
        ("\r\t", "\r&#9;"),
    ];
    let text = format!("\n{s}");
    let mut out = String::with_capacity(text.len() + 8);
    let mut k = 0;
    'outer: while k < text.len() {
        let rest = &text[k..];
        for (from, to) in SEQ {
            if rest.starts_with(from) {
                out.push_str(to);
                k += from.len();
                continue 'outer;
            }
        }
        let Some(c) = rest.chars().next() else { break };
        match c {
            '"' => out.push_str("&#34;"),
            '&' => out.push_str("&#38;"),
            '\'' => out.push_str("&#39;"),
            '<' => out.push_str("&#60;"),
            '=' => out.push_str("&#61;"),
            '>' => out.push_str("&#62;"),
            '[' => out.push_str("&#91;"),
            ']' => out.push_str("&#93;"),
            '{' => out.push_str("&#123;"),
            '|' => out.push_str("&#124;"),
            '}' => out.push_str("&#125;"),
            ';' => out.push_str("&#59;"),
            c => out.push(c),
        }
        k += c.len_utf8();
    }
    out.split_off(1)
}

/// The text without `<!-- comments -->` (kept in the output when
/// [`Config::keep_comments`](crate::preprocess::Config::keep_comments) is set,
/// but never part of a compared value).
pub(crate) fn without_comments(s: &str) -> std::borrow::Cow<'_, str> {
    if !s.contains("<!--") {
        return std::borrow::Cow::Borrowed(s);
    }
    let mut out = String::with_capacity(s.len());
    let mut rest = s;
    while let Some(at) = rest.find("<!--") {
        out.push_str(&rest[..at]);
        match rest[at + 4..].find("-->") {
            Some(end) => rest = &rest[at + 4 + end + 3..],
            None => rest = "",
        }
    }
    out.push_str(rest);
    std::borrow::Cow::Owned(out)
}

/// PHP's `is_numeric` (PHP 8: surrounding blanks allowed), as a number.
pub(crate) fn php_number(s: &str) -> Option<f64> {
    let t = s.trim_matches([' ', '\t', '\n', '\r', '\x0b', '\x0c']);
    let b = t.as_bytes();
    let mut k = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        k += 1;
    }
    let digits = |k: &mut usize| {
        let s = *k;
        while b.get(*k).is_some_and(u8::is_ascii_digit) {
            *k += 1;
        }
        *k - s
    };
    let int = digits(&mut k);
    let mut frac = 0;
    if b.get(k) == Some(&b'.') {
        k += 1;
        frac = digits(&mut k);
    }
    if int + frac == 0 {
        return None;
    }
    if matches!(b.get(k), Some(b'e' | b'E')) {
        let save = k;
        k += 1;
        if matches!(b.get(k), Some(b'+' | b'-')) {
            k += 1;
        }
        if digits(&mut k) == 0 {
            k = save;
        }
    }
    if k != b.len() {
        return None;
    }
    t.parse().ok()
}

/// PHP 8's `$a == $b` on strings: numerically when both are numeric.
pub(crate) fn loose_eq(a: &str, b: &str) -> bool {
    match (php_number(a), php_number(b)) {
        (Some(x), Some(y)) => x == y,
        _ => a == b,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn helpers() {
        assert_eq!(decode_entities("a&amp;b&#61;&#x3D;&bogus;"), "a&b==&bogus;");
        assert_eq!(escape_wikitext("A'b=c"), "A&#39;b&#61;c");
        assert_eq!(escape_wikitext("#x\n*y"), "&#35;x\n&#42;y");
        assert!(loose_eq("1", "01.0") && loose_eq(" 1e3", "1000") && !loose_eq("a", "A"));
        assert!(
            php_number("1e").is_none() && php_number(".5") == Some(0.5) && php_number("").is_none()
        );
    }
}
