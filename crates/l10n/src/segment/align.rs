//! Finding a file's sentences in the page's block again (the PO merge: the file
//! has the sentences, the page the whitespace between them).

use super::is_gap_char;
use crate::block::Run;

/// One character of the block's text, or one of its codes.
#[derive(Clone, Copy)]
enum Atom<'a> {
    Char(char),
    Code(&'a Run),
}

/// Reads a block's runs sentence by sentence: each [`Aligner::sentence`] skips the
/// whitespace before it and matches the sentence's text and codes (kind and id;
/// the codes come back with the page's markup).
pub(crate) struct Aligner<'a> {
    atoms: Vec<Atom<'a>>,
    pos: usize,
}

fn same_code(a: &Run, b: &Run) -> bool {
    match (a, b) {
        (Run::Open { id: x, .. }, Run::Open { id: y, .. })
        | (Run::Close { id: x, .. }, Run::Close { id: y, .. })
        | (Run::Placeholder { id: x, .. }, Run::Placeholder { id: y, .. }) => x == y,
        _ => false,
    }
}

impl<'a> Aligner<'a> {
    pub(crate) fn new(runs: &'a [Run]) -> Self {
        let mut atoms = Vec::new();
        for run in runs {
            match run {
                Run::Text(t) => atoms.extend(t.chars().map(Atom::Char)),
                code => atoms.push(Atom::Code(code)),
            }
        }
        Aligner { atoms, pos: 0 }
    }

    fn gap(&mut self) -> String {
        let mut gap = String::new();
        while let Some(Atom::Char(c)) = self.atoms.get(self.pos) {
            if !is_gap_char(*c) {
                break;
            }
            gap.push(*c);
            self.pos += 1;
        }
        gap
    }

    /// The whitespace before the next sentence and that sentence's runs as the page
    /// has them, when the page's text goes on with `source` (codes compared by kind
    /// and id); `None` (and nothing consumed) otherwise.
    pub(crate) fn sentence(&mut self, source: &[Run]) -> Option<(String, Vec<Run>)> {
        let start = self.pos;
        let gap = self.gap();
        let mut out: Vec<Run> = Vec::new();
        for run in source {
            match run {
                Run::Text(t) => {
                    for c in t.chars() {
                        match self.atoms.get(self.pos) {
                            Some(Atom::Char(p)) if *p == c => self.pos += 1,
                            _ => {
                                self.pos = start;
                                return None;
                            }
                        }
                        if let Some(Run::Text(last)) = out.last_mut() {
                            last.push(c);
                        } else {
                            out.push(Run::Text(c.to_string()));
                        }
                    }
                }
                code => match self.atoms.get(self.pos) {
                    Some(Atom::Code(p)) if same_code(p, code) => {
                        out.push((*p).clone());
                        self.pos += 1;
                    }
                    _ => {
                        self.pos = start;
                        return None;
                    }
                },
            }
        }
        if out.is_empty() {
            self.pos = start;
            return None;
        }
        Some((gap, out))
    }

    /// The rest of the block when it is only whitespace (the end of the unit).
    pub(crate) fn rest_if_gap(&mut self) -> Option<String> {
        let start = self.pos;
        let gap = self.gap();
        if self.pos == self.atoms.len() {
            Some(gap)
        } else {
            self.pos = start;
            None
        }
    }
}
