//! The rewrite module (being built; see the crate docs).
