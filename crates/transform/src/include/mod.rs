//! The include module (being built; see the crate docs).
