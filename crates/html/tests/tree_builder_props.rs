//! Property tests of the parse session on tag soup: no panic, every batch is
//! accepted by `DomStore`, the tree does not depend on chunk boundaries or
//! the batching policy, the patches do not depend on the tree builder's
//! mirror compaction, and the driver's store path (the tree builder writing into
//! the store directly) builds the store the patches build, key for key.

use proptest::prelude::*;
use tagloom_html::decoder::DecoderConfig;
use tagloom_html::dom::{self, DomStore, NodeRef};
use tagloom_html::dom_patch::DomPatch;
use tagloom_html::driver::{ParseConfig, drive, parse_document};
use tagloom_html::session::{BatchPolicy, SessionConfig};
use tagloom_html::tree_builder::MirrorCompaction;

fn parse(input: &str, chunk: usize, scripting: bool, batching: BatchPolicy) -> String {
    let mut config = SessionConfig {
        decoder: DecoderConfig::with_transport(encoding_rs::UTF_8),
        batching,
        ..SessionConfig::default()
    };
    config.tree.scripting = scripting;
    config.tree.max_depth = 64;
    let config = ParseConfig {
        session: config,
        chunk_size: chunk,
    };
    dom::dump_document(&parse_document(input.as_bytes(), &config).unwrap())
}

/// The patches of a parse in `chunk`-byte pieces, with a low depth limit (so
/// that its rule, inserting into the current node's parent, runs too).
fn patches(
    input: &str,
    chunk: usize,
    scripting: bool,
    compaction: MirrorCompaction,
) -> Vec<DomPatch> {
    let mut config = SessionConfig {
        decoder: DecoderConfig::with_transport(encoding_rs::UTF_8),
        // A pump, and so a compaction check, after every token with a patch.
        batching: BatchPolicy::Bounded(1),
        ..SessionConfig::default()
    };
    config.tree.scripting = scripting;
    config.tree.max_depth = 8;
    config.tree.mirror_compaction = compaction;
    let config = ParseConfig {
        session: config,
        chunk_size: chunk,
    };
    let mut out = Vec::new();
    drive(input.as_bytes(), &config, |batch| {
        out.extend(batch.patches);
        Ok::<_, std::convert::Infallible>(())
    })
    .unwrap();
    out
}

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

/// The dump, quirks mode and keys of a store.
fn shape(store: &DomStore) -> (String, String, Vec<u64>) {
    let mut out = Vec::new();
    if let Some(document) = store.document() {
        keys(document, &mut out);
    }
    let quirks = format!("{:?}", store.quirks_mode());
    (dom::dump_document(store), quirks, out)
}

/// The store of a parse in `chunk`-byte pieces through the store path
/// (`direct`: `parse_document`) or through patch batches applied one by one.
fn store(
    input: &str,
    chunk: usize,
    scripting: bool,
    compaction: MirrorCompaction,
    direct: bool,
) -> DomStore {
    let mut config = SessionConfig {
        decoder: DecoderConfig::with_transport(encoding_rs::UTF_8),
        batching: BatchPolicy::Bounded(2),
        ..SessionConfig::default()
    };
    config.tree.scripting = scripting;
    config.tree.max_depth = 8;
    config.tree.mirror_compaction = compaction;
    let config = ParseConfig {
        session: config,
        chunk_size: chunk,
    };
    if direct {
        return parse_document(input.as_bytes(), &config).unwrap();
    }
    let mut store = DomStore::new();
    drive(input.as_bytes(), &config, |batch| store.apply(&batch)).unwrap();
    store
}

/// Pieces of markup that exercise most insertion modes.
fn soup() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "<table>",
        "</table>",
        "<tr>",
        "<td>",
        "</td>",
        "<th>",
        "<caption>",
        "<colgroup>",
        "<col>",
        "<tbody>",
        "</tr>",
        "<b>",
        "</b>",
        "<i>",
        "</i>",
        "<a href=x>",
        "</a>",
        "<p>",
        "</p>",
        "<div>",
        "</div>",
        "<svg>",
        "</svg>",
        "<math>",
        "<mi>",
        "<foreignObject>",
        "<desc>",
        "<template>",
        "</template>",
        "<select>",
        "<option>",
        "<optgroup>",
        "<selectedcontent>",
        "<button>",
        "<script>",
        "</script>",
        "<title>",
        "</title>",
        "<textarea>",
        "<pre>",
        "\n",
        "<frameset>",
        "<frame>",
        "<noscript>",
        "</noscript>",
        "<head>",
        "<body>",
        "</body>",
        "</html>",
        "<html lang=en>",
        "<!--c-->",
        "<!DOCTYPE html>",
        "x",
        " ",
        "\0",
        "é",
        "<nobr>",
        "<li>",
        "<dd>",
        "<form>",
        "</form>",
        "<input>",
        "<hr>",
        "<plaintext>",
        "<![CDATA[c]]>",
        "<br>",
        "</br>",
        "<image>",
        "<font color=red>",
    ]);
    prop::collection::vec(pieces, 0..40).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn chunking_and_batching_do_not_change_the_tree(
        input in soup(),
        chunk in 1usize..9,
        scripting in any::<bool>(),
    ) {
        let whole = parse(&input, usize::MAX, scripting, BatchPolicy::PerPump);
        let chunked = parse(&input, chunk, scripting, BatchPolicy::MaxPatches(3));
        prop_assert_eq!(whole, chunked);
    }

    #[test]
    fn mirror_compaction_does_not_change_the_patches(
        input in soup(),
        chunk in 1usize..9,
        scripting in any::<bool>(),
    ) {
        let plain = patches(&input, chunk, scripting, MirrorCompaction::Never);
        let compacted = patches(&input, chunk, scripting, MirrorCompaction::After(0));
        prop_assert_eq!(plain, compacted);
    }

    #[test]
    fn the_store_path_builds_the_store_the_patches_build(
        input in soup(),
        chunk in 1usize..9,
        scripting in any::<bool>(),
        compact in any::<bool>(),
    ) {
        let compaction = if compact { MirrorCompaction::After(0) } else { MirrorCompaction::Never };
        let patched = store(&input, chunk, scripting, MirrorCompaction::Never, false);
        let direct = store(&input, chunk, scripting, compaction, true);
        prop_assert_eq!(shape(&patched), shape(&direct));
        prop_assert_eq!(patched.last_key(), direct.last_key());
    }
}
