//! The whole parse: bytes → decoder → tokenizer → tree builder → `DomPatch` batches
//! → `DomStore`. Every batch must pass the store's invariant checks, and the tree
//! must not depend on how the bytes were chunked or how patches were batched.
//! The first input byte picks the chunk size, the scripting flag and the batching.
//! The whole input is also parsed compacting the tree builder's mirror after every
//! token (`MirrorCompaction::After(0)` with `BatchPolicy::Bounded(1)`: each token
//! with a patch ends a pump): the patches, keys included, must be the same.
//! And the driver's store path (`parse_document`: the tree builder writes into the
//! store directly, no patches) must build the same tree with the same keys, in the
//! same chunks.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tagloom_html::dom::{DomStore, NodeRef, dump_document};
use tagloom_html::driver::{ParseConfig, drive, parse_document};
use tagloom_html::session::{BatchPolicy, SessionConfig};
use tagloom_html::dom_patch::DomPatch;
use tagloom_html::tree_builder::{MirrorCompaction, TreeBuilderConfig};

/// The keys of `node`'s subtree in tree order (template contents first).
fn keys(node: NodeRef<'_>, out: &mut Vec<u64>) {
    out.push(node.key().get());
    if let Some(contents) = node.template_contents() {
        keys(contents, out);
    }
    for child in node.children() {
        keys(child, out);
    }
}

/// The dump and keys of a parse through patches (`direct` false) or the store path.
fn shape(input: &[u8], chunk: usize, scripting: bool, direct: bool) -> (String, Vec<u64>) {
    let config = ParseConfig {
        session: SessionConfig {
            tree: TreeBuilderConfig {
                scripting,
                ..TreeBuilderConfig::default()
            },
            batching: BatchPolicy::Bounded(64),
            ..SessionConfig::default()
        },
        chunk_size: chunk,
    };
    let store = if direct {
        match parse_document(input, &config) {
            Ok(store) => store,
            Err(err) => panic!("the store path fails: {err}"),
        }
    } else {
        let mut store = DomStore::new();
        if let Err(err) = drive(input, &config, |batch| store.apply(&batch)) {
            panic!("no limit is hit and every batch applies: {err}");
        }
        store
    };
    let mut out = Vec::new();
    if let Some(document) = store.document() {
        keys(document, &mut out);
    }
    (dump_document(&store), out)
}

fn parse(input: &[u8], chunk: usize, scripting: bool, batching: BatchPolicy) -> String {
    parse_with(input, chunk, scripting, batching, MirrorCompaction::Never).0
}

/// The tree and every patch.
fn parse_with(
    input: &[u8],
    chunk: usize,
    scripting: bool,
    batching: BatchPolicy,
    mirror_compaction: MirrorCompaction,
) -> (String, Vec<DomPatch>) {
    let config = ParseConfig {
        session: SessionConfig {
            tree: TreeBuilderConfig {
                scripting,
                suspend_at_script: true,
                mirror_compaction,
                ..TreeBuilderConfig::default()
            },
            batching,
            ..SessionConfig::default()
        },
        chunk_size: chunk,
    };
    let mut store = DomStore::new();
    let mut patches = Vec::new();
    let applied = drive(input, &config, |batch| {
        let applied = store.apply(&batch);
        if applied.is_ok() {
            patches.extend(batch.patches);
        }
        applied
    });
    if let Err(err) = applied {
        panic!("no limit is hit and every batch applies: {err}");
    }
    (dump_document(&store), patches)
}

fuzz_target!(|data: &[u8]| {
    let Some((&first, input)) = data.split_first() else {
        return;
    };
    let chunk = usize::from(first % 32) + 1;
    let scripting = first & 0x40 != 0;
    let whole = parse(input, input.len().max(1), scripting, BatchPolicy::PerPump);
    let chunked = parse(input, chunk, scripting, BatchPolicy::MaxPatches(usize::from(first >> 5) + 1));
    assert_eq!(whole, chunked, "tree differs between whole input and chunks of {chunk}");
    let whole = input.len().max(1);
    let plain = parse_with(input, whole, scripting, BatchPolicy::Bounded(1), MirrorCompaction::Never);
    let compacted = parse_with(input, whole, scripting, BatchPolicy::Bounded(1), MirrorCompaction::After(0));
    assert!(plain == compacted, "mirror compaction changed the patches");
    let patched = shape(input, chunk, scripting, false);
    let direct = shape(input, chunk, scripting, true);
    assert!(patched == direct, "the store path built another tree or other keys");
});
