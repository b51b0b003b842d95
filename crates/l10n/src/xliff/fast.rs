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

use crate::block::Run;
use crate::lang::LanguageTag;

use super::fast_xml::{
    Attrs, Cursor, Declined, Fast, attr, attr_raw, attr_str, data_number, is_ws,
};
use super::notes::NoteKind;
use super::pool::Pool;
use super::read::{Unit, XliffHeader, push_text};

/// The declaration the writer starts with; any other start: declined.
const DECL: &[u8] = b"<?xml version=\"1.0\" encoding=\"UTF-8\"?>";
/// Bytes read per call.
pub(super) const CHUNK: usize = 64 * 1024;
/// The largest unit (or outer tag) the fast path buffers; a larger one is declined.
const MAX_UNIT: usize = 4 << 20;

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
    /// What is buffered, checked UTF-8 once as it is read (a file that is not is
    /// declined): every piece of it is a string without another check.
    buf: String,
    /// Bytes read but not yet in `buf`: a character cut by the end of a read.
    raw: Vec<u8>,
    pos: usize,
    eof: bool,
    outer: Outer,
    pub(super) header: Option<XliffHeader>,
    pub(super) scan: bool,
    /// `<originalData>` of the unit being read by the number of its `d<N>` id
    /// (`fast_xml::data_number`), reused.
    data: Vec<Slot>,
    /// (run index, data id number) of the source's codes, reused.
    refs: Vec<(usize, u32)>,
    /// The open `<pc>`s of the content being read (id, end data id), reused.
    pcs: Vec<(u32, Option<u32>)>,
    /// Strings and run lists to fill (`pool.rs`).
    pub(super) pool: Pool,
}

/// One `<data>` of a unit.
#[derive(Default)]
enum Slot {
    #[default]
    Absent,
    Markup(String),
    /// Moved into the code naming it: a second code naming it is declined.
    Taken,
}

impl FastReader {
    pub(super) fn new(file: File, scan: bool) -> Self {
        FastReader {
            file,
            buf: String::with_capacity(CHUNK),
            raw: Vec::new(),
            pos: 0,
            eof: false,
            outer: Outer::Start,
            header: None,
            scan,
            data: Vec::new(),
            refs: Vec::new(),
            pcs: Vec::new(),
            pool: Pool::default(),
        }
    }

    /// Reads more bytes; `false` at the end of the file.
    fn fill(&mut self) -> Fast<bool> {
        if self.eof {
            return Ok(false);
        }
        if self.pos > 0 {
            if !self.buf.is_char_boundary(self.pos) {
                return Err(Declined);
            }
            self.buf.drain(..self.pos);
            self.pos = 0;
        }
        if self.buf.len() > MAX_UNIT {
            return Err(Declined);
        }
        // Read into the buffer's own bytes (the spare capacity: nothing is
        // zeroed, nothing copied), then checked once as a whole.
        let mut bytes = std::mem::take(&mut self.buf).into_bytes();
        bytes.append(&mut self.raw);
        let n = loop {
            match (&mut self.file).take(CHUNK as u64).read_to_end(&mut bytes) {
                Ok(n) => break n,
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
                // The general reader reports it.
                Err(_) => return Err(Declined),
            }
        };
        self.eof = n == 0;
        self.buf = match String::from_utf8(bytes) {
            Ok(text) => text,
            Err(e) => {
                let error = e.utf8_error();
                // Not UTF-8 (the general reader says what it makes of it).
                if error.error_len().is_some() || self.eof {
                    return Err(Declined);
                }
                // A character cut by the end of the read: its start waits for
                // the rest.
                let mut bytes = e.into_bytes();
                self.raw = bytes.split_off(error.valid_up_to());
                String::from_utf8(bytes).map_err(|_| Declined)?
            }
        };
        Ok(n > 0)
    }

