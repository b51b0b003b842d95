//! pseudo
