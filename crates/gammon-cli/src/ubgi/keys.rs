//! The keys of UBGI 0.2's `keys`, `get` and `set`.

use super::{error, MAX_CUBE_PLY, MAX_PLY};
use gammon_engine::api::MAX_THREADS;

/// `plies` counted as gnubg counts them, in the protocol's root-inclusive
/// counting of `engine.ply` and `info depth` (gnubg 0-ply = UBGI 1).
pub(super) const fn ubgi_ply(plies: u8) -> u8 {
    plies + 1
}

/// The gnubg depth of `engine.ply` `n` (at least 1).
pub(super) const fn gnubg_ply(n: u8) -> u8 {
    n.saturating_sub(1)
}

/// The keys of `keys`, `get` and `set`, as `key` lines; `cube_ply` and
/// `ply` are the options `--cube-ply` and `--ply` (gnubg plies), the
/// defaults of `engine.cubeply` and `engine.ply`.
pub(super) fn key_lines(cube_ply: u8, ply: u8) -> Vec<String> {
    vec![
        format!(
            "key engine.ply int 1..{} {} root-inclusive decision depth (1 = gnubg 0-ply, 3 = gnubg 2-ply)",
            ubgi_ply(MAX_PLY),
            ubgi_ply(ply)
        ),
        format!(
            "key engine.cubeply int 0..{MAX_CUBE_PLY} {cube_ply} cube decision depth in gnubg plies (0 = static evaluation and Janowski's model, 2 = gnubg's standard)"
        ),
        format!("key engine.threads int 1..{MAX_THREADS} 1 ! worker threads (accepted; a 1-ply decision runs on one thread)"),
        "key engine.seed int * 0 ! random seed (accepted; the engine is deterministic)".to_string(),
        "key game.variant enum backgammon backgammon game variant".to_string(),
    ]
}

/// The values of the keys in a UBGI 0.2 session: what `get` reads and
/// `set` changes.
#[derive(Debug)]
pub(super) struct Keys {
    pub(super) cube_ply: u8,
    /// Chequer-play depth in gnubg plies (`engine.ply` is one more).
    pub(super) ply: u8,
    pub(super) threads: u32,
    pub(super) seed: u64,
}

impl Keys {
    /// The keys at their defaults, `--cube-ply` and `--ply` (gnubg plies).
    pub(super) fn new(cube_ply: u8, ply: u8) -> Self {
        Keys { cube_ply, ply, threads: 1, seed: 0 }
    }

    pub(super) fn get(&self, key: &str) -> Option<String> {
        match key {
            "engine.ply" => Some(ubgi_ply(self.ply).to_string()),
            "engine.cubeply" => Some(self.cube_ply.to_string()),
            "engine.threads" => Some(self.threads.to_string()),
            "engine.seed" => Some(self.seed.to_string()),
            "game.variant" => Some("backgammon".to_string()),
            _ => None,
        }
    }

    /// Sets a key, or the error line (the key keeps its value).
    pub(super) fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "engine.ply" => match value.parse::<i64>() {
                Ok(n) if n < 1 => return Err(error("bad_value", "engine.ply must be at least 1 (1 = gnubg 0-ply)")),
                Ok(n) => match u8::try_from(n).ok().filter(|&n| gnubg_ply(n) <= MAX_PLY) {
                    Some(n) => self.ply = gnubg_ply(n),
                    None => {
                        let (most, gnubg) = (ubgi_ply(MAX_PLY), MAX_PLY);
                        return Err(error(
                            "unsupported",
                            format!("engine.ply {n}: at most {most} (gnubg {gnubg}-ply)"),
                        ));
                    }
                },
                Err(_) => return Err(error("bad_value", format!("engine.ply {value:?} is not an integer"))),
            },
            "engine.cubeply" => match value.parse::<u8>() {
                Ok(n @ 0..=MAX_CUBE_PLY) => self.cube_ply = n,
                _ => return Err(error("bad_value", format!("engine.cubeply {value:?}: must be 0..{MAX_CUBE_PLY}"))),
            },
            // The one thread limit of every `--threads`.
            "engine.threads" => match value.parse::<u32>() {
                Ok(n) if (1..=MAX_THREADS as u64).contains(&u64::from(n)) => self.threads = n,
                _ => return Err(error("bad_value", format!("engine.threads {value:?}: must be 1..{MAX_THREADS}"))),
            },
            "engine.seed" => match value.parse::<u64>() {
                Ok(n) => self.seed = n,
                Err(_) => {
                    return Err(error("bad_value", format!("engine.seed {value:?}: must be an integer 0..2^64-1")))
                }
            },
            "game.variant" => {
                if value != "backgammon" {
                    return Err(error("unsupported", format!("game.variant {value:?}: only backgammon")));
                }
            }
            _ => return Err(error("unsupported", format!("key {key}"))),
        }
        Ok(())
    }
}
