//! Move notation (placeholder, being written).
