//! When and how the tree builder compacts its mirror (what is kept and why:
//! `mirror/compact.rs`): at the end of each pump of the session (between
//! tokens), once the mirror has grown enough, it marks the nodes it may still
//! read, lets the mirror forget the others and maps the node ids it holds to the
//! compacted arena.

use super::TreeBuilder;
use super::mirror::{Marks, NodeId, Remap};

/// When the tree builder's mirror forgets the closed nodes it will never read
/// again (see [`TreeBuilderConfig::mirror_compaction`](super::TreeBuilderConfig::mirror_compaction)).
///
/// Patches and keys are the same either way; compaction only bounds the memory
/// of a parse whose consumer keeps no tree (36 bytes a node otherwise, for every
/// node until end of file).
///
/// ```
/// use tagloom_html::tree_builder::{MirrorCompaction, TreeBuilderConfig};
/// let config = TreeBuilderConfig {
///     mirror_compaction: MirrorCompaction::After(4096),
///     ..TreeBuilderConfig::default()
/// };
/// assert_ne!(config.mirror_compaction, MirrorCompaction::Never);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MirrorCompaction {
    /// Keep every node until end of file.
    Never,
    /// Compact once at least this many nodes were added since the last
    /// compaction and the mirror holds twice the nodes that compaction kept (so
    /// each node is copied O(1) times, amortized). The session checks at the end
    /// of each pump ([`Html5ParseSession::pump`](crate::session::Html5ParseSession::pump):
    /// between tokens), so the mirror may grow past the threshold by one pump's
    /// nodes. `After(0)` compacts at every pump that added a node, without the
    /// doubling: quadratic, for tests (with `BatchPolicy::Bounded(1)`, every
    /// token that emits a patch ends a pump).
    After(usize),
}

impl MirrorCompaction {
    /// The mirror size at which to compact, `live` nodes having been kept by
    /// the last compaction (none before the first).
    pub(crate) fn due_at(self, live: usize) -> usize {
        match self {
            MirrorCompaction::Never => usize::MAX,
            MirrorCompaction::After(0) => live.saturating_add(1),
            MirrorCompaction::After(n) => live.saturating_add(n.max(live)),
        }
    }
}

impl TreeBuilder {
    /// Compacts the mirror if it is due (call between tokens).
    #[inline]
    pub(crate) fn maybe_compact(&mut self) {
        if self.mirror.len() >= self.compact_at {
            self.compact_mirror();
        }
    }

    /// Marks what the builder may still read, compacts, and maps the held ids.
    #[inline(never)]
    pub(crate) fn compact_mirror(&mut self) {
        let mut marks = Marks::new(&self.mirror);
        // Where nodes may be inserted, moved from or reopened. An open element
        // above an open entry of the list of active formatting elements may
        // become the adoption agency's furthest block, whose children all move:
        // it keeps them all (the stack only ever gets such entries below an
        // element by replacing one that was already there).
        marks.expand_full(&self.mirror, self.document);
        let active: std::collections::HashSet<NodeId> =
            self.active.entries.iter().flatten().copied().collect();
        let mut above_formatting = false;
        for id in self.open.nodes() {
            if above_formatting {
                marks.expand_full(&self.mirror, id);
            } else {
                marks.expand(&self.mirror, id);
            }
            above_formatting |= active.contains(&id);
        }
        if let Some(head) = self.head {
            marks.expand(&self.mirror, head);
        }
        // Read for themselves only.
        let pointers = [
            self.context,
            self.fragment_root,
            self.form,
            self.last_script,
        ];
        for id in pointers.into_iter().flatten() {
            marks.keep(id);
        }
        for id in self.active.entries.iter().flatten() {
            marks.keep(*id);
        }
        self.select_tracker.mark(&self.mirror, &mut marks);
        let remap = self.mirror.compact(marks);
        self.remap_ids(&remap);
        self.compact_at = self.config.mirror_compaction.due_at(self.mirror.len());
    }

    fn remap_ids(&mut self, remap: &Remap) {
        let map = |id: NodeId| remap.get(id).unwrap_or(NodeId::MAX);
        self.document = map(self.document);
        for field in [
            &mut self.context,
            &mut self.fragment_root,
            &mut self.head,
            &mut self.form,
            &mut self.last_script,
        ] {
            *field = field.map(map);
        }
        for entry in self.active.entries.iter_mut().flatten() {
            *entry = map(*entry);
        }
        self.open.remap(map);
        self.select_tracker.remap(remap);
    }
}

#[cfg(test)]
mod tests;
