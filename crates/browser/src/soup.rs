//! Random tag soup for the differential fuzzer: documents made of pieces that
//! stress the tree builder (tables and foster parenting, formatting elements and
//! the adoption agency, `select`, `template`, foreign content and its integration
//! points, raw-text elements, frameset, implied end tags), plus the tokens of a
//! libFuzzer dictionary (`fuzz/dicts/html.dict`).

/// A small deterministic PRNG (SplitMix64): the same seed, the same documents.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A number in `0..n` (0 when `n` is 0).
    pub fn below(&mut self, n: usize) -> usize {
        if n == 0 {
            return 0;
        }
        (self.next_u64() % n as u64) as usize
    }

    /// One of `items` (`None` when empty).
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        items.get(self.below(items.len()))
    }
}

/// Element names the tree builder treats specially (and a few ordinary ones).
const TAGS: &[&str] = &[
    "html",
    "head",
    "body",
    "p",
    "div",
    "span",
    "a",
    "b",
    "i",
    "em",
    "strong",
    "u",
    "s",
    "small",
    "big",
    "code",
    "font",
    "nobr",
    "tt",
    "strike",
    "table",
    "caption",
    "colgroup",
    "col",
    "tbody",
    "thead",
    "tfoot",
    "tr",
    "td",
    "th",
    "select",
    "option",
    "optgroup",
    "hr",
    "input",
    "button",
    "form",
    "template",
    "svg",
    "math",
    "mi",
    "mo",
    "mn",
    "ms",
    "mtext",
    "annotation-xml",
    "mglyph",
    "malignmark",
    "foreignObject",
    "foreignobject",
    "desc",
    "title",
    "path",
    "frameset",
    "frame",
    "noframes",
    "noscript",
    "iframe",
    "noembed",
    "textarea",
    "xmp",
    "plaintext",
    "pre",
    "listing",
    "script",
    "style",
    "li",
    "ul",
    "ol",
    "dl",
    "dd",
    "dt",
    "h1",
    "h2",
    "h6",
    "br",
    "image",
    "img",
    "isindex",
    "keygen",
    "marquee",
    "object",
    "applet",
    "embed",
    "area",
    "wbr",
    "param",
    "source",
    "track",
    "ruby",
    "rb",
    "rp",
    "rt",
    "rtc",
    "menu",
    "search",
    "address",
    "center",
    "dialog",
    "details",
    "summary",
    "figure",
    "main",
    "nav",
    "section",
    "article",
    "aside",
    "header",
    "footer",
    "label",
    "meta",
    "link",
    "base",
    "basefont",
    "bgsound",
    "selectedcontent",
    "datalist",
    "fieldset",
    "legend",
    "sub",
    "sup",
    "var",
    "q",
    "cite",
];

/// Attributes, including ones foreign content adjusts.
const ATTRS: &[&str] = &[
    "id=x",
    "class=c",
    "type=hidden",
    "type=text",
    "encoding=text/html",
    "encoding=\"application/xhtml+xml\"",
    "xlink:href=#a",
    "xml:lang=en",
    "xmlns=http://www.w3.org/2000/svg",
    "xmlns:xlink=x",
    "definitionurl=u",
    "viewbox='0 0 1 1'",
    "color=red",
    "face=f",
    "size=2",
    "href=h",
    "a",
    "a=1 a=2",
    "foo:bar=z",
    "=d",
];

/// Other pieces: text, character references, comments, doctypes, CDATA.
const OTHER: &[&str] = &[
    "x",
    "text ",
    " ",
    "\n",
    "\t",
    "\r\n",
    "\r",
    "\u{0}",
    "&amp;",
    "&lt;",
    "&not",
    "&notin;",
    "&#x41;",
    "&#0;",
    "&#x80;",
    "&#xD800;",
    "<!-- c -->",
    "<!--",
    "-->",
    "<!-->",
    "<!DOCTYPE html>",
    "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01//EN\">",
    "<!DOCTYPE html PUBLIC \"-//W3C//DTD HTML 4.01 Transitional//EN\" \"\">",
    "<!doctype>",
    "<![CDATA[x]]>",
    "<![CDATA[",
    "]]>",
    "<?pi?>",
    "</>",
    "<",
    ">",
    "</ x>",
    "<x/>",
    "\u{e9}",
    "\u{1f600}",
];

