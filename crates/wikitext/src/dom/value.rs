//! An attribute value of the owned tree ([`super::Attr`]): static text or
//! an owned string, the same type as a token's attribute value
//! ([`tagloom_html::token::AttrValue`]). The DOM passes write many values
//! that never change (Cite's `class="cite-bracket"`, `rel="mw:referencedBy"`,
//! …), and so do the transforms that make tags (a link's
//! `rel="mw:WikiLink"`): as static text they cost no allocation where made,
//! none where a token's attributes become the tree's (moved as they are),
//! and no free where the tree is dropped. Values read from the source stay
//! the token's string (moved).
//!
//! It reads like a `String` and edits like one (static text is copied on
//! the first edit), so code written for `String` values mostly compiles
//! unchanged.

pub(crate) use tagloom_html::token::AttrValue as Value;
