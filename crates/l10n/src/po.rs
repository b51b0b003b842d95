//! po
