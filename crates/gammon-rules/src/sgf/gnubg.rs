//! gnubg's backgammon properties (`GM[6]`), mapped onto the written form
//! of a match that the `.mat` replay plays.

use super::tree::{Node, Visitor};
use crate::mat::raw::{MatchStart, RawAction, RawGame, RawKind, RawMatch, Steps};
use crate::{quote, shorten, MatError, MatPlace, MatchRules, NAME_CHARS};
use std::collections::BTreeMap;

/// Column (seat) of a colour: White is gnubg's player 0, the left column of
/// its `.mat` export.
const WHITE: usize = 0;
const BLACK: usize = 1;

fn err(line: usize, game: Option<u32>, reason: impl Into<String>) -> MatError {
    MatError { place: MatPlace { line, game, ..MatPlace::default() }, reason: reason.into() }
}

/// Root-node properties copied into the headers under the keys gnubg's
/// `.mat` export writes them with (`DT` apart: its date is rewritten).
const HEADERS: [(&str, &str); 4] = [("PC", "Site"), ("EV", "Event"), ("RO", "Round"), ("AN", "Transcriber")];

/// Setup properties: a game from a set position, cube or dice, which the
/// replay (from the starting position, cube 1) cannot follow.
const SETUP: [&str; 5] = ["AE", "AB", "AW", "CV", "CP"];

/// What a root node says.
#[derive(Clone)]
struct GameInfo {
    /// The line of the root node.
    line: usize,
    length: u32,
    /// `MI[game:K]`, from 0.
    index: Option<u32>,
    score: [u32; 2],
    crawford: bool,
    crawford_game: bool,
    jacoby: bool,
    cube: bool,
    players: [String; 2],
    /// `RE`: winner column, points, resigned.
    result: Option<(usize, u32, bool)>,
}

fn number(text: &str, what: &str, line: usize, game: Option<u32>) -> Result<u32, MatError> {
    text.trim().parse().map_err(|_| err(line, game, format!("cannot read {what} {}", quote(text))))
}

fn game_info(root: &Node, ordinal: u32) -> Result<GameInfo, MatError> {
    let line = root.line;
    let game = Some(ordinal);
    match root.value("GM") {
        Some(gm) if gm.trim() == "6" => {}
        Some(gm) => {
            return Err(err(line, game, format!("not a backgammon game: GM {} (backgammon is GM[6])", quote(gm))))
        }
        None => return Err(err(line, game, "no GM[6]: not a backgammon game tree")),
    }
    let mut info = GameInfo {
        line,
        length: 0,
        index: None,
        score: [0, 0],
        crawford: false,
        crawford_game: false,
        jacoby: false,
        cube: true,
        players: ["White".into(), "Black".into()],
        result: None,
    };
    if let Some(mi) = root.property("MI") {
        for v in &mi.values {
            let (key, value) = v.split_once(':').unwrap_or((v, ""));
            match key.trim() {
                "length" => info.length = number(value, "the match length", line, game)?,
                "game" => info.index = Some(number(value, "the game number", line, game)?),
                "ws" => info.score[WHITE] = number(value, "White's score", line, game)?,
                "bs" => info.score[BLACK] = number(value, "Black's score", line, game)?,
                _ => {}
            }
        }
    }
    for (ident, col) in [("PW", WHITE), ("PB", BLACK)] {
        if let Some(name) = root.value(ident) {
            info.players[col] = name.trim().to_string();
        }
    }
    if let Some(ru) = root.value("RU") {
        for rule in ru.split(':').map(str::trim) {
            match rule {
                "Crawford" => info.crawford = true,
                "CrawfordGame" => info.crawford_game = true,
                "Jacoby" => info.jacoby = true,
                "NoCube" => info.cube = false,
                "Nackgammon" | "Hypergammon1" | "Hypergammon2" | "Hypergammon3" => {
                    return Err(err(line, game, format!("the variant {rule} is not supported (only backgammon)")))
                }
                _ => {}
            }
        }
    }
    if let Some(cv) = root.value("CV") {
        if cv.trim() != "1" {
            return Err(err(line, game, format!("CV {}: automatic doubles are not supported", quote(cv))));
        }
    }
    if let Some(re) = root.value("RE") {
        info.result = Some(result(re).ok_or_else(|| {
            err(line, game, format!("cannot read the result RE {} (expected W+2, B+1R, ...)", quote(re)))
        })?);
    }
    Ok(info)
}

