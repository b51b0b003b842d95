//! The preprocessor: MediaWiki's brace expansion over wikitext *text*.
//!
//! It finds `{{templates}}`, `{{#parser functions:…}}`, `{{MAGIC WORDS}}` and
//! `{{{arguments|defaults}}}` with MediaWiki's brace-matching rules, and expands
//! them against a [`PageStore`] into wikitext, the way MediaWiki's
//! `Parser::preprocess` (and Parsoid's template expansion) does.
//!
//! **Which API when**
//!
//! | job | call |
//! |---|---|
//! | the structure: templates and arguments with their parts and source ranges (for template pseudo-tokens) | [`parse`] / [`parse_with`] → [`Tree`] |
//! | expand a whole page to wikitext | [`Preprocessor::expand`] |
//! | expand template calls one at a time, in page order, with the page's limits shared | [`Preprocessor::page`] → [`PageExpander::expand`] on each call's source (`{{name|a|b}}`) |
//! | templates from files / a dump / memory | [`DirStore`], [`DumpStore`], [`MemoryStore`] |
//! | templates from an async source (HTTP) | [`AsyncPageSource`] + [`prefetch`] → [`MemoryStore`] |
//! | stream the pages of a dump | [`DumpReader`] |
//!
//! **Semantics** (MediaWiki's, tested in `tests/preprocess_*.rs`):
//! - Brace matching, `|`/`=` splitting, comments, extension tags and the
//!   `noinclude`/`includeonly`/`onlyinclude` modes: see [`parse`'s module](parse_with).
//! - Frames: a template's arguments are expanded lazily in the caller's frame;
//!   named ones (`name = value`) trimmed, positional ones not; `{{{n|default}}}`;
//!   an argument without value or default stays as written. The page's own frame
//!   has no arguments.
//! - Errors show in the text as MediaWiki shows them:
//!   `<span class="error">Template loop detected: [[Template:X]]</span>` (a
//!   template already being expanded further up, directly or through others),
//!   `<span class="error">Template recursion depth limit exceeded (40)</span>`,
//!   a missing template as a link `[[:Template:X]]`, and the [`Limits`] each with
//!   its markup; [`Expansion::warnings`] lists them.
//! - Parser functions: `#if #ifeq #iferror #ifexist #ifexpr #switch #expr #tag
//!   #time #timel #titleparts lc uc lcfirst ucfirst padleft padright urlencode
//!   anchorencode formatnum plural ns nse fullurl localurl`, the `PAGENAME`
//!   family (`FULLPAGENAME NAMESPACE BASEPAGENAME ROOTPAGENAME SUBPAGENAME
//!   TALKPAGENAME SUBJECTPAGENAME …` and `…E`), `{{!}}`, `{{=}}`, site words and the
//!   date words against [`Config::clock`]. Unknown functions stay as written
//!   (`{{#invoke:…}}` too: there is no Lua).
//! - Template output starting with `{|`, `:`, `;`, `#` or `*` starts a new line
//!   (MediaWiki's T2529), so tables and lists opened in templates work.
//!
//! ```
//! use tagloom_wikitext::preprocess::{Config, MemoryStore, Preprocessor, Site, Title};
//!
//! let site = Site::default();
//! let mut store = MemoryStore::default();
//! store.insert(Title::parse("Template:Row", 0, &site)?, "{{!}}-\n{{!}} {{{1}}}");
//! let pre = Preprocessor::new(&store, Config::default());
//! let page = Title::parse("Test", 0, &site)?;
//! let out = pre.expand(&page, "{|\n{{row|a}}\n|}")?;
//! assert_eq!(out.text, "{|\n|-\n| a\n|}");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod config;
mod expand;
pub(crate) mod functions;
mod parse;
mod store;
mod title;
mod tree;

pub use config::{Clock, Config, Limits, Site};
pub use expand::{Expansion, PageExpander, PreprocessError, Preprocessor, Warning};
pub use parse::{DEFAULT_EXT_TAGS, Mode, ParseOptions, parse, parse_with};
pub use store::{
    AsyncPageSource, DirStore, DumpPage, DumpReader, DumpStore, MemoryStore, NoPages, PageStore,
    SourceFuture, StoreError, prefetch,
};
pub use title::{
    NS_CATEGORY, NS_FILE, NS_MAIN, NS_MEDIA, NS_PROJECT, NS_SPECIAL, NS_TEMPLATE, Title,
    TitleError, namespace_id, namespace_name,
};
pub use tree::{Braced, ExtTag, Node, Part, Span, Tree};
