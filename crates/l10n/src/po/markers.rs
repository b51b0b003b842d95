//! The code markers of PO text: how a block's runs are written in a `msgid` and how
//! a `msgstr` is read back, unambiguously.
//!
//! A code is a *marker*: `<N>` opens paired code N, `</N>` closes it, `<N/>` is
//! standalone code N (N: ASCII digits). In text, a `<` that would start a marker
//! shape (`<` `/`? digits `/`? `>`) is written `\<`, and a `\` just before a `<`, a
//! `\` or a marker is written `\\`; every other character, `\` included, is itself.
//! So ordinary text never changes, a literal `<1>` reads `\<1>`, and every
//! unescaped marker in a translation is a code: one the block does not have is a
//! stray code, reported, never turned into visible text. (In the PO file the PO
//! string escape doubles each `\` again: `msgid "a \\<1> b"`.)
//!
//! Files written before the escape ([`legacy_text`]: markers only, no escapes) are
//! still read where that old form is unambiguous (see [`Syntax`]).

use crate::block::Run;

/// The length of the marker shape at the start of `s` (which starts just after a
/// `<`), including the `>`: `/`? digits `/`? `>`.
fn marker_shape(s: &str) -> Option<usize> {
    let b = s.as_bytes();
    let mut i = usize::from(b.first() == Some(&b'/'));
    let digits = b[i..].iter().take_while(|c| c.is_ascii_digit()).count();
    if digits == 0 {
        return None;
    }
    i += digits;
    if b.get(i) == Some(&b'/') {
        i += 1;
    }
    (b.get(i) == Some(&b'>')).then_some(i + 1)
}

/// A marker read from PO text.
fn marker(shape: &str) -> Result<Run, String> {
    let inner = shape.strip_suffix('>').unwrap_or(shape);
    let (close, inner) = match inner.strip_prefix('/') {
        Some(rest) => (true, rest),
        None => (false, inner),
    };
    let (standalone, digits) = match inner.strip_suffix('/') {
        Some(rest) => (true, rest),
        None => (false, inner),
    };
    let id: u32 = digits
        .parse()
        .map_err(|_| format!("code marker <{shape} has a bad number"))?;
    let data = String::new();
    Ok(match (close, standalone) {
        (false, false) => Run::Open { id, data },
        (true, false) => Run::Close { id, data },
        (false, true) => Run::Placeholder { id, data },
        (true, true) => return Err(format!("code marker <{shape} is malformed")),
    })
}

/// `runs` as PO text: markers for codes, look-alikes escaped.
pub fn runs_to_text(runs: &[Run]) -> String {
    let mut s = String::new();
    for (i, run) in runs.iter().enumerate() {
        match run {
            Run::Text(t) => {
                let code_follows = runs.get(i + 1).is_some_and(|r| r.code_id().is_some());
                for (at, c) in t.char_indices() {
                    let rest = &t[at + c.len_utf8()..];
                    match c {
                        '<' if marker_shape(rest).is_some() => s.push_str("\\<"),
                        '\\' if rest.starts_with(['<', '\\'])
                            || (rest.is_empty() && code_follows) =>
                        {
                            s.push_str("\\\\")
                        }
                        c => s.push(c),
                    }
                }
            }
            code => push_marker(code, &mut s),
        }
    }
    s
}

fn push_marker(run: &Run, s: &mut String) {
    match run {
        Run::Text(_) => {}
        Run::Open { id, .. } => s.push_str(&format!("<{id}>")),
        Run::Close { id, .. } => s.push_str(&format!("</{id}>")),
        Run::Placeholder { id, .. } => s.push_str(&format!("<{id}/>")),
    }
}

/// PO text back into runs: every unescaped marker is a code (with no data: the
/// page's markup is used); `Err` for a malformed one (`</1/>`, a number too large).
pub fn text_to_runs(text: &str) -> Result<Vec<Run>, String> {
    let mut runs = Vec::new();
    let mut lit = String::new();
    let mut chars = text.char_indices();
    while let Some((at, c)) = chars.next() {
        let rest = &text[at + c.len_utf8()..];
        match c {
            '\\' if rest.starts_with(['<', '\\']) => {
                if let Some((_, escaped)) = chars.next() {
                    lit.push(escaped);
                }
            }
            '<' => match marker_shape(rest) {
                Some(len) => {
                    if !lit.is_empty() {
                        runs.push(Run::Text(std::mem::take(&mut lit)));
                    }
                    runs.push(marker(&rest[..len])?);
                    for _ in 0..len {
                        chars.next();
                    }
                }
                None => lit.push('<'),
            },
            c => lit.push(c),
        }
    }
    if !lit.is_empty() {
        runs.push(Run::Text(lit));
    }
    Ok(runs)
}

