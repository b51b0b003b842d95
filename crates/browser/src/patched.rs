//! tagloom's patch batches applied in the page: the versioned batches of a parse
//! (small, bounded) go through `tagloom view`'s own batch applier
//! (`crates/cli/src/commands/view/apply_batch.js`, `applyBatch(doc, batch)`) into
//! a fresh document, and the page's dump at chosen batches is compared with the
//! [`DomStore`]'s dump after the same batch.

use serde_json::Value;
use tagloom_html::decoder::{DecoderConfig, Encoding};
use tagloom_html::dom::{self, DomStore};
use tagloom_html::dom_patch::Namespace;
use tagloom_html::driver::{Driver, ParseConfig};
use tagloom_html::session::BatchPolicy;
use tagloom_html::tree_builder::FragmentContext;

use crate::compare::Case;
use crate::error::BrowserError;
use crate::page::Page;

/// The batch applier of `tagloom view` (one home: the viewer's file).
pub const APPLY_BATCH_JS: &str = include_str!("../../cli/src/commands/view/apply_batch.js");

/// The runner in the page: applies each item's batches to a fresh document and
/// dumps it after the batches listed in `at` (needs [`crate::compare::DUMP_JS`]).
const RUN_JS: &str = r#"
globalThis.__tagloomPatchRun = function (items) {
  return items.map(function (item) {
    const out = [];
    try {
      const doc = document.implementation.createHTMLDocument('');
      let next = 0;
      item.batches.forEach(function (batch, i) {
        applyBatch(doc, batch);
        while (next < item.at.length && item.at[next] === i) {
          if (item.root === null) {
            out.push(__tagloomDump(doc));
          } else {
            const root = TagloomViewer.nodeForKey(doc, item.root);
            out.push(root ? __tagloomDump(root) : '#error no fragment root');
          }
          next++;
        }
      });
    } catch (e) {
      out.push('#error ' + e);
    }
    return out;
  });
};
"#;

/// The most batch JSON sent in one `Runtime.evaluate`.
pub const JSON_BYTES_PER_ROUND_TRIP: usize = 8 << 20;

/// One parse streamed as versioned batches, with the store's dumps at checkpoints.
#[derive(Clone, Debug)]
pub struct Streamed {
    /// The batches, each as its one-line JSON.
    pub batches: Vec<String>,
    /// The 0-based batch indices after which the tree is dumped (ascending).
    pub at: Vec<usize>,
    /// The `DomStore`'s dump after each of those batches.
    pub store_dumps: Vec<String>,
    /// For a fragment, the key of its `html` root (whose children are dumped).
    pub root: Option<u64>,
    /// How many batches open with `Clear` (encoding restarts).
    pub clears: usize,
}

/// Parses `case` (scripting off, UTF-8, pushed `chunk` bytes at a time) into
/// the session's versioned batches of at most `batch_patches` patches, applies them to a [`DomStore`] and keeps its dumps after the batches
/// at a quarter, half and three quarters of the stream and after the last one.
pub fn stream(case: &Case, batch_patches: usize, chunk: usize) -> Result<Streamed, String> {
    stream_bytes(
        case.data.as_bytes(),
        case.context.clone(),
        Some(encoding_rs::UTF_8),
        batch_patches,
        chunk,
    )
}

