//! # tagloom-html
//!
//! A spec-faithful, streaming HTML5 engine: encoding sniffing, tokenizer, tree
//! builder (which emits [`DomPatch`] batches, not a DOM), a reference
//! [`DomStore`] that applies them, and serializers. Input may arrive in chunks of
//! any size; the result never depends on the chunking.
//!
//! ## Which API to use when
//!
//! | you want | use |
//! |---|---|
//! | a document (or fragment) from bytes, in one call | [`parse_document`], [`parse_fragment`] |
//! | to stream: bytes in pieces (or a [`std::io::Read`]), patch batches out as they are ready | [`Driver`] (or [`drive`] for a slice) |
//! | to stream into a [`DomStore`] and nothing else sees the patches (the fast path) | [`Driver::push_into`], [`Driver::finish_into`] |
//! | the parse errors, with codes and line/column | [`Driver::take_errors`] |
//! | tokens only, no tree | [`Tokenizer`] |
//! | a tree from tokens made elsewhere (a transform pipeline, a program) | [`TreeBuilder::process_owned`] with [`OwnedToken`]s |
//! | HTML text from a tree | [`serialize_children`] / [`children_to_string`]; token streams: [`serializer::TokenSerializer`] |
//! | the encoding a page is parsed with | [`sniff_encoding`], [`EncodingSniffer`] on a stream |
//! | full control: your own pump loop (e.g. to run scripts at `</script>`) | [`Html5ParseSession`] |
//!
//! ### One-shot parse
//!
//! ```
//! use tagloom_html::{ParseConfig, dom, parse_document};
//!
//! let store = parse_document(b"<!DOCTYPE html><title>Hi</title><p>one<p>two", &ParseConfig::default())?;
//! assert!(dom::dump_document(&store).contains("|     <p>\n|       \"two\"\n"));
//! # Ok::<(), tagloom_html::ParseFailure>(())
//! ```
//!
//! ### Streaming batches
//!
//! The [`Driver`] pushes bytes, pumps the session through `</script>` suspensions and
//! full batches, and hands each batch to a closure: a [`PatchBatch`], which names its
//! document and the version it goes from and to ([`batch`]); an encoding restart
//! arrives as a batch starting with [`DomPatch::Clear`]. Only about one piece of the input is held.
//!
//! ```
//! use tagloom_html::{DomPatch, DomStore, Driver, ParseConfig, PatchBatch};
//!
//! let mut driver = Driver::new(&ParseConfig::default());
//! let mut store = DomStore::new();
//! let mut elements = 0;
//! let mut on_batch = |batch: PatchBatch| {
//!     elements += batch.iter().filter(|p| matches!(p, DomPatch::CreateElement { .. })).count();
//!     store.apply_owned(batch)
//! };
//! driver.read(&b"<ul><li>a<li>b</ul>"[..], &mut on_batch)?; // any `Read`; then finishes
//! assert_eq!(elements, 6); // html, head, body, ul, li, li
//! for error in driver.take_errors() {
//!     println!("{}:{}: {}", error.line, error.col, error.code.as_str());
//! }
//! # Ok::<(), tagloom_html::ParseFailure>(())
//! ```
//!
//! ### Tokens only
//!
//! ```
//! use tagloom_html::{Token, Tokenizer, TokenizerConfig};
//!
//! let mut tok = Tokenizer::new(TokenizerConfig::default());
//! tok.push_str("<p class=note>Hi &amp; bye</p>");
//! tok.finish();
//! let mut seen = Vec::new();
//! while let Some(token) = tok.next_token().unwrap() {
//!     match token {
//!         Token::StartTag(tag) => seen.push(format!("<{}>", tag.name_str())),
//!         Token::Characters(text) => seen.push(text.text.to_string()),
//!         Token::EndTag(tag) => seen.push(format!("</{}>", tag.name_str())),
//!         _ => {}
//!     }
//! }
//! assert_eq!(seen.concat(), "<p>Hi & bye</p>");
//! ```
//!
//! A tokenizer alone does not know that `<title>` text is RCDATA: a consumer that
//! runs no tree builder asks [`text_type::TextTypeSimulator`] for the state after
//! each start tag.
//!
//! ### Tokens from another source into the tree builder
//!
//! ```
//! use tagloom_html::{DomStore, OwnedToken, TreeBuilder, TreeBuilderConfig, dom};
//!
//! let mut tb = TreeBuilder::new(TreeBuilderConfig::default());
//! for token in [OwnedToken::start("td"), OwnedToken::text("cell"), OwnedToken::Eof] {
//!     tb.process_owned(&token).unwrap();
//! }
//! let mut store = DomStore::new();
//! store.apply_patches(&tb.take_patches()).unwrap();
//! // A `td` outside a table is ignored; its text is kept.
//! assert!(dom::dump_document(&store).ends_with("|   <body>\n|     \"cell\"\n"));
//! assert_eq!(tb.errors().len(), 2); // missing DOCTYPE, stray <td>
//! ```
//!
//! ### Running scripts
//!
//! To run a document's inline scripts while it parses, use the `tagloom-script`
//! crate (boa). To host another engine, suspend at `</script>` and use the
//! session's script host ([`session::script_host`]: `document.write` at the
//! insertion point, attribute edits reported back).
//!
//! ### Serialization
//!
//! ```
//! use tagloom_html::dom_patch::Namespace;
//! use tagloom_html::{FragmentContext, FragmentOptions, ParseConfig, children_to_string, parse_fragment};
//!
//! let context = FragmentContext::new(Namespace::Html, "div");
//! let fragment = parse_fragment(b"<p>a<b>b<i>c</b>d", context, &ParseConfig::default())?;
//! let html = children_to_string(fragment.root().unwrap(), FragmentOptions { scripting: false });
//! assert_eq!(html, "<p>a<b>b<i>c</i></b><i>d</i></p>");
//! # Ok::<(), tagloom_html::ParseFailure>(())
//! ```
//!
//! ## Modules
//!
//! One module per concept (see `ARCHITECTURE.md`): [`decoder`] (bytes → text,
//! sniffing), [`tokenizer`], [`token`], [`tree_builder`], [`session`] (the one
//! wiring point), [`driver`] (the one loop over it), [`dom_patch`] (the patch
//! protocol), [`batch`] (versioned batches), [`dom`], [`serializer`], [`text_type`], [`error`].

