//! Tests of the tree builder's compaction: one per kind of node it must keep
//! (each fails when that kind is forgotten), compacting after every token and
//! comparing the patches, keys included, with a parse that never compacts.

use crate::dom_patch::{AttrNamespace, DomPatch, PatchKey};
use crate::tokenizer::{Tokenizer, TokenizerConfig};
use crate::tree_builder::mirror::Lookup;
use crate::tree_builder::{
    DomChange, MirrorCompaction, TreeBuilder, TreeBuilderConfig, TreeBuilderStep,
};

/// A parse of `html`, compacting after every token or never.
struct Run {
    patches: Vec<DomPatch>,
    /// The most nodes forgotten at once (made minus held).
    forgotten: u64,
}

fn run_with(html: &str, compact: bool, mut at_script: impl FnMut(&mut TreeBuilder)) -> Run {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    let mut tb = TreeBuilder::new(TreeBuilderConfig {
        suspend_at_script: true,
        ..TreeBuilderConfig::default()
    });
    tok.push_str(html);
    tok.finish();
    let mut forgotten = 0;
    while let Some(token) = tok.next_token().unwrap() {
        let step = tb.process_token(token).unwrap();
        if let Some(state) = tb.take_tokenizer_state() {
            tok.set_state(state.into());
        }
        tok.set_cdata_allowed(tb.cdata_allowed());
        if compact && !tb.is_finished() {
            tb.compact_mirror();
            // Keys start at 1.
            let made = tb.next_key() - 1;
            forgotten = forgotten.max(made - tb.mirror.len() as u64);
        }
        if step != TreeBuilderStep::Continue {
            at_script(&mut tb);
        }
    }
    Run {
        patches: tb.take_patches(),
        forgotten,
    }
}

/// Asserts that compacting after every token changes no patch, and that it
/// forgot nodes (so the case says something).
fn same_patches(html: &str) {
    let plain = run_with(html, false, |_| {});
    let compacted = run_with(html, true, |_| {});
    assert_eq!(plain.patches, compacted.patches, "{html}");
    assert!(compacted.forgotten > 0, "nothing was forgotten: {html}");
}

/// Closed nodes to forget (a closed subtree: its inner nodes go).
const FILLER: &str = "<div><span>s</span><em>e</em></div>";

#[test]
fn open_elements_and_their_ancestors_stay() {
    // The depth limit inserts into the current node's parent; the stack's nodes
    // are where everything goes.
    same_patches(&format!(
        "<div>{FILLER}<p>a<span>b{FILLER}c</span>d</p></div>"
    ));
}

#[test]
fn formatting_elements_in_the_list_stay_with_their_attributes() {
    // The closed `b` is reconstructed (cloned with its attributes) in the next p.
    same_patches(&format!("<p><b class=x>1</p>{FILLER}<p>2"));
}

#[test]
fn the_head_stays_for_after_head() {
    // In "after head", `<link>` reopens the head and goes into it.
    same_patches("<head><title>t</title></head><!--c--><link>");
}

#[test]
fn open_template_contents_stay_with_their_children() {
    same_patches(&format!("<template>{FILLER}x</span>y</template>"));
}

#[test]
fn children_of_open_elements_stay_for_text_coalescing() {
    // `</span>` adds no node: the compaction after it must keep `a`, the last
    // child, so that `b` is appended to it.
    same_patches(&format!("<div>{FILLER}a</span>b</div>"));
}

#[test]
fn children_of_the_furthest_block_stay_for_the_adoption_agency() {
    // `</a>`: every child of the div (closed ones too) is moved, one patch each.
    same_patches(&format!("<a><div>x<i>{FILLER}</i>y{FILLER}</a>z"));
}

#[test]
fn siblings_before_a_table_stay_for_foster_parenting() {
    // `x` is foster parented before the table and coalesces with `a`.
    same_patches(&format!("<div>{FILLER}a<table>x</table></div>"));
}

