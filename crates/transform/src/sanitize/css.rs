//! A small CSS tokenizer (CSS Syntax Level 3, §4 "Tokenization") and the checks
//! built on it: `style` attributes keep only allowed properties with plain values,
//! `<style>` elements (when a policy keeps them) must hold nothing that loads or
//! runs anything.
//!
//! The tokenizer follows the standard where it matters for security: comments,
//! escapes (`\75 rl(` *is* `url(`; names are compared after decoding), `url(`
//! tokens, functions, strings and their bad forms, at-keywords. A value is kept only
//! if every function in it is a colour or math function and it holds no `url(`, no
//! at-keyword, no block, no bad string. The kept declarations are written back from
//! their tokens' source text with comments replaced by a space, so a second pass
//! reads exactly what the first one kept.

/// A token kind, with the decoded name where there is one.
#[derive(Clone, Debug, PartialEq)]
enum Kind {
    Ident(String),
    Function(String),
    AtKeyword(String),
    Hash,
    Str,
    BadStr,
    Url,
    BadUrl,
    Delim(char),
    Number,
    Whitespace,
    Cdo,
    Cdc,
    Colon,
    Semicolon,
    Comma,
    Open(char),
    Close(char),
}

/// A token and its source range (indices into the preprocessed characters).
#[derive(Clone, Debug)]
struct Tok {
    kind: Kind,
    start: usize,
    end: usize,
}

struct Lexer {
    c: Vec<char>,
    i: usize,
}

fn is_ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || !c.is_ascii()
}

fn is_ident_char(c: char) -> bool {
    is_ident_start(c) || c.is_ascii_digit() || c == '-'
}

fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n')
}

/// §3.3 preprocessing: CR LF, CR, FF → LF; NUL → U+FFFD.
fn preprocess(text: &str) -> Vec<char> {
    let mut out = Vec::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\r' => {
                if chars.peek() == Some(&'\n') {
                    chars.next();
                }
                out.push('\n');
            }
            '\x0c' => out.push('\n'),
            '\0' => out.push('\u{fffd}'),
            c => out.push(c),
        }
    }
    out
}

impl Lexer {
    fn at(&self, k: usize) -> Option<char> {
        self.c.get(self.i + k).copied()
    }

    fn valid_escape(a: Option<char>, b: Option<char>) -> bool {
        a == Some('\\') && b.is_some_and(|b| b != '\n')
    }

    fn starts_ident(&self, k: usize) -> bool {
        let (a, b, c) = (self.at(k), self.at(k + 1), self.at(k + 2));
        match a {
            Some('-') => {
                b.is_some_and(|b| is_ident_start(b) || b == '-') || Self::valid_escape(b, c)
            }
            Some('\\') => Self::valid_escape(a, b),
            Some(a) => is_ident_start(a),
            None => false,
        }
    }

    fn starts_number(&self, k: usize) -> bool {
        let digit = |o: Option<char>| o.is_some_and(|c| c.is_ascii_digit());
        match self.at(k) {
            Some('+' | '-') => {
                digit(self.at(k + 1)) || (self.at(k + 1) == Some('.') && digit(self.at(k + 2)))
            }
            Some('.') => digit(self.at(k + 1)),
            o => digit(o),
        }
    }

    /// §4.3.7: after the backslash.
    fn escape(&mut self) -> char {
        let Some(c) = self.at(0) else {
            return '\u{fffd}';
        };
        self.i += 1;
        if !c.is_ascii_hexdigit() {
            return c;
        }
        let mut value = c.to_digit(16).unwrap_or(0);
        let mut n = 1;
        while n < 6 {
            match self.at(0).and_then(|h| h.to_digit(16)) {
                Some(d) => {
                    value = value * 16 + d;
                    self.i += 1;
                    n += 1;
                }
                None => break,
            }
        }
        if self.at(0).is_some_and(is_ws) {
            self.i += 1;
        }
        match char::from_u32(value) {
            Some(c) if value != 0 => c,
            _ => '\u{fffd}',
        }
    }

    fn ident_sequence(&mut self) -> String {
        let mut name = String::new();
        loop {
            match self.at(0) {
                Some(c) if is_ident_char(c) => {
                    name.push(c);
                    self.i += 1;
                }
                Some('\\') if Self::valid_escape(self.at(0), self.at(1)) => {
                    self.i += 1;
                    name.push(self.escape());
                }
                _ => return name,
            }
        }
    }

    fn string(&mut self, quote: char) -> Kind {
        loop {
            match self.at(0) {
                None => return Kind::Str,
                Some(c) if c == quote => {
                    self.i += 1;
                    return Kind::Str;
                }
                Some('\n') => return Kind::BadStr,
                Some('\\') => {
                    self.i += 1;
                    match self.at(0) {
                        None => {}
                        Some('\n') => self.i += 1,
                        Some(_) => {
                            self.escape();
                        }
                    }
                }
                Some(_) => self.i += 1,
            }
        }
    }

