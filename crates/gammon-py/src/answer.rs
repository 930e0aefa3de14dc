//! Answers and failures on their way to Python: an answer is the JSON
//! document the CLI prints, as the Python objects `json.loads` makes of it
//! ([`to_python`](crate::to_python), every number the one the CLI prints,
//! digit for digit); a failure is the
//! CLI's one-line message as `ValueError`, or `FileNotFoundError` when a
//! file named is missing.

use gammon_engine::api::error_chain;
use gammon_engine::api::json::document;
use pyo3::exceptions::{PyFileNotFoundError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use serde::Serialize;

/// `value` as the dict of the CLI's `--json` (with its `schema_version`):
/// what `json.loads` gives for the CLI's text, made without the text.
pub fn to_dict<'py>(py: Python<'py>, value: &impl Serialize) -> PyResult<Bound<'py, PyDict>> {
    let any = crate::to_python::to_python(py, &document(value))?;
    any.cast_into::<PyDict>().map_err(|_| PyValueError::new_err("the answer is not a JSON object"))
}

/// Why a call failed, as the CLI says it.
#[derive(Debug)]
pub struct Failure {
    message: String,
    missing_file: bool,
}

impl Failure {
    /// A failure in these words.
    pub fn message(message: String) -> Self {
        Failure { message, missing_file: false }
    }

    /// `error` and its sources on one line; a missing file if any source
    /// is the system's "not found".
    pub fn of(error: &(dyn std::error::Error + 'static)) -> Self {
        let mut missing_file = false;
        let mut source = Some(error);
        while let Some(e) = source {
            if e.downcast_ref::<std::io::Error>().is_some_and(|io| io.kind() == std::io::ErrorKind::NotFound) {
                missing_file = true;
            }
            source = e.source();
        }
        Failure { message: error_chain(error), missing_file }
    }

    /// This failure, a missing file also when `missing` (for errors that
    /// keep the system's error as a kind, not as a source).
    #[must_use]
    pub fn missing_file(self, missing: bool) -> Self {
        Failure { missing_file: self.missing_file || missing, ..self }
    }

    /// `context`, then this failure's message.
    #[must_use]
    pub fn context(self, context: &str) -> Self {
        Failure { message: format!("{context}: {}", self.message), ..self }
    }
}

impl<E: std::error::Error + 'static> From<E> for Failure {
    fn from(e: E) -> Self {
        Failure::of(&e)
    }
}

impl From<Failure> for PyErr {
    fn from(f: Failure) -> Self {
        if f.missing_file {
            PyFileNotFoundError::new_err(f.message)
        } else {
            PyValueError::new_err(f.message)
        }
    }
}
