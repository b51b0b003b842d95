//! A.1 "reset the insertion mode appropriately" (no select steps since 2025).

use crate::atom;
use crate::dom_patch::Namespace;

use super::{InsertionMode, TreeBuilder};

impl TreeBuilder {
    /// A.1 "reset the insertion mode appropriately".
    pub(crate) fn reset_insertion_mode(&mut self) {
        for index in (0..self.open.len()).rev() {
            let last = index == 0;
            let mut node = self.open.get(index).copied();
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
                self.mode = mode;
                return;
            }
        }
        self.mode = InsertionMode::InBody;
    }
}