    fn number(&mut self) {
        if matches!(self.at(0), Some('+' | '-')) {
            self.i += 1;
        }
        let digits = |l: &mut Lexer| {
            while l.at(0).is_some_and(|c| c.is_ascii_digit()) {
                l.i += 1;
            }
        };
        digits(self);
        if self.at(0) == Some('.') && self.at(1).is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
            digits(self);
        }
        if matches!(self.at(0), Some('e' | 'E')) {
            let signed = matches!(self.at(1), Some('+' | '-'));
            let d = if signed { self.at(2) } else { self.at(1) };
            if d.is_some_and(|c| c.is_ascii_digit()) {
                self.i += if signed { 2 } else { 1 };
                digits(self);
            }
        }
    }

    fn numeric(&mut self) -> Kind {
        self.number();
        if self.starts_ident(0) {
            // A dimension: the unit is a name like any other.
            let _ = self.ident_sequence();
        } else if self.at(0) == Some('%') {
            self.i += 1;
        }
        Kind::Number
    }

    fn bad_url_rest(&mut self) -> Kind {
        loop {
            match self.at(0) {
                None => return Kind::BadUrl,
                Some(')') => {
                    self.i += 1;
                    return Kind::BadUrl;
                }
                Some('\\') if Self::valid_escape(self.at(0), self.at(1)) => {
                    self.i += 1;
                    self.escape();
                }
                Some(_) => self.i += 1,
            }
        }
    }

    fn url(&mut self) -> Kind {
        while self.at(0).is_some_and(is_ws) {
            self.i += 1;
        }
        loop {
            match self.at(0) {
                None => return Kind::Url,
                Some(')') => {
                    self.i += 1;
                    return Kind::Url;
                }
                Some(c) if is_ws(c) => {
                    while self.at(0).is_some_and(is_ws) {
                        self.i += 1;
                    }
                    return match self.at(0) {
                        None => Kind::Url,
                        Some(')') => {
                            self.i += 1;
                            Kind::Url
                        }
                        _ => self.bad_url_rest(),
                    };
                }
                Some('"' | '\'' | '(') => return self.bad_url_rest(),
                Some(c) if (c as u32) < 0x20 && c != '\t' || c == '\u{7f}' => {
                    return self.bad_url_rest();
                }
                Some('\\') => {
                    if Self::valid_escape(self.at(0), self.at(1)) {
                        self.i += 1;
                        self.escape();
                    } else {
                        return self.bad_url_rest();
                    }
                }
                Some(_) => self.i += 1,
            }
        }
    }

    fn ident_like(&mut self) -> Kind {
        let name = self.ident_sequence();
        if self.at(0) != Some('(') {
            return Kind::Ident(name);
        }
        self.i += 1;
        if !name.eq_ignore_ascii_case("url") {
            return Kind::Function(name);
        }
        while is_ws(self.at(0).unwrap_or('x')) && is_ws(self.at(1).unwrap_or('x')) {
            self.i += 1;
        }
        let quoted = |c: Option<char>| matches!(c, Some('"' | '\''));
        if quoted(self.at(0)) || (self.at(0).is_some_and(is_ws) && quoted(self.at(1))) {
            Kind::Function(name)
        } else {
            self.url()
        }
    }

    /// The next token (comments come back as whitespace), or `None` at the end.
    fn next(&mut self) -> Option<Tok> {
        let start = self.i;
        let c = self.at(0)?;
        if c == '/' && self.at(1) == Some('*') {
            self.i += 2;
            while self.i < self.c.len() && !(self.at(0) == Some('*') && self.at(1) == Some('/')) {
                self.i += 1;
            }
            self.i = (self.i + 2).min(self.c.len());
            return Some(Tok {
                kind: Kind::Whitespace,
                start,
                end: self.i,
            });
        }
        let kind = match c {
            c if is_ws(c) => {
                while self.at(0).is_some_and(is_ws) {
                    self.i += 1;
                }
                Kind::Whitespace
            }
            '"' | '\'' => {
                self.i += 1;
                self.string(c)
            }
            '#' => {
                if self.at(1).is_some_and(is_ident_char)
                    || Self::valid_escape(self.at(1), self.at(2))
                {
                    self.i += 1;
                    let _ = self.ident_sequence();
                    Kind::Hash
                } else {
                    self.i += 1;
                    Kind::Delim('#')
                }
            }
            '(' | '[' | '{' => {
                self.i += 1;
                Kind::Open(c)
            }
            ')' | ']' | '}' => {
                self.i += 1;
                Kind::Close(c)
            }
            ',' => {
                self.i += 1;
                Kind::Comma
            }
            ':' => {
                self.i += 1;
                Kind::Colon
            }
            ';' => {
                self.i += 1;
                Kind::Semicolon
            }
            '+' | '.' if self.starts_number(0) => self.numeric(),
            '-' if self.starts_number(0) => self.numeric(),
            '-' if self.at(1) == Some('-') && self.at(2) == Some('>') => {
                self.i += 3;
                Kind::Cdc
            }
            '-' if self.starts_ident(0) => self.ident_like(),
            '<' if self.at(1) == Some('!')
                && self.at(2) == Some('-')
                && self.at(3) == Some('-') =>
            {
                self.i += 4;
                Kind::Cdo
            }
            '@' if {
                self.i += 1;
                let s = self.starts_ident(0);
                self.i -= 1;
                s
            } =>
            {
                self.i += 1;
                Kind::AtKeyword(self.ident_sequence())
            }
            '\\' if Self::valid_escape(self.at(0), self.at(1)) => self.ident_like(),
            c if c.is_ascii_digit() => self.numeric(),
            c if is_ident_start(c) => self.ident_like(),
            c => {
                self.i += 1;
                Kind::Delim(c)
            }
        };
        Some(Tok {
            kind,
            start,
            end: self.i,
        })
    }
}

