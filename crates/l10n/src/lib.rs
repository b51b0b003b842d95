//! # tagloom-l10n
//!
//! Localization of HTML documents over the tagloom tokenizer, following the skeleton
//! store design: one pass reads the document (no DOM), writes everything that is not
//! translatable to a [skeleton store](skeleton) and hands out [blocks](block) of text
//! and inline codes; the [writer] replays the skeleton and puts translations in.
//!
//! An untranslated round trip is byte-identical, whatever the encoding; memory per
//! document is bounded whatever its size.
//!
//! Most callers want [`flow`]: `extract`, `merge` and `pseudo`, each on a file or a
//! directory (`tagloom l10n …` is a thin layer over it). When the page changes,
//! [`update::update`] re-extracts it and carries the old file's translations over
//! (unchanged units keep theirs, near matches become fuzzy suggestions); unit ids
//! survive edits elsewhere on the page ([`ids`]); [`count`] counts words. With
//! `"segment": "sentences"` in the [`Rules`] (`--segment sentences`), [`segment`]
//! cuts each unit into sentences: XLIFF `<segment>`s, one PO entry per sentence.
//!
//! # The update workflow
//!
//! extract → translate → the site changes → update → translate what is new →
//! merge. With the CLI (see the crate's README for the printed reports):
//!
//! ```sh
//! tagloom l10n extract site/index.html --source en --target fr -o index.fr.xlf
//! # … a translator fills in the <target>s of index.fr.xlf …
//! tagloom l10n merge site/index.html index.fr.xlf -o site-fr/index.html
//! # … the site changes: paragraphs inserted, edited, moved …
//! tagloom l10n update site/index.html index.fr.xlf -o index.fr.new.xlf
//! #   3 unchanged (… translations carried over), 1 fuzzy, 1 new, 0 removed
//! # … the translator handles the fuzzy and new units …
//! tagloom l10n merge site/index.html index.fr.new.xlf -o site-fr/index.html
//! ```
//!
//! The same from Rust:
//!
//! ```no_run
//! use std::path::Path;
//! use tagloom_l10n::flow::{self, ExtractOptions, MergeOptions};
//! use tagloom_l10n::update::{self, UpdateOptions};
//!
//! let page = Path::new("site/index.html");
//! // 1. Extract.
//! flow::extract(page, Path::new("index.fr.xlf"), &ExtractOptions::new("en", Some("fr"))?)?;
//! // 2. … a translator fills in index.fr.xlf …
//! // 3. Merge.
//! flow::merge(page, Path::new("index.fr.xlf"), Path::new("site-fr/index.html"),
//!             &MergeOptions::default())?;
//! // 4. The page changed: a new file with the unchanged translations carried over,
//! //    near matches as fuzzy suggestions (never merged until confirmed).
//! let report = update::update(page, Path::new("index.fr.xlf"), Path::new("index.fr.new.xlf"),
//!                             &UpdateOptions::default())?;
//! let total = report.total();
//! println!("{} carried over, {} fuzzy, {} new", total.carried, total.fuzzy.units, total.new.units);
//! // 5. … the fuzzy and new units translated … then merge again.
//! let merged = flow::merge(page, Path::new("index.fr.new.xlf"),
//!                          Path::new("site-fr/index.html"), &MergeOptions::default())?;
//! for (file, issue) in merged.issues() {
//!     eprintln!("{}: not applied: {issue}", file.display());
//! }
//! # Ok::<(), tagloom_l10n::L10nError>(())
//! ```
//!
//! # Layout
//!
//! [`reader`] (tokens → skeleton entries and [`Block`]s, [`reader::ReadOptions`]),
//! [`skeleton`], [`writer`] (replay, with the re-parse and block-only fallbacks),
//! [`flow`] (the one wiring point and the entry points), [`xliff`] and [`po`]
//! (interchange files: writers, and [`writer::Translations`] importers, which share
//! `import.rs`: lookup by id, then by source, the unconfirmed policy), [`update`],
//! [`count`], [`matching`], [`ids`], [`lang`], [`rules`], [`pseudo`], [`output`].
//! Escaping, encoding sniffing, BOMs and the tree builder's nesting are
//! `tagloom-html`'s ([`tagloom_html::serializer::write_escaped`],
//! [`tagloom_html::sniff`], [`tagloom_html::text_type`]).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod block;
pub mod count;
pub mod error;
pub mod flow;
pub mod ids;
mod import;
pub mod lang;
pub mod matching;
pub mod output;
pub mod po;
pub mod pseudo;
mod queue;
pub mod reader;
pub mod rules;
pub mod segment;
pub mod skeleton;
pub mod update;
pub mod writer;
pub mod xliff;

pub use block::{Block, BlockKind, Run};

/// Hash maps and sets keyed by names and digests from the page: foldhash (fast,
/// seeded per process) instead of SipHash, one choice for the crate.
pub(crate) type FastMap<K, V> = std::collections::HashMap<K, V, foldhash::fast::RandomState>;
/// See [`FastMap`].
pub(crate) type FastSet<T> = std::collections::HashSet<T, foldhash::fast::RandomState>;
pub use error::{L10nError, Result};
pub use lang::LanguageTag;
pub use rules::{IdScheme, Rules};
pub use skeleton::SkeletonStore;
