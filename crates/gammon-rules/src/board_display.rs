//! ASCII board (placeholder, being written).
