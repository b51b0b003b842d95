//! Segmented units ([`crate::segment`]): writing a `<segment>` per sentence with
//! `<ignorable>` whitespace between, and reading such units back.
//!
//! ```xml
//! <unit id="c.1f0e…" name="html/body/p[1]">
//!  <segment id="s1"><source>Hello world.</source></segment>
//!  <ignorable><source> </source></ignorable>
//!  <segment id="s2"><source>How are you?</source></segment>
//! </unit>
//! ```
//!
//! Reading, the unit's source is its pieces' sources in order (what the page's
//! block must still be), and its target the pieces' targets, a piece without one
//! (an `<ignorable>`, an untranslated sentence) giving its source: a unit is
//! translated when one of its sentences is. A unit with a sentence whose target is
//! unconfirmed (`state="initial"`) is unconfirmed as a whole.

use std::io::Write;

use super::notes::Suggestion;
use super::read::Content;
use super::{XliffWriter, unit_head, write_runs, xml_escape};
use crate::block::{Block, Run};
use crate::segment::Piece;
use crate::update::{Carried, Fuzzy};

impl<W: Write> XliffWriter<W> {
    /// Writes `block` as one unit of segments: a `<segment id="sN">` per sentence of
    /// `pieces` (with what `update` carried over for sentence N in `carried[N-1]`,
    /// when given), an `<ignorable>` per gap.
    pub(crate) fn unit_sentences(
        &mut self,
        block: &Block,
        pieces: &[Piece],
        carried: &[Option<&Carried>],
    ) -> std::io::Result<()> {
        let carried_of = |n: usize| carried.get(n).copied().flatten();
        let mut labels = Vec::new();
        let mut n = 0;
        for piece in pieces {
            if let Piece::Sentence(_) = piece {
                labels.push(format!("s{}", n + 1));
                n += 1;
            }
        }
        let fuzzy: Vec<(&str, &Fuzzy)> = labels
            .iter()
            .enumerate()
            .filter_map(|(i, l)| Some((l.as_str(), carried_of(i)?.fuzzy.as_ref()?)))
            .collect();
        let mut s = self.take_pending();
        unit_head(block, &fuzzy, &mut s);
        let mut n = 0;
        for piece in pieces {
            match piece {
                Piece::Gap(g) => {
                    s.push_str("   <ignorable><source>");
                    xml_escape(g, false, &mut s);
                    s.push_str("</source></ignorable>\n");
                }
                Piece::Sentence(runs) => {
                    sentence(&block.runs, runs, n + 1, carried_of(n), &mut s);
                    n += 1;
                }
            }
        }
        s.push_str("  </unit>\n");
        self.emit(s)
    }
}

/// One `<segment>`: its state and target from `carried` as for a whole unit.
fn sentence(unit: &[Run], runs: &[Run], n: usize, carried: Option<&Carried>, s: &mut String) {
    let fuzzy = carried.is_some_and(|c| c.fuzzy.is_some());
    let target = carried
        .and_then(|c| c.target.as_ref())
        .map(|t| t.runs(runs));
    let state = match (&target, fuzzy) {
        (_, true) => " state=\"initial\"",
        (Some(_), false) if carried.is_some_and(|c| c.unconfirmed) => " state=\"initial\"",
        (Some(_), false) => " state=\"translated\"",
        (None, false) => "",
    };
    s.push_str(&format!("   <segment id=\"s{n}\"{state}><source>"));
    write_runs(runs, Some(unit), s);
    s.push_str("</source>");
    if let Some(t) = &target {
        s.push_str("<target>");
        write_runs(t, Some(unit), s);
        s.push_str("</target>");
    }
    s.push_str("</segment>\n");
}

