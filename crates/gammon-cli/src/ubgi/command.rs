//! UBGI 0.2's commands: their names, and what a refused one forgets.

/// A command of UBGI 0.2 (its first word).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Command {
    Ubgi,
    IsReady,
    NewGame,
    Keys,
    Get,
    Set,
    SetOption,
    Position,
    Dice,
    Go,
    Stop,
    Quit,
}

/// What the session forgets when a command is refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Forget {
    /// A query: it sets nothing, so nothing can be stale.
    Nothing,
    /// `dice`: the dice only; the position stays valid.
    Dice,
    /// The decision request: position, cube context and dice, so that no
    /// `go` answers for a state the controller did not get.
    Request,
}

impl Command {
    /// Every command, in the order the documentation lists them.
    pub(super) const ALL: [Command; 12] = [
        Command::Ubgi,
        Command::IsReady,
        Command::NewGame,
        Command::Keys,
        Command::Get,
        Command::Set,
        Command::SetOption,
        Command::Position,
        Command::Dice,
        Command::Go,
        Command::Stop,
        Command::Quit,
    ];

    /// The command's keyword (case-sensitive, spec §1).
    pub(super) fn name(self) -> &'static str {
        match self {
            Command::Ubgi => "ubgi",
            Command::IsReady => "isready",
            Command::NewGame => "newgame",
            Command::Keys => "keys",
            Command::Get => "get",
            Command::Set => "set",
            Command::SetOption => "setoption",
            Command::Position => "position",
            Command::Dice => "dice",
            Command::Go => "go",
            Command::Stop => "stop",
            Command::Quit => "quit",
        }
    }

    pub(super) fn parse(word: &str) -> Option<Command> {
        Command::ALL.into_iter().find(|c| c.name() == word)
    }

    /// The keywords, comma-separated, for the error on an unknown command.
    pub(super) fn names() -> String {
        Command::ALL.map(Command::name).join(", ")
    }

    /// What a refused command of this kind forgets. A refused setter
    /// (`set`, `setoption`, `newgame` with arguments) forgets the decision
    /// request as a refused `position` does: the controller meant to change
    /// how the next `go` is answered, and it has to send the position and
    /// dice again before one is.
    pub(super) fn refused_forgets(self) -> Forget {
        match self {
            Command::Dice => Forget::Dice,
            Command::Position | Command::Set | Command::SetOption | Command::NewGame => Forget::Request,
            Command::Ubgi
            | Command::IsReady
            | Command::Keys
            | Command::Get
            | Command::Go
            | Command::Stop
            | Command::Quit => Forget::Nothing,
        }
    }
}
