//! Shared by the render tests: render options whose wiki holds the given pages
//! (`(title, wikitext)`, titles as written, namespace prefix included).

use std::sync::Arc;

use tagloom_wikitext::RenderOptions;
use tagloom_wikitext::preprocess::{MemoryStore, PageStore, Site, Title};

/// Default options with a page store holding `pages`.
pub fn pages_options(pages: &[(&str, &str)]) -> RenderOptions {
    let site = Site::default();
    let mut store = MemoryStore::default();
    for (title, text) in pages {
        store.insert(Title::parse(title, 0, &site).expect("title"), *text);
    }
    RenderOptions {
        store: Some(Arc::new(store) as Arc<dyn PageStore>),
        ..RenderOptions::default()
    }
}
