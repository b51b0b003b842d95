//! An owned attribute's value ([`OwnedAttribute::value`]): static text or an
//! owned string. Programs that build tags write many values that never
//! change (`rel="nofollow"`, a class, a `typeof`): as static text they cost
//! no allocation where the tag is made, none where it is copied into a tree
//! that keeps the same type, and no free where it is dropped. Values read
//! from a source are owned strings, as before.
//!
//! It reads like a `String` (`as_str`, `Deref<Target = str>`, comparisons
//! with text) and edits like one (`push_str`, `push`, `pop`, `clear`,
//! `to_mut`: static text is copied on the first edit), so code written for
//! `String` values mostly compiles unchanged.
//!
//! [`OwnedAttribute::value`]: super::OwnedAttribute::value

use std::borrow::Cow;
use std::fmt;
use std::ops::Deref;

/// An attribute value: static text or an owned string.
///
/// ```
/// use tagloom_html::token::{AttrValue, OwnedTag};
///
/// // A literal is kept as static text: no allocation.
/// let tag = OwnedTag::new("a").with_attr("rel", "nofollow");
/// assert_eq!(tag.attr("rel"), Some("nofollow"));
///
/// // A `String` is kept as it is; an edit copies static text once.
/// let mut v = AttrValue::from("mw-empty-elt");
/// v.push_str(" x");
/// assert_eq!(v, "mw-empty-elt x");
/// assert_eq!(String::from(v), "mw-empty-elt x");
/// assert_eq!(AttrValue::from(String::from("s")), AttrValue::from("s"));
/// ```
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct AttrValue(Cow<'static, str>);

impl AttrValue {
    /// An empty value (no allocation).
    pub const EMPTY: AttrValue = AttrValue(Cow::Borrowed(""));

    /// The value as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The owned string to edit (static text copied once).
    pub fn to_mut(&mut self) -> &mut String {
        self.0.to_mut()
    }

    /// Appends `s` (static text copied once, into a string made at the
    /// joined length: no second allocation to grow it).
    pub fn push_str(&mut self, s: &str) {
        match &mut self.0 {
            Cow::Owned(owned) => owned.push_str(s),
            Cow::Borrowed(fixed) => {
                let mut joined = String::with_capacity(fixed.len() + s.len());
                joined.push_str(fixed);
                joined.push_str(s);
                self.0 = Cow::Owned(joined);
            }
        }
    }

    /// Appends `c`.
    pub fn push(&mut self, c: char) {
        self.to_mut().push(c);
    }

    /// Removes the last character and returns it.
    pub fn pop(&mut self) -> Option<char> {
        self.to_mut().pop()
    }

    /// Empties the value, keeping an owned string's buffer (static text
    /// becomes the empty static text).
    pub fn clear(&mut self) {
        match &mut self.0 {
            Cow::Owned(s) => s.clear(),
            Cow::Borrowed(_) => *self = AttrValue::EMPTY,
        }
    }

    /// Whether the value is static text (not an owned string): its address
    /// may be shared by any number of values, so it says nothing about
    /// where a value came from.
    pub fn is_static(&self) -> bool {
        matches!(self.0, Cow::Borrowed(_))
    }

    /// The value as an owned string (static text copied).
    pub fn into_string(self) -> String {
        self.0.into_owned()
    }

    /// The value as static text or an owned string.
    pub fn into_cow(self) -> Cow<'static, str> {
        self.0
    }
}

impl Deref for AttrValue {
    type Target = str;

    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for AttrValue {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl std::borrow::Borrow<str> for AttrValue {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for AttrValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl fmt::Display for AttrValue {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<String> for AttrValue {
    fn from(s: String) -> AttrValue {
        AttrValue(Cow::Owned(s))
    }
}

impl From<&String> for AttrValue {
    fn from(s: &String) -> AttrValue {
        AttrValue(Cow::Owned(s.clone()))
    }
}

impl From<&'static str> for AttrValue {
    fn from(s: &'static str) -> AttrValue {
        AttrValue(Cow::Borrowed(s))
    }
}

impl From<Cow<'static, str>> for AttrValue {
    fn from(s: Cow<'static, str>) -> AttrValue {
        AttrValue(s)
    }
}

impl From<AttrValue> for String {
    fn from(v: AttrValue) -> String {
        v.into_string()
    }
}

impl PartialEq<str> for AttrValue {
    fn eq(&self, other: &str) -> bool {
        *self.0 == *other
    }
}

impl PartialEq<&str> for AttrValue {
    fn eq(&self, other: &&str) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<String> for AttrValue {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<AttrValue> for str {
    fn eq(&self, other: &AttrValue) -> bool {
        *self == *other.0
    }
}

impl PartialEq<AttrValue> for &str {
    fn eq(&self, other: &AttrValue) -> bool {
        **self == *other.0
    }
}

impl PartialEq<AttrValue> for String {
    fn eq(&self, other: &AttrValue) -> bool {
        **self == *other.0
    }
}

#[cfg(test)]
mod tests {
    use super::AttrValue;

    #[test]
    fn static_text_is_copied_on_the_first_edit_only() {
        let mut v = AttrValue::from("mw-empty-elt");
        assert_eq!(v, "mw-empty-elt");
        v.push_str(" x");
        v.push('y');
        assert_eq!(v.as_str(), "mw-empty-elt xy");
        assert_eq!(v.pop(), Some('y'));
        v.to_mut().truncate(2);
        assert_eq!(v, "mw");
        assert!(AttrValue::EMPTY.is_empty());
        assert_eq!(String::from(AttrValue::from(String::from("s"))), "s");
        assert_eq!(AttrValue::default(), AttrValue::EMPTY);
    }

    #[test]
    fn static_text_joined_is_made_at_its_length() {
        let mut v = AttrValue::from("\n");
        v.push_str("abc");
        assert_eq!(v, "\nabc");
        assert_eq!(v.to_mut().capacity(), 4);
        v.push_str("d");
        assert_eq!(v, "\nabcd");
    }

    #[test]
    fn clear_keeps_an_owned_buffer() {
        let mut owned = AttrValue::from(String::with_capacity(16));
        owned.push_str("abc");
        let at = owned.as_ptr();
        owned.clear();
        owned.push_str("de");
        assert_eq!((owned.as_ptr(), owned.as_str()), (at, "de"));
        let mut fixed = AttrValue::from("static");
        fixed.clear();
        assert_eq!(fixed, AttrValue::EMPTY);
        assert!(fixed.is_static() && !owned.is_static());
        assert_eq!(format!("{fixed:?}/{}", AttrValue::from("x")), "\"\"/x");
    }

    #[test]
    fn same_size_as_a_string() {
        assert_eq!(
            std::mem::size_of::<AttrValue>(),
            std::mem::size_of::<String>()
        );
    }
}
