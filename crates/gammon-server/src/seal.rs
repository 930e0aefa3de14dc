//! The signature of the game states `POST /api/play` hands out.
//!
//! The server keeps no game state: the client sends back the state of the
//! last answer (its `state`, the rules' game state as text, its `seed` and
//! its `next_step`). So that a client can
//! only continue states this server issued (not one with the dice or the
//! score edited), every answer carries an HMAC-SHA256 of its state under a
//! key drawn at random when the process starts, and a request whose state
//! does not match its signature is refused. A restarted server has a new key
//! and refuses the states of its predecessor.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use std::fmt::Write as _;

type HmacSha256 = Hmac<Sha256>;

/// What the signature covers: the state as the client sends it back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PlayState<'a> {
    /// The game state where the human acts ([`gammon_rules::Game`]'s
    /// text), exactly as issued.
    pub state: &'a str,
    /// The game's dice seed.
    pub seed: u64,
    /// The step number whose dice come next.
    pub step: u64,
}

/// The per-process key that signs and checks [`PlayState`]s.
#[derive(Clone)]
pub struct StateSeal {
    key: [u8; 64],
}

/// The key stays out of logs and debug dumps.
impl std::fmt::Debug for StateSeal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("StateSeal { .. }")
    }
}

impl StateSeal {
    /// A seal with a fresh random key from the operating system.
    ///
    /// # Errors
    /// When the operating system gives no random numbers.
    pub fn random() -> Result<Self, getrandom::Error> {
        let mut key = [0; 64];
        getrandom::fill(&mut key)?;
        Ok(StateSeal { key })
    }

    fn mac(&self, state: &PlayState<'_>) -> HmacSha256 {
        let mut mac = HmacSha256::new(&self.key.into());
        // NUL-separated: no field can run into the next.
        mac.update(b"gammon play state 1\0");
        mac.update(state.state.as_bytes());
        mac.update(format!("\0{}\0{}", state.seed, state.step).as_bytes());
        mac
    }

    /// The signature of `state`, as 64 hex digits.
    pub fn sign(&self, state: &PlayState<'_>) -> String {
        let bytes = self.mac(state).finalize().into_bytes();
        bytes.iter().fold(String::with_capacity(64), |mut hex, b| {
            let _ = write!(hex, "{b:02x}");
            hex
        })
    }

    /// Whether `signature` is the one this seal gave `state` (compared in
    /// constant time).
    pub fn verify(&self, state: &PlayState<'_>, signature: &str) -> bool {
        let Some(bytes) = from_hex(signature) else { return false };
        self.mac(state).verify_slice(&bytes).is_ok()
    }
}

fn from_hex(text: &str) -> Option<Vec<u8>> {
    if text.len() != 64 || !text.is_ascii() {
        return None;
    }
    (0..text.len()).step_by(2).map(|i| u8::from_str_radix(&text[i..i + 2], 16).ok()).collect()
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    /// A 5-point match at 0-0, seat Zero to move with 3-1.
    const GAME: &str = "1:4HPwATDgc/ABMA:0:1:-:0:m31:0:0:5:100:0:1024:0:0:00";

    #[test]
    fn a_signed_state_verifies_and_any_edit_does_not() {
        let seal = StateSeal::random().unwrap();
        let state = PlayState { state: GAME, seed: 42, step: 7 };
        let signature = seal.sign(&state);
        assert_eq!(signature.len(), 64);
        assert!(seal.verify(&state, &signature));
        // The dice, the score, the seed, the step: each edit is refused.
        for edited in [
            PlayState { state: &GAME.replace(":m31:", ":m66:"), ..state },
            PlayState { state: &GAME.replace(":0:0:00", ":2:0:00"), ..state },
            PlayState { seed: 43, ..state },
            PlayState { step: 8, ..state },
        ] {
            assert!(!seal.verify(&edited, &signature), "{edited:?}");
        }
        // A signature edited, cut, or not hex.
        let flipped = format!("{}{}", if signature.starts_with('0') { '1' } else { '0' }, &signature[1..]);
        for bad in [flipped.as_str(), &signature[..62], "", &"zz".repeat(32), &"é".repeat(32)] {
            assert!(!seal.verify(&state, bad), "{bad}");
        }
    }

    #[test]
    fn another_process_key_refuses_the_state() {
        let state = PlayState { state: GAME, seed: 1, step: 0 };
        let signature = StateSeal::random().unwrap().sign(&state);
        assert!(!StateSeal::random().unwrap().verify(&state, &signature));
    }
}
