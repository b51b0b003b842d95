//! xliff
