//! `{{REVISIONID}}` shows the configured revision id, nothing without one.

use tagloom_wikitext::{RenderOptions, render};

#[test]
fn revision_id_is_configurable() {
    let mut options = RenderOptions::default();
    let none = render("{{REVISIONID}}x", &options).expect("render");
    assert!(none.contains(">x") || none.contains("x</p>"), "{none}");
    assert!(!none.contains("42"), "{none}");
    options.preprocess.revision_id = Some(42);
    let some = render("{{REVISIONID}}x", &options).expect("render");
    assert!(some.contains("42"), "{some}");
}
