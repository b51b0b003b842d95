//! Cutting a unit's runs at sentence boundaries without splitting a code.

use super::{Piece, is_gap_char};
use crate::block::Run;

/// Where a unit is cut: before run `run`, or inside that text run at byte `offset`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Cut {
    run: usize,
    offset: usize,
}

/// Cuts `runs` at the boundaries `breaks` finds in their text (placeholders as
/// U+FFFC, paired codes as nothing); see the module docs for the code rules.
pub(super) fn split(runs: &[Run], breaks: impl Fn(&str) -> Vec<usize>) -> Vec<Piece> {
    let whole = || vec![Piece::Sentence(runs.to_vec())];
    let mut flat = String::new();
    let mut starts = Vec::with_capacity(runs.len() + 1);
    for run in runs {
        starts.push(flat.len());
        match run {
            Run::Text(t) => flat.push_str(t),
            Run::Placeholder { .. } => flat.push('\u{FFFC}'),
            Run::Open { .. } | Run::Close { .. } => {}
        }
    }
    starts.push(flat.len());
    // Paired codes open before each run (one pass: a cut's check is O(1)).
    let mut depth = Vec::with_capacity(runs.len() + 1);
    let mut d = 0i64;
    for run in runs {
        depth.push(d);
        match run {
            Run::Open { .. } => d += 1,
            Run::Close { .. } => d -= 1,
            _ => {}
        }
    }
    depth.push(d);
    let cuts: Vec<Cut> = breaks(&flat)
        .into_iter()
        .filter(|&b| b > 0 && b < flat.len())
        .filter_map(|b| cut_at(runs, &starts, b))
        .filter(|c| depth.get(c.run) == Some(&0))
        .collect();
    if cuts.is_empty() {
        return whole();
    }
    let mut raw = cut_runs(runs, &cuts);
    join_letterless(&mut raw);
    if raw.len() < 2 {
        return whole();
    }
    let mut pieces = Vec::with_capacity(raw.len() * 2);
    for sentence in raw {
        let (lead, body, trail) = trim(sentence);
        push_gap(&mut pieces, lead);
        pieces.push(Piece::Sentence(body));
        push_gap(&mut pieces, trail);
    }
    pieces
}

/// The cut for boundary `b` of the flat text: inside a text run, or between runs —
/// after the end tags found there, before the start tags.
fn cut_at(runs: &[Run], starts: &[usize], b: usize) -> Option<Cut> {
    // `starts` never decreases: the first run starting at or after `b`.
    let first = starts.partition_point(|&s| s < b);
    if *starts.get(first)? > b {
        // Inside the run before `first` (a text run: placeholders are one char,
        // and a boundary never falls inside a character).
        let run = first.checked_sub(1)?;
        return matches!(runs.get(run), Some(Run::Text(_))).then_some(Cut {
            run,
            offset: b.checked_sub(*starts.get(run)?)?,
        });
    }
    let mut run = first;
    while let Some(Run::Close { .. }) = runs.get(run) {
        run += 1;
    }
    // Past empty text runs too: the cut goes before the next start tag or text.
    while matches!(runs.get(run), Some(Run::Text(t)) if t.is_empty()) {
        run += 1;
    }
    (run > 0 && run < runs.len()).then_some(Cut { run, offset: 0 })
}

fn cut_runs(runs: &[Run], cuts: &[Cut]) -> Vec<Vec<Run>> {
    let mut out = vec![Vec::new()];
    let mut cuts = cuts.iter().peekable();
    for (i, run) in runs.iter().enumerate() {
        let mut from = 0;
        while let Some(c) = cuts.next_if(|c| c.run == i) {
            if let (Run::Text(t), true) = (run, c.offset > from)
                && let Some(part) = t.get(from..c.offset)
            {
                push(&mut out, Run::Text(part.to_string()));
                from = c.offset;
            }
            if out.last().is_some_and(|s| !s.is_empty()) {
                out.push(Vec::new());
            }
        }
        match run {
            Run::Text(t) if from > 0 => {
                if let Some(rest) = t.get(from..) {
                    push(&mut out, Run::Text(rest.to_string()));
                }
            }
            _ => push(&mut out, run.clone()),
        }
    }
    out.retain(|s| !s.is_empty());
    out
}

fn push(out: &mut [Vec<Run>], run: Run) {
    if matches!(&run, Run::Text(t) if t.is_empty()) {
        return;
    }
    if let Some(last) = out.last_mut() {
        last.push(run);
    }
}

/// Joins every sentence without a letter to the next one (the last ones to the
/// previous), in one pass.
fn join_letterless(raw: &mut Vec<Vec<Run>>) {
    let has_letter = |s: &[Run]| {
        s.iter()
            .any(|r| matches!(r, Run::Text(t) if t.chars().any(char::is_alphabetic)))
    };
    let mut out: Vec<Vec<Run>> = Vec::with_capacity(raw.len());
    let mut carry: Vec<Run> = Vec::new();
    for sentence in raw.drain(..) {
        let letters = has_letter(&sentence);
        extend(&mut carry, sentence);
        if letters {
            out.push(std::mem::take(&mut carry));
        }
    }
    if !carry.is_empty() {
        match out.last_mut() {
            Some(last) => extend(last, carry),
            None => out.push(carry),
        }
    }
    *raw = out;
}

/// Appends `more` to `s`, joining the text runs that meet.
fn extend(s: &mut Vec<Run>, more: Vec<Run>) {
    for run in more {
        match (s.last_mut(), run) {
            (Some(Run::Text(a)), Run::Text(b)) => a.push_str(&b),
            (_, run) => s.push(run),
        }
    }
}

/// Leading and trailing whitespace of a sentence's outer text runs, and the rest.
fn trim(mut s: Vec<Run>) -> (String, Vec<Run>, String) {
    let mut lead = String::new();
    let mut trail = String::new();
    if let Some(Run::Text(t)) = s.last_mut() {
        let keep = t.trim_end_matches(is_gap_char).len();
        trail = t.split_off(keep);
        if t.is_empty() {
            s.pop();
        }
    }
    if let Some(Run::Text(t)) = s.first_mut() {
        let cut = t.len() - t.trim_start_matches(is_gap_char).len();
        lead = t[..cut].to_string();
        t.replace_range(..cut, "");
        if t.is_empty() {
            s.remove(0);
        }
    }
    (lead, s, trail)
}

fn push_gap(pieces: &mut Vec<Piece>, gap: String) {
    if gap.is_empty() {
        return;
    }
    if let Some(Piece::Gap(g)) = pieces.last_mut() {
        g.push_str(&gap);
    } else {
        pieces.push(Piece::Gap(gap));
    }
}
