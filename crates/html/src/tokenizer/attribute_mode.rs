//! Which tags get their attributes read: [`AttributeMode`] and [`TagSet`].
//!
//! A consumer that looks at the attributes of only a few tags (the sanitizer
//! skips those of the tags it drops) can tell the tokenizer so. (Measure first:
//! the fused tag reader reads a common tag in full for about what a skim costs.) A skimmed tag is
//! read to its end by the attribute states' rules (quotes decide where it ends,
//! exactly as in full tokenization), but no attribute is stored, no character
//! reference is decoded and no parse error is recorded inside it (except
//! eof-in-tag); its name, self-closing flag and span are the same as in full
//! mode, so is everything after it.

use crate::atom::Atom;

/// Whether the tokenizer reads the attributes of every tag or only of some.
///
/// ```
/// use tagloom_html::atom;
/// use tagloom_html::token::Token;
/// use tagloom_html::tokenizer::{AttributeMode, TagSet, Tokenizer, TokenizerConfig};
///
/// let mut tok = Tokenizer::new(TokenizerConfig::default());
/// tok.set_attribute_mode(AttributeMode::Only(TagSet::from_atoms([atom::A])));
/// tok.push_str(r#"<div title="a > b"><a href="/x">"#);
/// tok.finish();
/// let mut seen = Vec::new();
/// while let Some(token) = tok.next_token()? {
///     if let Token::StartTag(tag) = token {
///         seen.push((tag.name_str().to_owned(), tag.attrs.len(), tag.attrs_skipped()));
///     }
/// }
/// assert_eq!(seen, [("div".to_owned(), 0, true), ("a".to_owned(), 1, false)]);
/// # Ok::<(), tagloom_html::tokenizer::TokenizerError>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum AttributeMode {
    /// Every tag is tokenized fully (the default, what a tree builder needs).
    #[default]
    All,
    /// Only start tags named in the set get their attributes; other start tags
    /// and end tags (whose attributes the spec drops) are skimmed. (An end tag
    /// that closes RCDATA, RAWTEXT or script data is read by its own states, in
    /// full, as in [`AttributeMode::All`].)
    Only(TagSet),
    /// Like [`Only`](Self::Only), and every start tag carrying an attribute whose
    /// name is in `attributes` gets its attributes too (a skim that meets such a
    /// name reads the tag again from its first attribute, in full): for a
    /// consumer that reads the attributes of any element *with* a given
    /// attribute (a `[data-id]` selector).
    ///
    /// ```
    /// use tagloom_html::atom;
    /// use tagloom_html::token::Token;
    /// use tagloom_html::tokenizer::{AttributeMode, TagSet, Tokenizer, TokenizerConfig};
    ///
    /// let mut tok = Tokenizer::new(TokenizerConfig::default());
    /// tok.set_attribute_mode(AttributeMode::OnlyWith {
    ///     tags: TagSet::from_atoms([atom::A]),
    ///     attributes: vec!["data-id".into()],
    /// });
    /// tok.push_str(r#"<div class=x><p title=t DATA-ID=7><a href=/>"#);
    /// tok.finish();
    /// let mut seen = Vec::new();
    /// while let Some(token) = tok.next_token()? {
    ///     if let Token::StartTag(tag) = token {
    ///         seen.push((tag.name_str().to_owned(), tag.attrs.len()));
    ///     }
    /// }
    /// assert_eq!(seen, [("div".into(), 0), ("p".into(), 2), ("a".into(), 1)]);
    /// # Ok::<(), tagloom_html::tokenizer::TokenizerError>(())
    /// ```
    OnlyWith {
        /// The start tags whose attributes are always read.
        tags: TagSet,
        /// Attribute names (ASCII lowercase) whose presence makes any start tag's
        /// attributes read.
        attributes: Vec<String>,
    },
}

impl AttributeMode {
    /// Whether the raw attribute name `raw` (as written) makes a skimmed start
    /// tag's attributes read. A name with NUL or CR (which full tokenization
    /// rewrites) counts, to be safe.
    pub(crate) fn triggered_by(&self, raw: &[u8]) -> bool {
        let AttributeMode::OnlyWith { attributes, .. } = self else {
            return false;
        };
        raw.iter().any(|&b| b == 0 || b == b'\r')
            || attributes
                .iter()
                .any(|a| a.as_bytes().eq_ignore_ascii_case(raw))
    }
}

/// Whether character data in the data state is decoded.
///
/// A consumer that copies text from the source and never reads it (a rewriter
/// with no text handler, outside the few places where text changes nesting) can
/// switch to [`TextMode::Raw`] between two tokens, and back.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum TextMode {
    /// Character references decoded, CR LF normalized, NUL reported (the spec).
    #[default]
    Decoded,
    /// Data-state text is the source as it is, up to the next `<`: references
    /// are not decoded, CR is kept, no parse error is recorded in it. Where tags
    /// start and end is unchanged (only `<` ends text in the data state), so
    /// are the spans. RCDATA, RAWTEXT, script data and the rest are unaffected.
    Raw,
}

/// A set of tag names, by atom (a bit per atom index). Dynamic atoms must come
/// from the tokenizer's own table ([`Tokenizer::atoms_mut`](super::Tokenizer::atoms_mut))
/// to mean the same name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagSet {
    bits: Vec<u64>,
}

impl TagSet {
    /// An empty set.
    pub fn new() -> Self {
        TagSet::default()
    }

    /// The set of `atoms`.
    pub fn from_atoms(atoms: impl IntoIterator<Item = Atom>) -> Self {
        let mut set = TagSet::new();
        for atom in atoms {
            set.insert(atom);
        }
        set
    }

    /// Adds `atom`.
    pub fn insert(&mut self, atom: Atom) {
        let i = atom.index() as usize;
        if self.bits.len() <= i / 64 {
            self.bits.resize(i / 64 + 1, 0);
        }
        if let Some(word) = self.bits.get_mut(i / 64) {
            *word |= 1 << (i % 64);
        }
    }

    /// Whether `atom` is in the set.
    #[inline]
    pub fn contains(&self, atom: Atom) -> bool {
        let i = atom.index() as usize;
        self.bits
            .get(i / 64)
            .is_some_and(|word| word & (1 << (i % 64)) != 0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atom::{self, AtomTable};

    #[test]
    fn holds_static_and_dynamic_atoms() {
        let mut table = AtomTable::new();
        let custom = table.intern("my-widget");
        let set = TagSet::from_atoms([atom::A, custom]);
        assert!(set.contains(atom::A) && set.contains(custom));
        assert!(!set.contains(atom::DIV) && !set.contains(table.intern("other-widget")));
        assert!(!TagSet::new().contains(atom::A));
    }
}
