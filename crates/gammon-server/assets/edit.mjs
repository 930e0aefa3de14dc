// Setting up a position by clicking (Edit position): the board is counted
// here and handed to the server as a Position ID.

import { clearError, showError } from './api.mjs';
import { copyBoard, pipCount, startingBoard } from './board.mjs';
import { encodePositionId } from './ids.mjs';
import { loadPosition } from './analysis.mjs';
import { $, redraw, state } from './state.mjs';

export function startEditing() {
  state.editing = { board: copyBoard(state.board) };
  state.preview = null;
  $('edit-panel').hidden = false;
  $('edit-button').disabled = true;
  redraw();
}

export function stopEditing() {
  state.editing = null;
  $('edit-panel').hidden = true;
  $('edit-button').disabled = false;
  redraw();
}

// The lines under the board while editing.
export function showEditLines() {
  const board = state.editing.board;
  // A Position ID alone is money play with a centred cube.
  $('position-ids').textContent = `Position ID ${encodePositionId(board)}`;
  $('context-line').textContent = `editing · pips: on roll ${pipCount(board[0])}, opponent ${pipCount(board[1])} · analysed as money play, cube centred`;
}

function editSide() {
  const checked = document.querySelector('input[name="edit-side"]:checked');
  return checked ? Number(checked.value) : 0;
}

// `target` is a point in the on-roll numbering (1-24) or "bar".
function editAdd(target) {
  const board = state.editing.board;
  const side = editSide();
  const other = 1 - side;
  if (board[side][0] === 0) {
    showError('that side already has all 15 checkers on the board: remove one first');
    return;
  }
  if (target !== 'bar') {
    const own = side === 0 ? target : 25 - target;
    const theirs = 25 - own;
    if (board[other][theirs] > 0) {
      showError(`point ${target} holds the other side's checkers: remove them first`);
      return;
    }
    board[side][own] += 1;
  } else {
    board[side][25] += 1;
  }
  board[side][0] -= 1;
  clearError();
  redraw();
}

function editRemove(target) {
  const board = state.editing.board;
  const first = editSide();
  // Remove the chosen side's checker there, or else whatever is there.
  for (const side of [first, 1 - first]) {
    const index = target === 'bar' ? 25 : (side === 0 ? target : 25 - target);
    if (board[side][index] > 0) {
      board[side][index] -= 1;
      board[side][0] += 1;
      redraw();
      return;
    }
  }
}

export function wireEditing() {
  const board = $('board');
  const targetOf = (ev) => {
    const hit = ev.target.closest('[data-hit]');
    if (!hit) return null;
    return hit.dataset.hit === 'bar' ? 'bar' : Number(hit.dataset.hit);
  };
  board.addEventListener('click', (ev) => {
    if (!state.editing) return;
    const t = targetOf(ev);
    if (t === null) return;
    if (ev.shiftKey) editRemove(t);
    else editAdd(t);
  });
  board.addEventListener('contextmenu', (ev) => {
    if (!state.editing) return;
    const t = targetOf(ev);
    if (t === null) return;
    ev.preventDefault();
    editRemove(t);
  });
  $('edit-button').addEventListener('click', startEditing);
  $('edit-cancel').addEventListener('click', stopEditing);
  $('edit-clear').addEventListener('click', () => {
    const empty = () => { const s = new Array(26).fill(0); s[0] = 15; return s; };
    state.editing.board = { 0: empty(), 1: empty() };
    redraw();
  });
  $('edit-start').addEventListener('click', () => {
    state.editing.board = startingBoard();
    redraw();
  });
  $('edit-swap').addEventListener('click', () => {
    const b = state.editing.board;
    state.editing.board = { 0: b[1], 1: b[0] };
    redraw();
  });
  $('edit-done').addEventListener('click', () => {
    // A Position ID alone is money play with a centred cube.
    const id = encodePositionId(state.editing.board);
    stopEditing();
    loadPosition(id, state.dice);
  });
}
