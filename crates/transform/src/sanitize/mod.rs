//! The sanitize module (being built; see the crate docs).
