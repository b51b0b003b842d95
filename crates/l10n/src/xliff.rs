//! XLIFF 2.1 (core) export and import.
//!
//! Export ([`XliffWriter`]) streams one `<unit>` per block: its id, its structural
//! path as `name`, comments before it as `<note>`s, the raw markup of its inline
//! codes in `<originalData>`, and a `<source>` where paired codes are `<pc>` and
//! standalone codes `<ph>`:
//!
//! ```xml
//! <unit id="p-2" name="html/body/p[2]">
//!   <originalData><data id="d1">&lt;b&gt;</data><data id="d2">&lt;/b&gt;</data></originalData>
//!   <segment><source>Hello <pc id="1" dataRefStart="d1" dataRefEnd="d2">world</pc></source></segment>
//! </unit>
//! ```
//!
//! Import ([`XliffTranslations`]) streams the units back in order (out-of-order units
//! are buffered until asked for) and turns each `<source>` and `<target>` into runs:
//! `<pc>`, `<sc>`/`<ec>` and `<ph>` become codes by id, `<cp hex>` a character, other
//! inline markup (`<mrk>`, `<sm>`, `<em>`) is dropped keeping its text. The source's
//! codes get their markup back from `<originalData>`.
//!
//! A target is applied only where the page's block still has the unit's source —
//! the same text and the same codes with the same original markup
//! ([`source_difference`]): an id can name another block (an old file with
//! structural ids, `…body-1.p-3`; an element id moved to other text). A unit
//! whose id the page does not have is looked up by its source among the units
//! left once the file is read ([`crate::matching`]). Every
//! translation not applied is returned as an [`Issue`] by `finish`: source changed,
//! a translated unit the page does not have, a page block the file has no unit for.
//! The codes written are always the page's: a file's `<originalData>` is only
//! compared, never written.
//!
//! With sentence segmentation a unit holds a `<segment id="sN">` per sentence and
//! `<ignorable>`s between them (`xliff/segments.rs`, [`crate::segment`]).

use std::collections::HashMap;
use std::fs::File;
use std::io::{BufReader, Write};
use std::path::{Path, PathBuf};

use quick_xml::events::{BytesStart, Event};

use crate::block::{Block, Run};
use crate::error::{L10nError, Result};
use crate::lang::LanguageTag;
use crate::matching::{SourceIndex, runs_key};
use crate::reader::BlockSink;
use crate::segment::Segmenter;
use crate::update::{Carried, Fuzzy};
use crate::writer::{Issue, IssueKind, Translations, with_units_not_in_page};

mod segments;
pub use segments::UnitSegment;

/// XLIFF 2.x core namespace (2.1 keeps the 2.0 namespace).
pub const XLIFF_NS: &str = "urn:oasis:names:tc:xliff:document:2.0";

/// Escapes for XML text and attribute values; characters XML 1.0 cannot hold become
/// `<cp hex>` in text (`in_attr` replaces them with U+FFFD: attributes cannot carry `<cp>`).
fn xml_escape(s: &str, in_attr: bool, out: &mut String) {
    // Fast path: copy runs of bytes that never need escaping (printable ASCII and
    // UTF-8 sequences that cannot be U+FFFE/U+FFFF, which start with 0xEF).
    let bytes = s.as_bytes();
    let mut start = 0;
    let mut i = 0;
    while i < bytes.len() {
        let b = bytes[i];
        let special = b < 0x20 || matches!(b, b'&' | b'<' | b'>' | 0xEF) || (in_attr && b == b'"');
        if !special {
            i += 1;
            continue;
        }
        out.push_str(&s[start..i]);
        let c = s[i..].chars().next().unwrap_or('\u{FFFD}');
        escape_char(c, in_attr, out);
        i += c.len_utf8();
        start = i;
    }
    out.push_str(&s[start..]);
}

fn escape_char(c: char, in_attr: bool, out: &mut String) {
    match c {
        '&' => out.push_str("&amp;"),
        '<' => out.push_str("&lt;"),
        '>' => out.push_str("&gt;"),
        '"' if in_attr => out.push_str("&quot;"),
        '\t' | '\n' | '\r' if in_attr => out.push_str(&format!("&#{};", c as u32)),
        '\r' => out.push_str("&#13;"),
        c if !is_xml_char(c) => {
            if in_attr {
                out.push('\u{FFFD}');
            } else {
                out.push_str(&format!("<cp hex=\"{:04X}\"/>", c as u32));
            }
        }
        c => out.push(c),
    }
}

