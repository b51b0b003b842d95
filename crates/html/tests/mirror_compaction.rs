//! The tree builder's mirror compaction changes nothing a consumer sees:
//! compacting at every pump (after every token, with `Bounded(1)`), every html5lib tree-construction
//! case — documents and fragments, scripting on and off, whole and in chunks —
//! gives the same patch batches (keys included) as without, and so do the bench
//! pages (`../shared/bench-corpus`, or `$TAGLOOM_BENCH_CORPUS`; skipped with a
//! note on stderr when absent, a failure under CI or `TAGLOOM_REQUIRE_SHARED=1`).

mod support;

use support::tree_dat::{self, TreeTest};
use tagloom_html::decoder::DecoderConfig;
use tagloom_html::dom::{self, DomStore};
use tagloom_html::driver::{Driver, ParseConfig};
use tagloom_html::session::BatchPolicy;
use tagloom_html::tree_builder::{FragmentContext, MirrorCompaction};
use tagloom_testdata::Shared;

/// The batches of a parse, as JSON lines (versions, every patch and key; not
/// the document handle), or the error.
fn batches(
    bytes: &[u8],
    fragment: Option<FragmentContext>,
    config: &ParseConfig,
) -> Result<Vec<String>, String> {
    let mut driver = match fragment {
        Some(context) => Driver::new_fragment(config, context),
        None => Driver::new(config),
    };
    let mut out = Vec::new();
    let mut sink = |batch: tagloom_html::PatchBatch| {
        // Without the document handle (each parse gets its own).
        let json = batch.json().to_string();
        out.push(
            json.split_once(',')
                .map_or(json.clone(), |(_, rest)| rest.to_owned()),
        );
        Ok::<_, std::convert::Infallible>(())
    };
    driver
        .push(bytes, &mut sink)
        .and_then(|()| driver.finish(&mut sink))
        .map_err(|e| e.to_string())?;
    Ok(out)
}

/// The tree of a parse through the driver's store path (bounded batches).
fn stored(
    bytes: &[u8],
    fragment: Option<FragmentContext>,
    config: &ParseConfig,
) -> Result<String, String> {
    let mut driver = match fragment {
        Some(context) => Driver::new_fragment(config, context),
        None => Driver::new(config),
    };
    let mut store = DomStore::new();
    driver
        .push_into(bytes, &mut store)
        .and_then(|()| driver.finish_into(&mut store))
        .map_err(|e| e.to_string())?;
    Ok(match driver.session().fragment_root_key() {
        Some(root) => store.get(root).map(dom::dump_children).unwrap_or_default(),
        None => dom::dump_document(&store),
    })
}

/// The setups compared: chunk size (0: whole) and batching. `Bounded(1)` ends a
/// pump, and so checks for a compaction, after every token with a patch.
const SETUPS: [(usize, BatchPolicy); 4] = [
    (0, BatchPolicy::PerPump),
    (0, BatchPolicy::Bounded(1)),
    (1, BatchPolicy::PerPump),
    (7, BatchPolicy::MaxPatches(5)),
];

fn config(
    scripting: bool,
    chunk: usize,
    batching: BatchPolicy,
    compaction: MirrorCompaction,
) -> ParseConfig {
    let mut config = ParseConfig::default();
    config.session.decoder = DecoderConfig::with_transport(encoding_rs::UTF_8);
    config.session.tree.scripting = scripting;
    config.session.tree.suspend_at_script = true;
    config.session.tree.mirror_compaction = compaction;
    config.session.batching = batching;
    if chunk != 0 {
        config.chunk_size = chunk;
    }
    config
}

fn context(test: &TreeTest) -> Option<FragmentContext> {
    test.fragment
        .as_ref()
        .map(|f| FragmentContext::new(f.ns, f.local_name.clone()))
}

#[test]
fn tree_construction_suite_gives_the_same_patches_with_a_tiny_compaction() {
    let files = tree_dat::load_dir(tree_dat::DATA_DIR).expect("tree-construction data");
    // A compaction at every pump that adds a node.
    let tiny = MirrorCompaction::After(0);
    let never = MirrorCompaction::Never;
    let mut differences = Vec::new();
    let (mut cases, mut runs) = (0, 0);
    for (path, tests) in &files {
        for (index, test) in tests.iter().enumerate() {
            cases += 1;
            let bytes = test.data.as_bytes();
            let case = format!("{}:{index}", path.display());
            for &scripting in test.scripting.modes() {
                for (chunk, batching) in SETUPS {
                    runs += 1;
                    let run =
                        |c| batches(bytes, context(test), &config(scripting, chunk, batching, c));
                    let (plain, compacted) = (run(never), run(tiny));
                    if plain != compacted {
                        let first = first_difference(&plain, &compacted);
                        differences.push(format!(
                            "{case} scripting={scripting} chunk={chunk} {batching:?}: {first}"
                        ));
                    }
                }
                runs += 1;
                let bounded = BatchPolicy::Bounded(4);
                let run = |c| stored(bytes, context(test), &config(scripting, 3, bounded, c));
                if run(never) != run(tiny) {
                    differences.push(format!("{case} scripting={scripting} store path"));
                }
            }
        }
    }
    println!("{cases} cases, {runs} runs compared");
    assert!(cases > 1500, "only {cases} cases found");
    assert!(
        differences.is_empty(),
        "{} differ: {:#?}",
        differences.len(),
        &differences[..differences.len().min(10)]
    );
}

/// The first batch that differs, both ways.
fn first_difference(a: &Result<Vec<String>, String>, b: &Result<Vec<String>, String>) -> String {
    match (a, b) {
        (Ok(a), Ok(b)) => a.iter().zip(b).find(|(x, y)| x != y).map_or_else(
            || format!("{} vs {} batches", a.len(), b.len()),
            |(x, y)| format!("{x}\n  vs\n{y}"),
        ),
        (a, b) => format!("{a:?} vs {b:?}"),
    }
}

/// The bench pages, sorted by name, or `None` (said on stderr) when absent.
fn bench_pages() -> Option<Vec<(String, Vec<u8>)>> {
    let paths = Shared::BenchCorpus.files(
        "bench_pages_give_the_same_patches_with_compaction",
        &["html"],
    );
    let pages: Vec<(String, Vec<u8>)> = paths
        .iter()
        .map(|p| {
            (
                p.display().to_string(),
                std::fs::read(p).expect("read a corpus page"),
            )
        })
        .collect();
    (!pages.is_empty()).then_some(pages)
}

#[test]
fn bench_pages_give_the_same_patches_with_compaction() {
    let Some(mut pages) = bench_pages() else {
        return;
    };
    // And all of them one after the other (the viewer's 2 MB page).
    let all = pages.iter().flat_map(|(_, b)| b.clone()).collect();
    pages.push(("all pages concatenated".to_owned(), all));
    for (name, bytes) in &pages {
        for (chunk, batching) in [(0, BatchPolicy::Bounded(64)), (4096, BatchPolicy::PerPump)] {
            let plain = batches(
                bytes,
                None,
                &config(false, chunk, batching, MirrorCompaction::Never),
            );
            for compaction in [MirrorCompaction::After(16), MirrorCompaction::After(4096)] {
                let compacted = batches(bytes, None, &config(false, chunk, batching, compaction));
                assert!(
                    plain == compacted,
                    "{name}, chunk {chunk}, {compaction:?}: the batches differ"
                );
            }
        }
    }
}
