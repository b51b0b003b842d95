//! Asynchronous page sources (an HTTP fetcher, a database) and [`prefetch`].
//!
//! The expander itself is synchronous. A page whose templates come from an
//! asynchronous source is expanded in two steps, as Parsoid's async phase does
//! for template fetches: [`prefetch`] reads the page's template calls, fetches all
//! the templates of one nesting level concurrently, reads their calls in turn, and
//! so on (at most [`Limits::max_depth`](crate::preprocess::Limits::max_depth)
//! levels); the resulting [`MemoryStore`] then serves the expansion. Template names
//! computed during expansion (`{{ {{{1}}} }}`, `{{#if:…|{{A}}|{{B}}}}` picks) are
//! fetched when they are written literally somewhere in the page or a template;
//! a name that is only computed is missing (a red link).

use foldhash::HashSet;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

use super::{MemoryStore, StoreError};
use crate::preprocess::config::Config;
use crate::preprocess::parse::{Mode, ParseOptions, parse_with};
use crate::preprocess::title::{NS_TEMPLATE, Title};
use crate::preprocess::tree::Node;

/// What [`AsyncPageSource::fetch`] returns: the page's wikitext, or `None`.
pub type SourceFuture<'a> = Pin<Box<dyn Future<Output = Result<Option<String>, StoreError>> + 'a>>;

/// A source that answers asynchronously.
pub trait AsyncPageSource {
    /// Fetches one page.
    fn fetch<'a>(&'a self, title: &'a Title) -> SourceFuture<'a>;
}

/// Gathers the templates `page` needs from `source` into a store.
///
/// ```
/// use tagloom_wikitext::preprocess::{
///     prefetch, AsyncPageSource, Config, PageStore, SourceFuture, Site, Title,
/// };
/// use tagloom_transform::pipeline::block_on;
///
/// struct Fake;
/// impl AsyncPageSource for Fake {
///     fn fetch<'a>(&'a self, t: &'a Title) -> SourceFuture<'a> {
///         let text = (t.text() == "A").then(|| "{{B}}".to_owned());
///         Box::pin(async move { Ok(text) })
///     }
/// }
/// let store = block_on(prefetch(&Fake, "{{A}}", &Config::default()))?;
/// assert!(store.exists(&Title::parse("Template:A", 0, &Site::default())?));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub async fn prefetch(
    source: &dyn AsyncPageSource,
    page: &str,
    config: &Config,
) -> Result<MemoryStore, StoreError> {
    let mut store = MemoryStore::default();
    let mut seen = HashSet::default();
    let options = ParseOptions {
        mode: Mode::Page,
        ext_tags: config.ext_tags.clone(),
        max_nesting: config.limits.max_nesting,
    };
    let mut wanted = Vec::new();
    collect(
        &parse_with(page, &options).nodes,
        page,
        config,
        &mut seen,
        &mut wanted,
    );
    let options = ParseOptions {
        mode: Mode::Transclusion,
        ..options
    };
    let mut fetched = 0;
    for _ in 0..config.limits.max_depth {
        if wanted.is_empty() || fetched >= config.limits.max_transclusions {
            break;
        }
        fetched += wanted.len();
        let results = JoinAll::new(wanted.iter().map(|t| source.fetch(t)).collect()).await;
        let mut next = Vec::new();
        for (title, result) in wanted.into_iter().zip(results) {
            if let Some(text) = result? {
                // A redirect's target is needed too.
                if let Some(target) = crate::preprocess::expand::redirect_target(&text)
                    && let Ok(t) =
                        Title::parse(target, crate::preprocess::title::NS_MAIN, &config.site)
                    && seen.insert(t.clone())
                {
                    next.push(t);
                }
                collect(
                    &parse_with(&text, &options).nodes,
                    &text,
                    config,
                    &mut seen,
                    &mut next,
                );
                store.insert(title, text);
            }
        }
        wanted = next;
    }
    Ok(store)
}

/// Adds the literal template titles called in `nodes` to `out` (once each).
fn collect(
    nodes: &[Node],
    src: &str,
    config: &Config,
    seen: &mut HashSet<Title>,
    out: &mut Vec<Title>,
) {
    for node in nodes {
        let (Node::Template(b) | Node::Argument(b)) = node else {
            continue;
        };
        if matches!(node, Node::Template(_))
            && b.title
                .nodes
                .iter()
                .all(|n| matches!(n, Node::Text(_) | Node::Comment(_)))
        {
            let raw: String = b
                .title
                .nodes
                .iter()
                .filter_map(|n| match n {
                    Node::Text(s) => src.get(s.clone()),
                    _ => None,
                })
                .collect();
            let raw = raw.trim();
            let is_call = raw.starts_with('#')
                || raw
                    .split_once(':')
                    .is_some_and(|(f, _)| crate::preprocess::functions::is_function(f.trim()));
            if !is_call
                && let Ok(t) = Title::parse(raw, NS_TEMPLATE, &config.site)
                && seen.insert(t.clone())
            {
                out.push(t);
            }
        }
        collect(&b.title.nodes, src, config, seen, out);
        for p in &b.parts {
            collect(&p.nodes, src, config, seen, out);
        }
    }
}

/// Polls every future until all are done; results in input order.
struct JoinAll<'a, T> {
    futures: Vec<Option<Pin<Box<dyn Future<Output = T> + 'a>>>>,
    results: Vec<Option<T>>,
}

impl<'a, T> JoinAll<'a, T> {
    fn new(futures: Vec<Pin<Box<dyn Future<Output = T> + 'a>>>) -> Self {
        let results = futures.iter().map(|_| None).collect();
        JoinAll {
            futures: futures.into_iter().map(Some).collect(),
            results,
        }
    }
}

impl<T> Future for JoinAll<'_, T> {
    type Output = Vec<T>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Vec<T>> {
        let this = self.get_mut();
        let mut pending = false;
        for (slot, result) in this.futures.iter_mut().zip(this.results.iter_mut()) {
            if let Some(f) = slot {
                match f.as_mut().poll(cx) {
                    Poll::Ready(v) => {
                        *result = Some(v);
                        *slot = None;
                    }
                    Poll::Pending => pending = true,
                }
            }
        }
        if pending {
            Poll::Pending
        } else {
            Poll::Ready(this.results.iter_mut().filter_map(Option::take).collect())
        }
    }
}

impl<T> Unpin for JoinAll<'_, T> {}
