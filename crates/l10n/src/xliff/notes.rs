//! The notes `update` leaves on a near match, written and read back: the
//! suggestion (old source, old translation) stays on the unit through later
//! updates until the translator confirms the unit.
//!
//! ```xml
//! <notes><note category="update-similarity">86%</note>
//!  <note category="update-old-source">The quick brown fox.</note>
//!  <note category="update-old-target">Le renard brun.</note></notes>
//! ```
//!
//! In a unit of several `<segment id="sN">`s each note starts with its segment's
//! id (`s2: `). The similarity is only for the translator: reading, it is
//! recomputed from the old source.

use std::collections::BTreeMap;

use super::{Escape, escape};
use crate::update::Fuzzy;

const SIMILARITY: &str = "update-similarity";
const OLD_SOURCE: &str = "update-old-source";
const OLD_TARGET: &str = "update-old-target";

/// Writes a near match's notes (codes as PO markers), labelled with `segment`
/// (`""`: a unit of one segment).
pub(super) fn fuzzy_notes(segment: &str, f: &Fuzzy, s: &mut String) {
    let label = if segment.is_empty() {
        String::new()
    } else {
        format!("{segment}: ")
    };
    s.push_str(&format!(
        "<note category=\"{SIMILARITY}\">{label}{:.0}%</note>",
        f.similarity * 100.0
    ));
    let mut note = |category: &str, text: &str| {
        s.push_str(&format!("<note category=\"{category}\">"));
        escape(&label, Escape::Note, s);
        escape(text, Escape::Note, s);
        s.push_str("</note>");
    };
    note(OLD_SOURCE, &f.old_source);
    if let Some(t) = &f.old_target {
        note(OLD_TARGET, t);
    }
}

/// A near match's suggestion read back from a unit's notes, not yet confirmed.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Suggestion {
    /// The old source (codes as PO markers).
    pub old_source: String,
    /// The old translation (codes as PO markers), when it had one.
    pub old_target: Option<String>,
}

/// Which suggestion note a `<note>` is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum NoteKind {
    OldSource,
    OldTarget,
}

impl NoteKind {
    /// From a `category` attribute (`None`: another note).
    pub(super) fn from_category(category: Option<&str>) -> Option<Self> {
        match category? {
            OLD_SOURCE => Some(NoteKind::OldSource),
            OLD_TARGET => Some(NoteKind::OldTarget),
            _ => None,
        }
    }
}

/// The suggestion notes of the unit being read.
#[derive(Default)]
pub(super) struct SuggestionNotes {
    notes: Vec<(NoteKind, String)>,
}

impl SuggestionNotes {
    pub(super) fn push(&mut self, kind: NoteKind, text: String) {
        self.notes.push((kind, text));
    }

    /// The suggestions by sentence number (1 for a unit of one segment); with
    /// `labelled` (the unit's segments have ids) each note names its segment
    /// (`s2: `), and a note naming none is dropped. A target without a source is
    /// dropped too.
    pub(super) fn by_sentence(self, labelled: bool) -> BTreeMap<usize, Suggestion> {
        let mut found: BTreeMap<usize, (Option<String>, Option<String>)> = BTreeMap::new();
        for (kind, text) in self.notes {
            let (n, text) = if labelled {
                let Some((n, rest)) = text
                    .strip_prefix('s')
                    .and_then(|t| t.split_once(": "))
                    .and_then(|(n, rest)| Some((n.parse::<usize>().ok()?, rest)))
                else {
                    continue;
                };
                (n, rest.to_string())
            } else {
                (1, text)
            };
            let slot = found.entry(n).or_default();
            match kind {
                NoteKind::OldSource => slot.0 = Some(text),
                NoteKind::OldTarget => slot.1 = Some(text),
            }
        }
        found
            .into_iter()
            .filter_map(|(n, (source, target))| {
                Some((
                    n,
                    Suggestion {
                        old_source: source?,
                        old_target: target,
                    },
                ))
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labelled_notes_go_to_their_sentences() {
        let mut notes = SuggestionNotes::default();
        notes.push(NoteKind::OldSource, "s2: Old two.".into());
        notes.push(NoteKind::OldTarget, "s2: Vieux deux.".into());
        notes.push(NoteKind::OldSource, "s3: Old three: yes.".into());
        notes.push(NoteKind::OldTarget, "no label".into());
        notes.push(NoteKind::OldTarget, "s4: a target alone".into());
        let found = notes.by_sentence(true);
        assert_eq!(found.keys().copied().collect::<Vec<_>>(), [2, 3]);
        assert_eq!(found[&2].old_target.as_deref(), Some("Vieux deux."));
        assert_eq!(found[&3].old_source, "Old three: yes.");
        let mut plain = SuggestionNotes::default();
        plain.push(NoteKind::OldSource, "s2: text".into());
        assert_eq!(plain.by_sentence(false)[&1].old_source, "s2: text");
    }
}