fn is_xml_char(c: char) -> bool {
    matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{D7FF}' | '\u{E000}'..='\u{FFFD}' | '\u{10000}'..)
}

/// Streams blocks into an XLIFF 2.1 document.
pub struct XliffWriter<W: Write> {
    out: W,
    error: Option<std::io::Error>,
    units: usize,
    segmenter: Option<Segmenter>,
}

impl<W: Write> XliffWriter<W> {
    /// Writes the header: `<xliff version="2.1" srcLang trgLang><file original>`.
    pub fn new(
        mut out: W,
        source_lang: &LanguageTag,
        target_lang: Option<&LanguageTag>,
        original: &str,
    ) -> std::io::Result<Self> {
        let mut head = String::from("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
        head.push_str(&format!(
            "<xliff xmlns=\"{XLIFF_NS}\" version=\"2.1\" srcLang=\""
        ));
        xml_escape(source_lang, true, &mut head);
        head.push('"');
        if let Some(t) = target_lang {
            head.push_str(" trgLang=\"");
            xml_escape(t, true, &mut head);
            head.push('"');
        }
        head.push_str(">\n <file id=\"f1\" original=\"");
        xml_escape(original, true, &mut head);
        head.push_str("\" xml:space=\"preserve\">\n");
        out.write_all(head.as_bytes())?;
        Ok(XliffWriter {
            out,
            error: None,
            units: 0,
            segmenter: None,
        })
    }

    /// Units written.
    pub fn units(&self) -> usize {
        self.units
    }

    fn unit(&mut self, block: &Block) -> std::io::Result<()> {
        if let Some(seg) = &self.segmenter {
            let pieces = seg.split(&block.runs);
            if pieces.len() > 1 {
                return self.unit_sentences(block, &pieces, &[]);
            }
        }
        self.unit_with(block, None)
    }

    /// Cuts units into sentences with `segmenter` ([`crate::segment`]; `None`: one
    /// segment per unit).
    pub fn segmented(mut self, segmenter: Option<Segmenter>) -> Self {
        self.segmenter = segmenter;
        self
    }

    /// Writes one unit (not its sub-blocks) with what `update` carried over: an
    /// exact match's target (`state="translated"`), or, for a near match, the old
    /// source and target as notes and `state="initial"` without a target (a near
    /// match is never merged: the translator confirms it).
    pub(crate) fn unit_with(
        &mut self,
        block: &Block,
        carried: Option<&Carried>,
    ) -> std::io::Result<()> {
        let mut s = String::with_capacity(256);
        let fuzzy = carried.and_then(|c| c.fuzzy.as_ref());
        unit_head(block, fuzzy.map(|f| ("", f)).as_slice(), &mut s);
        let target = carried
            .filter(|c| c.fuzzy.is_none())
            .and_then(|c| c.target.as_ref())
            .map(|t| t.runs(&block.runs));
        s.push_str(match (&target, fuzzy) {
            (_, Some(_)) => "   <segment state=\"initial\"><source>",
            (Some(_), None) if carried.is_some_and(|c| c.unconfirmed) => {
                "   <segment state=\"initial\"><source>"
            }
            (Some(_), None) => "   <segment state=\"translated\"><source>",
            (None, None) => "   <segment><source>",
        });
        write_runs(&block.runs, Some(&block.runs), &mut s);
        s.push_str("</source>");
        if let Some(t) = &target {
            s.push_str("<target>");
            write_runs(t, Some(&block.runs), &mut s);
            s.push_str("</target>");
        }
        s.push_str("</segment>\n  </unit>\n");
        self.units += 1;
        self.out.write_all(s.as_bytes())
    }

    /// Closes the document and returns the writer.
    pub fn finish(mut self) -> std::io::Result<W> {
        if let Some(e) = self.error.take() {
            return Err(e);
        }
        self.out.write_all(b" </file>\n</xliff>\n")?;
        self.out.flush()?;
        Ok(self.out)
    }
}

/// A unit's start tag, its notes (comments, then near matches' notes, each
/// labelled with its segment when there is one) and its `<originalData>`.
fn unit_head(block: &Block, fuzzy: &[(&str, &Fuzzy)], s: &mut String) {
    s.push_str("  <unit id=\"");
    xml_escape(&block.id, true, s);
    s.push_str("\" name=\"");
    xml_escape(&block.path, true, s);
    s.push_str("\">\n");
    if !block.notes.is_empty() || !fuzzy.is_empty() {
        s.push_str("   <notes>");
        for note in &block.notes {
            s.push_str("<note category=\"comment\">");
            xml_escape(note, false, s);
            s.push_str("</note>");
        }
        for (segment, f) in fuzzy {
            fuzzy_notes(segment, f, s);
        }
        s.push_str("</notes>\n");
    }
    let has_codes = block.runs.iter().any(|r| !matches!(r, Run::Text(_)));
    if has_codes {
        s.push_str("   <originalData>");
        for (i, run) in block.runs.iter().enumerate() {
            if let Run::Open { data, .. }
            | Run::Close { data, .. }
            | Run::Placeholder { data, .. } = run
            {
                s.push_str(&format!("<data id=\"d{}\">", i + 1));
                xml_escape(data, false, s);
                s.push_str("</data>");
            }
        }
        s.push_str("</originalData>\n");
    }
}

/// Writes runs as XLIFF inline content. `source` gives the data ids (`d` + index + 1).
pub fn write_runs(runs: &[Run], source: Option<&[Run]>, s: &mut String) {
    let data_id =
        |run: &Run| -> Option<usize> { source?.iter().position(|r| r == run).map(|i| i + 1) };
    let mut i = 0;
    while i < runs.len() {
        match &runs[i] {
            Run::Text(t) => xml_escape(t, false, s),
            Run::Placeholder { id, .. } => match data_id(&runs[i]) {
                Some(d) => s.push_str(&format!("<ph id=\"{id}\" dataRef=\"d{d}\"/>")),
                None => s.push_str(&format!("<ph id=\"{id}\"/>")),
            },
            Run::Open { id, .. } => {
                let close = runs[i..]
                    .iter()
                    .position(|r| matches!(r, Run::Close { id: c, .. } if c == id));
                let start = data_id(&runs[i]);
                let end = close.and_then(|c| data_id(&runs[i + c]));
                match (start, end) {
                    (Some(a), Some(b)) => s.push_str(&format!(
                        "<pc id=\"{id}\" dataRefStart=\"d{a}\" dataRefEnd=\"d{b}\">"
                    )),
                    _ => s.push_str(&format!("<pc id=\"{id}\">")),
                }
                if close.is_none() {
                    s.push_str("</pc>");
                }
            }
            Run::Close { .. } => s.push_str("</pc>"),
        }
        i += 1;
    }
}

/// A near match's notes: `update-similarity`, `update-old-source` and
/// `update-old-target` (codes as PO markers); for a sentence of a segmented unit,
/// each starts with the segment id (`s2: `).
fn fuzzy_notes(segment: &str, f: &Fuzzy, s: &mut String) {
    let label = if segment.is_empty() {
        String::new()
    } else {
        format!("{segment}: ")
    };
    s.push_str(&format!(
        "<note category=\"update-similarity\">{label}{:.0}%</note>",
        f.similarity * 100.0
    ));
    s.push_str("<note category=\"update-old-source\">");
    xml_escape(&label, false, s);
    xml_escape(&f.old_source, false, s);
    s.push_str("</note>");
    if let Some(t) = &f.old_target {
        s.push_str("<note category=\"update-old-target\">");
        xml_escape(&label, false, s);
        xml_escape(t, false, s);
        s.push_str("</note>");
    }
}

impl<W: Write> BlockSink for XliffWriter<W> {
    fn block(&mut self, block: &Block) -> Result<()> {
        let mut result = self.unit(block);
        for sub in &block.subs {
            if result.is_ok() {
                result = self.unit(sub);
            }
        }
        result.map_err(|e| L10nError::io("writing XLIFF", e))
    }
}

/// One unit read back: its id, its source (codes with their original markup from
/// `<originalData>`) and its target (`None` when absent or empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Unit {
    /// The unit id.
    pub id: String,
    /// The source, as the page had it when the file was extracted.
    pub source: Vec<Run>,
    /// The target (codes carry no data: the page's markup is used).
    pub target: Option<Vec<Run>>,
    /// A `<segment>` of the unit says `state="initial"`: its target is not confirmed
    /// and is not merged unless asked (see [`XliffTranslations::include_unconfirmed`]).
    pub unconfirmed: bool,
    /// The sentences of a unit of two or more `<segment>`s, in order (sentence N is
    /// [`crate::segment::sentence_id`]`(id, N)`); empty otherwise.
    pub segments: Vec<UnitSegment>,
}

