//! [`Name`]: a tag or attribute name that needs no atom table.

use std::fmt;

use crate::atom::{Atom, AtomTable};

/// A tag or attribute name owned by a token: a static [`Atom`] for every name HTML,
/// SVG and MathML define (compared in one instruction, no allocation), the text
/// itself for any other name. Unlike a dynamic `Atom`, a `Name` means the same thing
/// whatever table or document it travels to, so any crate can build one.
///
/// Names are case-sensitive, like atoms: the tokenizer lowercases HTML names before
/// they get here, and [`Name::html`] does the same for names a program makes up.
///
/// ```
/// use tagloom_html::atom;
/// use tagloom_html::token::Name;
///
/// let p = Name::new("p");
/// assert!(p.is(atom::P));
/// assert_eq!(Name::from(atom::DIV).as_str(), "div");
/// assert_eq!(Name::html("My-Widget").as_str(), "my-widget");
/// assert_eq!(Name::new("my-widget").atom(), None);
/// ```
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Name(Repr);

#[derive(Clone, PartialEq, Eq, Hash)]
enum Repr {
    Static(Atom),
    Text(Box<str>),
}

impl Name {
    /// The name `name`, exactly as given.
    pub fn new(name: &str) -> Name {
        match Atom::lookup_static(name.as_bytes()) {
            Some(atom) => Name(Repr::Static(atom)),
            None => Name(Repr::Text(name.into())),
        }
    }

    /// The name `name` with ASCII letters lowercased, as the tokenizer would emit it
    /// for an HTML tag or attribute.
    pub fn html(name: &str) -> Name {
        if name.bytes().any(|b| b.is_ascii_uppercase()) {
            Name::new(&name.to_ascii_lowercase())
        } else {
            Name::new(name)
        }
    }

    /// The name of `atom`, resolved through the table that produced it.
    #[inline]
    pub fn from_atom(atom: Atom, atoms: &AtomTable) -> Name {
        if atom.is_static() {
            Name(Repr::Static(atom))
        } else {
            Name::from_dynamic(atom, atoms)
        }
    }

    /// [`Name::from_atom`] of a dynamic atom: its text copied (kept out of line,
    /// so the static case inlines into a token copy as a store).
    #[inline(never)]
    fn from_dynamic(atom: Atom, atoms: &AtomTable) -> Name {
        Name(Repr::Text(atoms.name(atom).into()))
    }

    /// The name as text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Static(atom) => atom.static_name().unwrap_or(""),
            Repr::Text(text) => text,
        }
    }

    /// The static atom of this name (`None` for a name HTML, SVG and MathML do not
    /// define).
    #[inline]
    pub fn atom(&self) -> Option<Atom> {
        match self.0 {
            Repr::Static(atom) => Some(atom),
            Repr::Text(_) => None,
        }
    }

    /// Whether this is the (static) name `atom`.
    #[inline]
    pub fn is(&self, atom: Atom) -> bool {
        self.0 == Repr::Static(atom)
    }

    /// The name as owned text: borrowed static text for a static name, the
    /// name's own text (moved, not copied) for any other.
    pub fn into_cow(self) -> std::borrow::Cow<'static, str> {
        match self.0 {
            Repr::Static(atom) => std::borrow::Cow::Borrowed(atom.static_name().unwrap_or("")),
            Repr::Text(text) => std::borrow::Cow::Owned(text.into_string()),
        }
    }

    /// The atom for this name in `atoms`, interning a name that is not static.
    pub fn intern(&self, atoms: &mut AtomTable) -> Atom {
        match &self.0 {
            Repr::Static(atom) => *atom,
            Repr::Text(text) => atoms.intern_dynamic(text),
        }
    }
}

/// A static atom as a name. A dynamic atom means nothing without its table: use
/// [`Name::from_atom`] for those (here one becomes the empty name).
impl From<Atom> for Name {
    fn from(atom: Atom) -> Name {
        if atom.is_static() {
            Name(Repr::Static(atom))
        } else {
            Name(Repr::Text("".into()))
        }
    }
}

/// The name `name`, exactly as given ([`Name::new`]).
impl From<&str> for Name {
    fn from(name: &str) -> Name {
        Name::new(name)
    }
}

impl PartialEq<str> for Name {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Name {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl fmt::Debug for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Name {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
