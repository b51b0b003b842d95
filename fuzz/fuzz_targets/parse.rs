//! The whole parse: bytes → decoder → tokenizer → tree builder → `DomPatch` batches
//! → `DomStore`. Every batch must pass the store's invariant checks, and the tree
//! must not depend on how the bytes were chunked or how patches were batched.
//! The first input byte picks the chunk size, the scripting flag and the batching.

#![no_main]

use libfuzzer_sys::fuzz_target;
use tagloom_html::dom::{DomStore, dump_document};
use tagloom_html::driver::{ParseConfig, drive};
use tagloom_html::session::{BatchPolicy, SessionConfig};
use tagloom_html::tree_builder::TreeBuilderConfig;

fn parse(input: &[u8], chunk: usize, scripting: bool, batching: BatchPolicy) -> String {
    let config = ParseConfig {
        session: SessionConfig {
            tree: TreeBuilderConfig { scripting, suspend_at_script: true, ..TreeBuilderConfig::default() },
            batching,
            ..SessionConfig::default()
        },
        chunk_size: chunk,
    };
    let mut store = DomStore::new();
    if let Err(err) = drive(input, &config, |batch| store.apply(&batch)) {
        panic!("no limit is hit and every batch applies: {err}");
    }
    dump_document(&store)
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
});
