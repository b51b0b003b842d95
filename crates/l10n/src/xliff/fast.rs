//! The fast path of [`super::XliffReader`]: a reader for the XLIFF this crate
//! writes, straight from bytes to units, without quick-xml's generic events.
//!
//! It understands a strict subset of XML: the writer's declaration, `<xliff>`,
//! `<file>`, and units made of `<notes>` (comments only), `<originalData>`, one
//! `<segment>` with a `<source>` and an optional `<target>` holding text, the five
//! predefined entities, character references and `<pc>`/`<ph>`/`<sc>`/`<ec>`/`<cp>`.
//! Whatever else it meets (another producer's file, sentence segments, suggestion
//! notes, comments, CDATA, a malformed file…) it *declines*: the general reader takes
//! over the file from its start and skips the units already handed out, so the
//! units, and every error, are the general reader's (the test
//! `fast_and_general_readers_agree` reads files both ways).

use std::fs::File;
use std::io::Read;

use crate::FastMap;
use crate::block::Run;
use crate::lang::LanguageTag;

use super::notes::NoteKind;
use super::read::{Unit, XliffHeader, push_text};

/// The declaration the writer starts with; any other start: declined.
const DECL: &[u8] = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>";
/// Bytes read per call.
const CHUNK: usize = 64 * 1024;
/// The largest unit (or outer tag) the fast path buffers; a larger one is declined.
const MAX_UNIT: usize = 4 << 20;

/// The fast path declined (see the module docs): the general reader takes over.
#[derive(Debug)]
pub(super) struct Declined;

type Fast<T> = Result<T, Declined>;

/// Where the outer structure is.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Outer {
    /// Before `<xliff>`.
    Start,
    InXliff,
    InFile,
    /// After `</xliff>`.
    Done,
}

/// The fast reader's state.
pub(super) struct FastReader {
    file: File,
    buf: Vec<u8>,
    pos: usize,
    eof: bool,
    outer: Outer,
    pub(super) header: Option<XliffHeader>,
    pub(super) scan: bool,
    /// `<originalData>` of the unit being read, reused.
    data: FastMap<String, String>,
    /// (run index, data id) of the source's codes, reused.
    refs: Vec<(usize, String)>,
}

/// An attribute's name and raw (still escaped) value.
type Attr<'a> = (&'a [u8], &'a [u8]);

impl FastReader {
    pub(super) fn new(file: File, scan: bool) -> Self {
        FastReader {
            file,
            buf: Vec::with_capacity(CHUNK),
            pos: 0,
            eof: false,
            outer: Outer::Start,
            header: None,
            scan,
            data: FastMap::default(),
            refs: Vec::new(),
        }
    }

    /// Reads more bytes; `false` at the end of the file.
    fn fill(&mut self) -> Fast<bool> {
        if self.eof {
            return Ok(false);
        }
        if self.pos > 0 {
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        if self.buf.len() > MAX_UNIT {
            return Err(Declined);
        }
        let len = self.buf.len();
        self.buf.resize(len + CHUNK, 0);
        let n = loop {
            match self.file.read(&mut self.buf[len..]) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                // The general reader reports it.
                Err(_) => return Err(Declined),
            }
        };
        self.buf.truncate(len + n);
        self.eof = n == 0;
        Ok(n > 0)
    }

    /// Makes sure the buffer holds `needle` after the current position; its end.
    fn buffer_through(&mut self, needle: &[u8]) -> Fast<Option<usize>> {
        let mut from = self.pos;
        loop {
            if let Some(at) = memchr::memmem::find(&self.buf[from..], needle) {
                return Ok(Some(from + at + needle.len()));
            }
            let kept = self
                .buf
                .len()
                .saturating_sub(needle.len())
                .saturating_sub(self.pos);
            if !self.fill()? {
                return Ok(None);
            }
            from = self.pos + kept;
        }
    }