#[test]
fn an_open_options_subtree_stays_for_selectedcontent() {
    same_patches(&format!(
        "<select><button><selectedcontent></selectedcontent></button>\
         <option><b>x<i>y</i></b>{FILLER}z</option><option>o</option></select>"
    ));
}

#[test]
fn the_script_host_finds_held_keys_and_accepts_forgotten_ones() {
    let html = format!("<p id=p>{FILLER}</p><b id=b>{FILLER}<script>s</script>t");
    // Keys: document 1, html 2, head 3, body 4, p 5, its div 6 (closed, in a
    // closed p: forgotten when compacted).
    let key = |k| PatchKey(std::num::NonZeroU64::new(k).unwrap());
    let change = |element| DomChange::Attribute {
        element,
        ns: AttrNamespace::None,
        name: "id",
        value: Some("q"),
    };
    let mut seen = Vec::new();
    for compact in [false, true] {
        let out = run_with(&html, compact, |tb| {
            let held = matches!(tb.mirror.lookup(key(6)), Lookup::Held(_));
            let beyond = key(tb.next_key());
            seen.push((
                tb.last_script_key(),
                held,
                tb.dom_changed(change(key(6))),
                tb.dom_changed(change(beyond)),
            ));
        });
        assert_eq!(compact, out.forgotten > 0);
    }
    let [plain, compacted] = seen.as_slice() else {
        panic!("one suspension each: {seen:?}");
    };
    assert!(plain.0.is_some());
    assert_eq!(plain.0, compacted.0, "the script's key");
    assert!(
        plain.1 && !compacted.1,
        "the div is forgotten when compacted"
    );
    assert!(
        plain.2 && compacted.2,
        "a change to this parse's element is accepted"
    );
    assert!(
        !plain.3 && !compacted.3,
        "a key beyond the parse's is unknown"
    );
}

#[test]
fn compaction_is_due_after_the_threshold_and_at_twice_the_kept_nodes_or_every_token() {
    assert_eq!(MirrorCompaction::Never.due_at(0), usize::MAX);
    assert_eq!(MirrorCompaction::After(0).due_at(0), 1);
    assert_eq!(MirrorCompaction::After(0).due_at(100), 101);
    assert_eq!(MirrorCompaction::After(1).due_at(100), 200);
    assert_eq!(MirrorCompaction::After(16).due_at(0), 16);
    assert_eq!(MirrorCompaction::After(16).due_at(10), 26);
    assert_eq!(MirrorCompaction::After(16).due_at(100), 200);
}

#[test]
fn a_session_compacts_at_the_end_of_its_pumps_and_changes_no_patch() {
    use crate::session::{BatchPolicy, Html5ParseSession, PumpStatus, SessionConfig};
    let html = format!("<main>{}</main>", FILLER.repeat(200));
    let parse = |mirror_compaction| {
        let mut config = SessionConfig {
            decoder: crate::decoder::DecoderConfig::with_transport(encoding_rs::UTF_8),
            batching: BatchPolicy::Bounded(16),
            ..SessionConfig::default()
        };
        config.tree.mirror_compaction = mirror_compaction;
        let mut session = Html5ParseSession::new(config);
        session.push_bytes(html.as_bytes()).unwrap();
        session.finish().unwrap();
        let (mut patches, mut held) = (Vec::new(), 0);
        loop {
            let status = session.pump().unwrap();
            held = held.max(session.tree_builder().mirror.len());
            for batch in session.take_batches() {
                patches.extend(batch.patches);
            }
            if status == PumpStatus::Finished {
                break;
            }
        }
        (patches, held)
    };
    let (plain, held_plain) = parse(MirrorCompaction::Never);
    let (compacted, held_compacted) = parse(MirrorCompaction::After(16));
    assert_eq!(plain, compacted);
    assert!(held_plain > 900, "{held_plain}");
    assert!(held_compacted < 60, "{held_compacted}");
}
