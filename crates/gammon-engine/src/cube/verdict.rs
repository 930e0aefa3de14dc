//! gnubg's names for cube verdicts and choices ([`CubeAction`], [`Response`],
//! [`Choice`]).

use serde::Serialize;
use std::fmt;

/// gnubg's cube verdicts (`cubedecision` in gnubg's `eval.h`, in its order,
/// so that [`code`](Self::code) is gnubg's number). The text after the comma
/// is the opponent's correct answer to a double.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CubeAction {
    /// 0: "Double, take".
    DoubleTake,
    /// 1: "Double, pass".
    DoublePass,
    /// 2: "No double, take".
    NoDoubleTake,
    /// 3: "Too good to double, take".
    TooGoodTake,
    /// 4: "Too good to double, pass".
    TooGoodPass,
    /// 5: "Double, beaver".
    DoubleBeaver,
    /// 6: "No double, beaver".
    NoDoubleBeaver,
    /// 7: "Redouble, take".
    RedoubleTake,
    /// 8: "Redouble, pass".
    RedoublePass,
    /// 9: "No redouble, take".
    NoRedoubleTake,
    /// 10: "Too good to redouble, take".
    TooGoodRedoubleTake,
    /// 11: "Too good to redouble, pass".
    TooGoodRedoublePass,
    /// 12: "No redouble, beaver".
    NoRedoubleBeaver,
    /// 13: "Never double, take (dead cube)" (match play).
    NeverDoubleDeadCube,
    /// 14: "Never redouble, take (dead cube)" (match play).
    NeverRedoubleDeadCube,
    /// 15: the player on roll may not double (gnubg: "You cannot double").
    NotAvailable,
    /// 16: "Optional double, take".
    OptionalDoubleTake,
    /// 17: "Optional redouble, take".
    OptionalRedoubleTake,
    /// 18: "Optional double, beaver".
    OptionalDoubleBeaver,
    /// 19: "Optional double, pass".
    OptionalDoublePass,
    /// 20: "Optional redouble, pass".
    OptionalRedoublePass,
}

/// The opponent's answer to a double.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Response {
    /// Take the cube.
    Take,
    /// Pass (drop): concede the current cube value.
    Pass,
    /// Take and redouble at once, keeping the cube (money play, beavers on).
    Beaver,
}

impl fmt::Display for Response {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Response::Take => "take",
            Response::Pass => "pass",
            Response::Beaver => "beaver",
        })
    }
}

impl CubeAction {
    /// gnubg's number for the verdict.
    pub const fn code(self) -> u8 {
        self as u8
    }

    /// gnubg's words (`GetCubeRecommendation`); [`NotAvailable`](Self::NotAvailable),
    /// which gnubg never prints, is "No double (cube not available)".
    pub const fn as_str(self) -> &'static str {
        match self {
            CubeAction::DoubleTake => "Double, take",
            CubeAction::DoublePass => "Double, pass",
            CubeAction::NoDoubleTake => "No double, take",
            CubeAction::TooGoodTake => "Too good to double, take",
            CubeAction::TooGoodPass => "Too good to double, pass",
            CubeAction::DoubleBeaver => "Double, beaver",
            CubeAction::NoDoubleBeaver => "No double, beaver",
            CubeAction::RedoubleTake => "Redouble, take",
            CubeAction::RedoublePass => "Redouble, pass",
            CubeAction::NoRedoubleTake => "No redouble, take",
            CubeAction::TooGoodRedoubleTake => "Too good to redouble, take",
            CubeAction::TooGoodRedoublePass => "Too good to redouble, pass",
            CubeAction::NoRedoubleBeaver => "No redouble, beaver",
            CubeAction::NeverDoubleDeadCube => "Never double, take (dead cube)",
            CubeAction::NeverRedoubleDeadCube => "Never redouble, take (dead cube)",
            CubeAction::NotAvailable => "No double (cube not available)",
            CubeAction::OptionalDoubleTake => "Optional double, take",
            CubeAction::OptionalRedoubleTake => "Optional redouble, take",
            CubeAction::OptionalDoubleBeaver => "Optional double, beaver",
            CubeAction::OptionalDoublePass => "Optional double, pass",
            CubeAction::OptionalRedoublePass => "Optional redouble, pass",
        }
    }

    /// A short code for a table cell (a score matrix): `ND` no double, `DT`
    /// double/take, `DP` double/pass, `TG` too good (play on for the
    /// gammon; `TGT` where a double would be taken), `DB` double/beaver,
    /// `NDB` no double/beaver, `OD` optional double (`ODP` passed), `DC` a
    /// dead cube, `-` no double possible. Redoubles share the codes.
    pub const fn short(self) -> &'static str {
        match self {
            CubeAction::DoubleTake | CubeAction::RedoubleTake => "DT",
            CubeAction::DoublePass | CubeAction::RedoublePass => "DP",
            CubeAction::NoDoubleTake | CubeAction::NoRedoubleTake => "ND",
            CubeAction::TooGoodTake | CubeAction::TooGoodRedoubleTake => "TGT",
            CubeAction::TooGoodPass | CubeAction::TooGoodRedoublePass => "TG",
            CubeAction::DoubleBeaver => "DB",
            CubeAction::NoDoubleBeaver | CubeAction::NoRedoubleBeaver => "NDB",
            CubeAction::NeverDoubleDeadCube | CubeAction::NeverRedoubleDeadCube => "DC",
            CubeAction::NotAvailable => "-",
            CubeAction::OptionalDoubleTake | CubeAction::OptionalRedoubleTake | CubeAction::OptionalDoubleBeaver => {
                "OD"
            }
            CubeAction::OptionalDoublePass | CubeAction::OptionalRedoublePass => "ODP",
        }
    }

    /// True if the player on roll should double (optional doubles count as
    /// doubles: doubling loses nothing).
    pub const fn doubles(self) -> bool {
        matches!(
            self,
            CubeAction::DoubleTake
                | CubeAction::DoublePass
                | CubeAction::DoubleBeaver
                | CubeAction::RedoubleTake
                | CubeAction::RedoublePass
                | CubeAction::OptionalDoubleTake
                | CubeAction::OptionalRedoubleTake
                | CubeAction::OptionalDoubleBeaver
                | CubeAction::OptionalDoublePass
                | CubeAction::OptionalRedoublePass
        )
    }

    /// The opponent's correct answer if a double were offered; `None` when
    /// the player on roll may not double.
    pub const fn response(self) -> Option<Response> {
        match self {
            CubeAction::DoublePass
            | CubeAction::TooGoodPass
            | CubeAction::RedoublePass
            | CubeAction::TooGoodRedoublePass
            | CubeAction::OptionalDoublePass
            | CubeAction::OptionalRedoublePass => Some(Response::Pass),
            CubeAction::DoubleBeaver
            | CubeAction::NoDoubleBeaver
            | CubeAction::NoRedoubleBeaver
            | CubeAction::OptionalDoubleBeaver => Some(Response::Beaver),
            CubeAction::NotAvailable => None,
            _ => Some(Response::Take),
        }
    }
}

impl fmt::Display for CubeAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One of the three cube choices.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Choice {
    /// Play on without doubling.
    NoDouble,
    /// Double, the opponent takes.
    DoubleTake,
    /// Double, the opponent passes.
    DoublePass,
}

impl Choice {
    /// gnubg's label.
    pub const fn as_str(self) -> &'static str {
        match self {
            Choice::NoDouble => "No double",
            Choice::DoubleTake => "Double, take",
            Choice::DoublePass => "Double, pass",
        }
    }
}