    /// The next unit; `Ok(None)` at the end of a well-formed file.
    pub(super) fn next_unit(&mut self) -> Fast<Option<Unit>> {
        if self.outer == Outer::Start {
            let Some(end) = self.buffer_through(b"?>")? else {
                return Err(Declined);
            };
            if self.buf.get(self.pos..end) != Some(DECL) {
                return Err(Declined);
            }
            self.pos = end;
        }
        loop {
            self.skip_ws()?;
            if self.pos >= self.buf.len() {
                // The end of the file.
                return match self.outer {
                    Outer::Done => Ok(None),
                    _ => Err(Declined),
                };
            }
            if self.outer == Outer::InFile && self.buf[self.pos..].starts_with(b"<unit") {
                let Some(end) = self.buffer_through(b"</unit>")? else {
                    return Err(Declined);
                };
                let start = self.pos;
                let buf = std::mem::take(&mut self.buf);
                let unit = self.unit(buf.get(start..end).unwrap_or_default());
                self.buf = buf;
                self.pos = end;
                return unit.map(Some);
            }
            let Some(end) = self.buffer_through(b">")? else {
                return Err(Declined);
            };
            let buf = std::mem::take(&mut self.buf);
            let step = self.outer_tag(buf.get(self.pos..end).unwrap_or_default());
            self.buf = buf;
            step?;
            self.pos = end;
        }
    }

    fn skip_ws(&mut self) -> Fast<()> {
        loop {
            while self.buf.get(self.pos).is_some_and(|b| is_ws(*b)) {
                self.pos += 1;
            }
            if self.pos < self.buf.len() || !self.fill()? {
                return Ok(());
            }
        }
    }

    /// A tag outside units: `<xliff>`, `<file>`, their end tags.
    fn outer_tag(&mut self, tag: &[u8]) -> Fast<()> {
        let mut c = Cursor { s: tag, i: 0 };
        let next = match self.outer {
            Outer::Start if c.start_tag(b"xliff")? => {
                let (attrs, empty) = c.attrs()?;
                if empty {
                    return Err(Declined);
                }
                self.header = Some(header(&attrs)?);
                Outer::InXliff
            }
            Outer::InXliff if c.start_tag(b"file")? => {
                if c.attrs()?.1 {
                    return Err(Declined);
                }
                Outer::InFile
            }
            Outer::InXliff if c.lit(b"</xliff>") => Outer::Done,
            Outer::InFile if c.lit(b"</file>") => Outer::InXliff,
            _ => return Err(Declined),
        };
        if c.i != tag.len() {
            return Err(Declined);
        }
        self.outer = next;
        Ok(())
    }

    /// One `<unit>…</unit>`.
    fn unit(&mut self, bytes: &[u8]) -> Fast<Unit> {
        let mut c = Cursor { s: bytes, i: 0 };
        if !c.start_tag(b"unit")? {
            return Err(Declined);
        }
        let (attrs, empty) = c.attrs()?;
        if empty {
            return Err(Declined);
        }
        let id = attr(&attrs, b"id")?.ok_or(Declined)?;
        self.data.clear();
        self.refs.clear();
        let mut source = Vec::new();
        let mut target: Option<Vec<Run>> = None;
        let mut segment = None;
        loop {
            c.ws();
            if c.lit(b"</unit>") {
                break;
            } else if c.lit(b"<notes>") {
                notes(&mut c)?;
            } else if c.lit(b"<originalData>") {
                self.original_data(&mut c)?;
            } else if segment.is_none() && c.start_tag(b"segment")? {
                let (attrs, empty) = c.attrs()?;
                if empty {
                    return Err(Declined);
                }
                segment = Some(attr_str(&attrs, b"state")?.as_deref() == Some("initial"));
                c.ws();
                if !c.lit(b"<source>") {
                    return Err(Declined);
                }
                inline(&mut c, b"</source>", Some(&mut self.refs), &mut source)?;
                c.ws();
                if c.lit(b"<target>") {
                    let mut runs = Vec::new();
                    inline(&mut c, b"</target>", None, &mut runs)?;
                    target = Some(runs);
                    c.ws();
                }
                if !c.lit(b"</segment>") {
                    return Err(Declined);
                }
            } else {
                return Err(Declined);
            }
        }
        if c.i != bytes.len() {
            return Err(Declined);
        }
        if self.scan {
            source.clear();
        } else {
            for (at, data_id) in self.refs.drain(..) {
                if let (
                    Some(
                        Run::Open { data: d, .. }
                        | Run::Close { data: d, .. }
                        | Run::Placeholder { data: d, .. },
                    ),
                    Some(markup),
                ) = (source.get_mut(at), self.data.get(&data_id))
                {
                    d.clone_from(markup);
                }
            }
        }
        let target = target.filter(|runs| {
            !runs
                .iter()
                .all(|r| matches!(r, Run::Text(t) if t.is_empty()))
        });
        Ok(Unit {
            id,
            source,
            target,
            unconfirmed: segment == Some(true),
            segments: Vec::new(),
            suggestion: None,
        })
    }

