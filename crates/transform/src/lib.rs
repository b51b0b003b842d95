//! # tagloom-transform
//!
//! Token transforms over the tagloom HTML tokenizer and tree builder (the design is
//! the Parsoid token transform model, `../shared/seeds/002_…`):
//!
//! - [`pipeline`]: handlers registered by token kind and rank, run in three phases
//!   (in order per source, asynchronous out of order, globally in order), with
//!   sub-pipelines for expansions;
//! - [`sanitize`]: an HTML sanitizer (allow-lists, URL and CSS checks) whose output
//!   is the serialization of a spec tree;
//! - [`rewrite`]: a streaming rewriter with CSS-selector handlers that writes
//!   untouched input back byte for byte;
//! - [`include`](mod@include): `<include src>` / `<esi:include>` resolved in sub-pipelines.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

pub mod include;
pub mod pipeline;
pub mod rewrite;
pub mod sanitize;
