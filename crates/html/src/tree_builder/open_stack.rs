//! The stack of open elements (13.2.4.2) as a vector plus an index of where
//! each kind of element sits on it, so that the questions the tree builder asks
//! on every token ("is there a `p` in button scope?", "is this node open?",
//! "which special element is topmost?") cost a few lookups however deep the
//! stack is. The stack is not capped (see `TreeBuilderConfig::max_depth`: past
//! the limit elements are still opened), so a scan per token would make deep
//! input quadratic.
//!
//! Every change keeps the index exact. Pushing and popping cost O(1); removing or
//! inserting in the middle (the adoption agency) costs O(entries above), the
//! same order as the vector's own shift.

use std::collections::HashMap;

use crate::atom::{self, Atom};
use crate::dom_patch::Namespace;

use super::mirror::{Mirror, NodeId};
use super::tag_sets;

/// An element's namespace and (lowercased) local name.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(crate) struct ElemKey {
    pub(crate) ns: Namespace,
    pub(crate) name: Atom,
}

impl ElemKey {
    /// An HTML element named `name`.
    pub(crate) const fn html(name: Atom) -> ElemKey {
        ElemKey {
            ns: Namespace::Html,
            name,
        }
    }
}

/// The categories the index keeps positions for.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Category {
    /// The special category (A.1).
    Special,
    /// Special, but not `address`, `div` or `p` (the `li`/`dd`/`dt` loop).
    SpecialNotAddressDivP,
    /// Any HTML element.
    Html,
    /// An element whose being open at the end of the body is a parse error.
    UnclosedAtBodyEnd,
}

const CATEGORIES: usize = 4;

fn categories(key: ElemKey) -> [bool; CATEGORIES] {
    let special = match key.ns {
        Namespace::Html => tag_sets::is_special_html(key.name),
        Namespace::MathMl => matches!(
            key.name,
            atom::MI | atom::MO | atom::MN | atom::MS | atom::MTEXT | atom::ANNOTATION_XML
        ),
        Namespace::Svg => matches!(key.name, atom::FOREIGNOBJECT | atom::DESC | atom::TITLE),
    };
    let html = key.ns == Namespace::Html;
    [
        special,
        special && !(html && matches!(key.name, atom::ADDRESS | atom::DIV | atom::P)),
        html,
        !(html && tag_sets::may_stay_open_at_body_end(key.name)),
    ]
}

/// The hash map of the index (fast hashing: keys are small integers).
type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// The stack of open elements with its index.
#[derive(Debug, Default)]
pub(crate) struct OpenStack {
    nodes: Vec<NodeId>,
    keys: Vec<Option<ElemKey>>,
    /// Where each open node is.
    position: Map<NodeId, usize>,
    /// The positions of the elements with each key, ascending.
    by_key: Map<ElemKey, Vec<usize>>,
    /// The positions of the elements in each [`Category`], ascending.
    by_category: [Vec<usize>; CATEGORIES],
}

/// Removes `pos` from an ascending list (popping is the common case).
fn list_remove(list: &mut Vec<usize>, pos: usize) {
    if list.last() == Some(&pos) {
        list.pop();
    } else if let Ok(i) = list.binary_search(&pos) {
        list.remove(i);
    }
}

/// Inserts `pos` into an ascending list (pushing is the common case).
fn list_insert(list: &mut Vec<usize>, pos: usize) {
    if list.last().is_none_or(|&last| last < pos) {
        list.push(pos);
        return;
    }
    let i = list.binary_search(&pos).unwrap_or_else(|i| i);
    list.insert(i, pos);
}

/// Renames `from` to `to` in an ascending list (no entry lies between them).
fn list_move(list: &mut [usize], from: usize, to: usize) {
    if let Ok(i) = list.binary_search(&from)
        && let Some(slot) = list.get_mut(i)
    {
        *slot = to;
    }
}

