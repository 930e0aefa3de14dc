//! The Python module `gammon` (its compiled part, `gammon._gammon`): the
//! engine's use cases called from Python, each answer the dict that the
//! CLI's `--json` prints for the same request. Nothing here decides,
//! searches or formats: requests are read by the engine's
//! [`Request`](gammon_engine::api::Request), options with the CLI's
//! defaults come from the engine, and answers are the engine's JSON.

mod answer;
mod engine;
mod options;
mod to_python;
mod watch;

use answer::{to_dict, Failure};
use gammon_engine::api::json::PositionJson;
use gammon_engine::api::{legal_moves, Asked, Refusal, Request};
use pyo3::prelude::*;
use pyo3::types::PyDict;

/// The legal moves of `position` for `dice` (like `"31"`; an XGID may carry
/// them instead): the dict `gammon moves POSITION DICE --json` prints.
///
/// Raises `ValueError` for a position or dice gammon cannot read, or a
/// finished game.
#[pyfunction]
#[pyo3(signature = (position, dice=None))]
fn moves<'py>(py: Python<'py>, position: &str, dice: Option<&str>) -> PyResult<Bound<'py, PyDict>> {
    let request = Request::read(position, None, dice).map_err(Failure::from)?;
    let Some(dice) = request.dice else {
        return Err(Failure::message(format!("give the dice, like `gammon.moves({position:?}, \"31\")`")).into());
    };
    let moves = legal_moves(&request.position, dice).map_err(|e| Failure::from(Refusal::new(e, Asked::Moves)))?;
    to_dict(py, &moves)
}

/// `position` in any form gammon reads (Position ID, `PositionID:MatchID`,
/// XGID, `start`) as its IDs, board, pip counts and game context: the dict
/// `gammon position POSITION --json` prints (with `dice`, `--dice`).
///
/// Raises `ValueError` for a position gammon cannot read.
#[pyfunction]
#[pyo3(signature = (position, dice=None))]
fn position<'py>(py: Python<'py>, position: &str, dice: Option<&str>) -> PyResult<Bound<'py, PyDict>> {
    let request = Request::read(position, None, dice).map_err(Failure::from)?;
    to_dict(py, &PositionJson::of_request(&request))
}

#[pymodule]
fn _gammon(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(moves, m)?)?;
    m.add_function(wrap_pyfunction!(position, m)?)?;
    m.add_class::<engine::Engine>()?;
    Ok(())
}
