//! 13.2.6.4.7 the adoption agency algorithm (current text, including step 4.3's
//! fall back to "any other end tag").

use crate::atom::Atom;
use crate::error::ErrorCode;

use super::TreeBuilder;
use super::insert::Place;
use super::open_stack::{Category, ElemKey};

impl TreeBuilder {
    /// Runs the adoption agency algorithm for an end tag (or a start tag that
    /// closes an open `a`/`nobr`) named `subject`. Returns `false` when the caller
    /// must instead act as for "any other end tag" (steps 2 and 4.3).
    pub(crate) fn adoption_agency(&mut self, subject: Atom) -> bool {
        // The usual case first, from the stack's keys and the list's end alone
        // (`<b>x</b>`): the current node is an HTML `subject` and the list's
        // last entry, so it is the formatting element of step 4.3 and the
        // current node; steps 4.4–4.8 pop it and remove it from the list.
        if let Some(current) = self.current_node()
            && self.open.last_key() == Some(ElemKey::html(subject))
            && self.active.entries.last() == Some(&Some(current))
        {
            self.pop();
            self.active.entries.pop();
            self.forget_kept_attrs(current);
            return true;
        }
        // Step 2: the current node is the subject and not a formatting element.
        if let Some(current) = self.current_node()
            && self.is_html(current, subject)
            && !self.active.contains(current)
        {
            self.pop();
            return true;
        }
        // Steps 3–4: the outer loop, at most 8 times.
        for _ in 0..8 {
            // Step 4.3.
            let Some(formatting) = self.formatting_element_named(subject) else {
                return false;
            };
            // The usual case (`<b>x</b>`): the formatting element is the current
            // node, so it is open and in scope, nothing is above it (no furthest
            // block) and there is no parse error: steps 4.4–4.8 come down to
            // popping it and removing it from the list.
            if self.current_node() == Some(formatting) {
                self.pop();
                self.active.remove(formatting);
                self.forget_kept_attrs(formatting);
                return true;
            }
            // Step 4.4.
            let Some(formatting_index) = self.open.position(formatting) else {
                self.parse_error(ErrorCode::MisnestedFormattingElement);
                self.active.remove(formatting);
                self.forget_kept_attrs(formatting);
                return true;
            };
            // Step 4.5.
            if !self.has_node_in_scope(formatting) {
                self.parse_error(ErrorCode::MisnestedFormattingElement);
                return true;
            }
            // Step 4.6.
            if self.current_node() != Some(formatting) {
                self.parse_error(ErrorCode::MisnestedFormattingElement);
            }
            // Step 4.7: the furthest block.
            let furthest = self
                .open
                .first_in_above(Category::Special, formatting_index)
                .and_then(|i| Some((i, self.open.get(i)?)));
            // Step 4.8.
            let Some((furthest_index, furthest_block)) = furthest else {
                self.pop_until_node(formatting);
                self.active.remove(formatting);
                self.forget_kept_attrs(formatting);
                return true;
            };
            // Step 4.9.
            let Some(common_ancestor) = formatting_index
                .checked_sub(1)
                .and_then(|i| self.open.get(i))
            else {
                return true;
            };
            // Step 4.10.
            let mut bookmark = self.active.position(formatting).unwrap_or(0);
            // Steps 4.11–4.13: the inner loop.
            let mut node_index = furthest_index;
            let mut last_node = furthest_block;
            let mut inner = 0;
            loop {
                inner += 1;
                let Some(i) = node_index.checked_sub(1) else {
                    break;
                };
                node_index = i;
                let Some(node) = self.open.get(node_index) else {
                    break;
                };
                if node == formatting {
                    break;
                }
                if inner > 3
                    && let Some(i) = self.active.position(node)
                {
                    self.active.entries.remove(i);
                    self.forget_kept_attrs(node);
                    if i < bookmark {
                        bookmark -= 1;
                    }
                }
                let Some(entry) = self.active.position(node) else {
                    self.open.remove(node_index);
                    continue;
                };
                // Step 4.13.6: replace node with a fresh clone.
                let Some(new) = self.clone_element(node) else {
                    break;
                };
                if let Some(slot) = self.active.entries.get_mut(entry) {
                    *slot = Some(new);
                }
                self.open.replace(node_index, new, &self.mirror);
                // Step 4.13.7.
                if last_node == furthest_block {
                    bookmark = entry + 1;
                }
                // Step 4.13.8.
                self.detach(last_node);
                self.append_to(new, last_node);
                last_node = new;
            }
            // Step 4.14.
            self.detach(last_node);
            let place = self.appropriate_place(Some(common_ancestor));
            self.insert_at(place, last_node);
            // Steps 4.15–4.17.
            let Some(new) = self.clone_element(formatting) else {
                return true;
            };
            while let Some(child) = self
                .mirror
                .get(furthest_block)
                .and_then(|n| n.first_child())
            {
                self.detach(child);
                self.append_to(new, child);
            }
            self.insert_at(Place::Append(furthest_block), new);
            // Step 4.18.
            if let Some(old) = self.active.position(formatting) {
                self.active.entries.remove(old);
                self.forget_kept_attrs(formatting);
                if old < bookmark {
                    bookmark -= 1;
                }
            }
            let bookmark = bookmark.min(self.active.entries.len());
            self.active.entries.insert(bookmark, Some(new));
            // Step 4.19.
            if let Some(old) = self.open.position(formatting) {
                self.open.remove(old);
            }
            if let Some(fb) = self.open.position(furthest_block) {
                self.open.insert(fb + 1, new, &self.mirror);
            }
        }
        true
    }
}