    /// The content of `<originalData>` through its end tag.
    fn original_data(&mut self, c: &mut Cursor<'_>) -> Fast<()> {
        loop {
            c.ws();
            if c.lit(b"</originalData>") {
                return Ok(());
            }
            if !c.start_tag(b"data")? {
                return Err(Declined);
            }
            let (attrs, empty) = c.attrs()?;
            let id = attr(&attrs, b"id")?.unwrap_or_default();
            let mut text = String::new();
            if !empty {
                loop {
                    c.text(&mut text)?;
                    if c.lit(b"</data>") {
                        break;
                    }
                    cp(c, &mut text)?;
                }
            }
            if !self.scan {
                self.data.insert(id, text);
            }
        }
    }
}

/// `<notes>`' content through `</notes>`: comments (their text is not kept); a
/// note another reader would keep (a suggestion) is declined.
fn notes(c: &mut Cursor<'_>) -> Fast<()> {
    loop {
        c.ws();
        if c.lit(b"</notes>") {
            return Ok(());
        }
        if !c.start_tag(b"note")? {
            return Err(Declined);
        }
        let (attrs, empty) = c.attrs()?;
        let category = attr_str(&attrs, b"category")?;
        if NoteKind::from_category(category.as_deref()).is_some() {
            return Err(Declined);
        }
        if !empty {
            let mut skipped = String::new();
            c.text(&mut skipped)?;
            if !c.lit(b"</note>") {
                return Err(Declined);
            }
        }
    }
}

/// `<cp hex="…"/>` at the cursor, appended to `out`.
fn cp(c: &mut Cursor<'_>, out: &mut String) -> Fast<()> {
    if !c.start_tag(b"cp")? {
        return Err(Declined);
    }
    let (attrs, empty) = c.attrs()?;
    if !empty {
        return Err(Declined);
    }
    let hex = attr_str(&attrs, b"hex")?.unwrap_or_default();
    let ch = u32::from_str_radix(&hex, 16)
        .ok()
        .and_then(char::from_u32)
        .ok_or(Declined)?;
    out.push(ch);
    Ok(())
}

