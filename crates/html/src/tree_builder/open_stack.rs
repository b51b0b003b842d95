//! The stack of open elements (13.2.4.2), with an index of where each kind of
//! element sits on it once the stack is deep, so that the questions the tree
//! builder asks on every token ("is there a `p` in button scope?", "is this node
//! open?", "which special element is topmost?") cost a few lookups however deep the
//! stack is. The stack is not capped (see `TreeBuilderConfig::max_depth`: past the
//! limit elements are still opened), so a scan per token would make deep input
//! quadratic.
//!
//! Real pages keep a shallow stack (a few dozen elements), where a backward scan is
//! cheaper than keeping hash maps up to date on every push and pop (that upkeep cost
//! 12 % more instructions on the bench pages). So the index exists only while the
//! stack is deep: it is built when the stack grows past [`INDEX_FROM`] elements and
//! dropped when it shrinks below [`INDEX_UNTIL`]; the gap between the two makes the
//! build cost O(1) per push, amortized. While it exists every change keeps it exact:
//! pushing and popping cost O(1); removing or inserting in the middle (the adoption
//! agency) costs O(entries above), the same order as the vector's own shift.

use std::collections::HashMap;

use crate::atom::{self, Atom};
use crate::dom_patch::Namespace;

use super::mirror::{Mirror, NodeId};
use super::tag_sets;

/// The stack depth past which the index is built.
const INDEX_FROM: usize = 64;
/// The stack depth below which the index is dropped again.
const INDEX_UNTIL: usize = 32;

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
    /// A boundary of "has an element in scope" (A.1: the HTML list of `tag_sets`
    /// and the MathML and SVG integration points); list item and button scope add
    /// their own names.
    ScopeBoundary,
    /// A boundary of "in table scope": `html`, `table`, `template`.
    TableScopeBoundary,
}

const CATEGORIES: usize = 6;

impl Category {
    const fn bit(self) -> u8 {
        1 << self as u8
    }
}

/// The categories of an element, one bit each ([`Category::bit`]): read from a
/// table for HTML elements with a static name (one is pushed per start tag),
/// worked out for the others.
fn categories(key: Option<ElemKey>) -> u8 {
    let Some(key) = key else {
        return 0;
    };
    if key.ns == Namespace::Html
        && let Some(&cats) = html_categories().get(key.name.index() as usize)
    {
        return cats;
    }
    categories_of(key)
}

/// [`categories_of`] for every static HTML name, indexed by atom.
fn html_categories() -> &'static [u8] {
    static TABLE: std::sync::OnceLock<Box<[u8]>> = std::sync::OnceLock::new();
    TABLE.get_or_init(|| {
        (0..)
            .map(Atom)
            .take_while(|a| a.is_static())
            .map(|name| categories_of(ElemKey::html(name)))
            .collect()
    })
}

/// The categories of `key`, from the tag sets.
fn categories_of(key: ElemKey) -> u8 {
    let foreign_boundary = match key.ns {
        Namespace::Html => false,
        Namespace::MathMl => matches!(
            key.name,
            atom::MI | atom::MO | atom::MN | atom::MS | atom::MTEXT | atom::ANNOTATION_XML
        ),
        Namespace::Svg => matches!(key.name, atom::FOREIGNOBJECT | atom::DESC | atom::TITLE),
    };
    let html = key.ns == Namespace::Html;
    let special = foreign_boundary || (html && tag_sets::is_special_html(key.name));
    let scope = foreign_boundary || (html && tag_sets::SCOPE_BOUNDARIES_HTML.contains(&key.name));
    let table_scope = html && matches!(key.name, atom::HTML | atom::TABLE | atom::TEMPLATE);
    let not_adp = special && !(html && matches!(key.name, atom::ADDRESS | atom::DIV | atom::P));
    let unclosed = !(html && tag_sets::may_stay_open_at_body_end(key.name));
    [
        (special, Category::Special),
        (not_adp, Category::SpecialNotAddressDivP),
        (html, Category::Html),
        (unclosed, Category::UnclosedAtBodyEnd),
        (scope, Category::ScopeBoundary),
        (table_scope, Category::TableScopeBoundary),
    ]
    .iter()
    .filter(|(member, _)| *member)
    .fold(0, |bits, (_, category)| bits | category.bit())
}

