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
//! | expand template calls one at a time, in page order, with the page's limits shared | [`Preprocessor::page`] → [`PageExpander::expand`] on each call's source (`{{name|a|b}}`), or [`PageExpander::expand_node`] on a parsed node |
//! | what a call is, for `data-mw` (`function: "if"`, `href: ./Template:X`) | [`PageExpander::target`] → [`Target`] |
//! | templates from files / a dump / memory | [`DirStore`], [`DumpStore`], [`MemoryStore`]; [`open_store`] picks by path |
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
//!   anchorencode formatnum plural gender grammar bidi ns nse fullurl localurl
//!   #rel2abs #special #language int DEFAULTSORT DISPLAYTITLE`, the `PAGENAME`
//!   family (`FULLPAGENAME NAMESPACE BASEPAGENAME ROOTPAGENAME SUBPAGENAME
//!   TALKPAGENAME SUBJECTPAGENAME …` and `…E`), `{{!}}`, `{{=}}`, site words and the
//!   date words against [`Config::clock`]. Unknown functions stay as written.
//!   `{{#invoke:…}}` (Lua) cannot run: it shows Scribunto's error markup.
//! - Template output starting with `{|`, `:`, `;`, `#` or `*` starts a new line
//!   (MediaWiki's T2529), so tables and lists opened in templates work.
//! - Extension tags are copied as written (their content unexpanded), except the
//!   content of [`Config::preprocessed_tags`] (`<ref>`, `<references>`, `<poem>`,
//!   `<indicator>`), expanded in the frame the tag is in, as the extensions do.
//!   Comments are dropped unless [`Config::keep_comments`].
//! - Subpage-relative calls (`{{/Sub}}`, `{{../Sibling}}`), redirects (two hops),
//!   `subst:` (left as written), `safesubst:`, `msg:`, `msgnw:`, `raw:`.
//!
//! **Cost.** Parsing is linear, about 250–290 MB/s in release builds on this
//! machine; parsing and expanding a template-heavy article (a citation template
//! per paragraph, an infobox) about 25–30 MB/s of page text, per core of CPU time
//! (`tests/preprocess_speed.rs`).
//! Parsed templates are cached per page; template output is expanded in place.
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
pub(crate) mod interwiki;
mod parse;
pub(crate) use parse::find_from;
mod store;
mod title;
mod tree;

pub use config::{Clock, Config, Limits, Site};
pub(crate) use expand::Frame;
pub use expand::{Expansion, PageExpander, PreprocessError, Preprocessor, Target, Warning};
pub use interwiki::Interwiki;
pub use parse::{DEFAULT_EXT_TAGS, Mode, ParseOptions, parse, parse_with};
pub use store::{
    AsyncPageSource, DirStore, DumpPage, DumpReader, DumpStore, MemoryStore, NoPages, PageStore,
    SourceFuture, StoreError, open_store, prefetch,
};
pub use title::{
    NS_CATEGORY, NS_FILE, NS_MAIN, NS_MEDIA, NS_PROJECT, NS_SPECIAL, NS_TEMPLATE, Title,
    TitleError, namespace_id, namespace_name,
};
pub use tree::{Braced, ExtTag, Node, Part, Span, Tree};
