//! Pseudo-translation for testing layouts: accented letters (`Hello` → `Ĥéļļö`),
//! expansion (about 30 % longer, for languages that run long) and brackets around
//! every block's text (`[…]`, to spot truncation and concatenated strings). Codes
//! stay where they are.
//!
//! ```
//! use tagloom_l10n::pseudo::pseudo_text;
//! assert_eq!(pseudo_text("Hello", true), "Ĥéļļö··");
//! ```

use crate::block::{Block, Run};
use crate::error::Result;
use crate::writer::Translations;

fn accent(c: char) -> char {
    match c {
        'a' => 'à',
        'b' => 'ƀ',
        'c' => 'ç',
        'd' => 'ð',
        'e' => 'é',
        'g' => 'ĝ',
        'h' => 'ĥ',
        'i' => 'î',
        'j' => 'ĵ',
        'k' => 'ķ',
        'l' => 'ļ',
        'n' => 'ñ',
        'o' => 'ö',
        'r' => 'ŕ',
        's' => 'š',
        't' => 'ţ',
        'u' => 'û',
        'w' => 'ŵ',
        'y' => 'ý',
        'z' => 'ž',
        'A' => 'Â',
        'C' => 'Ç',
        'D' => 'Ð',
        'E' => 'É',
        'G' => 'Ĝ',
        'H' => 'Ĥ',
        'I' => 'Î',
        'J' => 'Ĵ',
        'K' => 'Ķ',
        'L' => 'Ļ',
        'N' => 'Ñ',
        'O' => 'Ö',
        'R' => 'Ŕ',
        'S' => 'Š',
        'T' => 'Ţ',
        'U' => 'Û',
        'W' => 'Ŵ',
        'Y' => 'Ý',
        'Z' => 'Ž',
        c => c,
    }
}

/// Accents the letters of `text`; with `expand`, adds one `·` per three letters.
pub fn pseudo_text(text: &str, expand: bool) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    let mut letters = 0usize;
    for c in text.chars() {
        out.push(accent(c));
        if c.is_alphabetic() {
            letters += 1;
        }
    }
    if expand {
        for _ in 0..letters.div_ceil(3) {
            out.push('·');
        }
    }
    out
}

/// Pseudo-translates runs: text accented and expanded, `[` before the first and `]`
/// after the last text that is not whitespace-only.
///
/// The brackets hug the text instead of the block's edges: markup the tree builder
/// repairs (misnested formatting elements, `<basefont>` before `<body>`…) would
/// otherwise get new text next to it and parse to a different tree; and
/// whitespace-only text stays whitespace-only (it is significant to the tree
/// builder, in tables for instance).
pub fn pseudo_runs(runs: &[Run]) -> Vec<Run> {
    let visible =
        |r: &Run| matches!(r, Run::Text(t) if t.chars().any(|c| !c.is_whitespace() && c != '\0'));
    let first = runs.iter().position(visible);
    let last = runs.iter().rposition(visible);
    let mut out: Vec<Run> = Vec::with_capacity(runs.len());
    for (i, run) in runs.iter().enumerate() {
        match run {
            Run::Text(t) => {
                let mut text = pseudo_text(t, true);
                if Some(i) == first {
                    text.insert(0, '[');
                }
                if Some(i) == last {
                    text.push(']');
                }
                out.push(Run::Text(text));
            }
            other => out.push(other.clone()),
        }
    }
    out
}

/// Translations that pseudo-translate every block.
#[derive(Default, Debug)]
pub struct PseudoTranslations;

impl Translations for PseudoTranslations {
    fn target(&mut self, block: &Block) -> Result<Option<Vec<Run>>> {
        Ok(Some(pseudo_runs(&block.runs)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keeps_codes() {
        let runs = vec![
            Run::Text("Hi ".into()),
            Run::Placeholder {
                id: 1,
                data: "<br>".into(),
            },
        ];
        let p = pseudo_runs(&runs);
        assert_eq!(p[0], Run::Text("[Ĥî ·]".into()));
        assert_eq!(p[1], runs[1]);
        assert_eq!(p.len(), 2);
        let runs = vec![
            Run::Placeholder {
                id: 1,
                data: "<br>".into(),
            },
            Run::Text(" ".into()),
            Run::Text("a".into()),
            Run::Text(" ".into()),
        ];
        let p = pseudo_runs(&runs);
        assert_eq!(p[1], Run::Text(" ".into()));
        assert_eq!(p[2], Run::Text("[à·]".into()));
        assert_eq!(p[3], Run::Text(" ".into()));
    }
}