/// How many open elements have a name in each of 64 buckets (the atom's index
/// modulo 64, any namespace): a zero answers "is an element with this name
/// open?" without a scan. Most such questions on real pages (`p` in button
/// scope before every block start tag, headings, `li`, `form`) find none.
#[derive(Clone, Debug)]
struct NameCounts([u32; 64]);

impl Default for NameCounts {
    fn default() -> Self {
        NameCounts([0; 64])
    }
}

impl NameCounts {
    #[inline]
    fn slot(name: Atom) -> usize {
        (name.index() & 63) as usize
    }

    #[inline]
    fn add(&mut self, key: Option<ElemKey>) {
        if let Some(key) = key
            && let Some(c) = self.0.get_mut(Self::slot(key.name))
        {
            *c = c.saturating_add(1);
        }
    }

    #[inline]
    fn remove(&mut self, key: Option<ElemKey>) {
        if let Some(key) = key
            && let Some(c) = self.0.get_mut(Self::slot(key.name))
        {
            *c = c.saturating_sub(1);
        }
    }

    /// False when no open element has `name`'s bucket (then none has `name`).
    #[inline]
    fn may_hold(&self, name: Atom) -> bool {
        self.0.get(Self::slot(name)).is_some_and(|&c| c != 0)
    }
}

/// The hash map of the index (fast hashing: keys are small integers).
type Map<K, V> = HashMap<K, V, foldhash::fast::RandomState>;

/// The stack of open elements, indexed while it is deep.
#[derive(Debug, Default)]
pub(crate) struct OpenStack {
    nodes: Vec<NodeId>,
    keys: Vec<Option<ElemKey>>,
    /// Each entry's [`categories`].
    cats: Vec<u8>,
    /// How many open elements have each name bucket ([`NameCounts`]).
    counts: NameCounts,
    /// Present while the stack is deep (see the module docs).
    index: Option<Box<Index>>,
    /// Whether the topmost node is an HTML element: asked several times per
    /// token (which rules apply, CDATA), kept up to date by every change.
    top_html: bool,
}

/// Where each open node and each kind of element sits on a deep stack.
#[derive(Debug, Default)]
struct Index {
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

impl Index {
    fn add(&mut self, node: NodeId, key: Option<ElemKey>, cats: u8, pos: usize) {
        self.position.insert(node, pos);
        let Some(key) = key else {
            return;
        };
        list_insert(self.by_key.entry(key).or_default(), pos);
        for (c, list) in self.by_category.iter_mut().enumerate() {
            if cats & (1 << c) != 0 {
                list_insert(list, pos);
            }
        }
    }

    fn remove(&mut self, node: NodeId, key: Option<ElemKey>, cats: u8, pos: usize) {
        self.position.remove(&node);
        let Some(key) = key else {
            return;
        };
        if let Some(list) = self.by_key.get_mut(&key) {
            list_remove(list, pos);
        }
        for (c, list) in self.by_category.iter_mut().enumerate() {
            if cats & (1 << c) != 0 {
                list_remove(list, pos);
            }
        }
    }

    fn relocate(&mut self, node: NodeId, key: Option<ElemKey>, cats: u8, from: usize, to: usize) {
        self.position.insert(node, to);
        let Some(key) = key else {
            return;
        };
        if let Some(list) = self.by_key.get_mut(&key) {
            list_move(list, from, to);
        }
        for (c, list) in self.by_category.iter_mut().enumerate() {
            if cats & (1 << c) != 0 {
                list_move(list, from, to);
            }
        }
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

    /// The namespace and name of the topmost node, if it is an element (from the
    /// stack's own keys, without a look at the mirror).
    #[inline]
    pub(crate) fn last_key(&self) -> Option<ElemKey> {
        self.keys.last().copied().flatten()
    }

    /// Whether the topmost node is an HTML element (see [`last_key`](Self::last_key)).
    #[inline]
    pub(crate) fn last_is_html(&self) -> bool {
        debug_assert_eq!(
            self.top_html,
            self.last_key().is_some_and(|key| key.ns == Namespace::Html)
        );
        self.top_html
    }

    /// Recomputes [`top_html`](Self::top_html) after a change other than a push.
    #[inline]
    fn refresh_top(&mut self) {
        self.top_html = self.last_key().is_some_and(|key| key.ns == Namespace::Html);
    }

    /// The nodes, bottom first.
    #[cfg(test)]
    pub(crate) fn iter(&self) -> impl DoubleEndedIterator<Item = NodeId> + ExactSizeIterator + '_ {
        self.nodes.iter().copied()
    }

