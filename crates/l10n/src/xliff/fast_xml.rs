//! The XML subset of the XLIFF fast path (`fast.rs`): a cursor over a buffered tag
//! or unit, attributes as slices, text with the five predefined entities and
//! character references. Anything outside the subset is [`Declined`].

/// The fast path declined (see the module docs): the general reader takes over.
#[derive(Debug)]
pub(super) struct Declined;

pub(super) type Fast<T> = Result<T, Declined>;

/// An attribute's name and raw (still escaped) value.
pub(super) type Attr<'a> = (&'a [u8], &'a str);

/// The unescaped value of attribute `name`.
pub(super) fn attr(attrs: &Attrs<'_>, name: &[u8]) -> Fast<Option<String>> {
    Ok(attr_str(attrs, name)?.map(std::borrow::Cow::into_owned))
}

/// The raw (still escaped) value of attribute `name`.
pub(super) fn attr_raw<'a>(attrs: &Attrs<'a>, name: &[u8]) -> Option<&'a [u8]> {
    attrs.raw(name).map(str::as_bytes)
}

/// The number of a data id as the writer writes them, `d` and a decimal without
/// leading zero below [`MAX_DATA_ID`] (raw: an entity or any other form is
/// declined, so two ids the general reader tells apart never share a number).
pub(super) fn data_number(raw: &[u8]) -> Fast<u32> {
    let [b'd', first @ b'1'..=b'9', rest @ ..] = raw else {
        return Err(Declined);
    };
    let mut n = u32::from(first - b'0');
    for b in rest {
        if !b.is_ascii_digit() || n >= MAX_DATA_ID / 10 {
            return Err(Declined);
        }
        n = n * 10 + u32::from(b - b'0');
    }
    Ok(n)
}

/// Data ids the fast path takes (the writer numbers a unit's codes from 1).
pub(super) const MAX_DATA_ID: u32 = 1 << 16;

/// The unescaped value of attribute `name`, borrowed when it has no entity.
pub(super) fn attr_str<'a>(
    attrs: &Attrs<'a>,
    name: &[u8],
) -> Fast<Option<std::borrow::Cow<'a, str>>> {
    let Some(raw) = attrs.raw(name) else {
        return Ok(None);
    };
    // Values are short: a plain loop beats a search's set-up.
    if !raw.bytes().any(|b| b == b'&') {
        return Ok(Some(std::borrow::Cow::Borrowed(raw)));
    }
    let mut out = String::with_capacity(raw.len());
    unescape(raw, &mut out)?;
    Ok(Some(std::borrow::Cow::Owned(out)))
}

/// A tag's attributes (at most [`MAX_ATTRS`]; more: declined), filled in place by
/// [`Cursor::attrs`] (one per caller, not a copy per tag).
pub(super) struct Attrs<'a> {
    list: [Attr<'a>; MAX_ATTRS],
    len: usize,
}

impl Default for Attrs<'_> {
    fn default() -> Self {
        Attrs {
            list: [(&[], ""); MAX_ATTRS],
            len: 0,
        }
    }
}

const MAX_ATTRS: usize = 5;

impl<'a> Attrs<'a> {
    fn list(&self) -> &[Attr<'a>] {
        self.list.get(..self.len).unwrap_or_default()
    }

    /// The raw value of attribute `name`. Names are a few bytes: compared in a
    /// loop the compiler inlines, not by a call to `memcmp`.
    #[inline]
    fn raw(&self, name: &[u8]) -> Option<&'a str> {
        self.list()
            .iter()
            .find(|(n, _)| n.len() == name.len() && n.iter().zip(name).all(|(a, b)| a == b))
            .map(|&(_, raw)| raw)
    }
}

pub(super) fn is_ws(b: u8) -> bool {
    CLASS[usize::from(b)] & WS != 0
}

/// [`CLASS`] bit: XML whitespace.
const WS: u8 = 1;
/// [`CLASS`] bit: ends a name (whitespace, `/`, `>`, `=`).
const NAME_END: u8 = 2;
/// [`CLASS`] bit: a byte an attribute value's scan stops at (either quote, and
/// what the fast path declines in a value: `<`, tab, line feed, carriage return).
const VALUE_STOP: u8 = 4;
/// [`CLASS`] bit: a byte character data's plain run stops at (`<`, `&`, CR).
const TEXT_STOP: u8 = 8;
/// Bytes of character data looked at a word at a time before a search: most runs
/// between a unit's tags are shorter, and a search costs more to set up.
const TEXT_HEAD: usize = 32;

