//! CSS selectors for the streaming rewriter: the parser ([`Selector::parse`], typed
//! [`SelectorError`]s), the compiled program and the matcher over the stack of open
//! elements.
//!
//! The subset is what a streaming rewriter can decide at a start tag, knowing only
//! the element, its open ancestors and how many element siblings came before it:
//! type selectors and `*`, `#id`, `.class`, attribute selectors (`[a]`, `[a=v]`,
//! `~=`, `|=`, `^=`, `$=`, `*=`, with an ` i` or ` s` flag), the descendant
//! (whitespace) and child (`>`) combinators, selector lists (`,`), `:not(…)` over
//! compound selectors, `:nth-child(an+b)`, `:first-child`, `:nth-of-type(an+b)` and
//! `:first-of-type`. Sibling combinators (`+`, `~`) and pseudo-classes that look
//! ahead (`:last-child`, `:empty`, `:has`) are refused with an error, not ignored.
//!
//! Type selectors and attribute names are ASCII case-insensitive (HTML documents);
//! ids and classes are case-sensitive; attribute values are case-sensitive unless
//! the ` i` flag is given or the attribute is one HTML lists as case-insensitive
//! (`type`, `lang`, `rel`, …), as in browsers.
//!
//! ```
//! use tagloom_transform::rewrite::{Selector, SelectorErrorKind};
//!
//! assert!(Selector::parse("ul > li:nth-child(2n+1), a[href^='https:' i]").is_ok());
//! let err = Selector::parse("h1 + p").unwrap_err();
//! assert_eq!(err.kind, SelectorErrorKind::UnsupportedCombinator('+'));
//! assert_eq!(err.offset, 3);
//! ```

mod ast;
mod matcher;
mod parse;

pub use ast::Selector;
pub(crate) use matcher::{ElementInfo, OpenStack, Program};
pub use parse::{SelectorError, SelectorErrorKind};

#[cfg(test)]
mod tests;
