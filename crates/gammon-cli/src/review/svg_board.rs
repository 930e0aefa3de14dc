//! A backgammon board as inline SVG, seen by the player to move: his
//! checkers dark and moving from his 24-point (top right) round to his
//! home board (bottom right), the opponent's light; the points numbered
//! from his side, the bar, the borne-off trays, the cube and the pip counts.
//!
//! The drawing has a fixed `viewBox` and no width, so it scales to the page
//! (a phone included).

use super::escape::escape;
use gammon_rules::{CubeOwner, GameContext, Position, BAR, CHECKERS_PER_SIDE, OFF};
use std::fmt::Write;

/// Width of a point (and of a checker's column).
const POINT: f64 = 24.0;
/// Checker radius.
const R: f64 = 11.0;
/// Checkers drawn on a point before the stack shows its count.
const STACK: u8 = 5;
/// Left margin (the cube's column).
const CUBE_COL: f64 = 34.0;
/// Left edge of the playing area.
const LEFT: f64 = CUBE_COL;
/// Width of the bar.
const BAR_W: f64 = POINT;
/// Width of the borne-off tray on the right.
const TRAY_W: f64 = 34.0;
/// Top of the playing area (below the point numbers).
const TOP: f64 = 16.0;
/// Height of the playing area.
const HEIGHT: f64 = 2.0 * DEPTH + 40.0;
/// Length of a point's triangle: a full stack.
const DEPTH: f64 = STACK as f64 * 2.0 * R;
/// Width of the playing area.
const WIDTH: f64 = 12.0 * POINT + BAR_W;
/// The whole drawing.
const VIEW_W: f64 = LEFT + WIDTH + TRAY_W + 4.0;
const VIEW_H: f64 = TOP + HEIGHT + 24.0 + 2.0 * LEGEND_LINE;
/// Height of a line of the legend.
const LEGEND_LINE: f64 = 2.0 * R + 4.0;

const MINE: &str = "#2b2b2b";
const MINE_TEXT: &str = "#fff";
const THEIRS: &str = "#f4f1e8";
const THEIRS_TEXT: &str = "#222";

/// Who owns which side of the board: `mover` is on roll (bottom), the
/// names as the file writes them (escaped here).
pub struct Players<'a> {
    /// The player to move.
    pub mover: &'a str,
    /// His opponent.
    pub opponent: &'a str,
}

/// The board of `pos` (seen by the player to move) with the cube of
/// `context` (also his view), as an `<svg>` element.
pub fn board(pos: &Position, context: &GameContext, players: &Players<'_>) -> String {
    let mut s = String::new();
    let _ = write!(
        s,
        "<svg class=\"board\" viewBox=\"0 0 {VIEW_W} {VIEW_H}\" role=\"img\" \
         aria-label=\"Position ID {id}\"><title>Position ID {id}</title>",
        id = escape(&pos.to_position_id())
    );
    frame(&mut s);
    for point in 1..=24 {
        triangle(&mut s, point);
        let (n, mine) = match pos.my_checkers(point) {
            0 => (pos.their_checkers(point), false),
            n => (n, true),
        };
        stack(&mut s, point, n, mine);
    }
    bar(&mut s, pos.my_checkers(BAR), pos.their_checkers(OFF));
    let (my_off, their_off) = pos.borne_off();
    tray(&mut s, my_off, their_off);
    cube(&mut s, context);
    labels(&mut s, pos, players);
    s.push_str("</svg>");
    s
}

/// Left x of the column of the mover's point `p` (1..=24): 1..6 bottom
/// right, 7..12 bottom left, 13..18 top left, 19..24 top right.
fn column_x(p: usize) -> f64 {
    // Column index from the left, 0..12, then the bar after the sixth.
    let col = if p <= 12 { 12 - p } else { p - 13 };
    let x = LEFT + col as f64 * POINT;
    if col >= 6 {
        x + BAR_W
    } else {
        x
    }
}

fn is_top(p: usize) -> bool {
    p >= 13
}

fn frame(s: &mut String) {
    let _ = write!(
        s,
        "<rect x=\"{LEFT}\" y=\"{TOP}\" width=\"{WIDTH}\" height=\"{HEIGHT}\" fill=\"#2f6b3a\" stroke=\"#5a3a1a\" \
         stroke-width=\"3\"/><rect x=\"{bx}\" y=\"{TOP}\" width=\"{BAR_W}\" height=\"{HEIGHT}\" fill=\"#5a3a1a\"/>\
         <rect x=\"{tx}\" y=\"{TOP}\" width=\"{tw}\" height=\"{HEIGHT}\" fill=\"#e8e1cf\" stroke=\"#5a3a1a\" \
         stroke-width=\"3\"/>",
        bx = LEFT + 6.0 * POINT,
        tx = LEFT + WIDTH + 2.0,
        tw = TRAY_W - 2.0,
    );
}

