//! Shared helpers for the integration tests.
#![allow(dead_code)]

pub mod tokenizer_json;