/// The [`WS`], [`NAME_END`] and [`VALUE_STOP`] bits of each byte.
const CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    table[b' ' as usize] = WS | NAME_END;
    table[b'\t' as usize] = WS | NAME_END | VALUE_STOP;
    table[b'\n' as usize] = WS | NAME_END | VALUE_STOP;
    table[b'\r' as usize] = WS | NAME_END | VALUE_STOP;
    table[b'/' as usize] = NAME_END;
    table[b'>' as usize] = NAME_END;
    table[b'=' as usize] = NAME_END;
    table[b'"' as usize] = VALUE_STOP;
    table[b'\'' as usize] = VALUE_STOP;
    table[b'<' as usize] = VALUE_STOP | TEXT_STOP;
    table[b'&' as usize] = TEXT_STOP;
    table[b'\r' as usize] |= TEXT_STOP;
    table
};

/// A position in a buffered tag or unit (a string: the slices taken between
/// its ASCII delimiters are strings without another check).
pub(super) struct Cursor<'a> {
    pub(super) s: &'a [u8],
    t: &'a str,
    pub(super) i: usize,
}

impl<'a> Cursor<'a> {
    /// A cursor at the start of `text`.
    pub(super) fn new(text: &'a str) -> Self {
        Cursor {
            s: text.as_bytes(),
            t: text,
            i: 0,
        }
    }

