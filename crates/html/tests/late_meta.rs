//! A `<meta charset>` that starts inside the decoder's restart window changes the
//! encoding however the input arrives: in one push of megabytes (the session holds
//! what lies past the window until the tree builder has caught up) or in small
//! pieces. One past the window never does.

use tagloom_html::dom::{DomStore, dump_document};
use tagloom_html::driver::{Driver, ParseConfig};

/// Parses `page` in pushes of `piece` bytes, pumping after each: the encoding's
/// name and the tree.
fn parse(page: &[u8], piece: usize) -> (&'static str, String) {
    let config = ParseConfig {
        chunk_size: piece,
        ..ParseConfig::default()
    };
    let mut driver = Driver::new(&config);
    let mut store = DomStore::new();
    let mut apply = |batch| store.apply_owned(batch);
    driver.push(page, &mut apply).unwrap();
    driver.finish(&mut apply).unwrap();
    let encoding = driver.session().decoder().encoding().unwrap().name();
    (encoding, dump_document(&store))
}

/// A page of `before` bytes of text, then the `<meta>`, a `\xB1` (ą in
/// ISO-8859-2, ± in windows-1252) and 2 MiB more text.
fn page(before: usize) -> Vec<u8> {
    let mut page = b"<p>".to_vec();
    page.resize(before, b'a');
    page.extend_from_slice(b"<meta charset=iso-8859-2><p>\xB1</p><p>");
    page.resize(page.len() + (2 << 20), b'b');
    page
}

#[test]
fn a_late_meta_in_the_window_counts_in_one_large_push() {
    let page = page(2000);
    let (whole, tree) = parse(&page, page.len());
    assert_eq!(whole, "ISO-8859-2");
    assert!(tree.contains("\"ą\""));
    for piece in [64 << 10, 8 << 10, 1000] {
        assert_eq!(
            parse(&page, piece),
            (whole, tree.clone()),
            "pieces of {piece}"
        );
    }
}

#[test]
fn a_meta_past_the_window_never_counts() {
    let page = page(1 << 20 | 4096);
    for piece in [page.len(), 64 << 10] {
        let (encoding, tree) = parse(&page, piece);
        assert_eq!(encoding, "windows-1252", "pieces of {piece}");
        assert!(tree.contains("\"±\""));
    }
}