/// Parses a libFuzzer dictionary (`"..."` per line, `\xNN`, `\\`, `\"` escapes;
/// `#` comments, an optional `name=` before the quote). Entries that are not
/// UTF-8 or hold a byte-order mark are dropped: the fuzzer compares string
/// parsers, and a leading BOM is the decoder's business.
pub fn parse_dictionary(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in text.lines() {
        let line = line.trim();
        if line.starts_with('#') {
            continue;
        }
        let (Some(start), Some(end)) = (line.find('"'), line.rfind('"')) else {
            continue;
        };
        let Some(body) = line.get(start + 1..end).filter(|_| end > start) else {
            continue;
        };
        let mut bytes = Vec::new();
        let mut it = body.bytes();
        while let Some(b) = it.next() {
            if b != b'\\' {
                bytes.push(b);
                continue;
            }
            match it.next() {
                Some(b'x') => {
                    let hex: Vec<u8> = it.by_ref().take(2).collect();
                    let value = std::str::from_utf8(&hex)
                        .ok()
                        .and_then(|h| u8::from_str_radix(h, 16).ok());
                    bytes.extend(value);
                }
                Some(other) => bytes.push(other),
                None => {}
            }
        }
        if let Ok(s) = String::from_utf8(bytes)
            && !s.contains('\u{feff}')
        {
            out.push(s);
        }
    }
    out
}

/// Builds random documents from the built-in pieces and extra dictionary tokens.
#[derive(Clone, Debug)]
pub struct SoupGenerator {
    rng: Rng,
    dictionary: Vec<String>,
    /// The most pieces in one document.
    pub max_pieces: usize,
}

impl SoupGenerator {
    /// A generator from `seed` with extra `dictionary` tokens.
    pub fn new(seed: u64, dictionary: Vec<String>) -> SoupGenerator {
        SoupGenerator {
            rng: Rng::new(seed),
            dictionary,
            max_pieces: 40,
        }
    }

    /// The next document.
    pub fn document(&mut self) -> String {
        let pieces = 1 + self.rng.below(self.max_pieces);
        let mut out = String::new();
        for _ in 0..pieces {
            self.piece(&mut out);
        }
        out
    }

    fn piece(&mut self, out: &mut String) {
        let tag = self.rng.pick(TAGS).copied().unwrap_or("p");
        match self.rng.below(10) {
            0..=3 => {
                out.push('<');
                out.push_str(&self.case_mix(tag));
                for _ in 0..self.rng.below(3) {
                    out.push(' ');
                    out.push_str(self.rng.pick(ATTRS).copied().unwrap_or("a"));
                }
                if self.rng.below(8) == 0 {
                    out.push('/');
                }
                out.push('>');
            }
            4..=6 => {
                out.push_str("</");
                out.push_str(&self.case_mix(tag));
                out.push('>');
            }
            7 | 8 => out.push_str(self.rng.pick(OTHER).copied().unwrap_or("x")),
            _ => match self.rng.pick(&self.dictionary) {
                Some(token) => out.push_str(token),
                None => out.push('x'),
            },
        }
    }

    /// `name`, now and then with upper-case letters (tag names are case-blind,
    /// SVG's camel-case adjustments are not).
    fn case_mix(&mut self, name: &str) -> String {
        if self.rng.below(6) != 0 {
            return name.to_owned();
        }
        name.chars()
            .map(|c| {
                if self.rng.below(2) == 0 {
                    c.to_ascii_uppercase()
                } else {
                    c
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_documents() {
        let mut a = SoupGenerator::new(7, vec!["<tok>".into()]);
        let mut b = SoupGenerator::new(7, vec!["<tok>".into()]);
        for _ in 0..50 {
            assert_eq!(a.document(), b.document());
        }
        let mut c = SoupGenerator::new(8, Vec::new());
        assert_ne!(
            (0..5).map(|_| a.document()).collect::<Vec<_>>(),
            (0..5).map(|_| c.document()).collect::<Vec<_>>()
        );
    }

    #[test]
    fn reads_a_libfuzzer_dictionary() {
        let dict =
            "# comment\n\"<p>\"\nkw=\"a\\\"b\"\n\"\\x00\\x41\"\n\"\\xef\\xbb\\xbf\"\n\"\\xff\"\n";
        assert_eq!(parse_dictionary(dict), vec!["<p>", "a\"b", "\u{0}A"]);
    }
}
