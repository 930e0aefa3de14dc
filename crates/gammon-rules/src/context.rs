//! Placeholder: filled in by the formats work (cube, score and dice state).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CubeOwner { Centered }
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum DiceState { ToRoll }
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct GameContext;
