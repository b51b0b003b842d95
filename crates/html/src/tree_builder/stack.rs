//! 13.2.4.2 the stack of open elements: the "has an element in … scope"
//! predicates (A.1 lists), popping, and 13.2.6.3 implied end tags.

use crate::atom::{self, Atom};
use crate::dom_patch::Namespace;

use super::TreeBuilder;
use super::mirror::{ElemInfo, NodeId};
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

fn is_boundary(e: &ElemInfo, scope: Scope) -> bool {
    match (e.ns, scope) {
        (Namespace::Html, Scope::Table) => {
            matches!(e.name, atom::HTML | atom::TABLE | atom::TEMPLATE)
        }
        (_, Scope::Table) => false,
        (Namespace::Html, _) => {
            tag_sets::is_scope_boundary_html(e.name)
                || (scope == Scope::ListItem && matches!(e.name, atom::OL | atom::UL))
                || (scope == Scope::Button && e.name == atom::BUTTON)
        }
        (Namespace::MathMl, _) => matches!(
            e.name,
            atom::MI | atom::MO | atom::MN | atom::MS | atom::MTEXT | atom::ANNOTATION_XML
        ),
        (Namespace::Svg, _) => matches!(e.name, atom::FOREIGNOBJECT | atom::DESC | atom::TITLE),
    }
}

impl TreeBuilder {
    /// Whether the stack has an element matching `target` in `scope`.
    fn in_scope_where(&self, scope: Scope, target: impl Fn(NodeId, &ElemInfo) -> bool) -> bool {
        for &node in self.open.iter().rev() {
            let Some(e) = self.mirror.elem(node) else {
                continue;
            };
            if target(node, e) {
                return true;
            }
            if is_boundary(e, scope) {
                return false;
            }
        }
        false
    }

    /// "has an HTML element named `name` in `scope`".
    pub(crate) fn has_in_scope(&self, name: Atom, scope: Scope) -> bool {
        self.in_scope_where(scope, |_, e| e.ns == Namespace::Html && e.name == name)
    }

    /// "has `node` in scope".
    pub(crate) fn has_node_in_scope(&self, node: NodeId) -> bool {
        self.in_scope_where(Scope::Default, |n, _| n == node)
    }

    /// "has an `h1`–`h6` element in scope".
    pub(crate) fn has_heading_in_scope(&self) -> bool {
        self.in_scope_where(Scope::Default, |_, e| {
            e.ns == Namespace::Html && tag_sets::is_heading(e.name)
        })
    }

    /// Pops the current node.
    pub(crate) fn pop(&mut self) -> Option<NodeId> {
        self.open.pop()
    }

    /// Pops until an HTML element named `name` has been popped.
    pub(crate) fn pop_until(&mut self, name: Atom) {
        while let Some(node) = self.open.pop() {
            if self.is_html(node, name) {
                break;
            }
        }
    }

    /// Pops until an HTML element whose name satisfies `pred` has been popped.
    pub(crate) fn pop_until_where(&mut self, pred: impl Fn(Atom) -> bool) {
        while let Some(node) = self.open.pop() {
            if self.html_name(node).is_some_and(&pred) {
                break;
            }
        }
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
        self.open.contains(&node)
    }

    /// Whether an HTML element named `name` is on the stack.
    pub(crate) fn has_open(&self, name: Atom) -> bool {
        self.open.iter().any(|&n| self.is_html(n, name))
    }

    /// 13.2.6.3 "generate implied end tags", except for `except`.
    pub(crate) fn generate_implied_end_tags(&mut self, except: Option<Atom>) {
        while let Some(name) = self.current_node().and_then(|n| self.html_name(n)) {
            if Some(name) == except || !tag_sets::has_implied_end_tag(name) {
                break;
            }
            self.open.pop();
        }
    }

    /// 13.2.6.3 "generate all implied end tags thoroughly".
    pub(crate) fn generate_all_implied_end_tags_thoroughly(&mut self) {
        while let Some(name) = self.current_node().and_then(|n| self.html_name(n)) {
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

    /// Whether `node` is in the special category (A.1).
    pub(crate) fn is_special(&self, node: NodeId) -> bool {
        self.mirror.elem(node).is_some_and(|e| match e.ns {
            Namespace::Html => tag_sets::is_special_html(e.name),
            Namespace::MathMl => matches!(
                e.name,
                atom::MI | atom::MO | atom::MN | atom::MS | atom::MTEXT | atom::ANNOTATION_XML
            ),
            Namespace::Svg => matches!(e.name, atom::FOREIGNOBJECT | atom::DESC | atom::TITLE),
        })
    }

    /// 13.2.6.4.7 "close a `p` element".
    pub(crate) fn close_p_element(&mut self) {
        self.generate_implied_end_tags(Some(atom::P));
        if !self.current_is(atom::P) {
            self.parse_error();
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