fn triangle(s: &mut String, p: usize) {
    let x = column_x(p);
    let (base, tip) = if is_top(p) { (TOP, TOP + DEPTH) } else { (TOP + HEIGHT, TOP + HEIGHT - DEPTH) };
    let fill = if p.is_multiple_of(2) { "#c9b07a" } else { "#9c3b2e" };
    let _ = write!(
        s,
        "<polygon points=\"{x},{base} {x2},{base} {mid},{tip}\" fill=\"{fill}\"/>",
        x2 = x + POINT,
        mid = x + POINT / 2.0
    );
    // The point's number, outside the playing area.
    let y = if is_top(p) { TOP - 4.0 } else { TOP + HEIGHT + 12.0 };
    let _ = write!(s, "<text x=\"{}\" y=\"{y}\" class=\"pt\">{p}</text>", x + POINT / 2.0);
}

fn checker(s: &mut String, cx: f64, cy: f64, mine: bool, label: Option<u8>) {
    let (fill, text) = if mine { (MINE, MINE_TEXT) } else { (THEIRS, THEIRS_TEXT) };
    let _ = write!(s, "<circle cx=\"{cx}\" cy=\"{cy}\" r=\"{R}\" fill=\"{fill}\" stroke=\"#111\" stroke-width=\"1\"/>");
    if let Some(n) = label {
        let _ = write!(s, "<text x=\"{cx}\" y=\"{}\" class=\"n\" fill=\"{text}\">{n}</text>", cy + 4.0);
    }
}

fn stack(s: &mut String, p: usize, n: u8, mine: bool) {
    let cx = column_x(p) + POINT / 2.0;
    for i in 0..n.min(STACK) {
        let offset = R + f64::from(i) * 2.0 * R;
        let cy = if is_top(p) { TOP + offset } else { TOP + HEIGHT - offset };
        // The last checker drawn carries the count of a taller stack.
        let label = (i == STACK - 1 && n > STACK).then_some(n);
        checker(s, cx, cy, mine, label);
    }
}

/// The mover's checkers on the bar below the middle, the opponent's above.
fn bar(s: &mut String, mine: u8, theirs: u8) {
    let cx = LEFT + 6.0 * POINT + BAR_W / 2.0;
    let middle = TOP + HEIGHT / 2.0;
    for (n, mine, dir) in [(mine, true, 1.0), (theirs, false, -1.0)] {
        let shown = n.min(3);
        for i in 0..shown {
            // The outermost checker carries the count of two or more.
            let label = (i + 1 == shown && n > 1).then_some(n);
            checker(s, cx, middle + dir * (R + 8.0 + f64::from(i) * 2.0 * R), mine, label);
        }
    }
}

/// Borne-off checkers as thin bars with their count: the opponent's at the
/// top, the mover's at the bottom.
fn tray(s: &mut String, mine: u8, theirs: u8) {
    let x = LEFT + WIDTH + 6.0;
    let w = TRAY_W - 10.0;
    let slab = (HEIGHT / 2.0 - 24.0) / f64::from(CHECKERS_PER_SIDE);
    for (n, mine) in [(theirs, false), (mine, true)] {
        let (fill, _) = if mine { (MINE, MINE_TEXT) } else { (THEIRS, THEIRS_TEXT) };
        for i in 0..n {
            let off = 4.0 + f64::from(i) * slab;
            let y = if mine { TOP + HEIGHT - off - slab } else { TOP + off };
            let _ =
                write!(s, "<rect x=\"{x}\" y=\"{y}\" width=\"{w}\" height=\"{}\" fill=\"{fill}\" stroke=\"#111\" stroke-width=\"0.5\"/>", slab - 0.5);
        }
        let y = if mine { TOP + HEIGHT / 2.0 + 16.0 } else { TOP + HEIGHT / 2.0 - 8.0 };
        let _ = write!(s, "<text x=\"{}\" y=\"{y}\" class=\"off\">{n} off</text>", x + w / 2.0);
    }
}

/// The cube in the left column: in the middle when centred, at the top
/// when the opponent owns it, at the bottom when the mover does. Not drawn
/// in the Crawford game, where nobody may double.
fn cube(s: &mut String, context: &GameContext) {
    let size = 26.0;
    let x = (CUBE_COL - size) / 2.0;
    if context.crawford {
        let _ = write!(s, "<text x=\"{}\" y=\"{}\" class=\"off\">Crawford</text>", CUBE_COL / 2.0 + 2.0, TOP - 4.0);
        return;
    }
    let y = match context.cube_owner {
        CubeOwner::Centered => TOP + HEIGHT / 2.0 - size / 2.0,
        CubeOwner::Opponent => TOP + 4.0,
        CubeOwner::OnRoll => TOP + HEIGHT - size - 4.0,
    };
    let _ = write!(
        s,
        "<g class=\"cube\"><rect x=\"{x}\" y=\"{y}\" width=\"{size}\" height=\"{size}\" rx=\"4\" fill=\"#fff\" \
         stroke=\"#111\" stroke-width=\"1.5\"/><text x=\"{}\" y=\"{}\" class=\"cv\">{}</text></g>",
        x + size / 2.0,
        y + size / 2.0 + 5.0,
        context.cube_value
    );
}

