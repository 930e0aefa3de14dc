// The page's state, shared by its modules, and the hooks between them (set
// by main.mjs, so that no module imports the one that imports it).
//
// Conventions used throughout:
// - A "board" is {0: side, 1: side}, where side 0 is the player on roll
//   and side 1 the other; each side is 26 counts in its own numbering:
//   index 0 borne off, 1..24 the points, 25 the bar (the shape of
//   /api/position's `board`).
// - Every checker drawn carries data-player (0 on roll, 1 the other) and
//   data-point (1-24 in the on-roll player's numbering, "bar" or "off").

import { startingBoard } from './board.mjs';

export const state = {
  positionText: 'start', // what the API is asked about (the user's text)
  board: startingBoard(), // the position being analysed
  info: null, // /api/position's answer for it
  context: null, // /api/position's context (cube, owner, score)
  dice: null, // "31" or null
  ply: 0,
  flipped: false,
  preview: null, // {board, label} shown instead of the position
  pinned: null, // the move row clicked
  editing: null, // {board} while setting up a position
  seq: { load: 0, moves: 0, cube: 0, play: 0, preview: 0 }, // answers to older requests are dropped
  rollout: null, // {id, timer}
  review: null, // {data, items, index}
  reviewJob: null,
  reviewFile: null, // the chosen match file, in base64
  tab: 'analyse',
  play: null, // the game against the engine (see play.mjs)
  playTally: null, // points won by each side in money play, this page's count
};

export const $ = (id) => document.getElementById(id);

const hooks = { redraw: () => {}, showTab: () => {} };

// main.mjs sets what redraw and showTab do.
export function setHooks(h) {
  Object.assign(hooks, h);
}

export const redraw = () => hooks.redraw();
export const showTab = (name) => hooks.showTab(name);
