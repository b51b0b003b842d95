//! Property tests of the parse session on tag soup: no panic, every batch is
//! accepted by `DomStore`, the tree does not depend on chunk boundaries or
//! the batching policy, and the patches do not depend on the tree builder's
//! mirror compaction.

use proptest::prelude::*;
use tagloom_html::decoder::DecoderConfig;
use tagloom_html::dom;
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
}
