//! The character encoding of a text payload (see the crate docs).
