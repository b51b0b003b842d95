//! Reading XLIFF 2.x units back, streaming ([`XliffReader`]).

use std::collections::HashMap;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use quick_xml::events::{BytesStart, Event};

use super::fast::FastReader;
use super::fast_xml::Declined;
use super::notes::{NoteKind, Suggestion, SuggestionNotes};
use super::pool::Spare;
use super::segments::{self, UnitSegment};
use crate::block::Run;
use crate::error::{L10nError, Result};
use crate::lang::LanguageTag;

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
    /// and is not merged unless asked (see [`super::XliffTranslations::include_unconfirmed`]).
    pub unconfirmed: bool,
    /// The sentences of a unit of two or more `<segment>`s, in order (sentence N is
    /// [`crate::segment::sentence_id`]`(id, N)`); empty otherwise.
    pub segments: Vec<UnitSegment>,
    /// A near match's suggestion `update` left in the unit's notes (a unit of one
    /// segment; the sentences of a segmented unit have their own).
    pub suggestion: Option<Suggestion>,
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
pub(super) struct Content {
    pub(super) runs: Vec<Run>,
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
    Note(NoteKind),
}

/// A streaming reader of XLIFF 2.x units.
pub struct XliffReader {
    reader: quick_xml::Reader<BufReader<File>>,
    path: PathBuf,
    buf: Vec<u8>,
    pub(super) header: Option<XliffHeader>,
    /// Scanning ([`XliffReader::scanning`]): sources, original data and notes are
    /// skipped, not built.
    scan: bool,
    /// The fast path (`fast.rs`) while it has not declined; then the general
    /// reader above goes on, past the units it had handed out.
    fast: Option<FastReader>,
    /// Units the fast path handed out.
    returned: usize,
    /// Where [`XliffReader::next_unit`] takes its unit from, reused.
    one: Vec<Unit>,
}

impl XliffReader {
    /// Opens `path`.
    pub fn open(path: &Path) -> Result<Self> {
        let file = File::open(path)
            .map_err(|e| L10nError::io(format!("opening {}", path.display()), e))?;
        // The fast path reads its own handle; the general reader's is untouched
        // until the fast path declines.
        let fast = File::open(path).ok().map(|f| FastReader::new(f, false));
        let mut reader = quick_xml::Reader::from_reader(BufReader::new(file));
        reader.config_mut().trim_text(false);
        Ok(XliffReader {
            reader,
            path: path.to_path_buf(),
            buf: Vec::new(),
            header: None,
            scan: false,
            fast,
            returned: 0,
            one: Vec::new(),
        })
    }

    /// Takes spent buffers from `back` to fill again (a merge reading ahead).
    pub(super) fn refilled_from(&mut self, back: std::sync::mpsc::Receiver<Spare>) {
        if let Some(fast) = self.fast.as_mut() {
            fast.pool.refilled_from(back);
        }
    }

    /// Hands back a unit's spent runs (reused by the fast path).
    pub(super) fn recycle_runs(&mut self, runs: Vec<Run>) {
        if let Some(fast) = self.fast.as_mut() {
            fast.pool.put_runs(runs);
        }
    }

    /// Hands back a spent string (reused by the fast path).
    pub(super) fn recycle_string(&mut self, s: String) {
        if let Some(fast) = self.fast.as_mut() {
            fast.pool.put_string(s);
        }
    }

    /// Whether the fast path is still reading (it declined nothing so far).
    pub(crate) fn on_fast_path(&self) -> bool {
        self.fast.is_some()
    }

    /// Without the fast path: every unit through the general reader (tests).
    #[cfg(test)]
    pub(crate) fn general_only(mut self) -> Self {
        self.fast = None;
        self
    }

    /// A reader for a first pass that needs only the header, whether units have
    /// targets (and whether those are confirmed) and a well-formed file: the units
    /// it returns have their ids, targets and states but no source, no original
    /// data and no notes (the next pass reads them, and checks their content).
    pub(crate) fn scanning(mut self) -> Self {
        self.scan = true;
        if let Some(f) = self.fast.as_mut() {
            f.scan = true;
        }
        self
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
        self.attr_with(e, name, str::to_owned)
    }