/// One sentence of a segmented unit read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnitSegment {
    /// The sentence's source (codes with their markup).
    pub source: Vec<Run>,
    /// Its target (`None`: absent or empty).
    pub target: Option<Vec<Run>>,
    /// `state="initial"` with a target.
    pub unconfirmed: bool,
    /// A near match's suggestion `update` left for this sentence (its notes).
    pub suggestion: Option<Suggestion>,
}

/// Where a `<segment>` or `<ignorable>` sits in the unit's source and target runs.
struct PieceAt {
    ignorable: bool,
    initial: bool,
    source: (usize, usize),
    target: (usize, usize),
}

/// The pieces of the unit being read.
#[derive(Default)]
pub(super) struct Pieces {
    done: Vec<PieceAt>,
    open: Option<PieceAt>,
}

/// A unit of several pieces, assembled.
pub(super) struct Assembled {
    pub(super) source: Vec<Run>,
    pub(super) target: Option<Vec<Run>>,
    pub(super) unconfirmed: bool,
    /// The sentences, when there are two or more.
    pub(super) segments: Vec<UnitSegment>,
}

/// Ends the text run being built, so that a piece's text never joins the previous
/// piece's.
fn cut(c: &mut Content) -> usize {
    if let Some(Run::Text(_)) = c.runs.last() {
        c.runs.push(Run::Text(String::new()));
    }
    c.runs.len().saturating_sub(usize::from(
        matches!(c.runs.last(), Some(Run::Text(t)) if t.is_empty()),
    ))
}

fn has_content(runs: &[Run]) -> bool {
    runs.iter()
        .any(|r| !matches!(r, Run::Text(t) if t.is_empty()))
}

fn joined(runs: impl IntoIterator<Item = Run>) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::new();
    for run in runs {
        match (out.last_mut(), run) {
            (_, Run::Text(t)) if t.is_empty() => {}
            (Some(Run::Text(a)), Run::Text(b)) => a.push_str(&b),
            (_, run) => out.push(run),
        }
    }
    out
}

impl Pieces {
    /// A `<segment>` (`initial`: its `state`) or an `<ignorable>` starts.
    pub(super) fn start(
        &mut self,
        ignorable: bool,
        initial: bool,
        source: &mut Content,
        target: &mut Content,
    ) {
        let s = cut(source);
        let t = cut(target);
        self.open = Some(PieceAt {
            ignorable,
            initial,
            source: (s, s),
            target: (t, t),
        });
    }

    /// The piece started last ends.
    pub(super) fn end(&mut self, source: &Content, target: &Content) {
        if let Some(mut p) = self.open.take() {
            p.source.1 = source.runs.len();
            p.target.1 = target.runs.len();
            self.done.push(p);
        }
    }

    /// The unit from its pieces (`source`: its runs with their markup); `None` for a
    /// unit of one piece, read as before.
    pub(super) fn finish(self, source: &[Run], target: &[Run]) -> Option<Assembled> {
        if self.done.len() < 2 {
            return None;
        }
        let slice = |runs: &[Run], (a, b): (usize, usize)| -> Vec<Run> {
            runs.get(a..b).map(<[Run]>::to_vec).unwrap_or_default()
        };
        let mut out_target = Vec::new();
        let mut translated = false;
        let mut unconfirmed = false;
        let mut segments = Vec::new();
        for p in &self.done {
            let src = joined(slice(source, p.source));
            let trg = joined(slice(target, p.target));
            let has = has_content(&trg);
            if has {
                out_target.extend(trg.iter().cloned());
            } else {
                out_target.extend(src.iter().cloned());
            }
            if !p.ignorable {
                translated |= has;
                unconfirmed |= has && p.initial;
                segments.push(UnitSegment {
                    source: src,
                    target: has.then_some(trg),
                    unconfirmed: has && p.initial,
                    suggestion: None,
                });
            }
        }
        if segments.len() < 2 {
            segments.clear();
        }
        Some(Assembled {
            source: joined(source.iter().cloned()),
            target: translated.then(|| joined(out_target)),
            unconfirmed,
            segments,
        })
    }
}
