//! Shared helpers of the integration tests (`mod support;` in a test file).

#![allow(dead_code)]

pub mod dump_tree;
pub mod tokenizer_json;
pub mod tree_dat;
pub mod walked_position;
