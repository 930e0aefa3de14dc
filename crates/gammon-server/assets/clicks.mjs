// A move taken by clicks, matched against the legal moves the server sent
// (/api/moves: `moves` and their `step_graph`, docs/json.md). The page knows
// no rules: a step may be clicked when the graph has it next, whichever of
// the orders the rules allow the user follows; the move is complete when the
// graph says so.

import { copyBoard, moverBoard } from './board.mjs';
import { pointName } from './format.mjs';

export class Clicks {
  // `answer` is /api/moves' answer for the position and dice.
  constructor(answer) {
    this.moves = answer.moves || [];
    this.graph = answer.step_graph || [];
    this.steps = []; // the steps clicked so far
    this.node = 0;
    this.from = null; // the point picked to move from ("13", "bar")
  }

  // The steps that may come next: [{from, to, die, hit, next}].
  next() {
    return this.graph.length ? this.graph[this.node].steps : [];
  }

  // The points ("bar", "13") a checker may move from now.
  sources() {
    return [...new Set(this.next().map((s) => pointName(s.from)))];
  }

  // The points ("7", "off") the checker on `from` may go to now.
  targets(from) {
    return this.next().filter((s) => pointName(s.from) === from).map((s) => pointName(s.to));
  }

  // Plays the step `from`/`to` (point names) if it may come next: the
  // step, or null.
  play(from, to) {
    const step = this.next().find((s) => pointName(s.from) === from && pointName(s.to) === to);
    if (!step) return null;
    this.steps.push(step);
    this.node = step.next;
    this.from = null;
    return step;
  }

  // The legal move the clicks have played (its gnubg notation), or null
  // while it is not complete.
  done() {
    const node = this.graph[this.node];
    if (!node || node.move === null || node.steps.length > 0) return null;
    return this.moves[node.move].notation;
  }

  undo() {
    this.steps = [];
    this.node = 0;
    this.from = null;
  }

  // The dice the clicked steps used, in order.
  diceUsed() {
    return this.steps.map((s) => s.die);
  }
}

// `board` (side 0 the mover) after `steps`: each checker moved, and a blot
// the server says is hit put on the bar. Counting only, no rules.
export function boardAfter(board, steps) {
  const next = copyBoard(board);
  for (const s of steps) {
    next[0][s.from] -= 1;
    next[0][s.to] += 1;
    if (s.hit) {
      next[1][25 - s.to] -= 1;
      next[1][25] += 1;
    }
  }
  return next;
}

// The board after a whole move, from /api/position's answer for its result
// (seen by the next player).
export const afterMove = (answer) => moverBoard({ 0: answer.board.on_roll.slice(), 1: answer.board.opponent.slice() });