/// `W+2`, `B+3R`: winner column, points, resigned.
fn result(re: &str) -> Option<(usize, u32, bool)> {
    let re = re.trim();
    let col = match re.as_bytes().first()? {
        b'W' | b'w' => WHITE,
        b'B' | b'b' => BLACK,
        _ => return None,
    };
    let rest = re.get(1..)?.strip_prefix('+')?;
    let (points, resigned) = match rest.strip_suffix(['R', 'r']) {
        Some(p) => (p, true),
        None => (rest, false),
    };
    let points = points.parse().ok().filter(|&p| p > 0)?;
    Some((col, points, resigned))
}

/// A point letter of `colour`'s move: `a`..`x` are points counted from
/// White's side (White's 1-point is `a`, Black's is `x`), `y` the bar, `z`
/// off. Returns the point in the mover's numbering (25 bar, 0 off).
pub(super) fn point(letter: u8, col: usize) -> Option<u8> {
    match letter {
        b'y' => Some(25),
        b'z' => Some(0),
        b'a'..=b'x' if col == WHITE => Some(letter - b'a' + 1),
        b'a'..=b'x' => Some(b'x' - letter + 1),
        _ => None,
    }
}

/// `41lpab`: the dice as written, then (from, to) pairs.
fn roll(value: &str, col: usize) -> Result<RawKind, String> {
    let b = value.trim().as_bytes();
    let bad = || format!("cannot read the move {} (two dice, then pairs of point letters a-z)", quote(value));
    if b.len() < 2 || !b[0].is_ascii_digit() || !b[1].is_ascii_digit() {
        return Err(bad());
    }
    let dice = (b[0] - b'0', b[1] - b'0');
    let rest = &b[2..];
    if !rest.len().is_multiple_of(2) || rest.len() > 8 {
        return Err(bad());
    }
    let mut pairs = [(0, 0); 4];
    for (pair, p) in pairs.iter_mut().zip(rest.chunks(2)) {
        *pair = (point(p[0], col).ok_or_else(bad)?, point(p[1], col).ok_or_else(bad)?);
    }
    let steps = Steps::new(&pairs[..rest.len() / 2]).ok_or_else(bad)?;
    Ok(RawKind::Steps { dice, steps })
}

/// One game tree being read, node by node: its rules (from the root) and
/// the written actions of its main line. The move number of an action is
/// its node's index in the game (the root is 0).
struct GameReader {
    /// The line of the tree's `(`.
    line: usize,
    number: u32,
    info: GameInfo,
    actions: Vec<RawAction>,
    /// The index of the next node.
    index: u32,
    /// The double waiting for its answer (its column), and a beaver whose
    /// doubler's take is still to come.
    doubled: Option<usize>,
    beavered: Option<usize>,
    /// The cube value, for the value of each double (SGF does not write it).
    cube: u32,
    /// `PL[x]DI[nn]` (dice set by hand): the next move must use them.
    set_dice: Option<(usize, (u8, u8))>,
}

impl GameReader {
    /// A game from its root node, the first of the tree at `line`.
    fn new(line: usize, root: &Node<'_>, ordinal: u32) -> Result<Self, MatError> {
        let info = game_info(root, ordinal)?;
        let number = info.index.map_or(ordinal, |i| i.saturating_add(1));
        let fail = |reason: String| MatError {
            place: MatPlace { line: root.line, game: Some(number), move_number: Some(0), player: None },
            reason,
        };
        if root.property("B").is_some() || root.property("W").is_some() {
            return Err(fail("a move in the root node (gnubg writes the game information there)".into()));
        }
        // A set position in the root would start the game elsewhere
        // than the replay does (`CV` is checked with the rules).
        if let Some(p) = SETUP.iter().filter(|&&p| p != "CV").find(|p| root.property(p).is_some()) {
            return Err(fail(format!(
                "{p}[…] in the root node: a game from a set position or cube is not supported (only games from the start)"
            )));
        }
        Ok(GameReader {
            line,
            number,
            info,
            actions: Vec::new(),
            index: 1,
            doubled: None,
            beavered: None,
            cube: 1,
            set_dice: None,
        })
    }