/// Whether `run` is a code `source` has (same id and kind).
fn names_code(source: &[Run], run: &Run) -> bool {
    run.code_id().is_some()
        && source.iter().any(|s| {
            std::mem::discriminant(s) == std::mem::discriminant(run) && s.code_id() == run.code_id()
        })
}

/// The codes of `target` that `source` does not have (same id and kind), as markers.
pub fn stray_codes(source: &[Run], target: &[Run]) -> Vec<String> {
    target
        .iter()
        .filter(|t| t.code_id().is_some() && !names_code(source, t))
        .map(|t| {
            let mut m = String::new();
            push_marker(t, &mut m);
            m
        })
        .collect()
}

/// The form of a `msgid` written before the escape: markers, text as it is.
pub fn legacy_text(runs: &[Run]) -> String {
    let mut s = String::new();
    for run in runs {
        match run {
            Run::Text(t) => s.push_str(t),
            code => push_marker(code, &mut s),
        }
    }
    s
}

/// Which marker syntax an entry's `msgid` is written in, for a block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Syntax {
    /// The escaped form ([`runs_to_text`]).
    Current,
    /// The old form, where it differs from the current one (the block's text has a
    /// look-alike or a `\` before `<`) and is unambiguous: no look-alike in the
    /// block's text names one of its codes. Its `msgstr` is read the old way: only
    /// the block's codes are markers.
    Legacy,
}

/// The syntax `msgid` is written in for `runs`; `Err` with why when it is neither
/// (the source changed) or is the old form made ambiguous by the block's text.
pub fn syntax_of(msgid: &str, runs: &[Run]) -> Result<Syntax, String> {
    if msgid == runs_to_text(runs) {
        return Ok(Syntax::Current);
    }
    if msgid != legacy_text(runs) {
        return Err("the msgid differs".into());
    }
    // Old readers took a look-alike in the text for the code it names.
    let ambiguous = runs.iter().any(|r| match r {
        Run::Text(t) => {
            text_to_runs(t).is_ok_and(|lookalikes| lookalikes.iter().any(|l| names_code(runs, l)))
        }
        _ => false,
    });
    if ambiguous {
        return Err(
            "written in the old code syntax, ambiguous for this block's text: \
                    extract again"
                .into(),
        );
    }
    Ok(Syntax::Legacy)
}

