//! Processing instructions (July 2026 spec, Part A: A.2 tokenizer states, A.3
//! "insert a processing instruction", A.4 PI tokens in every insertion mode, A.8
//! serialization) behind `TokenizerConfig::processing_instructions`: tree
//! construction, the html5lib dump, the serializer, and patch parity (chunked
//! parses, the JSON lines, the resync stream).

use tagloom_html::decoder::DecoderConfig;
use tagloom_html::dom::{DomStore, NodeKind, dump_document};
use tagloom_html::dom_patch::DomPatch;
use tagloom_html::driver::{ParseConfig, drive};
use tagloom_html::serializer::{FragmentOptions, children_to_string};
use tagloom_html::session::SessionConfig;
use tagloom_html::tokenizer::TokenizerConfig;

fn config(pis: bool) -> SessionConfig {
    SessionConfig {
        decoder: DecoderConfig::with_transport(encoding_rs::UTF_8),
        tokenizer: TokenizerConfig {
            processing_instructions: pis,
            ..TokenizerConfig::default()
        },
        ..SessionConfig::default()
    }
}

/// Parses `input` in `chunk`-byte pieces: the store and every patch.
fn parse(input: &str, chunk: usize, pis: bool) -> (DomStore, Vec<DomPatch>) {
    let config = ParseConfig {
        session: config(pis),
        chunk_size: chunk,
    };
    let mut store = DomStore::new();
    let mut patches = Vec::new();
    drive(input.as_bytes(), &config, |batch| {
        store.apply(&batch)?;
        patches.extend(batch);
        Ok::<_, tagloom_html::dom::PatchError>(())
    })
    .unwrap();
    (store, patches)
}

/// The dump with processing instructions on; the same whole and in 1- and
/// 3-byte chunks, with the same patches.
fn dump(input: &str) -> String {
    let (store, patches) = parse(input, usize::MAX, true);
    for chunk in [1, 3] {
        let (chunked, chunked_patches) = parse(input, chunk, true);
        assert_eq!(dump_document(&chunked), dump_document(&store), "{input:?}");
        assert_eq!(chunked_patches, patches, "{input:?} in {chunk}-byte chunks");
    }
    dump_document(&store)
}

#[test]
fn the_issue_reproducer() {
    // Issue 8: `<?php x?>` is a ProcessingInstruction node (Chromium 156, the
    // 2026 spec), not a bogus comment, when enabled.
    assert_eq!(
        dump("<?php x?>"),
        "| <?php x>\n| <html>\n|   <head>\n|   <body>\n"
    );
}

#[test]
fn in_every_kind_of_place() {
    // initial / before html / after after body: children of the document.
    assert_eq!(
        dump("<?a 1?><!DOCTYPE html><?b 2?><html><p>x</html><?c 3?>"),
        "| <?a 1>\n| <!DOCTYPE html>\n| <?b 2>\n| <html>\n|   <head>\n|   <body>\n|     <p>\n|       \"x\"\n| <?c 3>\n"
    );
    // before head, in head, after head, in body.
    assert_eq!(
        dump("<html><?a?><head><?b?></head><?c?><body><?d x y?>"),
        "| <html>\n|   <?a >\n|   <head>\n|     <?b >\n|   <?c >\n|   <body>\n|     <?d x y>\n"
    );
    // after body: the last child of `html`.
    assert_eq!(
        dump("<body></body><?e?>"),
        "| <html>\n|   <head>\n|   <body>\n|   <?e >\n"
    );
}