fn tokenize(text: &str) -> (Vec<char>, Vec<Tok>) {
    let mut lexer = Lexer {
        c: preprocess(text),
        i: 0,
    };
    let mut toks = Vec::new();
    while let Some(t) = lexer.next() {
        toks.push(t);
    }
    (lexer.c, toks)
}

/// Functions a kept value may call: colours and arithmetic, nothing that loads.
const SAFE_FUNCTIONS: &[&str] = &[
    "rgb", "rgba", "hsl", "hsla", "hwb", "lab", "lch", "oklab", "oklch", "calc", "min", "max",
    "clamp",
];

/// Names that mean code or a load wherever they appear (IE's `expression`,
/// `behavior`, Gecko's `-moz-binding`).
fn is_dangerous_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    lower.contains("expression")
        || lower.contains("behavior")
        || lower.contains("binding")
        || lower.contains("javascript")
        || lower.contains("vbscript")
}

/// Whether a string token's source text may stay: a string loads nothing by
/// itself, but one that reads like a URL or code is refused anyway, so no later
/// reader (or a browser quirk) can take it for one.
fn string_ok(source: &str) -> bool {
    let lower = source.to_ascii_lowercase();
    !lower.contains('\\')
        && ![
            "url(",
            "expression",
            "binding",
            "behavior",
            "javascript:",
            "vbscript:",
            "@import",
        ]
        .iter()
        .any(|b| lower.contains(b))
}

/// Whether one value token may stay in a kept declaration.
fn value_token_ok(kind: &Kind) -> bool {
    match kind {
        Kind::Function(name) => {
            SAFE_FUNCTIONS.iter().any(|f| f.eq_ignore_ascii_case(name)) && !is_dangerous_name(name)
        }
        Kind::Ident(name) => !is_dangerous_name(name),
        Kind::Url | Kind::BadUrl | Kind::BadStr | Kind::AtKeyword(_) | Kind::Cdo | Kind::Cdc => {
            false
        }
        Kind::Open('{') | Kind::Close('}') | Kind::Delim('\\') | Kind::Delim('@') => false,
        // Strings are kept only without backslashes (see `clean_style`).
        _ => true,
    }
}

