//! placeholder

pub mod extract;