/// Header facts of an XLIFF file.
#[derive(Clone, Debug, Default)]
pub struct XliffHeader {
    /// `srcLang` (`None` when absent or empty).
    pub source_lang: Option<LanguageTag>,
    /// `trgLang` (`None` when absent or empty).
    pub target_lang: Option<LanguageTag>,
}

/// Inline content being read (a `<source>` or a `<target>`).
#[derive(Default)]
struct Content {
    runs: Vec<Run>,
    /// (run index, data id) of the codes that name their original data.
    refs: Vec<(usize, String)>,
    /// Open `<pc>`s: id and `dataRefEnd`.
    pcs: Vec<(u32, Option<String>)>,
}

/// What the text being read belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Other,
    Source,
    Target,
    Data,
}

/// A streaming reader of XLIFF 2.x units.
pub struct XliffReader {
    reader: quick_xml::Reader<BufReader<File>>,
    path: PathBuf,
    buf: Vec<u8>,
    header: Option<XliffHeader>,
}

impl XliffReader {
    /// Opens `path`.
    pub fn open(path: &Path) -> Result<Self> {
        let file = File::open(path)
            .map_err(|e| L10nError::io(format!("opening {}", path.display()), e))?;
        let mut reader = quick_xml::Reader::from_reader(BufReader::new(file));
        reader.config_mut().trim_text(false);
        Ok(XliffReader {
            reader,
            path: path.to_path_buf(),
            buf: Vec::new(),
            header: None,
        })
    }