impl OpenStack {
    fn key_of(mirror: &Mirror, node: NodeId) -> Option<ElemKey> {
        mirror.elem(node).map(|e| ElemKey {
            ns: e.ns,
            name: e.name,
        })
    }

    /// The number of open elements.
    pub(crate) fn len(&self) -> usize {
        self.nodes.len()
    }

    /// The node at `index` (0 is the bottom, the `html` element).
    pub(crate) fn get(&self, index: usize) -> Option<NodeId> {
        self.nodes.get(index).copied()
    }

    /// The bottommost node.
    pub(crate) fn first(&self) -> Option<NodeId> {
        self.nodes.first().copied()
    }

    /// The topmost node (the current node).
    pub(crate) fn last(&self) -> Option<NodeId> {
        self.nodes.last().copied()
    }

    /// The nodes, bottom first.
    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = NodeId> + ExactSizeIterator + '_ {
        self.nodes.iter().copied()
    }

    /// Whether `node` is open.
    pub(crate) fn contains(&self, node: NodeId) -> bool {
        self.position.contains_key(&node)
    }

    /// Where `node` is on the stack.
    pub(crate) fn position(&self, node: NodeId) -> Option<usize> {
        self.position.get(&node).copied()
    }

    /// The position of the topmost element with `key`.
    pub(crate) fn top(&self, key: ElemKey) -> Option<usize> {
        self.by_key.get(&key).and_then(|l| l.last()).copied()
    }

    /// The position of the topmost element in `category`.
    pub(crate) fn top_in(&self, category: Category) -> Option<usize> {
        self.by_category
            .get(category as usize)
            .and_then(|l| l.last())
            .copied()
    }

    /// The position of the lowest element in `category` above `pos`.
    pub(crate) fn first_in_above(&self, category: Category, pos: usize) -> Option<usize> {
        let list = self.by_category.get(category as usize)?;
        let i = list.partition_point(|&p| p <= pos);
        list.get(i).copied()
    }

    fn index_add(&mut self, key: Option<ElemKey>, pos: usize) {
        let Some(key) = key else {
            return;
        };
        list_insert(self.by_key.entry(key).or_default(), pos);
        for (list, member) in self.by_category.iter_mut().zip(categories(key)) {
            if member {
                list_insert(list, pos);
            }
        }
    }

    fn index_remove(&mut self, key: Option<ElemKey>, pos: usize) {
        let Some(key) = key else {
            return;
        };
        if let Some(list) = self.by_key.get_mut(&key) {
            list_remove(list, pos);
        }
        for (list, member) in self.by_category.iter_mut().zip(categories(key)) {
            if member {
                list_remove(list, pos);
            }
        }
    }

    fn index_move(&mut self, index: usize, to: usize) {
        let (Some(&node), Some(&key)) = (self.nodes.get(index), self.keys.get(index)) else {
            return;
        };
        self.position.insert(node, to);
        let Some(key) = key else {
            return;
        };
        if let Some(list) = self.by_key.get_mut(&key) {
            list_move(list, index, to);
        }
        for (list, member) in self.by_category.iter_mut().zip(categories(key)) {
            if member {
                list_move(list, index, to);
            }
        }
    }

    /// Pushes `node` (it becomes the current node).
    pub(crate) fn push(&mut self, node: NodeId, mirror: &Mirror) {
        let key = Self::key_of(mirror, node);
        let pos = self.nodes.len();
        self.nodes.push(node);
        self.keys.push(key);
        self.position.insert(node, pos);
        self.index_add(key, pos);
    }

    /// Pops the current node.
    pub(crate) fn pop(&mut self) -> Option<NodeId> {
        let node = self.nodes.pop()?;
        let key = self.keys.pop().flatten();
        let pos = self.nodes.len();
        self.position.remove(&node);
        self.index_remove(key, pos);
        Some(node)
    }

    /// Pops until `len` nodes are left.
    pub(crate) fn truncate(&mut self, len: usize) {
        while self.nodes.len() > len {
            self.pop();
        }
    }

    /// Pops everything.
    pub(crate) fn clear(&mut self) {
        *self = OpenStack::default();
    }

    /// Removes the node at `index`.
    pub(crate) fn remove(&mut self, index: usize) -> Option<NodeId> {
        let node = self.get(index)?;
        let key = self.keys.get(index).copied().flatten();
        self.index_remove(key, index);
        self.position.remove(&node);
        for j in index + 1..self.nodes.len() {
            self.index_move(j, j - 1);
        }
        self.nodes.remove(index);
        self.keys.remove(index);
        Some(node)
    }

    /// Inserts `node` at `index` (the nodes from there move up one).
    pub(crate) fn insert(&mut self, index: usize, node: NodeId, mirror: &Mirror) {
        let index = index.min(self.nodes.len());
        for j in (index..self.nodes.len()).rev() {
            self.index_move(j, j + 1);
        }
        let key = Self::key_of(mirror, node);
        self.nodes.insert(index, node);
        self.keys.insert(index, key);
        self.position.insert(node, index);
        self.index_add(key, index);
    }

    /// Replaces the node at `index` with `node`.
    pub(crate) fn replace(&mut self, index: usize, node: NodeId, mirror: &Mirror) {
        let Some(old) = self.get(index) else {
            return;
        };
        let old_key = self.keys.get(index).copied().flatten();
        self.index_remove(old_key, index);
        self.position.remove(&old);
        let key = Self::key_of(mirror, node);
        if let (Some(n), Some(k)) = (self.nodes.get_mut(index), self.keys.get_mut(index)) {
            *n = node;
            *k = key;
        }
        self.position.insert(node, index);
        self.index_add(key, index);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atom;

    fn setup(names: &[Atom]) -> (Mirror, Vec<NodeId>) {
        let mut mirror = Mirror::new(1);
        let ids = names
            .iter()
            .map(|&n| mirror.add_element(Namespace::Html, n, "x".into(), Vec::new(), false))
            .collect();
        (mirror, ids)
    }

    /// The index agrees with a plain scan after every kind of change.
    fn check(stack: &OpenStack, mirror: &Mirror) {
        for (i, node) in stack.iter().enumerate() {
            assert_eq!(stack.position(node), Some(i));
            let key = OpenStack::key_of(mirror, node).unwrap();
            let top = stack
                .iter()
                .rposition(|n| OpenStack::key_of(mirror, n) == Some(key));
            assert_eq!(stack.top(key), top);
        }
        let special = stack.iter().rposition(|n| {
            let key = OpenStack::key_of(mirror, n).unwrap();
            categories(key)[Category::Special as usize]
        });
        assert_eq!(stack.top_in(Category::Special), special);
    }

    #[test]
    fn index_follows_push_pop_remove_insert_replace() {
        use atom::*;
        let (mirror, ids) = setup(&[HTML, BODY, DIV, SPAN, B, DIV, I, P, TABLE, B]);
        let mut stack = OpenStack::default();
        for &id in &ids[..8] {
            stack.push(id, &mirror);
            check(&stack, &mirror);
        }
        assert_eq!(stack.top(ElemKey::html(DIV)), Some(5));
        stack.remove(2);
        check(&stack, &mirror);
        assert_eq!(stack.top(ElemKey::html(DIV)), Some(4));
        stack.insert(3, ids[8], &mirror);
        check(&stack, &mirror);
        stack.replace(4, ids[9], &mirror);
        check(&stack, &mirror);
        assert!(!stack.contains(ids[4]));
        assert_eq!(stack.top(ElemKey::html(B)), Some(4));
        stack.truncate(2);
        check(&stack, &mirror);
        assert_eq!(stack.top(ElemKey::html(DIV)), None);
        assert_eq!(stack.top_in(Category::Special), Some(1));
    }
}