// `unsafe` only where allowed by name: the SSE2 block tests of `tokenizer::lanes`,
// and `serializer::Utf8Bytes::into_string` (output known to be UTF-8).
#![deny(unsafe_code)]
#![warn(missing_docs)]

pub mod atom;
pub mod batch;
pub mod decoder;
pub mod dom;
pub mod dom_patch;
pub mod driver;
pub mod error;
mod phf;
mod seg_vec;
pub mod serializer;
pub mod session;
pub mod sniff;
pub mod span;
pub mod text_type;
pub mod token;
pub mod tokenizer;
pub mod tree_builder;
pub mod xml_infoset;

pub use atom::{Atom, AtomTable};
pub use batch::{DocHandle, PatchBatch};
pub use dom::DomStore;
pub use dom_patch::DomPatch;
pub use driver::{
    DriveError, Driver, Fragment, ParseConfig, ParseFailure, drive, parse_document, parse_fragment,
};
pub use error::{ErrorCode, ParseError, TreeError};
pub use serializer::{FragmentOptions, children_to_string, serialize_children};
pub use session::{BatchPolicy, Html5ParseSession, SessionConfig};
pub use sniff::{EncodingSniffer, sniff_encoding};
pub use span::Span;
pub use token::{OwnedToken, Token};
pub use tokenizer::{Tokenizer, TokenizerConfig};
pub use tree_builder::{FragmentContext, TreeBuilder, TreeBuilderConfig};