    /// The nodes, bottom first.
    pub(crate) fn nodes(&self) -> impl Iterator<Item = NodeId> + '_ {
        self.nodes.iter().copied()
    }

    /// Renames every node (the mirror was compacted); positions, keys and
    /// categories stay.
    pub(crate) fn remap(&mut self, map: impl Fn(NodeId) -> NodeId) {
        for node in &mut self.nodes {
            *node = map(*node);
        }
        if let Some(index) = self.index.as_mut() {
            index.position = self
                .nodes
                .iter()
                .enumerate()
                .map(|(p, &n)| (n, p))
                .collect();
        }
    }

    /// Whether `node` is open.
    pub(crate) fn contains(&self, node: NodeId) -> bool {
        self.position(node).is_some()
    }

    /// Where `node` is on the stack.
    pub(crate) fn position(&self, node: NodeId) -> Option<usize> {
        match &self.index {
            Some(index) => index.position.get(&node).copied(),
            None => self.nodes.iter().rposition(|&n| n == node),
        }
    }

    /// The position of the topmost element with `key`.
    #[inline]
    pub(crate) fn top(&self, key: ElemKey) -> Option<usize> {
        if !self.counts.may_hold(key.name) {
            return None;
        }
        match &self.index {
            Some(index) => index.by_key.get(&key).and_then(|l| l.last()).copied(),
            None => self.keys.iter().rposition(|&k| k == Some(key)),
        }
    }

    /// The position of the topmost element in `category`.
    pub(crate) fn top_in(&self, category: Category) -> Option<usize> {
        match &self.index {
            Some(index) => index
                .by_category
                .get(category as usize)
                .and_then(|l| l.last())
                .copied(),
            None => self.cats.iter().rposition(|&c| c & category.bit() != 0),
        }
    }

    /// The position of the lowest element in `category` above `pos`.
    pub(crate) fn first_in_above(&self, category: Category, pos: usize) -> Option<usize> {
        match &self.index {
            Some(index) => {
                let list = index.by_category.get(category as usize)?;
                let i = list.partition_point(|&p| p <= pos);
                list.get(i).copied()
            }
            None => {
                let from = pos.saturating_add(1);
                let above = self.cats.get(from..)?;
                above
                    .iter()
                    .position(|&c| c & category.bit() != 0)
                    .map(|i| from + i)
            }
        }
    }

    /// Builds the index from the stack (when it becomes deep).
    fn build_index(&mut self) {
        let mut index = Box::<Index>::default();
        for (pos, ((&node, &key), &cats)) in self
            .nodes
            .iter()
            .zip(&self.keys)
            .zip(&self.cats)
            .enumerate()
        {
            index.add(node, key, cats, pos);
        }
        self.index = Some(index);
    }

    /// Pushes `node` (it becomes the current node).
    pub(crate) fn push(&mut self, node: NodeId, mirror: &Mirror) {
        self.push_key(node, Self::key_of(mirror, node));
    }

    /// Pushes `node`, an element with `key` (its namespace and name as the
    /// mirror holds them).
    #[inline(always)]
    pub(crate) fn push_key(&mut self, node: NodeId, key: Option<ElemKey>) {
        let cats = categories(key);
        let pos = self.nodes.len();
        self.nodes.push(node);
        self.keys.push(key);
        self.top_html = key.is_some_and(|key| key.ns == Namespace::Html);
        self.cats.push(cats);
        self.counts.add(key);
        match self.index.as_mut() {
            Some(index) => index.add(node, key, cats, pos),
            None if self.nodes.len() > INDEX_FROM => self.build_index(),
            None => {}
        }
    }