    fn err(&self, message: impl Into<String>) -> L10nError {
        L10nError::Xliff {
            path: self.path.clone(),
            message: format!(
                "{} (at byte {})",
                message.into(),
                self.reader.buffer_position()
            ),
        }
    }

    /// The header (read on first use).
    pub fn header(&self) -> Option<&XliffHeader> {
        self.header.as_ref()
    }

    fn attr(&self, e: &BytesStart<'_>, name: &str) -> Result<Option<String>> {
        match e.try_get_attribute(name) {
            Ok(Some(a)) => a
                .unescape_value()
                .map(|v| Some(v.into_owned()))
                .map_err(|x| self.err(x.to_string())),
            Ok(None) => Ok(None),
            Err(x) => Err(self.err(x.to_string())),
        }
    }

    /// A language attribute of `<xliff>`, checked as a BCP 47 tag.
    fn lang_attr(&self, e: &BytesStart<'_>, name: &str) -> Result<Option<LanguageTag>> {
        match self.attr(e, name)? {
            Some(v) if !v.is_empty() => {
                LanguageTag::parse(&v)
                    .map(Some)
                    .map_err(|source| L10nError::Language {
                        context: format!("{}: {name}", self.path.display()),
                        source,
                    })
            }
            _ => Ok(None),
        }
    }

    /// Character data of `event` (text, CDATA, a reference, `<cp hex>`), if any.
    fn char_data(&self, event: &Event<'_>) -> Result<Option<String>> {
        Ok(Some(match event {
            Event::Text(t) => t
                .decode()
                .map_err(|e| self.err(e.to_string()))?
                .into_owned(),
            Event::CData(t) => t
                .decode()
                .map_err(|e| self.err(e.to_string()))?
                .into_owned(),
            Event::GeneralRef(r) => {
                match r.resolve_char_ref().map_err(|e| self.err(e.to_string()))? {
                    Some(c) => c.to_string(),
                    None => {
                        let name = r.decode().map_err(|e| self.err(e.to_string()))?;
                        quick_xml::escape::resolve_predefined_entity(&name)
                            .ok_or_else(|| self.err(format!("unknown entity &{name};")))?
                            .to_string()
                    }
                }
            }
            Event::Empty(e) if e.local_name().as_ref() == b"cp" => {
                let hex = self.attr(e, "hex")?.unwrap_or_default();
                u32::from_str_radix(&hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| self.err(format!("bad <cp hex={hex:?}>")))?
                    .to_string()
            }
            _ => return Ok(None),
        }))
    }

