//! The owned-token seam against the borrowed path: over every document case of the
//! html5lib tree-construction suite, in each scripting mode, a tree builder fed
//! `Token::to_owned()` copies through `process_owned` emits exactly the patches of a
//! tree builder fed the borrowed tokens (the tokenizer is driven by the borrowed
//! one's state switches, which the owned one must ask for too).

mod support;

use support::tree_dat;
use tagloom_html::token::{OwnedTag, OwnedToken};
use tagloom_html::tokenizer::{Tokenizer, TokenizerConfig};
use tagloom_html::tree_builder::{TreeBuilder, TreeBuilderConfig, TreeBuilderError};

/// The first difference, if any.
fn compare(data: &str, scripting: bool) -> Option<String> {
    let config = TreeBuilderConfig {
        scripting,
        ..TreeBuilderConfig::default()
    };
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    let mut borrowed = TreeBuilder::new(config.clone());
    let mut owned = TreeBuilder::new(config);
    tok.push_str(data);
    tok.finish();
    while let Some(token) = tok.next_token().ok()? {
        let copy = token.to_owned();
        borrowed.process_token(token).ok()?;
        owned.process_owned(&copy).ok()?;
        let (a, b) = (borrowed.take_patches(), owned.take_patches());
        if a != b {
            return Some(format!("after {copy:?}: {a:?} != {b:?}"));
        }
        let state = borrowed.take_tokenizer_state();
        if state != owned.take_tokenizer_state() {
            return Some(format!("tokenizer state after {copy:?}"));
        }
        if let Some(state) = state {
            tok.set_state(state.into());
        }
        tok.set_cdata_allowed(borrowed.cdata_allowed());
    }
    None
}

#[test]
fn owned_tokens_build_the_same_tree() {
    let files = tree_dat::load_dir(tree_dat::DATA_DIR).expect("tree-construction data");
    let (mut runs, mut failures) = (0, Vec::new());
    for (path, tests) in files {
        let file = path.file_name().and_then(|f| f.to_str()).unwrap_or("?");
        for (index, test) in tests.iter().enumerate() {
            if test.fragment.is_some() {
                continue;
            }
            for &scripting in test.scripting.modes() {
                runs += 1;
                if let Some(f) = compare(&test.data, scripting) {
                    failures.push(format!("{file}:{index}: {f}"));
                }
            }
        }
    }
    println!("owned tokens: {runs} runs, {} differ", failures.len());
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn one_tree_builder_takes_one_kind_of_token() {
    let mut tok = Tokenizer::new(TokenizerConfig::default());
    tok.push_str("<p>");
    tok.finish();
    let mut tb = TreeBuilder::new(TreeBuilderConfig::default());
    let token = tok.next_token().unwrap().unwrap();
    tb.process_token(token).unwrap();
    let err = tb
        .process_owned(&OwnedToken::StartTag(OwnedTag::new("b")))
        .unwrap_err();
    assert_eq!(err, TreeBuilderError::MixedTokenSources);
}

#[test]
fn program_made_names_match_static_atoms() {
    // A custom element name and an attribute the tree builder reads (`type` on
    // `<input>` decides frameset-ok) go through the owned path's atom table.
    let mut tb = TreeBuilder::new(TreeBuilderConfig::default());
    for token in [
        OwnedToken::start("my-el"),
        OwnedToken::StartTag(OwnedTag::new("input").with_attr("type", "hidden")),
        OwnedToken::end("my-el"),
        OwnedToken::Eof,
    ] {
        tb.process_owned(&token).unwrap();
    }
    let mut store = tagloom_html::dom::DomStore::new();
    store.apply_patches(&tb.take_patches()).unwrap();
    let dump = tagloom_html::dom::dump_document(&store);
    assert!(
        dump.contains("|     <my-el>\n|       <input>\n|         type=\"hidden\""),
        "{dump}"
    );
}
