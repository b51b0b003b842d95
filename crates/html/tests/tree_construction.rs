//! Runs every html5lib-tests tree-construction case through the
//! `Driver` (session → patch batches) → `DomStore::apply` → dump, in each
//! scripting mode the case asks for, fed whole and in chunks of 1 and 7 bytes,
//! and once more in chunks of 3 bytes through the driver's own store path
//! (`Driver::push_into`: the tree builder writes into the store directly; every
//! run must give the same tree, and the store path the same keys as the patch
//! path). Fails on any failure not listed in
//! `tests/known-failures/tree_construction.txt` (`file:index | reason`), and on a
//! listed case that passes.

mod support;

use std::collections::BTreeMap;

use support::tree_dat::{self, TreeTest};
use tagloom_html::decoder::DecoderConfig;
use tagloom_html::dom::{self, DomStore};
use tagloom_html::driver::{Driver, ParseConfig, drive};
use tagloom_html::session::BatchPolicy;
use tagloom_html::tree_builder::FragmentContext;

const KNOWN_FAILURES: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/tests/known-failures/tree_construction.txt"
);

/// The keys of `node`'s subtree in tree order (template contents before the
/// children), to compare two stores key for key.
fn keys(node: dom::NodeRef<'_>, out: &mut Vec<u64>) {
    out.push(node.key().get());
    if let Some(contents) = node.template_contents() {
        keys(contents, out);
    }
    for child in node.children() {
        keys(child, out);
    }
}

/// The dump of the document (or the fragment root's children) and its keys.
fn dumped(
    store: &DomStore,
    root: Option<tagloom_html::dom_patch::PatchKey>,
) -> Result<(String, Vec<u64>), String> {
    let node = match root {
        Some(root) => store
            .get(root)
            .ok_or_else(|| "no fragment root".to_string())?,
        None => store.document().ok_or_else(|| "no document".to_string())?,
    };
    let dump = match root {
        Some(_) => dom::dump_children(node),
        None => dom::dump_document(store),
    };
    let mut out = Vec::new();
    keys(node, &mut out);
    Ok((dump, out))
}

/// Parses `data` and returns the dump and the keys in tree order (or an error
/// message).
fn run(test: &TreeTest, scripting: bool, chunk: usize) -> Result<(String, Vec<u64>), String> {
    let mut config = ParseConfig::default();
    config.session.decoder = DecoderConfig::with_transport(encoding_rs::UTF_8);
    config.session.batching = BatchPolicy::PerPump;
    config.session.tree.scripting = scripting;
    config.session.tree.suspend_at_script = true;
    if chunk == 7 {
        // Exercise a second batching policy too.
        config.session.batching = BatchPolicy::MaxPatches(5);
    }
    if chunk != 0 {
        config.chunk_size = chunk;
    }
    let bytes = test.data.as_bytes();
    let mut store = DomStore::new();
    if chunk == 3 {
        config.session.batching = BatchPolicy::Bounded(4);
        let mut driver = match &test.fragment {
            Some(f) => {
                let context = FragmentContext::new(f.ns, f.local_name.clone());
                Driver::new_fragment(&config, context)
            }
            None => Driver::new(&config),
        };
        let mut status = driver.push_into(bytes, &mut store);
        if status.is_ok() {
            status = driver.finish_into(&mut store);
        }
        status.map_err(|e| e.to_string())?;
        return dumped(&store, driver.session().fragment_root_key());
    }
    let apply = |batch: tagloom_html::PatchBatch| {
        store
            .apply(&batch)
            .map_err(|e| format!("batch rejected: {e}"))
    };
    let session = match &test.fragment {
        Some(f) => {
            let context = FragmentContext::new(f.ns, f.local_name.clone());
            let mut driver = Driver::new_fragment(&config, context);
            let mut apply = apply;
            driver
                .push(bytes, &mut apply)
                .and_then(|()| driver.finish(&mut apply))
                .map_err(|e| e.to_string())?;
            driver.into_session()
        }
        None => drive(bytes, &config, apply).map_err(|e| e.to_string())?,
    };
    dumped(&store, session.fragment_root_key())
}

fn load_known() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(KNOWN_FAILURES).unwrap_or_default();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| match l.split_once('|') {
            Some((id, reason)) => (id.trim().to_owned(), reason.trim().to_owned()),
            None => (l.trim().to_owned(), String::new()),
        })
        .collect()
}

#[test]
fn tree_construction_suite() {
    let files = tree_dat::load_dir(tree_dat::DATA_DIR).expect("tree-construction data");
    let known = load_known();
    let mut unexpected = Vec::new();
    let mut fixed = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let (mut total, mut passed) = (0, 0);
    let mut by_kind: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (path, tests) in &files {
        let name = path
            .strip_prefix(tree_dat::DATA_DIR)
            .unwrap_or(path)
            .display()
            .to_string()
            .trim_start_matches('/')
            .to_owned();
        let (mut file_total, mut file_passed) = (0, 0);
        for (index, test) in tests.iter().enumerate() {
            let id = format!("{name}:{index}");
            let mut ok = true;
            let mut detail = String::new();
            for &scripting in test.scripting.modes() {
                let whole = run(test, scripting, 0);
                let good = whole.as_ref().is_ok_and(|(d, _)| *d == test.document);
                if !good {
                    ok = false;
                    detail = format!(
                        "scripting={scripting}\n--- data\n{}\n--- expected\n{}--- got\n{}",
                        test.data,
                        test.document,
                        whole.clone().map(|(d, _)| d).unwrap_or_else(|e| e)
                    );
                }
                for chunk in [1, 3, 7] {
                    let chunked = run(test, scripting, chunk);
                    if chunked != whole {
                        ok = false;
                        detail = format!(
                            "chunk size {chunk} differs (scripting={scripting})\n--- data\n{}\n--- whole\n{:?}\n--- chunked\n{:?}",
                            test.data, whole, chunked
                        );
                    }
                }
            }
            total += 1;
            file_total += 1;
            let kind = match (test.fragment.is_some(), test.scripting) {
                (false, tree_dat::Scripting::Both) => "document",
                (true, tree_dat::Scripting::Both) => "fragment",
                (_, tree_dat::Scripting::On) => "script-on",
                (_, tree_dat::Scripting::Off) => "script-off",
            };
            let entry = by_kind.entry(kind).or_default();
            entry.0 += 1;
            if ok {
                passed += 1;
                file_passed += 1;
                entry.1 += 1;
            }
            seen.insert(id.clone());
            match (ok, known.contains_key(&id)) {
                (false, false) => unexpected.push(format!("{id}\n{detail}")),
                (true, true) => fixed.push(id),
                _ => {}
            }
        }
        println!("{name:<45} {file_passed:>4}/{file_total:<4}");
    }
    println!("{:<45} {passed:>4}/{total:<4}", "TOTAL");
    for (kind, (t, p)) in &by_kind {
        println!("  {kind:<12} {p:>4}/{t}");
    }
    let stale: Vec<_> = known.keys().filter(|k| !seen.contains(*k)).collect();
    if !unexpected.is_empty() {
        for u in unexpected.iter().take(30) {
            println!("FAIL {u}\n");
        }
    }
    assert!(
        unexpected.is_empty(),
        "{} unexpected failures (first: {:?})",
        unexpected.len(),
        unexpected
            .iter()
            .map(|u| u.lines().next())
            .take(40)
            .collect::<Vec<_>>()
    );
    assert!(
        fixed.is_empty(),
        "listed as known failures but pass: {fixed:?}"
    );
    assert!(stale.is_empty(), "known failures naming no case: {stale:?}");
}
