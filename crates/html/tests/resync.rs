//! The failure policy's reset batch (`DomStore::full_create_stream`) rebuilds exactly
//! the tree it was taken from, for every tree-construction input: applied to a
//! mirror that saw the same patches, it yields the same dump, with `Clear` first and
//! only fresh keys.

mod support;

use support::tree_dat;
use tagloom_html::decoder::DecoderConfig;
use tagloom_html::dom::{DomStore, dump_document};
use tagloom_html::driver::{ParseConfig, drive};
use tagloom_html::session::SessionConfig;

#[test]
fn full_create_stream_rebuilds_every_suite_tree() {
    let mut checked = 0;
    for (_, tests) in tree_dat::load_dir(tree_dat::DATA_DIR).unwrap() {
        for test in tests.iter().filter(|t| t.fragment.is_none()) {
            let config = SessionConfig {
                decoder: DecoderConfig::with_transport(encoding_rs::UTF_8),
                ..SessionConfig::default()
            };
            let config = ParseConfig {
                session: config,
                ..ParseConfig::default()
            };
            let (mut store, mut mirror) = (DomStore::new(), DomStore::new());
            drive(test.data.as_bytes(), &config, |batch| {
                store.apply(&batch)?;
                mirror.apply_owned(batch)
            })
            .unwrap();
            let high = store.last_key();
            let reset = store.full_create_stream();
            assert!(reset.starts_with_clear());
            mirror
                .apply(&reset)
                .unwrap_or_else(|e| panic!("{e} for {:?}", test.data));
            assert_eq!(
                dump_document(&mirror),
                dump_document(&store),
                "{:?}",
                test.data
            );
            assert!(mirror.last_key() > high);
            checked += 1;
        }
    }
    println!("full_create_stream: {checked} documents rebuilt identically");
    assert!(checked > 1500);
}