#[test]
fn in_tables_templates_frameset_and_foreign_content() {
    // In table (not foster parented, like a comment), in table text (flushes the
    // pending text), in a cell.
    assert_eq!(
        dump("<table><?t?> <?u?><tr><td><?v?>"),
        "| <html>\n|   <head>\n|   <body>\n|     <table>\n|       <?t >\n|       \" \"\n|       <?u >\n|       <tbody>\n|         <tr>\n|           <td>\n|             <?v >\n"
    );
    // In template, in column group.
    assert_eq!(
        dump("<template><?w?><col><?x?></template>"),
        "| <html>\n|   <head>\n|     <template>\n|       content\n|         <?w >\n|         <col>\n|         <?x >\n|   <body>\n"
    );
    // In frameset and after frameset.
    assert_eq!(
        dump("<frameset><?f?></frameset><?g?>"),
        "| <html>\n|   <head>\n|   <frameset>\n|     <?f >\n|   <?g >\n"
    );
    // Foreign content (A.7).
    assert_eq!(
        dump("<svg><g><?s d?></g></svg>"),
        "| <html>\n|   <head>\n|   <body>\n|     <svg svg>\n|       <svg g>\n|         <?s d>\n"
    );
}

#[test]
fn xml_declarations_stay_comments_and_the_default_is_unchanged() {
    assert_eq!(
        dump("<?xml version=\"1.0\"?><p>"),
        "| <!-- ?xml version=\"1.0\"? -->\n| <html>\n|   <head>\n|   <body>\n|     <p>\n"
    );
    // Off (the default): a bogus comment, as html5lib-tests expect.
    let (store, _) = parse("<?php x?>", usize::MAX, false);
    assert_eq!(
        dump_document(&store),
        "| <!-- ?php x? -->\n| <html>\n|   <head>\n|   <body>\n"
    );
}

#[test]
fn serialized_with_a_question_mark_before_the_end() {
    let (store, _) = parse("<p>a<?php echo 1?>b<?x?></p>", usize::MAX, true);
    let body = store
        .document()
        .and_then(|d| d.children().next())
        .and_then(|html| html.children().nth(1))
        .unwrap();
    assert_eq!(
        children_to_string(body, FragmentOptions::default()),
        "<p>a<?php echo 1?>b<?x ?></p>"
    );
}

#[test]
fn patches_json_and_resync() {
    let (store, patches) = parse("<p><?php echo \"1\"?>", usize::MAX, true);
    let pi = patches
        .iter()
        .find(|p| matches!(p, DomPatch::CreateProcessingInstruction { .. }))
        .unwrap();
    let line = pi.json().to_string();
    assert!(
        line.starts_with(r#"{"op":"CreateProcessingInstruction","key":"#)
            && line.ends_with(r#","target":"php","data":"echo \"1\""}"#),
        "{line}"
    );
    // The node, through the public view.
    let found = (1..=store.last_key().map_or(0, |k| k.get()))
        .filter_map(|k| tagloom_html::dom_patch::PatchKey::new(k).and_then(|k| store.get(k)))
        .find_map(|n| match n.kind() {
            NodeKind::ProcessingInstruction(pi) => Some((pi.target(), pi.data())),
            _ => None,
        });
    assert_eq!(found, Some(("php", "echo \"1\"")));
    // The reset stream rebuilds it.
    let mut mirror = DomStore::new();
    mirror.apply_patches(&patches).unwrap();
    mirror.apply(&store.full_create_stream()).unwrap();
    assert_eq!(dump_document(&mirror), dump_document(&store));
}

#[test]
fn a_processing_instruction_cannot_have_children() {
    let (mut store, patches) = parse("<?a?>", usize::MAX, true);
    let pi = patches
        .iter()
        .find_map(|p| match p {
            DomPatch::CreateProcessingInstruction { key, .. } => Some(*key),
            _ => None,
        })
        .unwrap();
    let next = tagloom_html::dom_patch::PatchKey::new(store.last_key().unwrap().get() + 1).unwrap();
    let bad = [
        DomPatch::CreateText {
            key: next,
            text: "x".into(),
        },
        DomPatch::AppendChild {
            parent: pi,
            child: next,
        },
    ];
    assert!(store.apply_patches(&bad).is_err());
}