/// Inline content through `end` into `runs`, as the general reader builds it;
/// `refs`: a source's codes record the data ids they name.
fn inline(
    c: &mut Cursor<'_>,
    end: &[u8],
    mut refs: Option<&mut Vec<(usize, String)>>,
    runs: &mut Vec<Run>,
) -> Fast<()> {
    let mut pcs: Vec<(u32, Option<String>)> = Vec::new();
    loop {
        // Straight into the text run (a new one only when it gets text).
        if let Some(Run::Text(t)) = runs.last_mut() {
            c.text(t)?;
        } else {
            let mut t = String::new();
            c.text(&mut t)?;
            if !t.is_empty() {
                runs.push(Run::Text(t));
            }
        }
        if pcs.is_empty() && c.lit(end) {
            return Ok(());
        }
        if c.lit(b"</pc>") {
            let (id, data) = pcs.pop().ok_or(Declined)?;
            code(runs, &mut refs, id, data, close);
            continue;
        }
        if !c.lit(b"<") {
            return Err(Declined);
        }
        let name = c.name();
        let (attrs, empty) = c.attrs()?;
        let data = |name: &[u8]| -> Fast<Option<String>> {
            if refs.is_some() {
                attr(&attrs, name)
            } else {
                Ok(None)
            }
        };
        match (name, empty) {
            (b"pc", false) => {
                let id = code_id(&attrs, b"id")?;
                let (start, end) = (data(b"dataRefStart")?, data(b"dataRefEnd")?);
                code(runs, &mut refs, id, start, open);
                pcs.push((id, end));
            }
            (b"pc", true) => {
                let id = code_id(&attrs, b"id")?;
                let (start, end) = (data(b"dataRefStart")?, data(b"dataRefEnd")?);
                code(runs, &mut refs, id, start, open);
                code(runs, &mut refs, id, end, close);
            }
            (b"ph", true) => {
                let (id, d) = (code_id(&attrs, b"id")?, data(b"dataRef")?);
                code(runs, &mut refs, id, d, placeholder);
            }
            (b"sc", true) => {
                let (id, d) = (code_id(&attrs, b"id")?, data(b"dataRef")?);
                code(runs, &mut refs, id, d, open);
            }
            (b"ec", true) => {
                let (id, d) = (code_id(&attrs, b"startRef")?, data(b"dataRef")?);
                code(runs, &mut refs, id, d, close);
            }
            (b"cp", true) => {
                let hex = attr_str(&attrs, b"hex")?.unwrap_or_default();
                let ch = u32::from_str_radix(&hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or(Declined)?;
                push_text(runs, ch.encode_utf8(&mut [0; 4]));
            }
            _ => return Err(Declined),
        }
    }
}

fn open(id: u32) -> Run {
    Run::Open {
        id,
        data: String::new(),
    }
}

fn close(id: u32) -> Run {
    Run::Close {
        id,
        data: String::new(),
    }
}

fn placeholder(id: u32) -> Run {
    Run::Placeholder {
        id,
        data: String::new(),
    }
}

fn code(
    runs: &mut Vec<Run>,
    refs: &mut Option<&mut Vec<(usize, String)>>,
    id: u32,
    data: Option<String>,
    run: fn(u32) -> Run,
) {
    if let (Some(refs), Some(d)) = (refs.as_deref_mut(), data) {
        refs.push((runs.len(), d));
    }
    runs.push(run(id));
}

/// A code's id as the general reader reads it (foreign ids are 0).
fn code_id(attrs: &Attrs<'_>, name: &[u8]) -> Fast<u32> {
    Ok(attr_str(attrs, name)?
        .ok_or(Declined)?
        .trim()
        .parse()
        .unwrap_or(0))
}

/// The header of `<xliff>`, as the general reader checks it.
fn header(attrs: &Attrs<'_>) -> Fast<XliffHeader> {
    let version = attr_str(attrs, b"version")?.unwrap_or_default();
    if !version.starts_with('2') {
        return Err(Declined);
    }
    let lang = |name: &[u8]| -> Fast<Option<LanguageTag>> {
        match attr(attrs, name)? {
            Some(v) if !v.is_empty() => LanguageTag::parse(&v).map(Some).map_err(|_| Declined),
            _ => Ok(None),
        }
    };
    Ok(XliffHeader {
        source_lang: lang(b"srcLang")?,
        target_lang: lang(b"trgLang")?,
    })
}

/// The unescaped value of attribute `name`.
fn attr(attrs: &Attrs<'_>, name: &[u8]) -> Fast<Option<String>> {
    Ok(attr_str(attrs, name)?.map(std::borrow::Cow::into_owned))
}

/// The unescaped value of attribute `name`, borrowed when it has no entity.
fn attr_str<'a>(attrs: &Attrs<'a>, name: &[u8]) -> Fast<Option<std::borrow::Cow<'a, str>>> {
    let Some((_, raw)) = attrs.list().iter().find(|(n, _)| *n == name) else {
        return Ok(None);
    };
    let raw = std::str::from_utf8(raw).map_err(|_| Declined)?;
    if !raw.contains('&') {
        return Ok(Some(std::borrow::Cow::Borrowed(raw)));
    }
    let mut out = String::with_capacity(raw.len());
    unescape(raw, &mut out)?;
    Ok(Some(std::borrow::Cow::Owned(out)))
}

