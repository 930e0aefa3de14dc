//! Benchmarks live in movegen.rs
