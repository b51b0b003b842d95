//! The parsed form of a selector list.

use std::fmt;
use std::str::FromStr;

use super::parse::{SelectorError, parse_list};

/// A parsed selector list (`a[href], div.content p`). See the [module docs](super)
/// for the supported subset.
#[derive(Clone, PartialEq, Eq)]
pub struct Selector {
    pub(crate) source: String,
    pub(crate) list: Vec<Complex>,
}

impl Selector {
    /// Parses a selector list.
    pub fn parse(selector: &str) -> Result<Selector, SelectorError> {
        Ok(Selector {
            source: selector.to_owned(),
            list: parse_list(selector)?,
        })
    }

    /// [`Selector::parse`] without keeping the text (for the handler registry,
    /// which compiles the selector and never shows it): one allocation less.
    pub(crate) fn parse_compiled_only(selector: &str) -> Result<Selector, SelectorError> {
        Ok(Selector {
            source: String::new(),
            list: parse_list(selector)?,
        })
    }

    /// The text the selector was parsed from.
    pub fn as_str(&self) -> &str {
        &self.source
    }
}

impl FromStr for Selector {
    type Err = SelectorError;
    fn from_str(s: &str) -> Result<Selector, SelectorError> {
        Selector::parse(s)
    }
}

impl fmt::Debug for Selector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Selector({:?})", self.source)
    }
}

/// Compounds joined by combinators, left to right: `combinators[i]` joins
/// `compounds[i]` and `compounds[i + 1]`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Complex {
    pub(crate) compounds: Vec<Compound>,
    pub(crate) combinators: Vec<Combinator>,
}

/// How two compounds are related.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Combinator {
    /// Whitespace: any ancestor.
    Descendant,
    /// `>`: the parent.
    Child,
}

/// A type selector (or none / `*`) and conditions on one element.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub(crate) struct Compound {
    /// The lowercased local name; `None` for `*` or no type selector.
    pub(crate) name: Option<String>,
    pub(crate) conds: Vec<Cond>,
}

/// One condition of a compound selector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Cond {
    Id(String),
    Class(String),
    Attr {
        /// Lowercased.
        name: String,
        /// The operator and value; `None` for `[name]`.
        test: Option<(AttrOp, String)>,
        /// `Some(true)` for ` i`, `Some(false)` for ` s`, `None`: HTML's default.
        case_insensitive: Option<bool>,
    },
    Not(Vec<Compound>),
    /// `:nth-child(an+b)` (`of_type`: `:nth-of-type`).
    Nth {
        a: i64,
        b: i64,
        of_type: bool,
    },
}

/// An attribute selector's operator.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum AttrOp {
    /// `=`
    Equals,
    /// `~=`
    Includes,
    /// `|=`
    DashMatch,
    /// `^=`
    Prefix,
    /// `$=`
    Suffix,
    /// `*=`
    Substring,
}