    /// Adds an inline event of a `<source>` or `<target>` to `c`: `<pc>`, `<sc>`/`<ec>`
    /// and `<ph>` become codes by id (with the data ids they name), character data
    /// text; other inline markup (`<mrk>`, `<sm>`, `<em>`) is dropped, its text kept.
    fn inline(&self, c: &mut Content, event: &Event<'_>) -> Result<()> {
        let code = |id, data: Option<String>, run: fn(u32) -> Run, c: &mut Content| {
            if let Some(d) = data {
                c.refs.push((c.runs.len(), d));
            }
            c.runs.push(run(id));
        };
        let open = |id| Run::Open {
            id,
            data: String::new(),
        };
        let close = |id| Run::Close {
            id,
            data: String::new(),
        };
        let ph = |id| Run::Placeholder {
            id,
            data: String::new(),
        };
        match event {
            Event::Start(e) if e.local_name().as_ref() == b"pc" => {
                let id = self.code_id(e, "id")?;
                code(id, self.attr(e, "dataRefStart")?, open, c);
                c.pcs.push((id, self.attr(e, "dataRefEnd")?));
            }
            Event::End(e) if e.local_name().as_ref() == b"pc" => {
                let (id, end) = c.pcs.pop().ok_or_else(|| self.err("stray </pc>"))?;
                code(id, end, close, c);
            }
            Event::Empty(e) => match e.local_name().as_ref() {
                b"ph" => code(self.code_id(e, "id")?, self.attr(e, "dataRef")?, ph, c),
                b"sc" => code(self.code_id(e, "id")?, self.attr(e, "dataRef")?, open, c),
                b"ec" => code(
                    self.code_id(e, "startRef")?,
                    self.attr(e, "dataRef")?,
                    close,
                    c,
                ),
                b"pc" => {
                    let id = self.code_id(e, "id")?;
                    code(id, self.attr(e, "dataRefStart")?, open, c);
                    code(id, self.attr(e, "dataRefEnd")?, close, c);
                }
                _ => {
                    if let Some(text) = self.char_data(event)? {
                        push_text(&mut c.runs, &text);
                    }
                }
            },
            _ => {
                if let Some(text) = self.char_data(event)? {
                    push_text(&mut c.runs, &text);
                }
            }
        }
        Ok(())
    }

    /// The next unit; `None` at the end of the document.
    pub fn next_unit(&mut self) -> Result<Option<Unit>> {
        let mut id: Option<String> = None;
        let mut place = Place::Other;
        let mut source = Content::default();
        let mut target = Content::default();
        let mut has_target = false;
        let mut unconfirmed = false;
        let mut pieces = segments::Pieces::default();
        // <originalData>: data id -> markup.
        let mut data: HashMap<String, String> = HashMap::new();
        let mut data_id: Option<String> = None;
        let mut data_text = String::new();
        loop {
            self.buf.clear();
            let event = self
                .reader
                .read_event_into(&mut self.buf)
                .map_err(|e| L10nError::Xliff {
                    path: self.path.clone(),
                    message: e.to_string(),
                })?
                .into_owned();
            let in_unit = id.is_some();
            match &event {
                Event::Eof => {
                    if in_unit {
                        return Err(self.err("unexpected end of file inside a unit"));
                    }
                    if self.header.is_none() {
                        return Err(self.err("no <xliff> element"));
                    }
                    return Ok(None);
                }
                Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"xliff" => {
                    let version = self.attr(e, "version")?.unwrap_or_default();
                    if !version.starts_with('2') {
                        return Err(
                            self.err(format!("XLIFF version {version:?}: 2.0 or 2.1 expected"))
                        );
                    }
                    self.header = Some(XliffHeader {
                        source_lang: self.lang_attr(e, "srcLang")?,
                        target_lang: self.lang_attr(e, "trgLang")?,
                    });
                }
                Event::Start(e) if e.local_name().as_ref() == b"unit" => {
                    id = Some(
                        self.attr(e, "id")?
                            .ok_or_else(|| self.err("unit without id"))?,
                    );
                }
                Event::End(e) if e.local_name().as_ref() == b"unit" => {
                    let id = id.take().ok_or_else(|| self.err("stray </unit>"))?;
                    let Content { mut runs, refs, .. } = source;
                    for (at, data_id) in refs {
                        if let (
                            Some(Run::Open { data: d, .. })
                            | Some(Run::Close { data: d, .. })
                            | Some(Run::Placeholder { data: d, .. }),
                            Some(markup),
                        ) = (runs.get_mut(at), data.get(&data_id))
                        {
                            d.clone_from(markup);
                        }
                    }
                    if let Some(a) = std::mem::take(&mut pieces).finish(&runs, &target.runs) {
                        return Ok(Some(Unit {
                            id,
                            source: a.source,
                            target: a.target,
                            unconfirmed: a.unconfirmed,
                            segments: a.segments,
                        }));
                    }
                    let empty = target
                        .runs
                        .iter()
                        .all(|r| matches!(r, Run::Text(t) if t.is_empty()));
                    return Ok(Some(Unit {
                        id,
                        source: runs,
                        target: (has_target && !empty).then_some(target.runs),
                        unconfirmed,
                        segments: Vec::new(),
                    }));
                }
                Event::Start(e) if in_unit => match e.local_name().as_ref() {
                    b"segment" => {
                        let initial = self.attr(e, "state")?.as_deref() == Some("initial");
                        unconfirmed |= initial;
                        pieces.start(false, initial, &mut source, &mut target);
                    }
                    b"ignorable" => pieces.start(true, false, &mut source, &mut target),
                    b"source" => place = Place::Source,
                    b"target" => {
                        place = Place::Target;
                        has_target = true;
                    }
                    b"data" => {
                        place = Place::Data;
                        data_id = Some(self.attr(e, "id")?.unwrap_or_default());
                        data_text.clear();
                    }
                    _ => match place {
                        Place::Source => self.inline(&mut source, &event)?,
                        Place::Target => self.inline(&mut target, &event)?,
                        _ => {}
                    },
                },
                Event::End(e) if in_unit => match e.local_name().as_ref() {
                    b"source" | b"target" => place = Place::Other,
                    b"segment" | b"ignorable" => pieces.end(&source, &target),
                    b"data" => {
                        if let Some(d) = data_id.take() {
                            data.insert(d, std::mem::take(&mut data_text));
                        }
                        place = Place::Other;
                    }
                    _ => match place {
                        Place::Source => self.inline(&mut source, &event)?,
                        Place::Target => self.inline(&mut target, &event)?,
                        _ => {}
                    },
                },
                _ => match place {
                    Place::Source => self.inline(&mut source, &event)?,
                    Place::Target => self.inline(&mut target, &event)?,
                    Place::Data => {
                        if let Some(text) = self.char_data(&event)? {
                            data_text.push_str(&text);
                        }
                    }
                    Place::Other => {}
                },
            }
        }
    }

