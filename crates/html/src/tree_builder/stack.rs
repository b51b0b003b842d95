//! 13.2.4.2 the stack of open elements: the "has an element in … scope"
//! predicates (A.1 lists), popping, and 13.2.6.3 implied end tags. The scope
//! predicates compare positions from the stack's index (`open_stack.rs`): an
//! element is in scope when no boundary of the scope sits above it.

use crate::atom::{self, Atom};
use crate::dom_patch::Namespace;
use crate::error::ErrorCode;

use super::TreeBuilder;
use super::mirror::NodeId;
use super::open_stack::{Category, ElemKey};
use super::tag_sets;

/// The scope variants of 13.2.4.2.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Scope {
    /// "has an element in scope".
    Default,
    /// "in list item scope" (+ `ol`, `ul`).
    ListItem,
    /// "in button scope" (+ `button`).
    Button,
    /// "in table scope" (`html`, `table`, `template` only).
    Table,
}

impl TreeBuilder {
    /// The position of the topmost element that bounds `scope`.
    fn scope_boundary(&self, scope: Scope) -> Option<usize> {
        if scope == Scope::Table {
            return self.open.top_in(Category::TableScopeBoundary);
        }
        let extra: &[Atom] = match scope {
            Scope::ListItem => &[atom::OL, atom::UL],
            Scope::Button => &[atom::BUTTON],
            _ => &[],
        };
        extra
            .iter()
            .filter_map(|&n| self.open.top(ElemKey::html(n)))
            .fold(self.open.top_in(Category::ScopeBoundary), |top, p| {
                top.max(Some(p))
            })
    }

    /// Whether the element at position `pos` is in `scope`: no boundary above
    /// it (it may be a boundary itself).
    fn in_scope_at(&self, pos: Option<usize>, scope: Scope) -> bool {
        pos.is_some_and(|p| self.scope_boundary(scope).is_none_or(|b| p >= b))
    }

    /// "has an HTML element named `name` in `scope`".
    pub(crate) fn has_in_scope(&self, name: Atom, scope: Scope) -> bool {
        self.in_scope_at(self.open.top(ElemKey::html(name)), scope)
    }

    /// "has `node` in scope".
    pub(crate) fn has_node_in_scope(&self, node: NodeId) -> bool {
        self.in_scope_at(self.open.position(node), Scope::Default)
    }

    /// "has an `h1`–`h6` element in scope".
    pub(crate) fn has_heading_in_scope(&self) -> bool {
        let top = [atom::H1, atom::H2, atom::H3, atom::H4, atom::H5, atom::H6]
            .iter()
            .filter_map(|&n| self.open.top(ElemKey::html(n)))
            .max();
        self.in_scope_at(top, Scope::Default)
    }

    /// Whether an element that may not stay open at the end of the body is open
    /// (13.2.6.4.7, `</body>` and end of file).
    pub(crate) fn has_unclosed_at_body_end(&self) -> bool {
        self.open.top_in(Category::UnclosedAtBodyEnd).is_some()
    }

    /// Pops the current node.
    pub(crate) fn pop(&mut self) -> Option<NodeId> {
        self.open.pop()
    }

    /// Pops until an HTML element named `name` has been popped.
    pub(crate) fn pop_until(&mut self, name: Atom) {
        let wanted = Some(ElemKey::html(name));
        while let Some((_, key)) = self.open.pop_entry() {
            if key == wanted {
                break;
            }
        }
    }

    /// Pops until an HTML element whose name satisfies `pred` has been popped.
    pub(crate) fn pop_until_where(&mut self, pred: impl Fn(Atom) -> bool) {
        while let Some((_, key)) = self.open.pop_entry() {
            if key.is_some_and(|k| k.ns == Namespace::Html && pred(k.name)) {
                break;
            }
        }
    }

    /// The HTML tag name of the current node, if it is an HTML element (from
    /// the stack alone).
    #[inline]
    fn current_html_name(&self) -> Option<Atom> {
        self.open
            .last_key()
            .filter(|k| k.ns == Namespace::Html)
            .map(|k| k.name)
    }

    /// Pops until `node` has been popped.
    pub(crate) fn pop_until_node(&mut self, node: NodeId) {
        while let Some(n) = self.open.pop() {
            if n == node {
                break;
            }
        }
    }

    /// Whether `node` is on the stack.
    pub(crate) fn is_open(&self, node: NodeId) -> bool {
        self.open.contains(node)
    }

    /// Whether an HTML element named `name` is on the stack.
    pub(crate) fn has_open(&self, name: Atom) -> bool {
        self.open.top(ElemKey::html(name)).is_some()
    }

    /// 13.2.6.3 "generate implied end tags", except for `except`.
    pub(crate) fn generate_implied_end_tags(&mut self, except: Option<Atom>) {
        while let Some(name) = self.current_html_name() {
            if Some(name) == except || !tag_sets::has_implied_end_tag(name) {
                break;
            }
            self.open.pop();
        }
    }

    /// 13.2.6.3 "generate all implied end tags thoroughly".
    pub(crate) fn generate_all_implied_end_tags_thoroughly(&mut self) {
        while let Some(name) = self.current_html_name() {
            if !tag_sets::has_implied_end_tag_thoroughly(name) {
                break;
            }
            self.open.pop();
        }
    }

    /// "Clear the stack back to a … context": pop until the current node is an
    /// HTML element named in `names` (or `html`).
    pub(crate) fn clear_stack_back_to(&mut self, names: &[Atom]) {
        while let Some(node) = self.current_node() {
            match self.html_name(node) {
                Some(n) if n == atom::HTML || names.contains(&n) => break,
                _ => {
                    self.open.pop();
                }
            }
        }
    }

    /// 13.2.6.4.7 "close a `p` element".
    pub(crate) fn close_p_element(&mut self) {
        self.generate_implied_end_tags(Some(atom::P));
        if !self.current_is(atom::P) {
            self.parse_error(ErrorCode::ImplicitlyClosedElements);
        }
        self.pop_until(atom::P);
    }

    /// Closes a `p` in button scope, if there is one (the block start tags' first
    /// step).
    pub(crate) fn close_p_if_in_button_scope(&mut self) {
        if self.has_in_scope(atom::P, Scope::Button) {
            self.close_p_element();
        }
    }
}