    /// Pops the current node.
    #[inline]
    pub(crate) fn pop(&mut self) -> Option<NodeId> {
        self.pop_entry().map(|(node, _)| node)
    }

    /// Pops the current node, with its namespace and name.
    pub(crate) fn pop_entry(&mut self) -> Option<(NodeId, Option<ElemKey>)> {
        let node = self.nodes.pop()?;
        let key = self.keys.pop().flatten();
        self.refresh_top();
        let cats = self.cats.pop().unwrap_or(0);
        self.counts.remove(key);
        let pos = self.nodes.len();
        if let Some(index) = self.index.as_mut() {
            if pos < INDEX_UNTIL {
                self.index = None;
            } else {
                index.remove(node, key, cats, pos);
            }
        }
        Some((node, key))
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
        let cats = self.cats.get(index).copied().unwrap_or(0);
        if let Some(ix) = self.index.as_mut() {
            ix.remove(node, key, cats, index);
            for j in index + 1..self.nodes.len() {
                if let (Some(&n), Some(&k), Some(&c)) =
                    (self.nodes.get(j), self.keys.get(j), self.cats.get(j))
                {
                    ix.relocate(n, k, c, j, j - 1);
                }
            }
        }
        self.nodes.remove(index);
        self.keys.remove(index);
        self.refresh_top();
        self.cats.remove(index);
        self.counts.remove(key);
        if self.nodes.len() < INDEX_UNTIL {
            self.index = None;
        }
        Some(node)
    }

    /// Inserts `node` at `index` (the nodes from there move up one).
    pub(crate) fn insert(&mut self, index: usize, node: NodeId, mirror: &Mirror) {
        let index = index.min(self.nodes.len());
        let key = Self::key_of(mirror, node);
        let cats = categories(key);
        if let Some(ix) = self.index.as_mut() {
            for j in (index..self.nodes.len()).rev() {
                if let (Some(&n), Some(&k), Some(&c)) =
                    (self.nodes.get(j), self.keys.get(j), self.cats.get(j))
                {
                    ix.relocate(n, k, c, j, j + 1);
                }
            }
            ix.add(node, key, cats, index);
        }
        self.nodes.insert(index, node);
        self.keys.insert(index, key);
        self.refresh_top();
        self.cats.insert(index, cats);
        self.counts.add(key);
        if self.index.is_none() && self.nodes.len() > INDEX_FROM {
            self.build_index();
        }
    }

