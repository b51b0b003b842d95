//! The selector parser: one pass over the text, typed errors with byte offsets.

use super::ast::{AttrOp, Combinator, Complex, Compound, Cond};

/// Why a selector was refused, and where.
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
#[error("invalid selector at byte {offset}: {kind}")]
pub struct SelectorError {
    /// Byte offset in the selector text.
    pub offset: usize,
    /// What is wrong.
    pub kind: SelectorErrorKind,
}

/// The kinds of [`SelectorError`].
#[derive(Debug, thiserror::Error, Clone, PartialEq, Eq)]
pub enum SelectorErrorKind {
    /// Nothing to match (an empty list item, `a,,b`, `()`).
    #[error("empty selector")]
    Empty,
    /// The text ends inside a construct (`[href`, `:not(a`).
    #[error("unexpected end of selector")]
    UnexpectedEnd,
    /// A character that cannot start or continue the construct here.
    #[error("unexpected character {0:?}")]
    UnexpectedChar(char),
    /// `+` or `~`: they need the preceding siblings, which a streaming rewriter does
    /// not keep.
    #[error("the {0:?} combinator is not supported by a streaming rewriter")]
    UnsupportedCombinator(char),
    /// A pseudo-class or pseudo-element outside the subset (`:last-child`, `:has`,
    /// `::before`).
    #[error("unsupported pseudo-class :{0}")]
    UnsupportedPseudoClass(String),
    /// An `an+b` argument that does not parse.
    #[error("invalid an+b expression {0:?}")]
    InvalidNth(String),
    /// A namespace prefix (`svg|a`, `[xlink|href]`).
    #[error("namespace prefixes are not supported")]
    Namespace,
    /// A combinator with nothing after it (`div >`).
    #[error("a combinator needs a selector after it")]
    DanglingCombinator,
}

pub(crate) fn parse_list(text: &str) -> Result<Vec<Complex>, SelectorError> {
    let mut p = Parser { text, pos: 0 };
    let mut list = Vec::new();
    loop {
        p.skip_ws();
        list.push(p.complex()?);
        p.skip_ws();
        match p.peek() {
            None => return Ok(list),
            Some(',') => p.pos += 1,
            Some(c) => return Err(p.err(SelectorErrorKind::UnexpectedChar(c))),
        }
    }
}

struct Parser<'a> {
    text: &'a str,
    pos: usize,
}

fn is_ws(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\r' | '\x0c')
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '-' || c == '_' || !c.is_ascii() || c == '\\'
}

