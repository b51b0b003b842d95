//! Shared helpers of the integration tests (`mod support;` in a test file).

#![allow(dead_code)]

pub mod tree_dat;