    /// Replaces the node at `index` with `node`.
    pub(crate) fn replace(&mut self, index: usize, node: NodeId, mirror: &Mirror) {
        let Some(old) = self.get(index) else {
            return;
        };
        let old_key = self.keys.get(index).copied().flatten();
        let old_cats = self.cats.get(index).copied().unwrap_or(0);
        let key = Self::key_of(mirror, node);
        let cats = categories(key);
        if let Some(ix) = self.index.as_mut() {
            ix.remove(old, old_key, old_cats, index);
            ix.add(node, key, cats, index);
        }
        if let (Some(n), Some(k), Some(c)) = (
            self.nodes.get_mut(index),
            self.keys.get_mut(index),
            self.cats.get_mut(index),
        ) {
            *n = node;
            *k = key;
            *c = cats;
            self.counts.remove(old_key);
            self.counts.add(key);
        }
        self.refresh_top();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::atom;

    /// The table of HTML categories says what the tag sets say, for every
    /// static name, and foreign elements still get theirs.
    #[test]
    fn the_category_table_agrees_with_the_tag_sets() {
        let mut static_names = 0;
        for name in (0..).map(Atom).take_while(|a| a.is_static()) {
            let key = ElemKey::html(name);
            assert_eq!(categories(Some(key)), categories_of(key), "{name:?}");
            static_names += 1;
        }
        assert_eq!(html_categories().len(), static_names);
        let p = categories(Some(ElemKey::html(atom::P)));
        assert!(p & Category::Special.bit() != 0);
        assert!(p & Category::SpecialNotAddressDivP.bit() == 0);
        let svg_title = ElemKey {
            ns: Namespace::Svg,
            name: atom::TITLE,
        };
        assert!(categories(Some(svg_title)) & Category::ScopeBoundary.bit() != 0);
        assert!(categories(Some(svg_title)) & Category::Html.bit() == 0);
    }

    fn setup(names: &[Atom]) -> (Mirror, Vec<NodeId>) {
        let mut mirror = Mirror::new(1);
        let ids = names
            .iter()
            .map(|&n| {
                mirror.add_element(
                    Namespace::Html,
                    n,
                    "x".into(),
                    crate::tree_builder::sink::ElementAttrs::none(),
                    false,
                )
            })
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
        let special = stack
            .iter()
            .rposition(|n| categories(OpenStack::key_of(mirror, n)) & Category::Special.bit() != 0);
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

    /// The name counts answer "none open" only when no element of that name
    /// is: names sharing a bucket (atom indexes 64 apart) keep it non-zero,
    /// and every way of leaving the stack takes the count down again.
    #[test]
    fn name_counts_never_hide_an_open_element() {
        let (a, b) = (atom::DIV, Atom(atom::DIV.index() + 64));
        assert!(a.is_static() && b.is_static());
        let (mirror, ids) = setup(&[atom::HTML, a, b, atom::P, b]);
        let mut stack = OpenStack::default();
        for &id in &ids {
            stack.push(id, &mirror);
        }
        let scan = |stack: &OpenStack, name: Atom| {
            stack
                .iter()
                .rposition(|n| OpenStack::key_of(&mirror, n) == Some(ElemKey::html(name)))
        };
        for name in [a, b, atom::P, atom::LI, atom::HTML] {
            assert_eq!(
                stack.top(ElemKey::html(name)),
                scan(&stack, name),
                "{name:?}"
            );
        }
        stack.remove(2);
        stack.replace(1, ids[3], &mirror);
        assert_eq!(stack.top(ElemKey::html(a)), None);
        assert_eq!(stack.top(ElemKey::html(b)), Some(3));
        assert_eq!(stack.top(ElemKey::html(atom::P)), Some(2));
        stack.insert(1, ids[1], &mirror);
        assert_eq!(stack.top(ElemKey::html(a)), Some(1));
        stack.truncate(1);
        for name in [a, b, atom::P] {
            assert_eq!(stack.top(ElemKey::html(name)), None, "{name:?}");
        }
        assert_eq!(stack.counts.0.iter().sum::<u32>(), 1);
    }

    #[test]
    fn the_index_of_a_deep_stack_agrees_with_a_scan() {
        use atom::*;
        let names: Vec<Atom> = (0..200).map(|i| [DIV, B, P, TABLE, SPAN][i % 5]).collect();
        let (mirror, ids) = setup(&names);
        let mut stack = OpenStack::default();
        for &id in &ids[..150] {
            stack.push(id, &mirror);
        }
        assert!(stack.index.is_some());
        check(&stack, &mirror);
        stack.remove(3);
        check(&stack, &mirror);
        stack.insert(10, ids[150], &mirror);
        check(&stack, &mirror);
        stack.replace(20, ids[151], &mirror);
        check(&stack, &mirror);
        assert_eq!(
            stack.first_in_above(Category::Special, 5),
            stack
                .iter()
                .enumerate()
                .skip(6)
                .find(
                    |&(_, n)| categories(OpenStack::key_of(&mirror, n)) & Category::Special.bit()
                        != 0
                )
                .map(|(i, _)| i)
        );
        stack.truncate(INDEX_UNTIL - 1);
        assert!(stack.index.is_none());
        check(&stack, &mirror);
        for &id in &ids[152..] {
            stack.push(id, &mirror);
            check(&stack, &mirror);
        }
    }
}