    fn code_id(&self, e: &BytesStart<'_>, attr: &str) -> Result<u32> {
        let v = self
            .attr(e, attr)?
            .ok_or_else(|| self.err(format!("code without {attr}")))?;
        // Foreign ids are kept as 0: the code check then reports them.
        Ok(v.trim().parse().unwrap_or(0))
    }
}

fn push_text(runs: &mut Vec<Run>, text: &str) {
    if let Some(Run::Text(t)) = runs.last_mut() {
        t.push_str(text);
    } else {
        runs.push(Run::Text(text.to_string()));
    }
}

/// `runs` with adjacent text runs joined and empty ones dropped.
fn normalized(runs: &[Run]) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::with_capacity(runs.len());
    for run in runs {
        match run {
            Run::Text(t) if t.is_empty() => {}
            Run::Text(t) => push_text(&mut out, t),
            code => out.push(code.clone()),
        }
    }
    out
}

/// How a unit's source differs from the page block's runs (`None`: the same text,
/// and the same codes — kind, id and original markup — in the same places).
pub fn source_difference(unit: &[Run], page: &[Run]) -> Option<String> {
    if unit == page {
        return None; // the usual case, without copies
    }
    let (unit, page) = (normalized(unit), normalized(page));
    for (u, p) in unit.iter().zip(&page) {
        if u == p {
            continue;
        }
        return Some(match (p.code_id(), u.code_id()) {
            (None, None) => "the text differs".into(),
            (Some(id), Some(uid)) if id == uid => format!("the markup of code {id} differs"),
            _ => "the inline codes differ".into(),
        });
    }
    (unit.len() != page.len()).then(|| "the text or inline codes differ".into())
}

/// Translations read from an XLIFF file, streaming, matched to blocks by id; a
/// translation is applied only where the block still has the unit's source.
pub struct XliffTranslations {
    reader: XliffReader,
    pending: HashMap<String, Unit>,
    /// The units left once the whole file is read, by source: for ids the page
    /// does not have (files made before content ids).
    by_source: Option<SourceIndex>,
    done: bool,
    /// Whether any unit has a confirmed target, and whether any has an unconfirmed one.
    any_target: (bool, bool),
    include_unconfirmed: bool,
    skipped: usize,
    missing: usize,
    issues: Vec<Issue>,
}

impl XliffTranslations {
    /// Opens `path`. A first streaming pass finds whether any unit has a target
    /// (language retargeting only happens for a translated document) and checks the
    /// file is well-formed before any output is written.
    pub fn open(path: &Path) -> Result<Self> {
        let mut scan = XliffReader::open(path)?;
        let mut any = (false, false);
        while let Some(unit) = scan.next_unit()? {
            let has = unit.target.is_some();
            any.0 |= has && !unit.unconfirmed;
            any.1 |= has && unit.unconfirmed;
        }
        let header = scan.header.clone();
        let mut reader = XliffReader::open(path)?;
        reader.header = header;
        Ok(XliffTranslations {
            reader,
            pending: HashMap::new(),
            by_source: None,
            done: false,
            any_target: any,
            include_unconfirmed: false,
            skipped: 0,
            missing: 0,
            issues: Vec::new(),
        })
    }

