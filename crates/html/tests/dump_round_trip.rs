//! The html5lib dump of `DomStore` against every expected tree of the
//! tree-construction suite: each `#document` is read back into patches
//! (`support/dump_tree.rs`), applied to a fresh store, dumped again and compared
//! byte for byte. This checks the dump format (namespaces, attribute order and
//! prefixes, DOCTYPE identifiers, template `content`, multi-line text) on real
//! parser output before any tree builder exists, and runs the store's invariant
//! checks and the fragment serializer over ~1,800 realistic trees.

mod support;

use support::{dump_tree, tree_dat};
use tagloom_html::dom::{self, DomStore};
use tagloom_html::dom_patch::{DomPatch, PatchKey};
use tagloom_html::serializer::{FragmentOptions, children_to_string};

fn key(n: u64) -> PatchKey {
    PatchKey::new(n).expect("non-zero")
}

#[test]
fn every_expected_tree_round_trips_through_the_store() {
    let files = tree_dat::load_dir(tree_dat::DATA_DIR).expect("data");
    let mut checked = 0;
    let mut failures = Vec::new();
    for (path, tests) in &files {
        for test in tests {
            let name = format!("{}:{}", path.display(), test.line);
            let mut store = DomStore::new();
            let (root, mut batch) = if test.fragment.is_some() {
                // Fragment results are the children of the context's `html` root.
                (
                    key(2),
                    vec![
                        DomPatch::CreateDocument { key: key(1) },
                        DomPatch::html_element(key(2), "html"),
                        DomPatch::AppendChild {
                            parent: key(1),
                            child: key(2),
                        },
                    ],
                )
            } else {
                (key(1), vec![DomPatch::CreateDocument { key: key(1) }])
            };
            match dump_tree::patches(&test.document, root, 3) {
                Ok(patches) => batch.extend(patches),
                Err(e) => {
                    failures.push(format!("{name}: unreadable dump: {e}"));
                    continue;
                }
            }
            if let Err(e) = store.apply_patches(&batch) {
                failures.push(format!("{name}: rejected: {e}"));
                continue;
            }
            let Some(root) = store.get(root) else {
                failures.push(format!("{name}: no root"));
                continue;
            };
            let dump = if test.fragment.is_some() {
                dom::dump_children(root)
            } else {
                dom::dump_document(&store)
            };
            if dump != test.document {
                failures.push(format!("{name}:\nexpected:\n{}got:\n{dump}", test.document));
            }
            // The serializer must cope with every tree (the suite has no expected
            // serializations); every node kind writes something.
            let html = children_to_string(root, FragmentOptions::default());
            if html.is_empty() != dump.is_empty() {
                failures.push(format!("{name}: empty serialization"));
            }
            checked += 1;
        }
    }
    println!("{checked} expected trees round-tripped");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
    assert_eq!(checked, 1796);
}
