//! Placeholder: filled in by the formats work.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Xgid;
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("placeholder")]
pub struct XgidError;