    /// Makes sure the buffer holds `needle` after the current position; its end.
    fn buffer_through(&mut self, needle: &[u8]) -> Fast<Option<usize>> {
        let mut from = self.pos;
        loop {
            let rest = self.buf.as_bytes().get(from..).unwrap_or_default();
            if let Some(at) = memchr::memmem::find(rest, needle) {
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

    /// The next unit pushed onto `out` (built there, not moved through the
    /// calls); `Ok(false)` at the end of a well-formed file.
    pub(super) fn next_unit_into(&mut self, out: &mut Vec<Unit>) -> Fast<bool> {
        if self.outer == Outer::Start {
            let Some(end) = self.buffer_through(b"?>")? else {
                return Err(Declined);
            };
            if self.buf.as_bytes().get(self.pos..end) != Some(DECL) {
                return Err(Declined);
            }
            self.pos = end;
        }
        loop {
            self.skip_ws()?;
            if self.pos >= self.buf.len() {
                // The end of the file.
                return match self.outer {
                    Outer::Done => Ok(false),
                    _ => Err(Declined),
                };
            }
            if self.outer == Outer::InFile && self.buffered_starts_with(b"<unit")? {
                let start = self.pos;
                // First from what is buffered, without looking for its end: a
                // unit ends at its first `</unit>`, and reading never goes past
                // one without declining (`unit`), so only a decline can come from
                // a unit cut by the end of the buffer.
                let buf = std::mem::take(&mut self.buf);
                let tried = self.unit(buf.get(start..).unwrap_or_default(), out);
                self.buf = buf;
                if let Ok(len) = tried {
                    self.pos = start + len;
                    return Ok(true);
                }
                // Then buffered through its end (declined there: a real decline).
                let Some(end) = self.buffer_through(b"</unit>")? else {
                    return Err(Declined);
                };
                let start = self.pos;
                let buf = std::mem::take(&mut self.buf);
                let len = self.unit(buf.get(start..end).unwrap_or_default(), out);
                self.buf = buf;
                // Pushed only when it is read through its end: a unit read
                // short of `end` is not the general reader's (declined).
                if start + len? != end {
                    out.pop();
                    return Err(Declined);
                }
                self.pos = end;
                return Ok(true);
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

    /// Whether the bytes at the current position start with `prefix`, reading more
    /// first when fewer are buffered (a `<unit` cut by the end of a read is still
    /// a unit).
    fn buffered_starts_with(&mut self, prefix: &[u8]) -> Fast<bool> {
        while self.buf.len().saturating_sub(self.pos) < prefix.len() {
            if !self.fill()? {
                break;
            }
        }
        Ok(self
            .buf
            .as_bytes()
            .get(self.pos..)
            .unwrap_or_default()
            .starts_with(prefix))
    }

    fn skip_ws(&mut self) -> Fast<()> {
        loop {
            while self.buf.as_bytes().get(self.pos).is_some_and(|b| is_ws(*b)) {
                self.pos += 1;
            }
            if self.pos < self.buf.len() || !self.fill()? {
                return Ok(());
            }
        }
    }

    /// A tag outside units: `<xliff>`, `<file>`, their end tags.
    fn outer_tag(&mut self, tag: &str) -> Fast<()> {
        let mut c = Cursor::new(tag);
        let next = match self.outer {
            Outer::Start if c.start_tag(b"xliff")? => {
                let mut attrs = Attrs::default();
                if c.attrs(&mut attrs)? {
                    return Err(Declined);
                }
                self.header = Some(header(&attrs)?);
                Outer::InXliff
            }
            Outer::InXliff if c.start_tag(b"file")? => {
                if c.attrs(&mut Attrs::default())? {
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

    /// One `<unit>…</unit>` at the start of `text` pushed onto `out` (nothing
    /// when declined), and its length.
    fn unit(&mut self, text: &str, out: &mut Vec<Unit>) -> Fast<usize> {
        let mut c = Cursor::new(text);
        if !c.start_tag(b"unit")? {
            return Err(Declined);
        }
        let mut attrs = Attrs::default();
        if c.attrs_as(&[b"id", b"name"], &mut attrs)? {
            return Err(Declined);
        }
        self.pool.refill();
        let mut id = self.pool.string();
        id.push_str(&attr_str(&attrs, b"id")?.ok_or(Declined)?);
        for slot in self.data.drain(..) {
            if let Slot::Markup(markup) = slot {
                self.pool.put_string(markup);
            }
        }
        self.refs.clear();
        let mut source = self.pool.runs();
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
                // The writer's `<segment>` has no attributes, or only a state.
                if c.attrs_as(&[], &mut attrs)? {
                    return Err(Declined);
                }
                segment = Some(attr_str(&attrs, b"state")?.as_deref() == Some("initial"));
                c.ws();
                if !c.lit(b"<source>") {
                    return Err(Declined);
                }
                let mut content = Content {
                    c: &mut c,
                    pool: &mut self.pool,
                    pcs: &mut self.pcs,
                };
                content.inline(b"</source>", Some(&mut self.refs), &mut source)?;
                c.ws();
                if c.lit(b"<target>") {
                    let mut runs = self.pool.runs();
                    let mut content = Content {
                        c: &mut c,
                        pool: &mut self.pool,
                        pcs: &mut self.pcs,
                    };
                    content.inline(b"</target>", None, &mut runs)?;
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
        if self.scan {
            self.pool.put_runs(std::mem::take(&mut source));
        } else {
            // Each code takes its markup (no copy); a data id named twice is
            // declined (the writer names each once), one absent leaves it empty.
            for (at, n) in self.refs.drain(..) {
                let Some(slot) = self.data.get_mut(n as usize) else {
                    continue;
                };
                let markup = match std::mem::replace(slot, Slot::Taken) {
                    Slot::Markup(markup) => markup,
                    Slot::Absent => {
                        *slot = Slot::Absent;
                        continue;
                    }
                    Slot::Taken => return Err(Declined),
                };
                if let Some(
                    Run::Open { data: d, .. }
                    | Run::Close { data: d, .. }
                    | Run::Placeholder { data: d, .. },
                ) = source.get_mut(at)
                {
                    *d = markup;
                }
            }
        }
        let target = match target {
            Some(runs)
                if runs
                    .iter()
                    .all(|r| matches!(r, Run::Text(t) if t.is_empty())) =>
            {
                self.pool.put_runs(runs);
                None
            }
            target => target,
        };
        out.push(Unit {
            id,
            source,
            target,
            unconfirmed: segment == Some(true),
            segments: Vec::new(),
            suggestion: None,
        });
        Ok(c.i)
    }

    /// The content of `<originalData>` through its end tag.
    fn original_data(&mut self, c: &mut Cursor<'_>) -> Fast<()> {
        let mut attrs = Attrs::default();
        loop {
            c.ws();
            if c.lit(b"</originalData>") {
                return Ok(());
            }
            if !c.start_tag(b"data")? {
                return Err(Declined);
            }
            let empty = c.attrs_as(&[b"id"], &mut attrs)?;
            let n = data_number(attr_raw(&attrs, b"id").ok_or(Declined)?)?;
            let mut text = self.pool.string();
            if !empty {
                loop {
                    c.text(&mut text)?;
                    if c.lit(b"</data>") {
                        break;
                    }
                    cp(c, &mut text)?;
                }
            }
            if self.scan {
                self.pool.put_string(text);
            } else {
                let at = n as usize;
                if self.data.len() <= at {
                    self.data.resize_with(at + 1, Slot::default);
                }
                // A duplicate id: the last one, as the general reader's map.
                if let Some(slot) = self.data.get_mut(at)
                    && let Slot::Markup(old) = std::mem::replace(slot, Slot::Markup(text))
                {
                    self.pool.put_string(old);
                }
            }
        }
    }
}

/// `<notes>`' content through `</notes>`: comments (their text is not kept); a
/// note another reader would keep (a suggestion) is declined.
fn notes(c: &mut Cursor<'_>) -> Fast<()> {
    let mut attrs = Attrs::default();
    loop {
        c.ws();
        if c.lit(b"</notes>") {
            return Ok(());
        }
        if !c.start_tag(b"note")? {
            return Err(Declined);
        }
        let empty = c.attrs(&mut attrs)?;
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
    let mut attrs = Attrs::default();
    if !c.attrs(&mut attrs)? {
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

/// The content of a `<source>` or `<target>` being read.
struct Content<'c, 'a> {
    c: &'c mut Cursor<'a>,
    pool: &'c mut Pool,
    /// The open `<pc>`s (id, end data id), reused.
    pcs: &'c mut Vec<(u32, Option<u32>)>,
}

impl Content<'_, '_> {
    /// Inline content through `end` into `runs`, as the general reader builds it;
    /// `refs`: a source's codes record the data ids they name.
    fn inline(
        &mut self,
        end: &[u8],
        mut refs: Option<&mut Vec<(usize, u32)>>,
        runs: &mut Vec<Run>,
    ) -> Fast<()> {
        let c = &mut *self.c;
        let pcs = &mut *self.pcs;
        pcs.clear();
        let mut attrs = Attrs::default();
        loop {
            // Straight into the text run (a new one only when it gets text).
            if let Some(Run::Text(t)) = runs.last_mut() {
                c.text(t)?;
            } else {
                let mut t = self.pool.string();
                c.text(&mut t)?;
                if t.is_empty() {
                    self.pool.put_string(t);
                } else {
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
            let empty = match name {
                b"pc" => c.attrs_as(&[b"id", b"dataRefStart", b"dataRefEnd"], &mut attrs)?,
                b"ph" => c.attrs_as(&[b"id", b"dataRef"], &mut attrs)?,
                _ => c.attrs(&mut attrs)?,
            };
            let data = |name: &[u8]| -> Fast<Option<u32>> {
                match attr_raw(&attrs, name) {
                    Some(raw) if refs.is_some() => data_number(raw).map(Some),
                    _ => Ok(None),
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
    refs: &mut Option<&mut Vec<(usize, u32)>>,
    id: u32,
    data: Option<u32>,
    run: fn(u32) -> Run,
) {
    if let (Some(refs), Some(d)) = (refs.as_deref_mut(), data) {
        refs.push((runs.len(), d));
    }
    runs.push(run(id));
}

/// A code's id as the general reader reads it (foreign ids are 0).
fn code_id(attrs: &Attrs<'_>, name: &[u8]) -> Fast<u32> {
    // The writer's ids: up to 9 digits, no entity (no overflow either).
    if let Some(raw @ [_, ..]) = attr_raw(attrs, name)
        && raw.len() <= 9
        && raw.iter().all(u8::is_ascii_digit)
    {
        return Ok(raw.iter().fold(0, |n, d| n * 10 + u32::from(d - b'0')));
    }
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
