//! Pseudo-translation for testing layouts: accented letters (`Hello` → `Ĥéļļö`),
//! expansion (about 30 % longer, for languages that run long) and brackets around
//! every block (`[…]`, to spot truncation and concatenated strings). Codes stay
//! where they are.
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

/// Pseudo-translates runs: text accented and expanded, `[` `]` around the whole.
pub fn pseudo_runs(runs: &[Run]) -> Vec<Run> {
    let mut out: Vec<Run> = Vec::with_capacity(runs.len() + 2);
    out.push(Run::Text("[".into()));
    for run in runs {
        match run {
            Run::Text(t) => out.push(Run::Text(pseudo_text(t, true))),
            other => out.push(other.clone()),
        }
    }
    out.push(Run::Text("]".into()));
    // Coalesce adjacent texts.
    let mut merged: Vec<Run> = Vec::with_capacity(out.len());
    for run in out {
        match (merged.last_mut(), run) {
            (Some(Run::Text(a)), Run::Text(b)) => a.push_str(&b),
            (_, run) => merged.push(run),
        }
    }
    merged
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
        assert_eq!(p[0], Run::Text("[Ĥî ·".into()));
        assert_eq!(p[1], runs[1]);
        assert_eq!(p[2], Run::Text("]".into()));
    }
}