/// [`stream`] over bytes: with `transport` `None` the encoding is sniffed, and a
/// late `<meta>` restarts the parse (a batch opening with `Clear`).
pub fn stream_bytes(
    bytes: &[u8],
    context: Option<(Namespace, String)>,
    transport: Option<&'static Encoding>,
    batch_patches: usize,
    chunk: usize,
) -> Result<Streamed, String> {
    let mut config = ParseConfig::default();
    config.session.decoder = DecoderConfig {
        transport,
        ..DecoderConfig::default()
    };
    config.session.tree.scripting = false;
    config.session.batching = BatchPolicy::Bounded(batch_patches.max(1));
    config.chunk_size = chunk.max(1);
    let mut driver = match &context {
        Some((ns, name)) => Driver::new_fragment(&config, FragmentContext::new(*ns, name.clone())),
        None => Driver::new(&config),
    };
    let mut batches = Vec::new();
    let mut collect = |patches| {
        batches.push(patches);
        Ok::<(), String>(())
    };
    driver
        .push(bytes, &mut collect)
        .and_then(|()| driver.finish(&mut collect))
        .map_err(|e| e.to_string())?;
    let root = driver.session().fragment_root_key();
    let n = batches.len();
    let mut at: Vec<usize> = [n / 4, n / 2, 3 * n / 4, n.saturating_sub(1)]
        .into_iter()
        .filter(|&i| i < n)
        .collect();
    at.dedup();
    let mut store = DomStore::new();
    let mut store_dumps = Vec::with_capacity(at.len());
    let mut json = Vec::with_capacity(n);
    let mut clears = 0;
    for (i, batch) in batches.into_iter().enumerate() {
        clears += usize::from(batch.starts_with_clear());
        store
            .apply(&batch)
            .map_err(|e| format!("batch {i} rejected by the store: {e}"))?;
        json.push(batch.json().to_string());
        if at.contains(&i) {
            store_dumps.push(match root {
                Some(root) => store
                    .get(root)
                    .map(dom::dump_children)
                    .ok_or_else(|| "no fragment root".to_owned())?,
                None => dom::dump_document(&store),
            });
        }
    }
    Ok(Streamed {
        batches: json,
        at,
        store_dumps,
        root: root.map(|k| k.get()),
        clears,
    })
}

/// Installs the batch applier and the runner in the page (after
/// [`crate::compare::install_dumper`]).
pub fn install_applier(page: &mut Page<'_>) -> Result<(), BrowserError> {
    page.evaluate(APPLY_BATCH_JS)?;
    page.evaluate(RUN_JS).map(|_| ())
}

/// The page's dumps of each streamed parse at its checkpoints (`#error …` as the
/// last dump where the applier threw), in as few round trips as
/// [`JSON_BYTES_PER_ROUND_TRIP`] allows.
pub fn page_dumps(
    page: &mut Page<'_>,
    items: &[Streamed],
) -> Result<Vec<Vec<String>>, BrowserError> {
    let mut out = Vec::with_capacity(items.len());
    let mut rest = items;
    while !rest.is_empty() {
        let mut take = 0;
        let mut bytes = 0;
        for item in rest {
            let size: usize = item.batches.iter().map(|b| b.len() + 1).sum();
            if take > 0 && bytes + size > JSON_BYTES_PER_ROUND_TRIP {
                break;
            }
            bytes += size;
            take += 1;
        }
        let (now, later) = rest.split_at(take);
        let mut expression = String::with_capacity(bytes + 64 * now.len() + 32);
        expression.push_str("__tagloomPatchRun([");
        for (i, item) in now.iter().enumerate() {
            if i > 0 {
                expression.push(',');
            }
            expression.push_str("{\"batches\":[");
            expression.push_str(&item.batches.join(","));
            expression.push_str("],\"at\":");
            expression.push_str(&Value::from(item.at.clone()).to_string());
            expression.push_str(",\"root\":");
            expression.push_str(&item.root.map_or("null".to_owned(), |r| r.to_string()));
            expression.push('}');
        }
        expression.push_str("])");
        let results = page.evaluate_list(&expression, "__tagloomPatchRun", now.len())?;
        for r in results {
            let dumps = match r {
                Value::Array(d) => d
                    .into_iter()
                    .map(|v| {
                        v.as_str()
                            .map_or_else(|| format!("#error {v}"), str::to_owned)
                    })
                    .collect(),
                other => vec![format!("#error {other}")],
            };
            out.push(dumps);
        }
        rest = later;
    }
    Ok(out)
}
