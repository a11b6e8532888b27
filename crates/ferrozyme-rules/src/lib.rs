//! Derivative rules as data (see lib docs).
#![forbid(unsafe_code)]
