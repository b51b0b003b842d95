//! A.1 "reset the insertion mode appropriately" (no select steps since 2025).

use crate::atom;
use crate::dom_patch::Namespace;

use super::open_stack::ElemKey;
use super::{InsertionMode, TreeBuilder};

/// The elements the reset algorithm stops at (steps 4–14).
const RESET_NAMES: [atom::Atom; 14] = [
    atom::TD,
    atom::TH,
    atom::TR,
    atom::TBODY,
    atom::THEAD,
    atom::TFOOT,
    atom::CAPTION,
    atom::COLGROUP,
    atom::TABLE,
    atom::TEMPLATE,
    atom::HEAD,
    atom::BODY,
    atom::FRAMESET,
    atom::HTML,
];

impl TreeBuilder {
    /// A.1 "reset the insertion mode appropriately".
    pub(crate) fn reset_insertion_mode(&mut self) {
        self.mode = self.reset_mode();
    }

    /// The mode A.1 "reset the insertion mode appropriately" would set.
    pub(crate) fn reset_mode(&self) -> InsertionMode {
        // The walk down the stack stops at the topmost element named in the
        // steps below (above the bottom, where `td`, `th` and `head` count
        // too), else at the bottom: found from the stack's index, not by a walk.
        let index = RESET_NAMES
            .iter()
            .filter_map(|&n| self.open.top(ElemKey::html(n)))
            .filter(|&i| i > 0)
            .max()
            .unwrap_or(0);
        {
            let last = index == 0;
            let mut node = self.open.get(index);
            if last && let Some(ctx) = self.context {
                node = Some(ctx);
            }
            let name = node
                .and_then(|n| self.mirror.elem(n))
                .filter(|e| e.ns == Namespace::Html)
                .map(|e| e.name);
            let mode = match name {
                Some(atom::TD | atom::TH) if !last => Some(InsertionMode::InCell),
                Some(atom::TR) => Some(InsertionMode::InRow),
                Some(atom::TBODY | atom::THEAD | atom::TFOOT) => Some(InsertionMode::InTableBody),
                Some(atom::CAPTION) => Some(InsertionMode::InCaption),
                Some(atom::COLGROUP) => Some(InsertionMode::InColumnGroup),
                Some(atom::TABLE) => Some(InsertionMode::InTable),
                Some(atom::TEMPLATE) => Some(
                    self.template_modes
                        .last()
                        .copied()
                        .unwrap_or(InsertionMode::InBody),
                ),
                Some(atom::HEAD) if !last => Some(InsertionMode::InHead),
                Some(atom::BODY) => Some(InsertionMode::InBody),
                Some(atom::FRAMESET) => Some(InsertionMode::InFrameset),
                Some(atom::HTML) => Some(if self.head.is_none() {
                    InsertionMode::BeforeHead
                } else {
                    InsertionMode::AfterHead
                }),
                _ if last => Some(InsertionMode::InBody),
                _ => None,
            };
            if let Some(mode) = mode {
                return mode;
            }
        }
        InsertionMode::InBody
    }
}
