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
//! ```no_run
//! use std::path::Path;
//! use tagloom_l10n::flow::{self, ExtractOptions, MergeOptions};
//!
//! let opts = ExtractOptions::new("en", Some("fr"))?;
//! flow::extract(Path::new("page.html"), Path::new("page.xlf"), &opts)?;
//! // … a translator fills in page.xlf …
//! flow::merge(Path::new("page.html"), Path::new("page.xlf"), Path::new("page.fr.html"),
//!             &MergeOptions::default())?;
//! // … the page changes: a new file with the unchanged translations carried over …
//! let report = tagloom_l10n::update::update(Path::new("page.html"), Path::new("page.xlf"),
//!     Path::new("page.new.xlf"), &Default::default())?;
//! println!("{} carried over", report.total().carried);
//! # Ok::<(), tagloom_l10n::L10nError>(())
//! ```

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod block;
pub mod count;
pub mod error;
pub mod flow;
pub mod ids;
pub mod lang;
pub mod matching;
pub mod output;
pub mod po;
pub mod pseudo;
pub mod reader;
pub mod rules;
pub mod segment;
pub mod skeleton;
pub mod update;
pub mod writer;
pub mod xliff;

pub use block::{Block, BlockKind, Run};
pub use error::{L10nError, Result};
pub use lang::LanguageTag;
pub use rules::{IdScheme, Rules};
pub use skeleton::SkeletonStore;
