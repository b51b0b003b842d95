//! 13.2.6.4.7 "in body": end tags.

use crate::atom::{self, Atom};
use crate::error::ErrorCode;
use crate::token::{Tag, Token};
use crate::tree_builder::open_stack::{Category, ElemKey};
use crate::tree_builder::stack::Scope;
use crate::tree_builder::{Flow, InsertionMode, TreeBuilder, tag_sets};

impl TreeBuilder {
    pub(crate) fn in_body_end_tag<'a>(&mut self, tag: Tag<'a>, token: Token<'a>) -> Flow<'a> {
        use atom::*;
        match tag.name {
            TEMPLATE => return self.in_head(token),
            BODY | HTML => {
                if !self.body_in_scope() {
                    self.parse_error(ErrorCode::EndTagWithoutOpenElement);
                    return Flow::Done;
                }
                if self.has_unclosed_at_body_end() {
                    self.parse_error(ErrorCode::BodyClosedWithOpenElements);
                }
                self.mode = InsertionMode::AfterBody;
                if tag.name == HTML {
                    return Flow::Reprocess(token);
                }
            }
            ADDRESS | ARTICLE | ASIDE | BLOCKQUOTE | BUTTON | CENTER | DETAILS | DIALOG | DIR
            | DIV | DL | FIELDSET | FIGCAPTION | FIGURE | FOOTER | HEADER | HGROUP | LISTING
            | MAIN | MENU | NAV | OL | PRE | SEARCH | SECTION | SELECT | SUMMARY | UL => {
                self.close_element_in_scope(tag.name, Scope::Default, None);
            }
            FORM => self.end_form(),
            P => {
                if !self.has_in_scope(P, Scope::Button) {
                    self.parse_error(ErrorCode::EndTagWithoutOpenElement);
                    self.insert_html_element_named(P);
                }
                self.close_p_element();
            }
            LI => self.close_element_in_scope(LI, Scope::ListItem, Some(LI)),
            DD | DT => self.close_element_in_scope(tag.name, Scope::Default, Some(tag.name)),
            H1 | H2 | H3 | H4 | H5 | H6 => {
                if !self.has_heading_in_scope() {
                    self.parse_error(ErrorCode::EndTagWithoutOpenElement);
                    return Flow::Done;
                }
                self.generate_implied_end_tags(None);
                if !self.current_is(tag.name) {
                    self.parse_error(ErrorCode::ImplicitlyClosedElements);
                }
                self.pop_until_where(tag_sets::is_heading);
            }
            A | B | BIG | CODE | EM | FONT | I | NOBR | S | SMALL | STRIKE | STRONG | TT | U => {
                if !self.adoption_agency(tag.name) {
                    self.any_other_end_tag(tag.name);
                }
            }
            APPLET | MARQUEE | OBJECT => {
                if !self.has_in_scope(tag.name, Scope::Default) {
                    self.parse_error(ErrorCode::EndTagWithoutOpenElement);
                    return Flow::Done;
                }
                self.generate_implied_end_tags(None);
                if !self.current_is(tag.name) {
                    self.parse_error(ErrorCode::ImplicitlyClosedElements);
                }
                self.pop_until(tag.name);
                self.active.clear_to_last_marker();
            }
            BR => {
                // Parse error; treat as a `<br>` start tag without attributes.
                self.parse_error(ErrorCode::UnexpectedEndTag);
                self.reconstruct_active_formatting();
                self.insert_html_element_named(BR);
                self.pop();
                self.frameset_ok = false;
            }
            _ => self.any_other_end_tag(tag.name),
        }
        Flow::Done
    }

    /// The generic block end tag: parse error and ignore unless `name` is in
    /// `scope`; else generate implied end tags (except `except`), and pop up to
    /// and including it.
    fn close_element_in_scope(&mut self, name: Atom, scope: Scope, except: Option<Atom>) {
        // The usual case: the current node is the element. It is in every
        // scope, and when no implied end tag pops it first, only it is popped.
        if self.current_is(name) && (except == Some(name) || !tag_sets::has_implied_end_tag(name)) {
            self.open.pop();
            return;
        }
        if !self.has_in_scope(name, scope) {
            self.parse_error(ErrorCode::EndTagWithoutOpenElement);
            return;
        }
        self.generate_implied_end_tags(except);
        if !self.current_is(name) {
            self.parse_error(ErrorCode::ImplicitlyClosedElements);
        }
        self.pop_until(name);
    }

    /// "An end tag whose tag name is form".
    fn end_form(&mut self) {
        if !self.has_open(atom::TEMPLATE) {
            let node = self.form.take();
            let Some(node) = node.filter(|&n| self.has_node_in_scope(n)) else {
                self.parse_error(ErrorCode::EndTagWithoutOpenElement);
                return;
            };
            self.generate_implied_end_tags(None);
            if self.current_node() != Some(node) {
                self.parse_error(ErrorCode::ImplicitlyClosedElements);
            }
            if let Some(i) = self.open.position(node) {
                self.open.remove(i);
            }
        } else {
            self.close_element_in_scope(atom::FORM, Scope::Default, None);
        }
    }

    /// "Any other end tag" in body: walking down from the current node, close
    /// the first HTML element with the token's name, unless a special element
    /// comes first. Answered from the stack's index, not by a walk.
    pub(crate) fn any_other_end_tag(&mut self, name: Atom) {
        // The usual case: the current node is the element (nothing above it,
        // no implied end tag for it): it alone is popped.
        if self.current_is(name) {
            self.open.pop();
            return;
        }
        let special = self.open.top_in(Category::Special);
        let Some(index) = self.open.top(ElemKey::html(name)) else {
            if special.is_some() {
                self.parse_error(ErrorCode::EndTagWithoutOpenElement);
            }
            return;
        };
        if special.is_some_and(|s| s > index) {
            self.parse_error(ErrorCode::EndTagWithoutOpenElement);
            return;
        }
        let node = self.open.get(index);
        self.generate_implied_end_tags(Some(name));
        if self.current_node() != node {
            self.parse_error(ErrorCode::ImplicitlyClosedElements);
        }
        self.open.truncate(index);
    }
}