/// Cleans a `style` attribute value: the declarations whose property is in
/// `allowed` and whose value passes the checks, as `name: value` joined by `; `.
/// `None` when nothing is left (the attribute is then dropped).
pub(crate) fn clean_style(
    value: &str,
    allowed: &std::collections::BTreeSet<String>,
) -> Option<String> {
    let (chars, toks) = tokenize(value);
    // A block or bad token anywhere makes the whole attribute suspect.
    if toks.iter().any(|t| {
        matches!(
            t.kind,
            Kind::Open('{') | Kind::Close('}') | Kind::BadStr | Kind::BadUrl | Kind::Url
        ) || matches!(t.kind, Kind::AtKeyword(_))
    }) {
        return None;
    }
    let mut kept = Vec::new();
    for decl in toks.split(|t| t.kind == Kind::Semicolon) {
        let mut it = decl.iter().filter(|t| t.kind != Kind::Whitespace);
        let Some(Tok {
            kind: Kind::Ident(name),
            ..
        }) = it.next()
        else {
            continue;
        };
        let name = name.to_ascii_lowercase();
        if !allowed.contains(&name) || is_dangerous_name(&name) {
            continue;
        }
        let Some(colon) = decl.iter().position(|t| t.kind == Kind::Colon) else {
            continue;
        };
        // Only whitespace between the name and the colon.
        if decl[..colon]
            .iter()
            .filter(|t| t.kind != Kind::Whitespace)
            .count()
            != 1
        {
            continue;
        }
        let values = decl.get(colon + 1..).unwrap_or_default();
        if values.iter().all(|t| t.kind == Kind::Whitespace)
            || !values.iter().all(|t| value_token_ok(&t.kind))
        {
            continue;
        }
        let mut text = String::new();
        for t in values {
            if t.kind == Kind::Whitespace {
                text.push(' ');
            } else {
                let slice: String = chars
                    .get(t.start..t.end)
                    .unwrap_or_default()
                    .iter()
                    .collect();
                if t.kind == Kind::Str && !string_ok(&slice) {
                    text.clear();
                    break;
                }
                text.push_str(&slice);
            }
        }
        let text = text.trim();
        if text.is_empty() {
            continue;
        }
        // Collapse the whitespace runs the comment replacement may have left.
        let mut collapsed = String::with_capacity(text.len());
        let mut last_space = false;
        for c in text.chars() {
            if c == ' ' {
                if !last_space {
                    collapsed.push(' ');
                }
                last_space = true;
            } else {
                collapsed.push(c);
                last_space = false;
            }
        }
        kept.push(format!("{name}: {collapsed}"));
    }
    if kept.is_empty() {
        None
    } else {
        Some(kept.join("; "))
    }
}

/// Whether a whole style sheet (the text of a kept `<style>` element) is free of
/// anything that loads or runs: no `url(`, no at-rule other than `@media`,
/// `@supports`, `@keyframes`, no function beyond colours and arithmetic, no
/// `expression`/`behavior`/`-moz-binding`, no bad tokens, no `<!--`/`-->`.
pub(crate) fn stylesheet_ok(text: &str) -> bool {
    let (chars, toks) = tokenize(text);
    toks.iter().all(|t| match &t.kind {
        Kind::AtKeyword(name) => ["media", "supports", "keyframes"]
            .iter()
            .any(|k| k.eq_ignore_ascii_case(name)),
        Kind::Open('{') | Kind::Close('}') => true,
        Kind::Str => {
            let slice: String = chars
                .get(t.start..t.end)
                .unwrap_or_default()
                .iter()
                .collect();
            string_ok(&slice)
        }
        other => value_token_ok(other),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sanitize::Policy;

    fn clean(v: &str) -> Option<String> {
        clean_style(v, &Policy::default().style_properties)
    }

    #[test]
    fn plain_declarations_are_kept_and_normalized() {
        assert_eq!(
            clean("color:red;font-weight : bold").as_deref(),
            Some("color: red; font-weight: bold")
        );
        assert_eq!(
            clean("color: rgb(1,2,3) !important").as_deref(),
            Some("color: rgb(1,2,3) !important")
        );
        assert_eq!(
            clean("position:fixed; color:blue").as_deref(),
            Some("color: blue")
        );
        assert_eq!(clean("COLOR: red").as_deref(), Some("color: red"));
        let once = clean("color:red/**/blue").unwrap();
        assert_eq!(clean(&once).as_deref(), Some(once.as_str()));
    }

    #[test]
    fn loads_and_code_are_refused_through_escapes_and_comments() {
        for bad in [
            "background-color: url(javascript:alert(1))",
            "background-color: u\\72l(x)",
            "background-color: \\75 \\72 \\6c (x)",
            "background-color: URL( 'x' )",
            "color: expression(alert(1))",
            "color: expr/**/ession(alert(1))",
            "color: e\\78pression(alert(1))",
            "-moz-binding: url(x)",
            "behavior: url(x.htc)",
            "color: image(x)",
            "color: red; } body { background: url(x)",
            "@import 'x'; color: red",
            "color: \"unterminated\n",
            "color: var(--x)",
        ] {
            let out = clean(bad);
            assert!(
                out.as_deref()
                    .is_none_or(|o| !o.contains('(') || o.starts_with("color: red")),
                "{bad:?} -> {out:?}"
            );
            if let Some(o) = &out {
                let lower = o.to_ascii_lowercase();
                assert!(
                    !lower.contains("url") && !lower.contains("expr") && !lower.contains("image"),
                    "{bad:?} -> {o}"
                );
            }
        }
    }

    #[test]
    fn stylesheets_that_load_are_refused() {
        assert!(stylesheet_ok(
            "p { color: red } @media print { p { color: blue } }"
        ));
        assert!(!stylesheet_ok("@import url(x);"));
        assert!(!stylesheet_ok("p { background: url(x) }"));
        assert!(!stylesheet_ok("p { background: \\75rl(x) }"));
        assert!(!stylesheet_ok("p { -moz-binding: x }"));
        assert!(!stylesheet_ok("@font-face { src: local(x) }"));
    }
}
