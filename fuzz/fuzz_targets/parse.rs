//! The whole parse: bytes → decoder → tokenizer → tree builder → `DomPatch` batches
//! → `DomStore`. Every batch must pass the store's invariant checks, and the tree
//! must not depend on how the bytes were chunked or how patches were batched.
//! The first input byte picks the chunk size, the scripting flag and the batching.
//! The whole input is also parsed compacting the tree builder's mirror after every
//! token (`MirrorCompaction::After(0)` with `BatchPolicy::Bounded(1)`: each token
//! with a patch ends a pump): the patches, keys included, must be the same.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tagloom_html::dom::{DomStore, dump_document};
use tagloom_html::driver::{ParseConfig, drive};
use tagloom_html::session::{BatchPolicy, SessionConfig};
use tagloom_html::dom_patch::DomPatch;
use tagloom_html::tree_builder::{MirrorCompaction, TreeBuilderConfig};

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
        store.apply(&batch)?;
        patches.extend(batch.patches);
        Ok(())
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
});