/// Who plays which colour, and the pip counts, under the board: one line
/// each, so that long names do not run into each other.
fn labels(s: &mut String, pos: &Position, players: &Players<'_>) {
    let (mine, theirs) = pos.pip_count();
    let lines = [(true, players.mover, " to move", mine), (false, players.opponent, "", theirs)];
    for (i, (is_mover, name, what, pips)) in lines.into_iter().enumerate() {
        let y = TOP + HEIGHT + 32.0 + i as f64 * LEGEND_LINE;
        checker(s, LEFT + R, y - 4.0, is_mover, None);
        let _ = write!(
            s,
            "<text x=\"{}\" y=\"{y}\" class=\"who\">{}{what}: {pips} pips</text>",
            LEFT + 2.0 * R + 6.0,
            escape(name)
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(haystack: &str, needle: &str) -> usize {
        haystack.matches(needle).count()
    }

    #[test]
    fn the_starting_position_draws_every_checker_and_point() {
        let svg = board(&Position::STARTING, &GameContext::money(), &Players { mover: "a", opponent: "b" });
        assert!(svg.starts_with("<svg") && svg.ends_with("</svg>"));
        assert_eq!(count(&svg, "<polygon"), 24);
        // 15 + 15 checkers on the points (no stack above five) and the
        // two in the legend.
        assert_eq!(count(&svg, &format!("fill=\"{MINE}\" stroke=\"#111\" stroke-width=\"1\"")), 16);
        assert_eq!(count(&svg, &format!("fill=\"{THEIRS}\" stroke=\"#111\" stroke-width=\"1\"")), 16);
        assert!(svg.contains("167 pips"));
        assert!(svg.contains("0 off"));
    }

    #[test]
    fn names_are_escaped_and_points_are_numbered_from_the_mover() {
        let svg = board(&Position::STARTING, &GameContext::money(), &Players { mover: "<x>&", opponent: "\"o\"" });
        assert!(svg.contains("&lt;x&gt;&amp; to move: 167 pips"));
        assert!(svg.contains("&quot;o&quot;"));
        assert!(!svg.contains("<x>"));
        // The mover's ace point is the rightmost of the bottom row.
        assert!(column_x(1) > column_x(6) && column_x(6) > column_x(7) && column_x(7) > column_x(12));
        assert!(column_x(24) > column_x(19) && column_x(13) < column_x(18));
        assert_eq!(column_x(1), column_x(24));
    }

    #[test]
    fn the_cube_sits_with_its_owner() {
        let players = Players { mover: "a", opponent: "b" };
        let mut ctx = GameContext::money();
        ctx.cube_value = 4;
        ctx.cube_owner = CubeOwner::OnRoll;
        let bottom = board(&Position::STARTING, &ctx, &players);
        ctx.cube_owner = CubeOwner::Opponent;
        let top = board(&Position::STARTING, &ctx, &players);
        assert!(bottom.contains(">4</text></g>") && top.contains(">4</text></g>"));
        assert_ne!(bottom, top);
        ctx.crawford = true;
        assert!(!board(&Position::STARTING, &ctx, &players).contains("class=\"cube\""));
    }

    #[test]
    fn tall_stacks_the_bar_and_borne_off_checkers_show_their_counts() {
        // Mover: 7 on his 6-point, 2 on the bar, 6 off. Opponent: 12 on
        // his ace point (the mover's 24), 1 on the bar, 2 off.
        let mut mine = [0u8; 25];
        mine[5] = 7;
        mine[24] = 2;
        let mut theirs = [0u8; 25];
        theirs[0] = 12;
        theirs[24] = 1;
        let pos = Position::from_boards(&mine, &theirs).expect("15 checkers a side");
        let svg = board(&pos, &GameContext::money(), &Players { mover: "a", opponent: "b" });
        assert!(svg.contains(&format!("fill=\"{MINE_TEXT}\">7</text>")), "the stack of 7");
        assert!(svg.contains(&format!("fill=\"{THEIRS_TEXT}\">12</text>")), "the stack of 12");
        assert!(svg.contains(&format!("fill=\"{MINE_TEXT}\">2</text>")), "two on the bar");
        assert!(svg.contains(">6 off<") && svg.contains(">2 off<"));
        let (my_pips, their_pips) = pos.pip_count();
        assert!(svg.contains(&format!("a to move: {my_pips} pips")) && svg.contains(&format!("b: {their_pips} pips")));
    }
}