impl Parser<'_> {
    #[inline]
    fn peek(&self) -> Option<char> {
        match self.text.as_bytes().get(self.pos) {
            Some(&b) if b.is_ascii() => Some(char::from(b)),
            Some(_) => self.text.get(self.pos..).and_then(|s| s.chars().next()),
            None => None,
        }
    }

    fn peek_at(&self, ahead: usize) -> Option<char> {
        self.text.get(self.pos..).and_then(|s| s.chars().nth(ahead))
    }

    fn bump(&mut self) -> Option<char> {
        let c = self.peek()?;
        self.pos += c.len_utf8();
        Some(c)
    }

    fn err(&self, kind: SelectorErrorKind) -> SelectorError {
        SelectorError {
            offset: self.pos,
            kind,
        }
    }

    fn unexpected(&self) -> SelectorError {
        match self.peek() {
            Some(c) => self.err(SelectorErrorKind::UnexpectedChar(c)),
            None => self.err(SelectorErrorKind::UnexpectedEnd),
        }
    }

    fn skip_ws(&mut self) -> bool {
        let start = self.pos;
        while self.peek().is_some_and(is_ws) {
            self.pos += 1;
        }
        self.pos > start
    }

    fn complex(&mut self) -> Result<Complex, SelectorError> {
        let mut compounds = Vec::with_capacity(4);
        compounds.push(self.compound()?);
        let mut combinators = Vec::new();
        loop {
            let had_ws = self.skip_ws();
            let comb = match self.peek() {
                Some('>') => {
                    self.pos += 1;
                    self.skip_ws();
                    Combinator::Child
                }
                Some(c @ ('+' | '~')) => {
                    return Err(self.err(SelectorErrorKind::UnsupportedCombinator(c)));
                }
                None | Some(',') | Some(')') => {
                    return Ok(Complex {
                        compounds,
                        combinators,
                    });
                }
                Some(_) if had_ws => Combinator::Descendant,
                Some(_) => return Err(self.unexpected()),
            };
            match self.peek() {
                None | Some(',') | Some(')') => {
                    return Err(self.err(SelectorErrorKind::DanglingCombinator));
                }
                _ => {}
            }
            combinators.push(comb);
            compounds.push(self.compound()?);
        }
    }

    fn compound(&mut self) -> Result<Compound, SelectorError> {
        let start = self.pos;
        let mut compound = Compound::default();
        match self.peek() {
            Some('*') => {
                self.pos += 1;
                if self.peek() == Some('|') {
                    return Err(self.err(SelectorErrorKind::Namespace));
                }
            }
            Some(c) if is_name_char(c) && !c.is_ascii_digit() => {
                let name = self.ident_lower()?;
                if self.peek() == Some('|') {
                    return Err(self.err(SelectorErrorKind::Namespace));
                }
                compound.name = Some(name);
            }
            Some('|') => return Err(self.err(SelectorErrorKind::Namespace)),
            _ => {}
        }
        loop {
            match self.peek() {
                Some('#') => {
                    self.pos += 1;
                    compound.conds.push(Cond::Id(self.ident()?));
                }
                Some('.') => {
                    self.pos += 1;
                    compound.conds.push(Cond::Class(self.ident()?));
                }
                Some('[') => {
                    self.pos += 1;
                    compound.conds.push(self.attribute()?);
                }
                Some(':') => {
                    self.pos += 1;
                    compound.conds.push(self.pseudo()?);
                }
                _ => break,
            }
        }
        if self.pos == start {
            return Err(match self.peek() {
                None | Some(',') | Some(')') => self.err(SelectorErrorKind::Empty),
                Some(_) => self.unexpected(),
            });
        }
        Ok(compound)
    }

    /// A CSS identifier, escapes resolved.
    fn ident(&mut self) -> Result<String, SelectorError> {
        self.ident_cased(false)
    }

    /// [`Self::ident`], ASCII-lowercased.
    fn ident_lower(&mut self) -> Result<String, SelectorError> {
        self.ident_cased(true)
    }

    fn ident_cased(&mut self, lower: bool) -> Result<String, SelectorError> {
        if self.peek() == Some('-') && self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.err(SelectorErrorKind::UnexpectedChar('-')));
        }
        // Without escapes (the usual case) the identifier is a slice of the text:
        // one allocation of the right size.
        let rest = self.text.get(self.pos..).unwrap_or("");
        // Bytes: every byte of a non-ASCII character is >= 0x80, and non-ASCII
        // characters are name characters.
        let len = rest
            .bytes()
            .position(|b| b.is_ascii() && (b == b'\\' || !is_name_char(char::from(b))))
            .unwrap_or(rest.len());
        if rest.as_bytes().get(len) != Some(&b'\\') {
            let Some(name) = rest.get(..len).filter(|n| !n.is_empty()) else {
                return Err(self.unexpected());
            };
            self.pos += len;
            let mut out = name.to_owned();
            if lower {
                out.make_ascii_lowercase();
            }
            return Ok(out);
        }
        let mut out = String::new();
        while let Some(c) = self.peek() {
            if c == '\\' {
                self.pos += 1;
                out.push(self.escape()?);
            } else if is_name_char(c) {
                self.pos += c.len_utf8();
                out.push(c);
            } else {
                break;
            }
        }
        if out.is_empty() {
            return Err(self.unexpected());
        }
        if lower {
            out.make_ascii_lowercase();
        }
        Ok(out)
    }

    /// After a backslash: up to six hex digits and one optional whitespace, or one
    /// character as itself.
    fn escape(&mut self) -> Result<char, SelectorError> {
        let mut value = 0u32;
        let mut digits = 0;
        while digits < 6 {
            match self.peek().and_then(|c| c.to_digit(16)) {
                Some(d) => {
                    value = value * 16 + d;
                    digits += 1;
                    self.pos += 1;
                }
                None => break,
            }
        }
        if digits > 0 {
            if self.peek().is_some_and(is_ws) {
                self.pos += 1;
            }
            return Ok(match char::from_u32(value) {
                Some(c) if value != 0 => c,
                _ => '\u{FFFD}',
            });
        }
        self.bump()
            .ok_or_else(|| self.err(SelectorErrorKind::UnexpectedEnd))
    }

    fn string(&mut self, quote: char) -> Result<String, SelectorError> {
        self.pos += 1;
        let mut out = String::new();
        loop {
            match self.bump() {
                None => return Err(self.err(SelectorErrorKind::UnexpectedEnd)),
                Some(c) if c == quote => return Ok(out),
                Some('\\') => match self.peek() {
                    Some('\n') => self.pos += 1,
                    Some(_) => out.push(self.escape()?),
                    None => return Err(self.err(SelectorErrorKind::UnexpectedEnd)),
                },
                Some(c) => out.push(c),
            }
        }
    }

    fn attribute(&mut self) -> Result<Cond, SelectorError> {
        self.skip_ws();
        if self.peek() == Some('|') || self.peek() == Some('*') {
            return Err(self.err(SelectorErrorKind::Namespace));
        }
        let name = self.ident_lower()?;
        if self.peek() == Some('|') && self.peek_at(1) != Some('=') {
            return Err(self.err(SelectorErrorKind::Namespace));
        }
        self.skip_ws();
        let op = match (self.peek(), self.peek_at(1)) {
            (Some(']'), _) => {
                self.pos += 1;
                return Ok(Cond::Attr {
                    name,
                    test: None,
                    case_insensitive: None,
                });
            }
            (Some('='), _) => {
                self.pos += 1;
                AttrOp::Equals
            }
            (Some(c), Some('=')) => {
                let op = match c {
                    '~' => AttrOp::Includes,
                    '|' => AttrOp::DashMatch,
                    '^' => AttrOp::Prefix,
                    '$' => AttrOp::Suffix,
                    '*' => AttrOp::Substring,
                    _ => return Err(self.unexpected()),
                };
                self.pos += 2;
                op
            }
            _ => return Err(self.unexpected()),
        };
        self.skip_ws();
        let value = match self.peek() {
            Some(q @ ('"' | '\'')) => self.string(q)?,
            _ => self.ident()?,
        };
        self.skip_ws();
        let case_insensitive = match self.peek() {
            Some('i' | 'I') => {
                self.pos += 1;
                Some(true)
            }
            Some('s' | 'S') => {
                self.pos += 1;
                Some(false)
            }
            _ => None,
        };
        self.skip_ws();
        match self.peek() {
            Some(']') => {
                self.pos += 1;
                Ok(Cond::Attr {
                    name,
                    test: Some((op, value)),
                    case_insensitive,
                })
            }
            _ => Err(self.unexpected()),
        }
    }

    fn pseudo(&mut self) -> Result<Cond, SelectorError> {
        let at = self.pos;
        if self.peek() == Some(':') {
            return Err(self.err(SelectorErrorKind::UnsupportedPseudoClass(":".into())));
        }
        let name = self.ident_lower()?;
        let unsupported = |name: &str| SelectorError {
            offset: at,
            kind: SelectorErrorKind::UnsupportedPseudoClass(name.to_owned()),
        };
        match name.as_str() {
            "first-child" => Ok(Cond::Nth {
                a: 0,
                b: 1,
                of_type: false,
            }),
            "first-of-type" => Ok(Cond::Nth {
                a: 0,
                b: 1,
                of_type: true,
            }),
            "nth-child" | "nth-of-type" => {
                let arg = self.parenthesized()?;
                let (a, b) = parse_nth(arg).ok_or_else(|| SelectorError {
                    offset: at,
                    kind: SelectorErrorKind::InvalidNth(arg.to_owned()),
                })?;
                Ok(Cond::Nth {
                    a,
                    b,
                    of_type: name == "nth-of-type",
                })
            }
            "not" => {
                if self.peek() != Some('(') {
                    return Err(self.unexpected());
                }
                self.pos += 1;
                let mut list = Vec::new();
                loop {
                    self.skip_ws();
                    list.push(self.compound()?);
                    self.skip_ws();
                    match self.bump() {
                        Some(',') => {}
                        Some(')') => return Ok(Cond::Not(list)),
                        Some(c) if is_name_char(c) || matches!(c, '>' | '*' | '.' | '#' | '[') => {
                            // A combinator inside :not(): only compounds are allowed.
                            self.pos -= c.len_utf8();
                            return Err(self.err(SelectorErrorKind::UnexpectedChar(c)));
                        }
                        Some(c) => {
                            self.pos -= c.len_utf8();
                            return Err(self.err(SelectorErrorKind::UnexpectedChar(c)));
                        }
                        None => return Err(self.err(SelectorErrorKind::UnexpectedEnd)),
                    }
                }
            }
            _ => Err(unsupported(&name)),
        }
    }

    /// The text between `(` and the matching `)`.
    fn parenthesized(&mut self) -> Result<&str, SelectorError> {
        if self.peek() != Some('(') {
            return Err(self.unexpected());
        }
        self.pos += 1;
        let start = self.pos;
        let rest = self.text.get(start..).unwrap_or("");
        let Some(len) = rest.find(')') else {
            return Err(SelectorError {
                offset: self.text.len(),
                kind: SelectorErrorKind::UnexpectedEnd,
            });
        };
        self.pos = start + len + 1;
        Ok(rest.get(..len).unwrap_or(""))
    }
}

/// `an+b` (CSS Syntax §6): `odd`, `even`, `3`, `-n+2`, `2n + 1`.
fn parse_nth(arg: &str) -> Option<(i64, i64)> {
    let compact: String = arg
        .chars()
        .filter(|c| !is_ws(*c))
        .collect::<String>()
        .to_ascii_lowercase();
    match compact.as_str() {
        "odd" => return Some((2, 1)),
        "even" => return Some((2, 0)),
        "" => return None,
        _ => {}
    }
    let int = |s: &str| -> Option<i64> {
        let digits = s.strip_prefix('+').unwrap_or(s);
        if digits.starts_with(['+']) || digits.is_empty() {
            return None;
        }
        let unsigned = digits.strip_prefix('-').unwrap_or(digits);
        if unsigned.is_empty() || !unsigned.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        digits.parse().ok()
    };
    match compact.split_once('n') {
        None => Some((0, int(&compact)?)),
        Some((a, b)) => {
            let a = match a {
                "" | "+" => 1,
                "-" => -1,
                _ => int(a)?,
            };
            let b = match b {
                "" => 0,
                _ if b.starts_with(['+', '-']) => int(b)?,
                _ => return None,
            };
            Some((a, b))
        }
    }
}