    /// The next node after the root.
    fn node(&mut self, node: &Node<'_>) -> Result<(), MatError> {
        let move_number = Some(self.index);
        self.index = self.index.saturating_add(1);
        let (number, info) = (self.number, &self.info);
        let fail = |reason: String| MatError {
            place: MatPlace { line: node.line, game: Some(number), move_number, player: None },
            reason,
        };
        if let Some(p) = SETUP.iter().find(|p| node.property(p).is_some()) {
            return Err(fail(format!(
                "{p}[…]: a game from a set position, cube or dice is not supported (only games from the start)"
            )));
        }
        if let Some(di) = node.value("DI") {
            let col = match node.value("PL").map(str::trim) {
                Some("B") => BLACK,
                Some("W") => WHITE,
                _ => return Err(fail(format!("DI {} without PL[B] or PL[W]", quote(di)))),
            };
            let d = di.trim().as_bytes();
            if d.len() != 2 || !d.iter().all(u8::is_ascii_digit) {
                return Err(fail(format!("cannot read the dice DI {}", quote(di))));
            }
            self.set_dice = Some((col, (d[0] - b'0', d[1] - b'0')));
        } else if node.property("PL").is_some() {
            return Err(fail("PL[…] without DI: a set position is not supported".into()));
        }
        // gnubg keeps the first of several moves in a node; refused here, not skipped.
        let moves: Vec<_> = node.props.iter().filter(|p| p.ident == "B" || p.ident == "W").collect();
        if moves.len() > 1 || moves.iter().any(|p| p.values.len() > 1) {
            return Err(fail("a node with more than one move".into()));
        }
        let mover = match (node.value("W"), node.value("B")) {
            (Some(_), Some(_)) => return Err(fail("a node with more than one move".into())),
            (Some(v), None) => Some((WHITE, v)),
            (None, Some(v)) => Some((BLACK, v)),
            (None, None) => None,
        };
        let Some((col, value)) = mover else { return Ok(()) };
        let fail = |reason: String| {
            let mut e = fail(reason);
            e.place.player = Some(shorten(&info.players[col], NAME_CHARS).into_owned());
            e
        };
        let push = |actions: &mut Vec<RawAction>, kind| {
            actions.push(RawAction { line: node.line, move_number, column: col, kind });
        };
        if let Some(b) = self.beavered.take() {
            // gnubg writes the doubler's take of a beaver; `.mat` has no line for it.
            match value.trim() {
                "take" if col == b => return Ok(()),
                "drop" if col == b => return Err(fail("a dropped beaver is not supported".into())),
                "double" if col == b => return Err(fail("raccoons are not supported".into())),
                _ => {}
            }
        }
        match value.trim() {
            "double" => {
                if self.doubled.is_some_and(|d| d != col) {
                    // A double while one is waiting: gnubg's beaver (take and redouble).
                    self.doubled = None;
                    self.beavered = Some(1 - col);
                    push(&mut self.actions, RawKind::Beaver(Some(self.cube.saturating_mul(4))));
                    self.cube = self.cube.saturating_mul(4);
                } else {
                    self.doubled = Some(col);
                    push(&mut self.actions, RawKind::Double(self.cube.saturating_mul(2)));
                }
            }
            "take" => {
                if self.doubled.take().is_some() {
                    self.cube = self.cube.saturating_mul(2);
                }
                push(&mut self.actions, RawKind::Take);
            }
            "drop" => {
                self.doubled = None;
                push(&mut self.actions, RawKind::Drop);
            }
            "beaver" => {
                push(&mut self.actions, RawKind::Beaver(Some(self.cube.saturating_mul(4))));
                if self.doubled.take().is_some() {
                    self.cube = self.cube.saturating_mul(4);
                }
                self.beavered = Some(1 - col);
            }
            text => {
                let kind = roll(text, col).map_err(fail)?;
                if let (Some((who, dice)), RawKind::Steps { dice: rolled, .. }) = (self.set_dice.take(), &kind) {
                    let same = (dice == *rolled) || (dice == (rolled.1, rolled.0));
                    if who != col || !same {
                        return Err(fail(format!(
                            "the dice set before ({}{}) are not the ones of this move",
                            dice.0, dice.1
                        )));
                    }
                }
                push(&mut self.actions, kind);
            }
        }

        Ok(())
    }

    /// The game read: its rules and its written form, ended by the result
    /// of the root's `RE`.
    fn finish(mut self) -> (GameInfo, RawGame) {
        if let Some((winner, points, _)) = self.info.result {
            // gnubg's `.mat` export ends every finished game with the winner's `Wins`.
            self.actions.push(RawAction {
                line: self.info.line,
                move_number: None,
                column: winner,
                kind: RawKind::Win(points, false),
            });
        }
        let raw = RawGame {
            number: self.number,
            line: self.line,
            score: self.info.score,
            crawford_game: None,
            setup: None,
            actions: self.actions,
        };
        (self.info, raw)
    }
}

