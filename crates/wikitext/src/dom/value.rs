//! An attribute value of the owned tree ([`super::Attr`]): static text or
//! an owned string. The DOM passes write many values that never change
//! (Cite's `class="cite-bracket"`, `rel="mw:referencedBy"`, …): as static
//! text they cost no allocation where made and no free where the tree is
//! dropped. Values read from tokens stay the token's string (moved).
//!
//! It reads like a `String` (`as_str`, `Deref<Target = str>`, comparisons
//! with text) and edits like one (`push_str`, `push`, `pop`, `to_mut`:
//! static text is copied on the first edit), so code written for `String`
//! values mostly compiles unchanged.

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;

/// An attribute value: static text or an owned string.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub(crate) struct Value(Cow<'static, str>);

impl Value {
    /// An empty value (no allocation).
    pub(crate) const EMPTY: Value = Value(Cow::Borrowed(""));

    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }

    /// The owned string to edit (static text copied once).
    pub(crate) fn to_mut(&mut self) -> &mut String {
        self.0.to_mut()
    }

    pub(crate) fn push_str(&mut self, s: &str) {
        self.to_mut().push_str(s);
    }

    pub(crate) fn push(&mut self, c: char) {
        self.to_mut().push(c);
    }

    pub(crate) fn pop(&mut self) -> Option<char> {
        self.to_mut().pop()
    }

    /// The value as an owned string (static text copied).
    pub(crate) fn into_string(self) -> String {
        self.0.into_owned()
    }
}

impl Deref for Value {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Value {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for Value {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value(Cow::Owned(s))
    }
}

impl From<&'static str> for Value {
    fn from(s: &'static str) -> Value {
        Value(Cow::Borrowed(s))
    }
}

impl From<Cow<'static, str>> for Value {
    fn from(s: Cow<'static, str>) -> Value {
        Value(s)
    }
}

impl From<Value> for String {
    fn from(v: Value) -> String {
        v.into_string()
    }
}

impl PartialEq<str> for Value {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for Value {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<String> for Value {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Value> for str {
    fn eq(&self, other: &Value) -> bool {
        *self == *other.0
    }
}

impl PartialEq<Value> for &str {
    fn eq(&self, other: &Value) -> bool {
        **self == *other.0
    }
}

#[cfg(test)]
mod tests {
    use super::Value;

    #[test]
    fn static_text_is_copied_on_the_first_edit_only() {
        let mut v = Value::from("mw-empty-elt");
        assert_eq!(v, "mw-empty-elt");
        v.push_str(" x");
        v.push('y');
        assert_eq!(v.as_str(), "mw-empty-elt xy");
        assert_eq!(v.pop(), Some('y'));
        v.to_mut().truncate(2);
        assert_eq!(v, "mw");
        assert!(Value::EMPTY.is_empty());
        assert_eq!(String::from(Value::from(String::from("s"))), "s");
        assert_eq!(Value::default(), Value::EMPTY);
    }
}