    /// `f` of the unescaped value of attribute `name`, without copying it.
    fn attr_with<T>(
        &self,
        e: &BytesStart<'_>,
        name: &str,
        f: impl FnOnce(&str) -> T,
    ) -> Result<Option<T>> {
        match e.try_get_attribute(name) {
            Ok(Some(a)) => a
                .unescape_value()
                .map(|v| Some(f(&v)))
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

    /// Character data of `event` (text, CDATA, a reference, `<cp hex>`), handed to
    /// `push` without a copy; `false` when `event` is not character data.
    fn char_data(&self, event: &Event<'_>, mut push: impl FnMut(&str)) -> Result<bool> {
        match event {
            Event::Text(t) => push(&t.decode().map_err(|e| self.err(e.to_string()))?),
            Event::CData(t) => push(&t.decode().map_err(|e| self.err(e.to_string()))?),
            Event::GeneralRef(r) => {
                match r.resolve_char_ref().map_err(|e| self.err(e.to_string()))? {
                    Some(c) => push(c.encode_utf8(&mut [0; 4])),
                    None => {
                        let name = r.decode().map_err(|e| self.err(e.to_string()))?;
                        push(
                            quick_xml::escape::resolve_predefined_entity(&name)
                                .ok_or_else(|| self.err(format!("unknown entity &{name};")))?,
                        )
                    }
                }
            }
            Event::Empty(e) if e.local_name().as_ref() == b"cp" => {
                let hex = self.attr(e, "hex")?.unwrap_or_default();
                let c = u32::from_str_radix(&hex, 16)
                    .ok()
                    .and_then(char::from_u32)
                    .ok_or_else(|| self.err(format!("bad <cp hex={hex:?}>")))?;
                push(c.encode_utf8(&mut [0; 4]));
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Adds an inline event of a `<source>` or `<target>` to `c`: `<pc>`, `<sc>`/`<ec>`
    /// and `<ph>` become codes by id (with the data ids they name), character data
    /// text; other inline markup (`<mrk>`, `<sm>`, `<em>`) is dropped, its text kept.
    /// The data ids are read only `with_data` (a source: a target's codes take
    /// the page's markup).
    fn inline(&self, c: &mut Content, event: &Event<'_>, with_data: bool) -> Result<()> {
        let data = |e: &BytesStart<'_>, name: &str| -> Result<Option<String>> {
            if with_data {
                self.attr(e, name)
            } else {
                Ok(None)
            }
        };
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
                code(id, data(e, "dataRefStart")?, open, c);
                c.pcs.push((id, data(e, "dataRefEnd")?));
            }
            Event::End(e) if e.local_name().as_ref() == b"pc" => {
                let (id, end) = c.pcs.pop().ok_or_else(|| self.err("stray </pc>"))?;
                code(id, end, close, c);
            }
            Event::Empty(e) => match e.local_name().as_ref() {
                b"ph" => code(self.code_id(e, "id")?, data(e, "dataRef")?, ph, c),
                b"sc" => code(self.code_id(e, "id")?, data(e, "dataRef")?, open, c),
                b"ec" => code(self.code_id(e, "startRef")?, data(e, "dataRef")?, close, c),
                b"pc" => {
                    let id = self.code_id(e, "id")?;
                    code(id, data(e, "dataRefStart")?, open, c);
                    code(id, data(e, "dataRefEnd")?, close, c);
                }
                _ => {
                    self.char_data(event, |text| push_text(&mut c.runs, text))?;
                }
            },
            _ => {
                self.char_data(event, |text| push_text(&mut c.runs, text))?;
            }
        }
        Ok(())
    }

    /// The next unit; `None` at the end of the document.
    pub fn next_unit(&mut self) -> Result<Option<Unit>> {
        let mut one = std::mem::take(&mut self.one);
        let more = self.next_unit_into(&mut one);
        let unit = one.pop();
        self.one = one;
        more.map(|_| unit)
    }

    /// The next unit pushed onto `out` (the fast path builds it there: a
    /// batch of units read ahead is filled without moving each through the
    /// calls); `false` at the end of the document.
    pub(super) fn next_unit_into(&mut self, out: &mut Vec<Unit>) -> Result<bool> {
        if let Some(fast) = self.fast.as_mut() {
            match fast.next_unit_into(out) {
                Ok(more) => {
                    if self.header.is_none() {
                        self.header = fast.header.clone();
                    }
                    self.returned += usize::from(more);
                    return Ok(more);
                }
                Err(Declined) => {
                    self.fast = None;
                    for _ in 0..self.returned {
                        if self.general_unit()?.is_none() {
                            break;
                        }
                    }
                }
            }
        }
        Ok(match self.general_unit()? {
            Some(unit) => {
                out.push(unit);
                true
            }
            None => false,
        })
    }

    /// The next unit through quick-xml's events.
    fn general_unit(&mut self) -> Result<Option<Unit>> {
        // The events borrow the buffer, not the reader: taken out while they live.
        let mut buf = std::mem::take(&mut self.buf);
        let unit = self.read_unit(&mut buf);
        self.buf = buf;
        unit
    }

    fn read_unit(&mut self, buf: &mut Vec<u8>) -> Result<Option<Unit>> {
        let mut unit: Option<UnitState> = None;
        loop {
            buf.clear();
            let event = self
                .reader
                .read_event_into(buf)
                .map_err(|e| L10nError::Xliff {
                    path: self.path.clone(),
                    message: e.to_string(),
                })?;
            match &event {
                Event::Eof => {
                    if unit.is_some() {
                        return Err(self.err("unexpected end of file inside a unit"));
                    }
                    if self.header.is_none() {
                        return Err(self.err("no <xliff> element"));
                    }
                    return Ok(None);
                }
                Event::Start(e) | Event::Empty(e) if e.local_name().as_ref() == b"xliff" => {
                    self.read_header(e)?;
                }
                Event::Start(e) if e.local_name().as_ref() == b"unit" => {
                    let id = self
                        .attr(e, "id")?
                        .ok_or_else(|| self.err("unit without id"))?;
                    unit = Some(UnitState::new(id));
                }
                Event::End(e) if e.local_name().as_ref() == b"unit" => {
                    let state = unit.take().ok_or_else(|| self.err("stray </unit>"))?;
                    return Ok(Some(state.finish()));
                }
                _ => {
                    if let Some(state) = unit.as_mut() {
                        state.event(self, &event)?;
                    }
                }
            }
        }
    }

    /// `<xliff>`: the version (2.x) and the languages.
    fn read_header(&mut self, e: &BytesStart<'_>) -> Result<()> {
        let version = self.attr(e, "version")?.unwrap_or_default();
        if !version.starts_with('2') {
            return Err(self.err(format!("XLIFF version {version:?}: 2.0 or 2.1 expected")));
        }
        self.header = Some(XliffHeader {
            source_lang: self.lang_attr(e, "srcLang")?,
            target_lang: self.lang_attr(e, "trgLang")?,
        });
        Ok(())
    }

    fn code_id(&self, e: &BytesStart<'_>, attr: &str) -> Result<u32> {
        // Foreign ids are kept as 0: the code check then reports them.
        self.attr_with(e, attr, |v| v.trim().parse().unwrap_or(0))?
            .ok_or_else(|| self.err(format!("code without {attr}")))
    }
}

pub(super) fn push_text(runs: &mut Vec<Run>, text: &str) {
    if let Some(Run::Text(t)) = runs.last_mut() {
        t.push_str(text);
    } else {
        runs.push(Run::Text(text.to_string()));
    }
}

/// The unit being read: its content so far.
struct UnitState {
    id: String,
    place: Place,
    source: Content,
    target: Content,
    has_target: bool,
    unconfirmed: bool,
    pieces: segments::Pieces,
    /// A `<segment>` has an id (sentence segments: notes name them).
    labelled: bool,
    /// `<originalData>`: data id -> markup, and the `<data>` being read.
    data: HashMap<String, String>,
    data_id: Option<String>,
    /// The text of the `<data>` or suggestion `<note>` being read.
    text: String,
    notes: SuggestionNotes,
}

impl UnitState {
    fn new(id: String) -> Self {
        UnitState {
            id,
            place: Place::Other,
            source: Content::default(),
            target: Content::default(),
            has_target: false,
            unconfirmed: false,
            pieces: segments::Pieces::default(),
            labelled: false,
            data: HashMap::new(),
            data_id: None,
            text: String::new(),
            notes: SuggestionNotes::default(),
        }
    }

    /// An event inside the unit.
    fn event(&mut self, r: &XliffReader, event: &Event<'_>) -> Result<()> {
        match event {
            Event::Start(e) => match e.local_name().as_ref() {
                b"segment" => {
                    let initial = r.attr_with(e, "state", |v| v == "initial")? == Some(true);
                    self.unconfirmed |= initial;
                    self.labelled |= r.attr_with(e, "id", |_| ())?.is_some();
                    self.pieces
                        .start(false, initial, &mut self.source, &mut self.target);
                }
                b"ignorable" => self
                    .pieces
                    .start(true, false, &mut self.source, &mut self.target),
                b"source" => self.place = Place::Source,
                b"target" => {
                    self.place = Place::Target;
                    self.has_target = true;
                }
                b"data" => {
                    self.place = Place::Data;
                    self.data_id = Some(r.attr(e, "id")?.unwrap_or_default());
                    self.text.clear();
                }
                b"note" => {
                    let category = r.attr(e, "category")?;
                    if let Some(kind) = NoteKind::from_category(category.as_deref()) {
                        self.place = Place::Note(kind);
                        self.text.clear();
                    }
                }
                _ => self.content(r, event)?,
            },
            Event::End(e) => match e.local_name().as_ref() {
                b"source" | b"target" => self.place = Place::Other,
                b"segment" | b"ignorable" => self.pieces.end(&self.source, &self.target),
                b"data" => {
                    if let Some(d) = self.data_id.take() {
                        self.data.insert(d, std::mem::take(&mut self.text));
                    }
                    self.place = Place::Other;
                }
                b"note" => {
                    if let Place::Note(kind) = self.place {
                        self.notes.push(kind, std::mem::take(&mut self.text));
                    }
                    self.place = Place::Other;
                }
                _ => self.content(r, event)?,
            },
            _ => self.content(r, event)?,
        }
        Ok(())
    }

    /// Content of the source, target, `<data>` or note being read.
    fn content(&mut self, r: &XliffReader, event: &Event<'_>) -> Result<()> {
        if r.scan && self.place != Place::Target {
            return Ok(());
        }
        match self.place {
            Place::Source => r.inline(&mut self.source, event, true)?,
            Place::Target => r.inline(&mut self.target, event, false)?,
            Place::Data | Place::Note(_) => {
                r.char_data(event, |text| self.text.push_str(text))?;
            }
            Place::Other => {}
        }
        Ok(())
    }

    /// `</unit>`: the source's codes get their markup from `<originalData>`; the
    /// pieces of a segmented unit are assembled, each with its suggestion.
    fn finish(self) -> Unit {
        let Content { mut runs, refs, .. } = self.source;
        for (at, data_id) in refs {
            if let (
                Some(Run::Open { data: d, .. })
                | Some(Run::Close { data: d, .. })
                | Some(Run::Placeholder { data: d, .. }),
                Some(markup),
            ) = (runs.get_mut(at), self.data.get(&data_id))
            {
                d.clone_from(markup);
            }
        }
        let mut suggestions = self.notes.by_sentence(self.labelled);
        if let Some(a) = self.pieces.finish(&runs, &self.target.runs) {
            let mut segments = a.segments;
            for (n, s) in segments.iter_mut().enumerate() {
                s.suggestion = suggestions.remove(&(n + 1));
            }
            return Unit {
                id: self.id,
                source: a.source,
                target: a.target,
                unconfirmed: a.unconfirmed,
                suggestion: if segments.is_empty() {
                    suggestions.remove(&1)
                } else {
                    None
                },
                segments,
            };
        }
        let empty = self
            .target
            .runs
            .iter()
            .all(|r| matches!(r, Run::Text(t) if t.is_empty()));
        Unit {
            id: self.id,
            source: runs,
            target: (self.has_target && !empty).then_some(self.target.runs),
            unconfirmed: self.unconfirmed,
            suggestion: suggestions.remove(&1),
            segments: Vec::new(),
        }
    }
}
