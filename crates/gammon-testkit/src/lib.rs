//! Test support shared by gammon's test suites (dev-only, never published):
//! where the shared data lives, reading its JSON Lines files, the GNU
//! Backgammon oracle's records that several suites read, and running a binary.
//!
//! Everything here panics with a message naming the file (and line) instead of
//! returning errors: it is test code, and a panic is a clear test failure.
//! A missing oracle folder is a failure too, never a skip: CI always has it.

mod files;
mod needs;
mod records;
mod run;

pub use files::{oracle_dir, read_jsonl, read_oracle, read_shared, read_text, shared_dir, MissingData, MAX_FILE_BYTES};
pub use needs::{needs, programs_missing, REQUIRE_ALL};
pub use records::{CubeEquities, CubeMatch, CubeMoney, CubeVerdict, EdgeCase, EvalRecord, MovegenDigest, MovegenFull};
pub use run::{fails, ok, run, run_with_env, Output};