/// A tag's attributes (at most [`MAX_ATTRS`]; more: declined).
struct Attrs<'a> {
    list: [Attr<'a>; MAX_ATTRS],
    len: usize,
}

const MAX_ATTRS: usize = 5;

impl<'a> Attrs<'a> {
    fn list(&self) -> &[Attr<'a>] {
        self.list.get(..self.len).unwrap_or_default()
    }
}

fn is_ws(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | b'\r')
}

/// A position in a buffered tag or unit.
struct Cursor<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Cursor<'a> {
    fn rest(&self) -> &'a [u8] {
        self.s.get(self.i..).unwrap_or_default()
    }

    fn ws(&mut self) {
        while self.s.get(self.i).is_some_and(|b| is_ws(*b)) {
            self.i += 1;
        }
    }

    /// Consumes `lit` if the input goes on with it.
    fn lit(&mut self, lit: &[u8]) -> bool {
        let found = self.rest().starts_with(lit);
        if found {
            self.i += lit.len();
        }
        found
    }

    /// Consumes `<name` when followed by whitespace, `>` or `/`.
    fn start_tag(&mut self, name: &[u8]) -> Fast<bool> {
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
    fn name(&mut self) -> &'a [u8] {
        let start = self.i;
        while self
            .s
            .get(self.i)
            .is_some_and(|b| !is_ws(*b) && !matches!(b, b'/' | b'>' | b'='))
        {
            self.i += 1;
        }
        self.s.get(start..self.i).unwrap_or_default()
    }

    /// A tag's attributes through its `>` (`true`: it was `/>`). Values are raw;
    /// duplicates and anything unusual are declined.
    fn attrs(&mut self) -> Fast<(Attrs<'a>, bool)> {
        let mut attrs = Attrs {
            list: [(&[], &[]); MAX_ATTRS],
            len: 0,
        };
        loop {
            let had_ws = self.s.get(self.i).is_some_and(|b| is_ws(*b));
            self.ws();
            if self.lit(b">") {
                return Ok((attrs, false));
            }
            if self.lit(b"/>") {
                return Ok((attrs, true));
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
                    Some(&b) if b == quote => break,
                    None | Some(b'<' | b'\t' | b'\n' | b'\r') => return Err(Declined),
                    Some(_) => end += 1,
                }
            }
            if attrs.list().iter().any(|(n, _)| *n == name) {
                return Err(Declined);
            }
            let value = self.s.get(start..end).ok_or(Declined)?;
            *attrs.list.get_mut(attrs.len).ok_or(Declined)? = (name, value);
            attrs.len += 1;
            self.i = end + 1;
        }
    }

    /// Character data up to the next `<` (or the end), unescaped, appended to `out`.
    fn text(&mut self, out: &mut String) -> Fast<()> {
        let rest = self.rest();
        let len = memchr::memchr(b'<', rest).unwrap_or(rest.len());
        let region = rest.get(..len).ok_or(Declined)?;
        self.i += len;
        // Valid as a whole: the entities are ASCII, so every piece between them is.
        let region = std::str::from_utf8(region).map_err(|_| Declined)?;
        if region.contains('\r') {
            return Err(Declined);
        }
        unescape(region, out)
    }
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
