//! One module per subcommand.

pub mod demo;
pub mod sniff;
pub mod tokens;