/// The old reading of PO text: only markers naming a code of `source` (same id and
/// kind) are codes, every other `<` is text.
pub fn legacy_text_to_runs(text: &str, source: &[Run]) -> Vec<Run> {
    let mut runs: Vec<Run> = Vec::new();
    let mut lit = String::new();
    let mut rest = text;
    while let Some(pos) = rest.find('<') {
        lit.push_str(&rest[..pos]);
        let after = &rest[pos + 1..];
        let known = marker_shape(after)
            .and_then(|len| marker(&after[..len]).ok().map(|run| (len, run)))
            .filter(|(_, run)| names_code(source, run));
        match known {
            Some((len, run)) => {
                if !lit.is_empty() {
                    runs.push(Run::Text(std::mem::take(&mut lit)));
                }
                runs.push(run);
                rest = &after[len..];
            }
            None => {
                lit.push('<');
                rest = after;
            }
        }
    }
    lit.push_str(rest);
    if !lit.is_empty() {
        runs.push(Run::Text(lit));
    }
    runs
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::block::test_runs::{close, open, ph};

    fn text(t: &str) -> Run {
        Run::Text(t.into())
    }
    /// Runs without code data, as a translation reads back.
    fn bare(runs: &[Run]) -> Vec<Run> {
        runs.iter()
            .map(|r| match r {
                Run::Open { id, .. } => Run::Open {
                    id: *id,
                    data: String::new(),
                },
                Run::Close { id, .. } => Run::Close {
                    id: *id,
                    data: String::new(),
                },
                Run::Placeholder { id, .. } => Run::Placeholder {
                    id: *id,
                    data: String::new(),
                },
                t => t.clone(),
            })
            .collect()
    }

    #[test]
    fn ordinary_text_is_unchanged() {
        let runs = [
            text("a < b, x<y, C:\\dir\\n, <b>bold</b> "),
            open(1),
            text("b"),
            close(1),
            ph(2),
        ];
        assert_eq!(
            runs_to_text(&runs),
            "a < b, x<y, C:\\dir\\n, <b>bold</b> <1>b</1><2/>"
        );
    }

    #[test]
    fn look_alikes_round_trip() {
        let cases: Vec<Vec<Run>> = vec![
            vec![text("<1>x</1> and <2/> </3/> <007>")],
            vec![text("see <1>"), open(1), text("<1>"), close(1)],
            vec![
                text("a\\"),
                open(1),
                text("\\<1>\\\\"),
                close(1),
                text("\\"),
            ],
            vec![text("\\<"), ph(1), text("<")],
            vec![text("<99999999999999999999>")],
            vec![text("日本<1>é\\"), ph(1), text("ü\\\\")],
        ];
        for runs in cases {
            let written = runs_to_text(&runs);
            assert_eq!(text_to_runs(&written).unwrap(), bare(&runs), "{written}");
            assert_eq!(syntax_of(&written, &runs), Ok(Syntax::Current));
        }
        assert_eq!(
            runs_to_text(&[text("<1>x</1>")]),
            "\\<1>x\\</1>",
            "escaped as the README says"
        );
    }

    /// Random runs over the characters that matter (`<`, `>`, `/`, `\\`, digits)
    /// come back as they were: the escape is unambiguous.
    #[test]
    fn random_runs_round_trip() {
        let alphabet: Vec<char> = "<>/\\12 aé".chars().collect();
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as usize
        };
        for _ in 0..20_000 {
            let mut runs: Vec<Run> = Vec::new();
            for _ in 0..next(6) {
                match next(4) {
                    0 => runs.push(ph(1 + next(3) as u32)),
                    1 => runs.push(open(1 + next(3) as u32)),
                    2 => runs.push(close(1 + next(3) as u32)),
                    _ => {
                        let t: String = (0..1 + next(6))
                            .map(|_| alphabet[next(alphabet.len())])
                            .collect();
                        match runs.last_mut() {
                            Some(Run::Text(prev)) => prev.push_str(&t),
                            _ => runs.push(Run::Text(t)),
                        }
                    }
                }
            }
            let written = runs_to_text(&runs);
            assert_eq!(
                text_to_runs(&written),
                Ok(bare(&runs)),
                "{runs:?} as {written:?}"
            );
        }
    }

    #[test]
    fn every_unescaped_marker_is_a_code() {
        let runs = text_to_runs("x <1>y</1> <2/> \\<3>").unwrap();
        assert_eq!(
            runs,
            bare(&[
                text("x "),
                open(1),
                text("y"),
                close(1),
                text(" "),
                ph(2),
                text(" <3>")
            ])
        );
        assert!(text_to_runs("</1/>").is_err());
        assert!(text_to_runs("<99999999999999999999>").is_err());
        assert_eq!(
            stray_codes(&[text("plain")], &runs),
            ["<1>", "</1>", "<2/>"]
        );
        assert!(stray_codes(&[open(1), close(1), ph(2)], &runs).is_empty());
        // A placeholder is not a paired code of the same number.
        assert_eq!(stray_codes(&[ph(1)], &bare(&[open(1)])), ["<1>"]);
    }

    #[test]
    fn old_files_are_read_where_unambiguous() {
        // No look-alike: both forms are the same, read as current.
        let plain = [text("Click "), open(1), text("here"), close(1)];
        assert_eq!(syntax_of("Click <1>here</1>", &plain), Ok(Syntax::Current));
        // A look-alike naming no code of the block: the old form is unambiguous.
        let lookalike = [text("a <3> "), open(1), text("b"), close(1)];
        assert_eq!(syntax_of("a <3> <1>b</1>", &lookalike), Ok(Syntax::Legacy));
        assert_eq!(
            legacy_text_to_runs("<1>B</1> <3>", &lookalike),
            bare(&[open(1), text("B"), close(1), text(" <3>")])
        );
        // A look-alike naming a code of the block: ambiguous.
        let clash = [text("<1> "), open(1), text("b"), close(1)];
        assert!(syntax_of("<1> <1>b</1>", &clash).is_err());
        assert!(syntax_of("other", &plain).is_err());
    }
}