    /// Whether unconfirmed targets (a segment with `state="initial"`) are merged too
    /// (`--include-fuzzy`); by default they count as untranslated and are counted in
    /// [`Translations::unconfirmed`].
    pub fn include_unconfirmed(mut self, include: bool) -> Self {
        self.include_unconfirmed = include;
        self
    }

    /// The target of `unit` as the merge sees it: `None` when absent, or unconfirmed
    /// and not asked for.
    fn usable(&self, unit: &Unit) -> bool {
        unit.target.is_some() && (self.include_unconfirmed || !unit.unconfirmed)
    }

    /// The file's header.
    pub fn header(&self) -> Option<&XliffHeader> {
        self.reader.header()
    }

    /// Blocks of the document that had no unit.
    pub fn missing(&self) -> usize {
        self.missing
    }

    fn take(&mut self, id: &str) -> Result<Option<Unit>> {
        if let Some(u) = self.pending.remove(id) {
            return Ok(Some(u));
        }
        while !self.done {
            match self.reader.next_unit()? {
                Some(u) if u.id == id => return Ok(Some(u)),
                Some(u) => {
                    self.pending.insert(u.id.clone(), u);
                }
                None => self.done = true,
            }
        }
        Ok(None)
    }

    /// A unit left unclaimed with exactly the block's source (called once the
    /// whole file is read: an id the page does not have).
    fn take_by_source(&mut self, block: &Block) -> Option<Unit> {
        let pending = &mut self.pending;
        let index = self.by_source.get_or_insert_with(|| {
            SourceIndex::new(pending.iter().map(|(id, u)| (id, runs_key(&u.source))))
        });
        let id = index.ids(runs_key(&block.runs)).iter().find(|id| {
            pending
                .get(*id)
                .is_some_and(|u| source_difference(&u.source, &block.runs).is_none())
        })?;
        pending.remove(id)
    }
}

impl Translations for XliffTranslations {
    fn target(&mut self, block: &Block) -> Result<Option<Vec<Run>>> {
        let found = match self.take(&block.id)? {
            Some(unit) => Some(unit),
            None => self.take_by_source(block),
        };
        let Some(unit) = found else {
            self.missing += 1;
            if self.any_translated() {
                self.issues
                    .push(Issue::new(&block.id, IssueKind::NotInFile, ""));
            }
            return Ok(None);
        };
        if !self.usable(&unit) {
            self.skipped += usize::from(unit.target.is_some());
            return Ok(None);
        }
        let Some(target) = unit.target else {
            return Ok(None);
        };
        if let Some(why) = source_difference(&unit.source, &block.runs) {
            self.issues
                .push(Issue::new(&block.id, IssueKind::SourceChanged, why));
            return Ok(None);
        }
        Ok(Some(target))
    }

    fn finish(&mut self) -> Result<Vec<Issue>> {
        while !self.done {
            match self.reader.next_unit()? {
                Some(u) => {
                    self.pending.insert(u.id.clone(), u);
                }
                None => self.done = true,
            }
        }
        let left = self
            .pending
            .drain()
            .filter(|(_, u)| u.target.is_some() && (self.include_unconfirmed || !u.unconfirmed))
            .map(|(id, _)| id);
        Ok(with_units_not_in_page(
            std::mem::take(&mut self.issues),
            left,
        ))
    }

    fn any_translated(&self) -> bool {
        self.any_target.0 || (self.include_unconfirmed && self.any_target.1)
    }