/// The headers of the first game's root node.
fn headers(root: &Node) -> BTreeMap<String, String> {
    let mut h = BTreeMap::new();
    for (ident, key) in HEADERS {
        if let Some(v) = root.value(ident).map(str::trim).filter(|v| !v.is_empty()) {
            h.insert(key.to_string(), v.to_string());
        }
    }
    // gnubg writes `DT[2025-11-08]` and, in `.mat`, `[EventDate "2025.11.08"]`.
    if let Some(dt) = root.value("DT").map(str::trim).filter(|v| !v.is_empty()) {
        h.insert("EventDate".into(), dt.replace('-', "."));
    }
    h
}

/// What the replay needs to know after it: for each game, whether the file
/// says it ended by resignation (`RE[…R]`).
pub(super) struct Resigned(pub Vec<bool>);

/// Reads the game trees of a gnubg SGF file, one at a time, into the
/// written form of a match.
#[derive(Default)]
pub(super) struct MatchReader {
    /// The rules of the first game, and the headers of its root.
    first: Option<(GameInfo, BTreeMap<String, String>)>,
    games: Vec<RawGame>,
    resigned: Vec<bool>,
    /// The line of the `(` of the tree being read, and its game once its
    /// root is read.
    tree_line: usize,
    current: Option<GameReader>,
}

impl Visitor for MatchReader {
    fn tree(&mut self, line: usize) -> Result<(), MatError> {
        self.tree_line = line;
        Ok(())
    }

    fn node(&mut self, node: &Node<'_>) -> Result<(), MatError> {
        match &mut self.current {
            Some(game) => game.node(node),
            None => {
                let ordinal = u32::try_from(self.games.len()).unwrap_or(u32::MAX).saturating_add(1);
                let game = GameReader::new(self.tree_line, node, ordinal)?;
                if self.first.is_none() {
                    self.first = Some((game.info.clone(), headers(node)));
                }
                self.current = Some(game);
                Ok(())
            }
        }
    }

    fn end(&mut self) -> Result<(), MatError> {
        let Some(game) = self.current.take() else { return Ok(()) };
        let (info, mut raw) = game.finish();
        if let Some((first, _)) = &self.first {
            let place = |reason: String| err(raw.line, Some(raw.number), reason);
            if info.players != first.players {
                return Err(place(format!(
                    "players {} and {} differ from the first game's {} and {}",
                    quote(&info.players[0]),
                    quote(&info.players[1]),
                    quote(&first.players[0]),
                    quote(&first.players[1])
                )));
            }
            if info.length != first.length {
                return Err(place(format!(
                    "match length {} differs from the first game's {}",
                    info.length, first.length
                )));
            }
        }
        if info.length > 0 {
            raw.crawford_game = Some(info.crawford_game);
        }
        self.resigned.push(info.result.is_some_and(|r| r.2));
        self.games.push(raw);
        Ok(())
    }
}

impl MatchReader {
    /// The match read (at least one game tree was: the syntax layer
    /// refuses a file without one).
    pub(super) fn finish(self) -> Result<(RawMatch, Resigned), MatError> {
        let Some((first, headers)) = self.first else {
            return Err(err(1, None, "no game tree `(;…)` in the file"));
        };
        let mut games = self.games;
        let crawford = first.length == 0 || first.crawford;
        let start = (first.length > 0 && first.score != [0, 0]).then(|| {
            let one_away = first.score.iter().any(|&s| s.saturating_add(1) == first.length);
            MatchStart { score: first.score, post_crawford: one_away && (!first.crawford_game || !first.crawford) }
        });
        // Without the Crawford rule there is no Crawford game to check.
        if !crawford {
            for g in &mut games {
                g.crawford_game = None;
            }
        }
        let rules = MatchRules {
            length: first.length,
            cube: first.cube,
            jacoby: first.jacoby,
            // A file records what was played: beavers in money play are taken as written.
            beaver: true,
            ..MatchRules::money()
        };
        let raw = RawMatch { headers, rules, crawford, start, players: first.players, games };
        Ok((raw, Resigned(self.resigned)))
    }
}
