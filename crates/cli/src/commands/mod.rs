//! One module per subcommand.

pub mod demo;
pub mod parse;
pub mod sniff;
pub mod tokens;
