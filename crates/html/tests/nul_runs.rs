//! Runs of NUL through the whole parse: the characters between the NULs of one
//! token land in one text node, inserted with one patch (not one per NUL), and
//! every NUL is still counted as a parse error.

use tagloom_html::decoder::DecoderConfig;
use tagloom_html::dom::{self, DomStore};
use tagloom_html::dom_patch::DomPatch;
use tagloom_html::driver::{ParseConfig, drive};
use tagloom_html::session::SessionConfig;

#[test]
fn nul_separated_text_in_body_is_one_insertion() {
    const N: usize = 100_000;
    let input = format!("<b>{}", "\0\n".repeat(N));
    let config = ParseConfig {
        session: SessionConfig {
            decoder: DecoderConfig::with_transport(encoding_rs::UTF_8),
            ..SessionConfig::default()
        },
        ..ParseConfig::default()
    };
    let mut patches: Vec<DomPatch> = Vec::new();
    let session = drive(input.as_bytes(), &config, |batch| {
        patches.extend(batch);
        Ok::<_, std::convert::Infallible>(())
    })
    .unwrap();
    let text_patches = patches
        .iter()
        .filter(|p| matches!(p, DomPatch::CreateText { .. } | DomPatch::AppendText { .. }))
        .count();
    assert_eq!(text_patches, 1);
    let mut store = DomStore::new();
    store.apply_patches(&patches).unwrap();
    let dump = dom::dump_document(&store);
    let expected_text = format!("|       \"{}\"\n", "\n".repeat(N));
    assert!(dump.ends_with(&expected_text), "{}", &dump[..200]);
    // One tokenizer error per NUL (kept up to the bound, the rest counted), one
    // tree-builder error per NUL.
    let tokenizer = session.tokenizer();
    assert_eq!(tokenizer.errors().len() + tokenizer.errors_dropped(), N);
    assert!(session.tree_builder().error_count() >= N);
}