    fn unconfirmed(&self) -> usize {
        self.skipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escaping() {
        let mut s = String::new();
        xml_escape("a&<>\"\u{c}\u{FFFF}é\u{EFFF}\r", false, &mut s);
        assert_eq!(
            s,
            "a&amp;&lt;&gt;\"<cp hex=\"000C\"/><cp hex=\"FFFF\"/>é\u{EFFF}&#13;"
        );
        s.clear();
        xml_escape("a\"\n\u{1}", true, &mut s);
        assert_eq!(s, "a&quot;&#10;\u{FFFD}");
    }

    #[test]
    fn sources_come_back_with_their_code_markup() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.xlf");
        std::fs::write(
            &path,
            "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.1\" srcLang=\"en\" trgLang=\"\">\
             <file id=\"f\"><unit id=\"u1\"><notes><note>n</note></notes>\
             <originalData><data id=\"d1\">&lt;a x=<cp hex=\"0001\"/>&gt;</data><data id=\"d2\">&lt;/a&gt;</data>\
             <data id=\"d3\">&lt;br&gt;</data></originalData>\
             <segment><source>a <pc id=\"1\" dataRefStart=\"d1\" dataRefEnd=\"d2\">b</pc><ph id=\"2\" dataRef=\"d3\"/>&amp;</source>\
             <target><pc id=\"1\" dataRefStart=\"d3\">B</pc><ph id=\"2\"/></target></segment></unit></file></xliff>",
        )
        .unwrap();
        let mut r = XliffReader::open(&path).unwrap();
        let unit = r.next_unit().unwrap().unwrap();
        let code = |r: fn(u32, String) -> Run, id, d: &str| r(id, d.to_string());
        let open = |id, data| Run::Open { id, data };
        let close = |id, data| Run::Close { id, data };
        let ph = |id, data| Run::Placeholder { id, data };
        let source = vec![
            Run::Text("a ".into()),
            code(open, 1, "<a x=\u{1}>"),
            Run::Text("b".into()),
            code(close, 1, "</a>"),
            code(ph, 2, "<br>"),
            Run::Text("&".into()),
        ];
        assert_eq!(unit.source, source);
        // Target codes carry no markup, whatever data they name.
        let target = unit.target.unwrap();
        assert_eq!(target[0], code(open, 1, ""));
        assert!(r.header().unwrap().target_lang.is_none());
        assert_eq!(r.next_unit().unwrap(), None);
        // Comparison: text split differently is the same source; markup is not.
        let mut split = source.clone();
        split[0] = Run::Text("a".into());
        split.insert(1, Run::Text(" ".into()));
        assert_eq!(source_difference(&split, &source), None);
        let mut other = source.clone();
        other[1] = code(open, 1, "<a x=2>");
        assert_eq!(
            source_difference(&other, &source).as_deref(),
            Some("the markup of code 1 differs")
        );
        assert!(source_difference(&source[..5], &source).is_some());
    }

    fn block(id: &str, text: &str) -> Block {
        Block::paragraph(id, text)
    }

    #[test]
    fn initial_targets_are_unconfirmed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("t.xlf");
        let unit = |id: &str, state: &str, target: &str| {
            format!(
                "<unit id=\"{id}\"><segment{state}><source>{id}</source>{target}</segment></unit>"
            )
        };
        std::fs::write(
            &path,
            format!(
                "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.1\" srcLang=\"en\">\
                 <file id=\"f\">{}{}{}{}</file></xliff>",
                unit("a", " state=\"initial\"", "<target>A</target>"),
                unit("b", "", "<target>B</target>"),
                unit("c", " state=\"final\"", "<target>C</target>"),
                unit("d", " state=\"initial\"", ""),
            ),
        )
        .unwrap();
        let mut r = XliffReader::open(&path).unwrap();
        let states: Vec<(bool, bool)> = std::iter::from_fn(|| r.next_unit().unwrap())
            .map(|u| (u.target.is_some(), u.unconfirmed))
            .collect();
        assert_eq!(
            states,
            [(true, true), (true, false), (true, false), (false, true)]
        );
        for include in [false, true] {
            let mut t = XliffTranslations::open(&path)
                .unwrap()
                .include_unconfirmed(include);
            let got: Vec<bool> = ["a", "b", "c", "d"]
                .iter()
                .map(|id| t.target(&block(id, id)).unwrap().is_some())
                .collect();
            assert_eq!(got, [include, true, true, false]);
            assert_eq!(t.unconfirmed(), usize::from(!include));
            assert!(t.finish().unwrap().is_empty());
        }
        // A file whose only targets are unconfirmed is untranslated (no retargeting,
        // no "block not in file" issues) unless they are asked for.
        std::fs::write(
            &path,
            format!(
                "<xliff xmlns=\"urn:oasis:names:tc:xliff:document:2.0\" version=\"2.1\" srcLang=\"en\">\
                 <file id=\"f\">{}</file></xliff>",
                unit("a", " state=\"initial\"", "<target>A</target>"),
            ),
        )
        .unwrap();
        let t = XliffTranslations::open(&path).unwrap();
        assert!(!t.any_translated());
        assert!(t.include_unconfirmed(true).any_translated());
    }
}
