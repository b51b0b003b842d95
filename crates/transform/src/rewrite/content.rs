//! Inserted content: text (escaped) or HTML (as is), and the names handlers may set.

use tagloom_html::serializer::{EscapeMode, write_escaped};

use super::error::RewriteError;

/// How inserted content is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContentType {
    /// Text: `&`, `<`, `>` and U+00A0 are escaped (HTML's "escaping a string").
    Text,
    /// Markup, written as given.
    Html,
}

/// Appends `content` to `out` as `kind` says.
pub(crate) fn push_content(out: &mut String, content: &str, kind: ContentType) {
    match kind {
        ContentType::Html => out.push_str(content),
        // Writing into a String cannot fail.
        ContentType::Text => {
            let _ = write_escaped(out, content, EscapeMode::Text);
        }
    }
}

/// Appends ` name="value"` with the value escaped for a double-quoted attribute.
pub(crate) fn push_attribute(out: &mut String, name: &str, value: &str) {
    out.push(' ');
    out.push_str(name);
    out.push_str("=\"");
    // What `EscapeMode::DoubleQuoted` escapes: `&`, `<`, `>`, `"`, U+00A0 (lead
    // byte 0xC2); a value without them is copied as it is.
    if value
        .bytes()
        .any(|b| matches!(b, b'&' | b'<' | b'>' | b'"' | 0xC2))
    {
        let _ = write_escaped(out, value, EscapeMode::DoubleQuoted);
    } else {
        out.push_str(value);
    }
    out.push('"');
}

/// Checks a tag or attribute name a handler supplies: the tokenizer must read it
/// back as one name.
pub(crate) fn check_name(name: &str) -> Result<(), RewriteError> {
    let bad = name.is_empty()
        || name.bytes().any(|b| {
            matches!(
                b,
                b' ' | b'\t' | b'\n' | b'\r' | b'\x0c' | b'/' | b'>' | b'=' | b'"' | b'\'' | b'<'
            ) || b == 0
        });
    if bad {
        Err(RewriteError::InvalidName(name.to_owned()))
    } else {
        Ok(())
    }
}

/// Before/after/replacement edits of one node (text chunk, comment, doctype, end
/// tag).
#[derive(Debug, Default)]
pub(crate) struct NodeEdits {
    pub(crate) before: String,
    pub(crate) after: String,
    /// The node's new text (already serialized); `Some("")` removes it.
    pub(crate) replacement: Option<String>,
}

impl NodeEdits {
    pub(crate) fn touched(&self) -> bool {
        !self.before.is_empty() || !self.after.is_empty() || self.replacement.is_some()
    }

    pub(crate) fn clear(&mut self) {
        self.before.clear();
        self.after.clear();
        self.replacement = None;
    }
}

/// The methods every editable node shares, implemented over a [`NodeEdits`].
macro_rules! node_edits {
    ($ty:ident) => {
        impl $ty<'_> {
            /// Inserts `content` before this node.
            pub fn before(&mut self, content: &str, kind: ContentType) {
                push_content(&mut self.edits.before, content, kind);
            }

            /// Inserts `content` after this node.
            pub fn after(&mut self, content: &str, kind: ContentType) {
                let mut new = String::new();
                push_content(&mut new, content, kind);
                // Later calls go nearer the node, as in lol-html.
                self.edits.after.insert_str(0, &new);
            }

            /// Replaces this node with `content`.
            pub fn replace(&mut self, content: &str, kind: ContentType) {
                let mut new = String::new();
                push_content(&mut new, content, kind);
                self.edits.replacement = Some(new);
            }

            /// Removes this node.
            pub fn remove(&mut self) {
                self.edits.replacement = Some(String::new());
            }

            /// Whether [`remove`](Self::remove) or [`replace`](Self::replace) was called.
            pub fn removed(&self) -> bool {
                self.edits.replacement.is_some()
            }
        }
    };
}
pub(crate) use node_edits;

#[cfg(test)]
mod tests {
    use super::push_attribute;
    use tagloom_html::serializer::{EscapeMode, write_escaped};

    #[test]
    fn attribute_values_are_escaped_exactly_as_the_serializer_does() {
        for value in [
            "nofollow",
            "",
            "a&b",
            "x<y>z",
            "say \"hi\"",
            "it's",
            "nbsp\u{a0}here",
            "é€😀",
            "Â",
        ] {
            let mut got = String::new();
            push_attribute(&mut got, "rel", value);
            let mut escaped = String::new();
            let _ = write_escaped(&mut escaped, value, EscapeMode::DoubleQuoted);
            assert_eq!(got, format!(" rel=\"{escaped}\""), "{value:?}");
        }
    }
}
