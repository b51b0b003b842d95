//! The pipeline module (being built; see the crate docs).
