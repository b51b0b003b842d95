//! `tagloom.wikitext`: `render` (no page store) and `Wiki` (a page store built
//! once from a mapping of titles to wikitext, for templates and `#ifexist`).

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyMapping;
use tagloom_wikitext::preprocess::{MemoryStore, PageStore, Title};
use tagloom_wikitext::{RenderOptions, render};

use super::errors::WikitextError;

/// Renders with `options` for page `title`, the GIL released.
fn render_with(
    py: Python<'_>,
    options: &RenderOptions,
    wikitext: &str,
    title: &str,
) -> PyResult<String> {
    let options = RenderOptions {
        title: title.to_owned(),
        ..options.clone()
    };
    py.detach(|| render(wikitext, &options))
        .map_err(|e| WikitextError::new_err(e.to_string()))
}

/// A page's wikitext to the HTML of its `<body>` (Parsoid-style), without
/// templates (no page store).
#[pyfunction]
#[pyo3(signature = (wikitext, *, title="Main Page"))]
pub(crate) fn wikitext_render(py: Python<'_>, wikitext: &str, title: &str) -> PyResult<String> {
    render_with(py, &RenderOptions::default(), wikitext, title)
}

/// A wiki: the pages templates and parser functions may read (`{"Template:Infobox":
/// "…", …}`, titles as written, namespace prefix included), kept in Rust and shared
/// by every `render` call on it.
#[pyclass(module = "tagloom._tagloom", frozen)]
pub(crate) struct Wiki {
    options: RenderOptions,
    pages: usize,
}

#[pymethods]
impl Wiki {
    #[new]
    fn new(pages: &Bound<'_, PyMapping>) -> PyResult<Wiki> {
        let options = RenderOptions::default();
        let site = &options.preprocess.site;
        let mut store = MemoryStore::default();
        for item in pages.items()?.iter() {
            let (title, text): (String, String) = item.extract()?;
            let title = Title::parse(&title, 0, site)
                .map_err(|e| WikitextError::new_err(format!("bad page title {title:?}: {e}")))?;
            store.insert(title, text);
        }
        let count = store.len();
        Ok(Wiki {
            options: RenderOptions {
                store: Some(Arc::new(store) as Arc<dyn PageStore>),
                ..options
            },
            pages: count,
        })
    }

    /// A page's wikitext to the HTML of its `<body>`, templates expanded from this
    /// wiki's pages.
    #[pyo3(signature = (wikitext, *, title="Main Page"))]
    fn render(&self, py: Python<'_>, wikitext: &str, title: &str) -> PyResult<String> {
        render_with(py, &self.options, wikitext, title)
    }

    /// How many pages the wiki holds.
    fn __len__(&self) -> usize {
        self.pages
    }

    fn __repr__(&self) -> String {
        format!("<tagloom.wikitext.Wiki, {} pages>", self.pages)
    }
}