    pub(super) fn rest(&self) -> &'a [u8] {
        self.s.get(self.i..).unwrap_or_default()
    }

    pub(super) fn ws(&mut self) {
        while self.s.get(self.i).is_some_and(|b| is_ws(*b)) {
            self.i += 1;
        }
    }

    /// Consumes `lit` if the input goes on with it.
    pub(super) fn lit(&mut self, lit: &[u8]) -> bool {
        let found = self.rest().starts_with(lit);
        if found {
            self.i += lit.len();
        }
        found
    }

    /// Consumes `<name` when followed by whitespace, `>` or `/`.
    pub(super) fn start_tag(&mut self, name: &[u8]) -> Fast<bool> {
        let rest = self.rest();
        let found = rest.first() == Some(&b'<')
            && rest.get(1..=name.len()) == Some(name)
            && rest
                .get(name.len() + 1)
                .is_some_and(|b| is_ws(*b) || matches!(b, b'>' | b'/'));
        if found {
            self.i += name.len() + 1;
        }
        Ok(found)
    }

    /// A name (up to whitespace, `/`, `>` or `=`).
    pub(super) fn name(&mut self) -> &'a [u8] {
        let start = self.i;
        while self
            .s
            .get(self.i)
            .is_some_and(|b| CLASS[usize::from(*b)] & NAME_END == 0)
        {
            self.i += 1;
        }
        self.s.get(start..self.i).unwrap_or_default()
    }

    /// [`Cursor::attrs`], trying first the form the writer gives a tag: exactly
    /// the attributes `names`, in that order, each as ` name="value"`, then `>`
    /// or `/>` (no name compared against the others, no whitespace to skip).
    /// Anything else is read again by [`Cursor::attrs`], from the same place:
    /// the attributes are the same either way.
    /// Inlined where it is called: the names are constants there, so their
    /// comparisons are too.
    #[inline(always)]
    pub(super) fn attrs_as(
        &mut self,
        names: &[&'static [u8]],
        attrs: &mut Attrs<'a>,
    ) -> Fast<bool> {
        let start = self.i;
        if let Some(empty) = self.exact_attrs(names, attrs) {
            return Ok(empty);
        }
        self.i = start;
        self.attrs(attrs)
    }

    #[inline(always)]
    fn exact_attrs(&mut self, names: &[&'static [u8]], attrs: &mut Attrs<'a>) -> Option<bool> {
        attrs.len = 0;
        for &name in names {
            let rest = self.rest();
            let n = name.len();
            if rest.first() != Some(&b' ')
                || rest.get(1..=n) != Some(name)
                || rest.get(n + 1..n + 3) != Some(b"=\"")
            {
                return None;
            }
            let start = self.i + n + 3;
            let mut end = start;
            while self
                .s
                .get(end)
                .is_some_and(|b| CLASS[usize::from(*b)] & VALUE_STOP == 0)
            {
                end += 1;
            }
            if self.s.get(end) != Some(&b'"') {
                return None;
            }
            *attrs.list.get_mut(attrs.len)? = (name, self.t.get(start..end)?);
            attrs.len += 1;
            self.i = end + 1;
        }
        match self.rest() {
            [b'>', ..] => {
                self.i += 1;
                Some(false)
            }
            [b'/', b'>', ..] => {
                self.i += 2;
                Some(true)
            }
            _ => None,
        }
    }

    /// A tag's attributes through its `>` into `attrs` (`true`: it was `/>`).
    /// Values are raw; duplicates and anything unusual are declined.
    pub(super) fn attrs(&mut self, attrs: &mut Attrs<'a>) -> Fast<bool> {
        attrs.len = 0;
        loop {
            let had_ws = self.s.get(self.i).is_some_and(|b| is_ws(*b));
            self.ws();
            if self.lit(b">") {
                return Ok(false);
            }
            if self.lit(b"/>") {
                return Ok(true);
            }
            if !had_ws {
                return Err(Declined);
            }
            let name = self.name();
            if name.is_empty() || !self.lit(b"=") {
                return Err(Declined);
            }
            let quote = *self.s.get(self.i).ok_or(Declined)?;
            if !matches!(quote, b'"' | b'\'') {
                return Err(Declined);
            }
            // Values are short: a plain loop beats a search's set-up.
            let start = self.i + 1;
            let mut end = start;
            loop {
                match self.s.get(end) {
                    Some(&b) if CLASS[usize::from(b)] & VALUE_STOP == 0 => end += 1,
                    Some(&b) if b == quote => break,
                    Some(b'"' | b'\'') => end += 1,
                    _ => return Err(Declined),
                }
            }
            if attrs
                .list()
                .iter()
                .any(|(n, _)| n.len() == name.len() && *n == name)
            {
                return Err(Declined);
            }
            let value = self.t.get(start..end).ok_or(Declined)?;
            *attrs.list.get_mut(attrs.len).ok_or(Declined)? = (name, value);
            attrs.len += 1;
            self.i = end + 1;
        }
    }

    /// Character data up to the next `<` (or the end), unescaped, appended to `out`.
    pub(super) fn text(&mut self, out: &mut String) -> Fast<()> {
        loop {
            // One scan for the end and what the plain run stops at.
            let rest = self.rest();
            let plain = text_stop(rest);
            out.push_str(self.t.get(self.i..self.i + plain).ok_or(Declined)?);
            self.i += plain;
            match rest.get(plain) {
                Some(b'&') => {}
                Some(b'\r') => return Err(Declined),
                _ => return Ok(()),
            }
            // The entities the writer writes, then any other as `unescape`
            // reads it: the `;` within 12 bytes (no entity has a `<`).
            let entity = rest.get(plain..).unwrap_or_default();
            let (c, len) = match entity {
                [_, b'l', b't', b';', ..] => ('<', 4),
                [_, b'g', b't', b';', ..] => ('>', 4),
                [_, b'a', b'm', b'p', b';', ..] => ('&', 5),
                [_, b'q', b'u', b'o', b't', b';', ..] => ('"', 6),
                _ => {
                    let semi = entity.iter().take(13).position(|&b| b == b';');
                    let semi = semi.ok_or(Declined)?;
                    (entity_char(entity.get(1..semi).ok_or(Declined)?)?, semi + 1)
                }
            };
            out.push(c);
            self.i += len;
        }
    }
}

/// Where character data's plain run in `rest` stops (the first `<`, `&` or CR, or
/// its end): its first [`TEXT_HEAD`] bytes a word (8 bytes) at a time, the rest (if
/// any) by a search.
fn text_stop(rest: &[u8]) -> usize {
    let head = rest.get(..TEXT_HEAD).unwrap_or(rest);
    let mut words = head.chunks_exact(8);
    let mut at = 0;
    for word in words.by_ref() {
        let mut bytes = [0; 8];
        bytes.copy_from_slice(word);
        let found = stop_bytes(u64::from_le_bytes(bytes));
        if found != 0 {
            return at + (found.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    if let Some(n) = words
        .remainder()
        .iter()
        .position(|b| CLASS[usize::from(*b)] & TEXT_STOP != 0)
    {
        return at + n;
    }
    let tail = rest.get(head.len()..).unwrap_or_default();
    head.len() + memchr::memchr3(b'<', b'&', b'\r', tail).unwrap_or(tail.len())
}

/// The high bit of each byte of `word` that is `<`, `&` or CR, exact from the
/// lowest byte up to the first such byte (above it a borrow may set others).
fn stop_bytes(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let zero = |x: u64| x.wrapping_sub(ONES) & !x & HIGH;
    zero(word ^ (ONES * u64::from(b'<')))
        | zero(word ^ (ONES * u64::from(b'&')))
        | zero(word ^ (ONES * u64::from(b'\r')))
}

/// Appends `text` (no markup) to `out` with its entities and character references
/// resolved.
fn unescape(mut text: &str, out: &mut String) -> Fast<()> {
    out.reserve(text.len());
    while let Some(amp) = memchr::memchr(b'&', text.as_bytes()) {
        let (before, entity) = text.split_at(amp);
        out.push_str(before);
        let semi = memchr::memchr(b';', entity.as_bytes())
            .filter(|&n| n <= 12)
            .ok_or(Declined)?;
        out.push(entity_char(
            entity.as_bytes().get(1..semi).ok_or(Declined)?,
        )?);
        text = entity.get(semi + 1..).ok_or(Declined)?;
    }
    out.push_str(text);
    Ok(())
}

/// The character of a predefined entity or a character reference (without `&`
/// and `;`); anything else, or a character XML does not allow, is declined.
fn entity_char(entity: &[u8]) -> Fast<char> {
    let c = match entity {
        b"amp" => '&',
        b"lt" => '<',
        b"gt" => '>',
        b"quot" => '"',
        b"apos" => '\'',
        _ => {
            let (digits, radix) = match entity {
                [b'#', b'x', hex @ ..] => (hex, 16),
                [b'#', dec @ ..] => (dec, 10),
                _ => return Err(Declined),
            };
            if digits.is_empty() || !digits.iter().all(|b| (*b as char).is_digit(radix)) {
                return Err(Declined);
            }
            let text = std::str::from_utf8(digits).map_err(|_| Declined)?;
            u32::from_str_radix(text, radix)
                .ok()
                .and_then(char::from_u32)
                .ok_or(Declined)?
        }
    };
    if matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
    {
        Ok(c)
    } else {
        Err(Declined)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_resolves_entities_as_unescape_does() {
        for text in [
            "a&lt;b&gt;c&amp;d&quot;e&apos;f&#65;&#x42;g",
            "&lt;&lt;",
            "&amp;lt;",
            "x&lt",
            "x&lt y;",
            "&quot",
            "&nope;",
            "&#0;",
            "&#x110000;",
        ] {
            let mut c = Cursor::new(text);
            let mut out = String::new();
            let mut expected = String::new();
            let read = c.text(&mut out).map(|()| out);
            let unescaped = unescape(text, &mut expected).map(|()| expected);
            assert_eq!(read.ok(), unescaped.ok(), "{text:?}");
        }
    }

    #[test]
    fn text_stops_where_a_search_would_within_and_past_the_head() {
        for stop in ["<", "&amp;", "\r"] {
            for at in [0, 1, 7, 8, 9, 15, 16, 17, 24, 31, 32, 33, 40, 70] {
                let text = format!("{}{stop}x", "é".repeat(at / 2) + &"a".repeat(at % 2));
                let mut c = Cursor::new(&text);
                let mut out = String::new();
                let result = c.text(&mut out);
                let plain = text.find(['<', '&', '\r']).unwrap_or(text.len());
                assert!(out.starts_with(text.get(..plain).unwrap()), "{text:?}");
                match stop {
                    "<" => assert_eq!((c.i, out.len()), (plain, plain)),
                    "\r" => assert!(result.is_err()),
                    _ => assert_eq!(out, format!("{}&x", &text[..plain])),
                }
            }
        }
        // Stops (and the bytes a word's test may wrongly flag past the first
        // one: `=`, `'` and `\x0e` follow the stops by one) anywhere in a word.
        let alphabet = [b'a', b'<', b'&', b'\r', b'=', b'\'', b'\x0e', 0xc3, 0xa9];
        let mut seed = 1u32;
        for _ in 0..4000 {
            seed = seed.wrapping_mul(1_103_515_245).wrapping_add(12_345);
            let len = (seed >> 16) as usize % 80;
            let bytes: Vec<u8> = (0..len)
                .map(|i| {
                    let x =
                        seed.rotate_left(i as u32 % 32) ^ (i as u32).wrapping_mul(2_654_435_761);
                    // Mostly plain bytes, so that stops come late too.
                    if x.is_multiple_of(7) {
                        alphabet[(x >> 8) as usize % alphabet.len()]
                    } else {
                        b'a'
                    }
                })
                .collect();
            let naive = bytes.iter().position(|b| matches!(b, b'<' | b'&' | b'\r'));
            assert_eq!(text_stop(&bytes), naive.unwrap_or(len), "{bytes:?}");
        }
        let mut c = Cursor::new("no stop in this text, which is longer than the head");
        let mut out = String::new();
        c.text(&mut out).unwrap();
        assert_eq!(out.len(), c.i);
        assert_eq!(c.i, c.s.len());
    }
}
