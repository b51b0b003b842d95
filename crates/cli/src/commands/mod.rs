//! One module per subcommand.

pub mod demo;
pub mod include;
pub mod l10n;
pub mod l10n_update;
pub mod parse;
pub mod rewrite;
pub mod sanitize;
pub mod sniff;
pub mod tokens;
pub mod view;
pub mod warc;
pub mod wiki;
