//! [`Pair`]: two stages run as one, so the chain dispatches to them once a
//! token (a stage that almost every token passes costs the chain a call
//! through the vtable per token; inside a pair the second stage's `pass` is a
//! direct, inlined call).

use super::Transform;
use crate::token::WikiToken;

/// A stage whose `pass` changes nothing: it can be asked before the stage
/// ahead of it has seen the token (what [`Pair`] does), and again.
pub(crate) trait PurePass: Transform {
    /// [`Transform::pass`], which for this stage only looks.
    fn passes(&self, token: &WikiToken) -> bool;
}

/// Stage `A` then stage `B`, as the chain would run them one after the other:
/// `B` sees what `A` gives back, in order. `B`'s `pass` only looks, so it is
/// asked first: a token both let pass costs `A`'s `pass` as a tail call (no
/// registers kept across it), and a refused one has changed nothing.
#[derive(Default)]
pub(crate) struct Pair<A, B> {
    first: A,
    second: B,
    /// What `first` gives back from one `push`, on its way to `second`.
    buf: Vec<WikiToken>,
}

impl<A: Transform, B: PurePass> Transform for Pair<A, B> {
    fn reset(&mut self) {
        self.first.reset();
        self.second.reset();
        self.buf.clear();
    }

    #[inline]
    fn pass(&mut self, token: &WikiToken) -> bool {
        self.second.passes(token) && self.first.pass(token)
    }

    fn push(&mut self, token: WikiToken, out: &mut Vec<WikiToken>) {
        let mut buf = std::mem::take(&mut self.buf);
        self.first.push(token, &mut buf);
        if buf.iter().all(|t| self.second.passes(t)) {
            // The usual case: all go on, in one move.
            out.append(&mut buf);
        } else {
            for t in buf.drain(..) {
                if self.second.passes(&t) {
                    out.push(t);
                } else {
                    self.second.push(t, out);
                }
            }
        }
        self.buf = buf;
    }

    /// Only `second` may hold (it is the chain's last stage when the pair
    /// is).
    fn held(&self) -> usize {
        self.second.held()
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{assert_same_output, chain};
    use super::super::{Chain, headings, lists, paragraphs, pre, quotes};
    use super::*;

    /// Paired stages give the chain's output of the same stages apart (`chain`),
    /// whole and a chunk a token.
    #[test]
    fn a_pair_runs_as_its_two_stages() {
        let paired = || {
            Chain::new(vec![
                Box::new(pre::PreHandler::default()),
                Box::new(quotes::QuoteTransformer::default()),
                Box::new(Pair::<lists::ListHandler, headings::HeadingIds>::default()),
                Box::new(paragraphs::ParagraphWrapper::default()),
            ])
        };
        for text in [
            "a\n\nb\n\n\n\nc\n\n\n d",
            " pre\n more ''x''\n\npara\n <div>no pre</div>\n <!-- c -->\n x",
            "* a [[L|''b'']] <span>s</span> c\n* <b>x</i> y</b>\n** <table><tr><td>t</td></tr></table> z\n\nafter",
            "; t : d\n: e <meta property=\"mw:PageProp/x\"/>\n== H ''i'' ==\ntext\n=== [[L]] ===\n* l\n\n",
            "== a ==\n== a ==\n* == b ==\n''a [[b|c '''d]] e'' f\n{|\n| x || ''y || z''\n|}",
        ] {
            assert_same_output(paired, chain, text);
        }
    }
}
