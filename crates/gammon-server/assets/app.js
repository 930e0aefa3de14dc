// gammon's web page: the board, the analysis of a position and the review
// of a match, all through the server's JSON API (docs/server.md). Plain
// script, no framework and nothing fetched but this server's /api.
//
// Conventions used throughout:
// - A "board" is {0: side, 1: side}, where side 0 is the player on roll
//   and side 1 the other; each side is 26 counts in its own numbering:
//   index 0 borne off, 1..24 the points, 25 the bar (the shape of
//   /api/position's `board`).
// - Every checker drawn carries data-player (0 on roll, 1 the other) and
//   data-point (1-24 in the on-roll player's numbering, "bar" or "off").
'use strict';

// ------------------------------------------------------------- IDs

const BASE64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

// Base64 text to bytes (no padding), as gnubg writes its IDs.
function base64Bytes(text, byteCount) {
  const bytes = new Uint8Array(byteCount);
  let acc = 0;
  let bits = 0;
  let i = 0;
  for (const c of text) {
    const v = BASE64.indexOf(c);
    if (v < 0) throw new Error(`"${c}" is not a Base64 character`);
    acc = ((acc << 6) | v) & 0xffff;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      if (i < byteCount) bytes[i] = (acc >> bits) & 0xff;
      i += 1;
    }
  }
  return bytes;
}

function bytesBase64(bytes, chars) {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] || 0) << 8) | (bytes[i + 2] || 0);
    for (const shift of [18, 12, 6, 0]) out += BASE64[(n >> shift) & 63];
  }
  return out.slice(0, chars);
}

// Bit k of a gnubg key lives in byte k/8 at bit k%8, least significant first.
function keyBit(bytes, k) {
  return (bytes[k >> 3] >> (k & 7)) & 1;
}

// Decodes a gnubg Position ID (crates/gammon-rules/src/position_id.rs): the
// player not on roll first, then the player on roll; 25 unary counts each.
function decodePositionId(id) {
  if (typeof id !== 'string' || id.length !== 14) throw new Error('a Position ID has 14 characters');
  const bytes = base64Bytes(id, 10);
  const halves = [new Array(26).fill(0), new Array(26).fill(0)];
  let k = 0;
  for (const half of halves) {
    for (let index = 1; index <= 25; index += 1) {
      while (k < 80 && keyBit(bytes, k) === 1) {
        half[index] += 1;
        k += 1;
      }
      if (k >= 80) throw new Error('the counts run past 80 bits');
      k += 1; // the 0 that ends this count
    }
  }
  const [notOnRoll, onRoll] = halves;
  for (const side of halves) {
    const onBoard = side.slice(1).reduce((a, b) => a + b, 0);
    if (onBoard > 15) throw new Error('more than 15 checkers of one side');
    side[0] = 15 - onBoard;
  }
  return { 0: onRoll, 1: notOnRoll };
}

function encodePositionId(board) {
  const bytes = new Uint8Array(10);
  let k = 0;
  for (const side of [board[1], board[0]]) {
    for (let index = 1; index <= 25; index += 1) {
      for (let n = 0; n < side[index]; n += 1) {
        bytes[k >> 3] |= 1 << (k & 7);
        k += 1;
      }
      k += 1;
    }
  }
  return bytesBase64(bytes, 14);
}

// A position after a move (`result`, `after`) is seen by the next player:
// his on-roll half is the mover's opponent. Swapping keeps the mover as side 0.
function decodeAfterMove(id) {
  const seenByNext = decodePositionId(id);
  return { 0: seenByNext[1], 1: seenByNext[0] };
}

// The fields of a gnubg Match ID the board shows (crates/gammon-rules/src/match_id.rs).
function decodeMatchId(id) {
  if (typeof id !== 'string' || id.length !== 12) throw new Error('a Match ID has 12 characters');
  const bytes = base64Bytes(id, 9);
  const field = (start, width) => {
    let v = 0;
    for (let j = 0; j < width; j += 1) v |= keyBit(bytes, start + j) << j;
    return v;
  };
  const ownerSeat = field(4, 2); // 0, 1, or 3 = centred
  const actingSeat = field(11, 1); // who must act now: the side shown as 0
  const dice = [field(15, 3), field(18, 3)];
  return {
    cube: 1 << field(0, 4),
    owner: ownerSeat === 3 ? null : (ownerSeat === actingSeat ? 0 : 1),
    crawford: field(7, 1) === 1,
    matchLength: field(21, 15),
    score: [field(36, 15), field(51, 15)],
    dice: dice[0] > 0 ? `${dice[0]}${dice[1]}` : null,
  };
}

function pipCount(side) {
  let pips = 25 * side[25];
  for (let p = 1; p <= 24; p += 1) pips += p * side[p];
  return pips;
}

function startingBoard() {
  const side = () => {
    const s = new Array(26).fill(0);
    s[24] = 2; s[13] = 5; s[8] = 3; s[6] = 5;
    return s;
  };
  return { 0: side(), 1: side() };
}

function copyBoard(board) {
  return { 0: board[0].slice(), 1: board[1].slice() };
}

// ------------------------------------------------------------- API

class ApiError extends Error {
  constructor(field, reason) {
    super(field ? `${field}: ${reason}` : reason);
    this.field = field;
  }
}

// Every answer is JSON; a refusal is {"error": {"field", "reason"}}.
async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError(null, `cannot reach the server (${e.message})`);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    throw new ApiError(null, `the server answered ${response.status} without JSON`);
  }
  if (!response.ok) {
    const err = data && data.error;
    if (err && typeof err.reason === 'string') throw new ApiError(err.field, err.reason);
    throw new ApiError(null, `the server answered ${response.status}`);
  }
  return data;
}

function query(params) {
  const parts = [];
  for (const [key, value] of Object.entries(params)) {
    // The API refuses parameters it does not take, so absent ones are left out.
    if (value !== null && value !== undefined && value !== '') {
      parts.push(`${key}=${encodeURIComponent(value)}`);
    }
  }
  return parts.join('&');
}

// ------------------------------------------------------------- page state

// `?seed=N` in the address the page was opened at replays a game (tests, bug
// reports); read before the page rewrites its address. Else a fresh seed.
const ASKED_SEED = new URLSearchParams(location.search).get('seed');

const state = {
  positionText: 'start', // what the API is asked about (the user's text)
  board: startingBoard(), // the position being analysed
  context: null, // /api/position's context (cube, owner, score)
  dice: null, // "31" or null
  ply: 0,
  flipped: false,
  preview: null, // {board, label} shown instead of the position
  pinned: null, // the move row clicked
  editing: null, // {board} while setting up a position
  seq: { load: 0, moves: 0, cube: 0, play: 0 }, // answers to older requests are dropped
  rollout: null, // {id, timer}
  review: null, // {data, items, index}
  reviewJob: null,
  reviewText: null,
  tab: 'analyse',
  play: null, // the game against the engine (see playStateFrom)
  playTally: null, // points won by each side in money play, this page's count
};

const $ = (id) => document.getElementById(id);

function showError(message) {
  const box = $('error');
  box.textContent = message;
  box.hidden = false;
}

function clearError() {
  $('error').hidden = true;
  $('error').textContent = '';
}

// ------------------------------------------------------------- drawing

const SVG_NS = 'http://www.w3.org/2000/svg';

function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  if (parent) parent.appendChild(el);
  return el;
}

// Board geometry, in viewBox units (the viewBox in index.html is 790 x 568).
const G = (() => {
  const g = { left: 60, frame: 10, pointW: 48, barW: 48, trayW: 56, margin: 26, r: 21, halfH: 220, gap: 56 };
  g.leftHalfX = g.left + g.frame;
  g.barX = g.leftHalfX + 6 * g.pointW;
  g.rightHalfX = g.barX + g.barW;
  g.innerRight = g.rightHalfX + 6 * g.pointW;
  g.trayX = g.innerRight + g.frame;
  g.topY = g.margin + g.frame;
  g.midY = g.topY + g.halfH + g.gap / 2;
  g.bottomY = g.topY + 2 * g.halfH + g.gap;
  g.width = g.trayX + g.trayW + g.frame + 4;
  g.height = g.bottomY + g.frame + g.margin;
  return g;
})();

// Where point `s` (1-24, numbered from the player at the bottom) is drawn:
// his home board bottom right, like gnubg's and XG's default board.
function pointSlot(s) {
  const W = G.pointW;
  if (s <= 6) return { x: G.rightHalfX + (6 - s + 0.5) * W, top: false };
  if (s <= 12) return { x: G.leftHalfX + (12 - s + 0.5) * W, top: false };
  if (s <= 18) return { x: G.leftHalfX + (s - 13 + 0.5) * W, top: true };
  return { x: G.rightHalfX + (s - 19 + 0.5) * W, top: true };
}

// A view says what to draw: the board, who sits at the bottom, the colour
// of each side, the cube and the dice.
function analyseView() {
  const board = state.editing ? state.editing.board : (state.preview ? state.preview.board : state.board);
  const ctx = state.context;
  const cube = ctx ? { value: ctx.cube, owner: ownerIndex(ctx.owner) } : { value: 1, owner: null };
  return {
    board,
    bottom: state.flipped ? 1 : 0,
    colours: ['dark', 'light'],
    cube,
    // After a move the dice are used: show them only on the position itself.
    dice: state.preview || state.editing ? null : state.dice,
    note: state.preview ? state.preview.label : (state.editing ? 'editing' : ''),
  };
}

function ownerIndex(owner) {
  if (owner === 'me') return 0;
  if (owner === 'opponent') return 1;
  return null;
}

function drawBoard(view) {
  const root = $('board');
  root.replaceChildren();
  root.dataset.preview = view.note ? 'true' : 'false';
  drawFrame(root);
  drawPoints(root);
  view.targets = view.play ? drawPlayTargets(root) : null;
  for (const side of [0, 1]) drawSide(root, view, side);
  drawCube(root, view);
  // The dice lie in the right half of the player who rolled them.
  if (view.dice) drawDice(root, view.dice, (view.diceOwner || 0) === view.bottom ? G.rightHalfX : G.leftHalfX);
  drawPips(root, view);
  if (view.note) {
    // In the middle of the right half, free of dice whenever there is a
    // note (a preview shows no dice; the engine's dice lie in the left
    // half); above the bar it ran into the point numbers.
    svg('text', { x: G.rightHalfX + 3 * G.pointW, y: G.midY + 5, class: `board-note${view.play ? ' play-note' : ''}`, 'text-anchor': 'middle' }, root)
      .textContent = view.note;
  }
  drawHitAreas(root, view.bottom);
}

function drawFrame(root) {
  svg('rect', { x: G.left, y: G.margin, width: G.innerRight - G.left + G.frame, height: G.bottomY - G.margin + G.frame, class: 'frame', rx: 6 }, root);
  svg('rect', { x: G.leftHalfX, y: G.topY, width: 6 * G.pointW, height: G.bottomY - G.topY, class: 'felt' }, root);
  svg('rect', { x: G.rightHalfX, y: G.topY, width: 6 * G.pointW, height: G.bottomY - G.topY, class: 'felt' }, root);
  svg('rect', { x: G.barX, y: G.topY, width: G.barW, height: G.bottomY - G.topY, class: 'bar' }, root);
  // The borne-off trays: the top player's above, the bottom player's below.
  svg('rect', { x: G.trayX, y: G.margin, width: G.trayW + G.frame, height: G.bottomY - G.margin + G.frame, class: 'frame', rx: 6 }, root);
  svg('rect', { x: G.trayX + 4, y: G.topY, width: G.trayW - 2, height: G.halfH, class: 'tray' }, root);
  svg('rect', { x: G.trayX + 4, y: G.bottomY - G.halfH, width: G.trayW - 2, height: G.halfH, class: 'tray' }, root);
}

function drawPoints(root) {
  const W = G.pointW;
  const tipH = G.halfH - 20;
  for (let s = 1; s <= 24; s += 1) {
    const { x, top } = pointSlot(s);
    const base = top ? G.topY : G.bottomY;
    const tip = top ? G.topY + tipH : G.bottomY - tipH;
    svg('polygon', {
      points: `${x - W / 2},${base} ${x + W / 2},${base} ${x},${tip}`,
      class: s % 2 ? 'point point-odd' : 'point point-even',
    }, root);
    // Numbered from the side of the player at the bottom, as he counts.
    const label = svg('text', { x, y: top ? G.margin - 6 : G.bottomY + G.frame + 18, class: 'point-number', 'text-anchor': 'middle' }, root);
    label.textContent = String(s);
  }
}

// Screen numbering (from the bottom player) of a side's own point q.
function screenPoint(side, q, bottom) {
  return side === bottom ? q : 25 - q;
}

function drawSide(root, view, side) {
  const counts = view.board[side];
  const colour = view.colours[side];
  const atBottom = side === view.bottom;
  for (let q = 1; q <= 24; q += 1) {
    const n = counts[q];
    if (n === 0) continue;
    const { x, top } = pointSlot(screenPoint(side, q, view.bottom));
    const onRollPoint = side === 0 ? q : 25 - q;
    drawStack(stackParent(root, view, String(onRollPoint)), n, 5, colour, side, String(onRollPoint), x, (i) => (top ? G.topY + G.r + i * 2 * G.r : G.bottomY - G.r - i * 2 * G.r));
  }
  // On the bar the bottom player's checkers wait in the upper half, near the
  // home board they enter, the top player's in the lower half.
  if (counts[25] > 0) {
    const x = G.barX + G.barW / 2;
    const y = atBottom
      ? (i) => G.midY - G.gap / 2 - G.r - i * 2 * G.r
      : (i) => G.midY + G.gap / 2 + G.r + i * 2 * G.r;
    drawStack(stackParent(root, view, 'bar'), counts[25], 3, colour, side, 'bar', x, y);
  }
  // Only the bottom player's tray is a target (he bears off there).
  drawOff(atBottom ? stackParent(root, view, 'off') : root, counts[0], colour, side, atBottom);
}

// In the play tab each point's checkers sit inside its click target, so a
// click on a checker is a click on its point.
function stackParent(root, view, point) {
  return (view.targets && view.targets[point]) || root;
}

// One element per checker: beyond `visible` they sit under the last shown
// one with class hidden-checker, and the shown one carries the count.
function drawStack(root, n, visible, colour, side, point, x, yOf) {
  for (let i = 0; i < n; i += 1) {
    const shown = Math.min(i, visible - 1);
    const hidden = i >= visible;
    svg('circle', {
      cx: x, cy: yOf(shown), r: G.r - 1,
      class: `checker ${colour}${hidden ? ' hidden-checker' : ''}`,
      'data-player': side, 'data-point': point,
    }, root);
  }
  if (n > visible) {
    const t = svg('text', { x, y: yOf(visible - 1) + 6, class: `checker-count on-${colour}`, 'text-anchor': 'middle' }, root);
    t.textContent = String(n);
  }
}

function drawOff(root, n, colour, side, atBottom) {
  const h = 12;
  for (let i = 0; i < n; i += 1) {
    const y = atBottom ? G.bottomY - (i + 1) * (h + 1) : G.topY + 1 + i * (h + 1);
    svg('rect', {
      x: G.trayX + 10, y, width: G.trayW - 14, height: h, rx: 3,
      class: `checker off-checker ${colour}`, 'data-player': side, 'data-point': 'off',
    }, root);
  }
}

function drawCube(root, view) {
  const size = 40;
  const x = G.left / 2 - size / 2 + 2;
  let y = G.midY - size / 2;
  if (view.cube.owner !== null) {
    // The owner keeps the cube on his side of the board.
    y = view.cube.owner === view.bottom ? G.bottomY - size - 4 : G.topY + 4;
  }
  const g = svg('g', { class: 'cube', 'data-value': view.cube.value, 'data-owner': view.cube.owner === null ? 'centre' : view.cube.owner }, root);
  svg('rect', { x, y, width: size, height: size, rx: 5 }, g);
  // A centred cube at 1 shows 64, as on a real board.
  const label = view.cube.owner === null && view.cube.value === 1 ? '64' : String(view.cube.value);
  svg('text', { x: x + size / 2, y: y + size / 2 + 7, 'text-anchor': 'middle' }, g).textContent = label;
}

const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };

function drawDice(root, dice, halfX) {
  const size = 40;
  const values = [Number(dice[0]), Number(dice[1])];
  const centre = halfX + 3 * G.pointW;
  values.forEach((v, i) => {
    const x = centre + (i === 0 ? -size - 6 : 6);
    const y = G.midY - size / 2;
    const g = svg('g', { class: 'die', 'data-die': v }, root);
    svg('rect', { x, y, width: size, height: size, rx: 6 }, g);
    for (const [dx, dy] of PIPS[v] || []) {
      svg('circle', { cx: x + size / 2 + dx * 11, cy: y + size / 2 + dy * 11, r: 4 }, g);
    }
  });
}

function drawPips(root, view) {
  for (const side of [0, 1]) {
    const atBottom = side === view.bottom;
    const t = svg('text', {
      x: G.trayX + 4 + (G.trayW - 2) / 2, y: atBottom ? G.midY + 20 : G.midY - 8,
      class: 'pips', 'text-anchor': 'middle', 'data-side': side,
    }, root);
    t.textContent = String(pipCount(view.board[side]));
  }
  svg('text', { x: G.trayX + 4 + (G.trayW - 2) / 2, y: G.midY + 5, class: 'pips-label', 'text-anchor': 'middle' }, root).textContent = 'pips';
}

// Transparent targets for the edit mode, one per point and one for the bar.
function drawHitAreas(root, bottom) {
  if (!state.editing) return;
  for (let s = 1; s <= 24; s += 1) {
    const { x, top } = pointSlot(s);
    const onRollPoint = bottom === 0 ? s : 25 - s;
    svg('rect', {
      x: x - G.pointW / 2, y: top ? G.topY : G.midY, width: G.pointW, height: G.halfH + G.gap / 2,
      class: 'hit', 'data-hit': onRollPoint,
    }, root);
  }
  svg('rect', { x: G.barX, y: G.topY, width: G.barW, height: G.bottomY - G.topY, class: 'hit', 'data-hit': 'bar' }, root);
}

function redraw() {
  if (state.tab === 'play') {
    drawBoard(playView());
    markPlayBoard();
    showPlayLines();
    return;
  }
  if (state.tab === 'review' && state.review) {
    drawBoard(reviewView());
  } else {
    drawBoard(analyseView());
  }
  if (state.tab === 'review' && state.review) {
    showReviewLines();
    return;
  }
  const board = state.editing ? state.editing.board : state.board;
  if (state.editing) {
    // A Position ID alone is money play with a centred cube.
    $('position-ids').textContent = `Position ID ${encodePositionId(board)}`;
    $('context-line').textContent = `editing · pips: on roll ${pipCount(board[0])}, opponent ${pipCount(board[1])} · analysed as money play, cube centred`;
    return;
  }
  $('position-ids').textContent = idsText();
  showContext();
}

function idsText() {
  const info = state.info;
  if (!info) return '';
  return `${info.position_id}  ·  ${info.xgid}`;
}

// ------------------------------------------------------------- loading a position

// Reads what the user typed (or the address bar gave) through /api/position,
// which knows every form (XGID, PositionID:MatchID); a bare Position ID is
// drawn at once from the page's own decoder.
async function loadPosition(text, dice) {
  clearError();
  const seq = ++state.seq.load;
  text = (text || '').trim() || 'start';
  try {
    const board = decodePositionId(text);
    state.board = board;
    redraw();
  } catch (e) {
    // Not a bare Position ID: the server decides.
  }
  let info;
  try {
    info = await api('GET', `/api/position?${query({ position: text, dice })}`);
  } catch (e) {
    if (seq === state.seq.load) showError(e.message);
    return;
  }
  if (seq !== state.seq.load) return;
  state.positionText = text;
  state.info = info;
  state.board = { 0: info.board.on_roll.slice(), 1: info.board.opponent.slice() };
  state.context = info.context;
  state.dice = info.dice || null;
  state.preview = null;
  state.pinned = null;
  $('position-input').value = text;
  $('dice-input').value = state.dice || '';
  showContext();
  markDiceButton();
  updateAddress();
  redraw();
  analyseAll();
}

function showContext() {
  const c = state.context;
  const info = state.info;
  if (!c || !info) {
    $('context-line').textContent = '';
    return;
  }
  const parts = [];
  parts.push(c.match_length ? `${c.match_length}-point match, score ${c.score[0]}-${c.score[1]} (on roll first)` : 'money game');
  if (c.crawford) parts.push('Crawford game');
  const owner = c.owner === 'centre' ? 'centred' : (c.owner === 'me' ? 'owned by the player on roll' : 'owned by the opponent');
  parts.push(`cube ${c.cube} ${owner}`);
  parts.push(`pips: on roll ${info.pips[0]}, opponent ${info.pips[1]}`);
  $('context-line').textContent = parts.join(' · ');
}

// The address bar holds the position, so a link opens it again.
function updateAddress() {
  const readable = (v) => encodeURIComponent(v).replace(/%3A/gi, ':').replace(/%2F/gi, '/').replace(/%3D/gi, '=');
  let url = `/?position=${readable(state.positionText)}`;
  if (state.dice) url += `&dice=${state.dice}`;
  if (state.ply !== 0) url += `&ply=${state.ply}`;
  history.replaceState(null, '', url);
}

// ------------------------------------------------------------- moves and cube

function analyseAll() {
  analyseMoves();
  analyseCube();
}

async function analyseMoves() {
  const seq = ++state.seq.moves;
  const tbody = $('move-list').querySelector('tbody');
  if (!state.dice) {
    tbody.replaceChildren();
    $('moves-status').textContent = '(choose the dice)';
    return;
  }
  $('moves-status').textContent = `(${state.ply}-ply, thinking…)`;
  let answer;
  try {
    answer = await api('GET', `/api/analyse?${query({ position: state.positionText, dice: state.dice, ply: state.ply })}`);
  } catch (e) {
    if (seq !== state.seq.moves) return;
    tbody.replaceChildren();
    $('moves-status').textContent = '';
    showError(e.message);
    return;
  }
  if (seq !== state.seq.moves) return;
  showMoves(answer);
}

const pct = (x) => (x === null || x === undefined ? '' : (100 * x).toFixed(1));
const signed = (x, digits = 3) => (x === null || x === undefined ? '' : `${x < 0 ? '−' : '+'}${Math.abs(x).toFixed(digits)}`);

function showMoves(answer) {
  const tbody = $('move-list').querySelector('tbody');
  tbody.replaceChildren();
  const moves = answer.moves || [];
  $('moves-status').textContent = `(${answer.ply}-ply, ${answer.cubeful ? 'cubeful' : 'cubeless'}, ${moves.length} move${moves.length === 1 ? '' : 's'})`;
  if (moves.length === 0 || (moves.length === 1 && moves[0].move === '')) {
    const tr = document.createElement('tr');
    tr.innerHTML = '<td colspan="10">No legal move: the player on roll cannot move.</td>';
    tbody.appendChild(tr);
  }
  for (const m of moves) {
    if (m.move === '' && moves.length === 1) continue;
    const p = m.probabilities || {};
    const tr = document.createElement('tr');
    tr.dataset.move = m.move;
    tr.dataset.equity = String(m.equity);
    tr.dataset.result = m.result;
    const cells = [m.rank, m.move, signed(m.equity), m.loss > 0 ? signed(-m.loss) : '', pct(p.win), pct(p.win_gammon), pct(p.win_backgammon), pct(p.lose), pct(p.lose_gammon), pct(p.lose_backgammon)];
    for (const [i, c] of cells.entries()) {
      const td = document.createElement('td');
      td.textContent = String(c);
      if (i === 1) td.className = 'move';
      tr.appendChild(td);
    }
    tbody.appendChild(tr);
  }
  if (answer.notes && answer.notes.length) {
    const tr = document.createElement('tr');
    const td = document.createElement('td');
    td.colSpan = 10;
    td.className = 'muted';
    td.textContent = answer.notes.join(' ');
    tr.appendChild(td);
    tbody.appendChild(tr);
  }
}

// Hovering a row previews the position after it; a click keeps it.
function wireMoveList() {
  const table = $('move-list');
  table.addEventListener('mouseover', (ev) => {
    const tr = ev.target.closest('tr[data-result]');
    if (tr) previewMove(tr);
  });
  table.addEventListener('mouseleave', () => {
    if (state.pinned) previewMove(state.pinned);
    else endPreview();
  });
  table.addEventListener('click', (ev) => {
    const tr = ev.target.closest('tr[data-result]');
    if (!tr) return;
    if (state.pinned === tr) {
      tr.classList.remove('pinned');
      state.pinned = null;
      endPreview();
      return;
    }
    if (state.pinned) state.pinned.classList.remove('pinned');
    state.pinned = tr;
    tr.classList.add('pinned');
    previewMove(tr);
  });
}

function previewMove(tr) {
  try {
    state.preview = { board: decodeAfterMove(tr.dataset.result), label: `after ${tr.dataset.move}` };
  } catch (e) {
    showError(`cannot draw the position after ${tr.dataset.move}: ${e.message}`);
    return;
  }
  for (const row of $('move-list').querySelectorAll('tr.previewed')) row.classList.remove('previewed');
  tr.classList.add('previewed');
  redraw();
}

function endPreview() {
  state.preview = null;
  for (const row of $('move-list').querySelectorAll('tr.previewed')) row.classList.remove('previewed');
  redraw();
}

// The position before the roll, for the cube decision and a rollout of the
// position: an XGID or Match ID can carry rolled dice, and the API then
// answers with the moves, so the dice of the XGID are cleared ("00").
function beforeRoll() {
  const xgid = state.info && state.info.xgid;
  if (!xgid) return state.positionText;
  const fields = xgid.split(':');
  if (fields.length > 4 && /^[1-6][1-6]$/.test(fields[4])) fields[4] = '00';
  return fields.join(':');
}

// The cube decision before the roll: analyse without dice.
async function analyseCube() {
  const seq = ++state.seq.cube;
  const panel = $('cube-panel');
  $('cube-status').textContent = `(${state.ply}-ply, thinking…)`;
  let answer;
  try {
    answer = await api('GET', `/api/analyse?${query({ position: beforeRoll(), ply: state.ply })}`);
  } catch (e) {
    if (seq !== state.seq.cube) return;
    panel.replaceChildren();
    $('cube-status').textContent = '';
    showError(e.message);
    return;
  }
  if (seq !== state.seq.cube) return;
  $('cube-status').textContent = `(${answer.ply}-ply, ${answer.class || ''})`;
  showCube(panel, answer);
}

function showCube(panel, answer) {
  panel.replaceChildren();
  const p = answer.probabilities;
  if (!p) {
    panel.textContent = 'The server answered without an evaluation.';
    return;
  }
  panel.appendChild(probabilityTable(p));
  const cube = answer.cube;
  if (!cube) {
    const div = document.createElement('p');
    div.className = 'muted';
    div.textContent = answer.cube_error ? `No cube decision: ${answer.cube_error}` : 'No cube decision.';
    panel.appendChild(div);
    return;
  }
  const action = document.createElement('p');
  action.className = 'cube-action';
  action.textContent = cube.action;
  panel.appendChild(action);
  const table = document.createElement('table');
  table.className = 'cube-equities';
  const best = cube.best;
  // Without cube access only playing on is a choice.
  const choices = cube.can_double
    ? [['No double', cube.no_double], ['Double, take', cube.double_take], ['Double, pass', cube.double_pass]]
    : [['No double', cube.no_double]];
  if (!cube.can_double && cube.no_double_reason) {
    const why = document.createElement('p');
    why.className = 'muted';
    why.textContent = cube.no_double_reason;
    panel.appendChild(why);
  }
  for (const [name, value] of choices) {
    const tr = document.createElement('tr');
    const diff = value - best;
    tr.innerHTML = '<th></th><td></td><td class="muted"></td>';
    tr.children[0].textContent = name;
    tr.children[1].textContent = signed(value);
    tr.children[2].textContent = Math.abs(diff) < 1e-9 ? '' : signed(diff);
    table.appendChild(tr);
  }
  panel.appendChild(table);
  const pre = document.createElement('pre');
  pre.className = 'explanation';
  pre.textContent = cube.explanation || '';
  panel.appendChild(pre);
}

function probabilityTable(p) {
  const table = document.createElement('table');
  table.className = 'probabilities';
  table.innerHTML = '<tr><th>Win</th><th>W g</th><th>W bg</th><th>Lose</th><th>L g</th><th>L bg</th><th>Equity</th></tr><tr></tr>';
  const row = table.rows[1];
  for (const v of [pct(p.win), pct(p.win_gammon), pct(p.win_backgammon), pct(p.lose), pct(p.lose_gammon), pct(p.lose_backgammon), signed(p.equity)]) {
    const td = document.createElement('td');
    td.textContent = v;
    row.appendChild(td);
  }
  return table;
}

// ------------------------------------------------------------- dice

function buildDiceButtons() {
  const box = $('dice-buttons');
  // 21 rolls, higher die first as gnubg writes them, one row per high die.
  for (let hi = 1; hi <= 6; hi += 1) {
    const row = document.createElement('div');
    for (let lo = 1; lo <= hi; lo += 1) {
      const b = document.createElement('button');
      b.type = 'button';
      b.dataset.dice = `${hi}${lo}`;
      b.textContent = `${hi}${lo}`;
      row.appendChild(b);
    }
    box.appendChild(row);
  }
  box.addEventListener('click', (ev) => {
    const b = ev.target.closest('button[data-dice]');
    if (b) setDice(b.dataset.dice);
  });
}

// Canonical "31" from "31", "13", "3-1"; null for an empty text.
function normaliseDice(text) {
  const digits = (text || '').replace(/[^0-9]/g, '');
  if (digits === '') return null;
  if (!/^[1-6][1-6]$/.test(digits)) throw new ApiError('dice', `cannot read "${text}" (write them like 31): each die shows 1 to 6`);
  const [a, b] = [Number(digits[0]), Number(digits[1])];
  return `${Math.max(a, b)}${Math.min(a, b)}`;
}

function setDice(dice) {
  state.dice = dice;
  $('dice-input').value = dice || '';
  state.preview = null;
  state.pinned = null;
  markDiceButton();
  updateAddress();
  redraw();
  analyseMoves();
}

function markDiceButton() {
  for (const b of $('dice-buttons').querySelectorAll('button')) {
    b.classList.toggle('active', b.dataset.dice === state.dice);
  }
}

// ------------------------------------------------------------- edit mode

function startEditing() {
  state.editing = { board: copyBoard(state.board) };
  state.preview = null;
  $('edit-panel').hidden = false;
  $('edit-button').disabled = true;
  redraw();
}

function stopEditing() {
  state.editing = null;
  $('edit-panel').hidden = true;
  $('edit-button').disabled = false;
  redraw();
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

function wireEditing() {
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

// ------------------------------------------------------------- rollouts

async function startRollout() {
  clearError();
  const games = Number($('rollout-games').value);
  if (!Number.isInteger(games) || games < 1) {
    showError('games: give a whole number of games, at least 1');
    return;
  }
  const body = { position: state.dice ? state.positionText : beforeRoll(), games, seed: 1, ply: Number($('rollout-ply').value), cubeful: $('rollout-cubeful').checked };
  if (state.dice) body.dice = state.dice;
  let job;
  try {
    job = await api('POST', '/api/rollouts', body);
  } catch (e) {
    showError(e.message);
    return;
  }
  stopRolloutPolling();
  state.rollout = { id: job.id, timer: null, dice: state.dice };
  $('rollout-button').disabled = true;
  $('rollout-cancel').disabled = false;
  $('rollout-result').replaceChildren();
  showRolloutJob(job);
}

function stopRolloutPolling() {
  if (state.rollout && state.rollout.timer) clearTimeout(state.rollout.timer);
}

// Poll every 500 ms until the job ends.
async function pollRollout() {
  const r = state.rollout;
  if (!r) return;
  let job;
  try {
    job = await api('GET', `/api/rollouts/${r.id}`);
  } catch (e) {
    showError(e.message);
    endRollout();
    return;
  }
  if (state.rollout !== r) return;
  showRolloutJob(job);
}

function showRolloutJob(job) {
  const p = job.progress || {};
  const bar = $('rollout-progress');
  bar.max = p.total || 1;
  bar.value = p.done || 0;
  let text = `${job.state}`;
  if (job.state === 'queued' && job.queue_position !== undefined && job.queue_position !== null) text += ` (place ${job.queue_position} in the queue)`;
  if (p.total) text += `: ${p.done} of ${p.total} games`;
  if (p.equity !== null && p.equity !== undefined) text += ` · equity ${signed(p.equity)} ± ${p.standard_error === null ? '?' : p.standard_error.toFixed(3)}`;
  $('rollout-status').textContent = text;
  if (job.state === 'queued' || job.state === 'running') {
    state.rollout.timer = setTimeout(pollRollout, 500);
    return;
  }
  if (job.state === 'failed') showError(`rollout failed: ${job.error}`);
  if (job.result) showRolloutResult(job.result);
  endRollout();
}

function endRollout() {
  stopRolloutPolling();
  state.rollout = null;
  $('rollout-button').disabled = false;
  $('rollout-cancel').disabled = true;
}

async function cancelRollout() {
  const r = state.rollout;
  if (!r) return;
  try {
    await api('DELETE', `/api/rollouts/${r.id}`);
  } catch (e) {
    showError(e.message);
  }
  // The next poll shows the cancelled job and its partial result.
}

const est = (e) => (e ? `${signed(e.mean)} ± ${e.standard_error.toFixed(3)}` : '');
const estPct = (e) => (e ? `${pct(e.mean)} ± ${pct(e.standard_error)}` : '');

function showRolloutResult(result) {
  const box = $('rollout-result');
  box.replaceChildren();
  const head = document.createElement('p');
  head.className = 'muted';
  const games = result.settings ? result.settings.games : '';
  head.textContent = `${result.partial ? 'Partial result (cancelled). ' : ''}${games} games asked at ${result.settings ? result.settings.ply : '?'}-ply, ${result.seconds ? result.seconds.toFixed(1) : '?'} s.`;
  box.appendChild(head);
  if (result.rollout) {
    box.appendChild(rolloutTable([['', result.rollout]]));
  }
  if (result.moves) {
    const table = rolloutTable(result.moves.map((m) => [m.move, m.rollout, m.result]));
    table.classList.add('rollout-moves');
    box.appendChild(table);
  }
}

function rolloutTable(rows) {
  const table = document.createElement('table');
  table.className = 'rollout';
  // A cubeless rollout has no cubeful column (an empty one made the table
  // wider than the side column).
  const cubeful = rows.some(([, r]) => r.cubeful_equity);
  table.innerHTML = `<tr><th>Move</th><th>Trials</th><th>Equity</th>${cubeful ? '<th>Cubeful</th>' : ''}<th>Win %</th><th>W g</th><th>L g</th></tr>`;
  for (const [name, r, result] of rows) {
    const tr = document.createElement('tr');
    if (result) tr.dataset.result = result;
    if (name) tr.dataset.move = name;
    const equities = cubeful ? [est(r.equity), est(r.cubeful_equity)] : [est(r.equity)];
    for (const v of [name || '(this position)', r.trials, ...equities, estPct(r.win), estPct(r.win_gammon), estPct(r.lose_gammon)]) {
      const td = document.createElement('td');
      td.textContent = String(v);
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  // The rolled-out moves preview like the move list.
  table.addEventListener('mouseover', (ev) => {
    const tr = ev.target.closest('tr[data-result]');
    if (!tr) return;
    state.preview = { board: decodeAfterMove(tr.dataset.result), label: `after ${tr.dataset.move}` };
    redraw();
  });
  table.addEventListener('mouseleave', () => {
    state.preview = null;
    redraw();
  });
  return table;
}

// ------------------------------------------------------------- match review

const MARK_SYMBOL = { none: '', doubtful: '?!', bad: '?', very_bad: '??' };
const MAX_MATCH_BYTES = 1024 * 1024; // the server's body limit

async function readReviewFile() {
  const file = $('review-file').files[0];
  state.reviewText = null;
  $('review-button').disabled = true;
  if (!file) return;
  if (file.size > MAX_MATCH_BYTES) {
    showError(`match: ${file.name} is ${file.size} bytes; the server takes at most 1 MiB`);
    return;
  }
  state.reviewText = await file.text();
  $('review-button').disabled = false;
  startReview();
}

async function startReview() {
  clearError();
  if (!state.reviewText) return;
  const ply = Number($('review-ply').value);
  let job;
  try {
    job = await api('POST', '/api/reviews', { match: state.reviewText, ply, cube_ply: ply });
  } catch (e) {
    showError(e.message);
    return;
  }
  if (state.reviewJob && state.reviewJob.timer) clearTimeout(state.reviewJob.timer);
  state.reviewJob = { id: job.id, timer: null };
  $('review-cancel').disabled = false;
  $('review-button').disabled = true;
  showReviewJob(job);
}

async function pollReview() {
  const j = state.reviewJob;
  if (!j) return;
  let job;
  try {
    job = await api('GET', `/api/reviews/${j.id}`);
  } catch (e) {
    showError(e.message);
    endReviewJob();
    return;
  }
  if (state.reviewJob !== j) return;
  showReviewJob(job);
}

function showReviewJob(job) {
  const p = job.progress || {};
  $('review-progress').max = p.total || 1;
  $('review-progress').value = p.done || 0;
  $('review-status').textContent = `${job.state}${p.total ? `: ${p.done} of ${p.total} decisions` : ''}`;
  if (job.state === 'queued' || job.state === 'running') {
    state.reviewJob.timer = setTimeout(pollReview, 500);
    return;
  }
  if (job.state === 'failed') showError(`review failed: ${job.error}`);
  if (job.result) showReview(job.result);
  endReviewJob();
}

function endReviewJob() {
  if (state.reviewJob && state.reviewJob.timer) clearTimeout(state.reviewJob.timer);
  state.reviewJob = null;
  $('review-cancel').disabled = true;
  $('review-button').disabled = !state.reviewText;
}

async function cancelReview() {
  const j = state.reviewJob;
  if (!j) return;
  try {
    await api('DELETE', `/api/reviews/${j.id}`);
  } catch (e) {
    showError(e.message);
  }
}

// A record is a decision worth stepping to when it is a move with a choice
// or carries a cube decision.
function isDecision(rec) {
  return (rec.action === 'move' && rec.forced === false) || rec.cube !== null;
}

function recordMark(rec) {
  const marks = ['none', 'doubtful', 'bad', 'very_bad'];
  const a = marks.indexOf(rec.mark || 'none');
  const b = rec.cube ? marks.indexOf(rec.cube.mark || 'none') : 0;
  return marks[Math.max(a, b, 0)];
}

function showReview(data) {
  const items = [];
  data.games.forEach((game, g) => game.records.forEach((rec, r) => {
    if (rec.position_id) items.push({ game, g, rec, r });
  }));
  state.review = { data, items, index: 0, showing: 'before' };
  const panel = $('review-panel');
  panel.replaceChildren();
  panel.appendChild(reviewSummary(data));
  const controls = document.createElement('div');
  controls.className = 'row review-controls';
  controls.innerHTML = '<button type="button" id="review-prev">◀ Previous</button>'
    + '<button type="button" id="review-next">Next ▶</button>'
    + '<label><input type="checkbox" id="review-errors-only"> errors only</label>';
  panel.appendChild(controls);
  const detail = document.createElement('div');
  detail.id = 'review-detail';
  detail.className = 'panel';
  panel.appendChild(detail);
  panel.appendChild(reviewGames(data, items));
  $('review-prev').addEventListener('click', () => stepReview(-1));
  $('review-next').addEventListener('click', () => stepReview(1));
  const first = items.findIndex((it) => isDecision(it.rec));
  selectReviewItem(first < 0 ? 0 : first);
}

function reviewSummary(data) {
  const box = document.createElement('div');
  box.className = 'panel';
  const title = document.createElement('h2');
  title.textContent = `${data.players[0]} vs ${data.players[1]}, ${data.match_length ? `${data.match_length}-point match` : 'money session'}`;
  box.appendChild(title);
  const table = document.createElement('table');
  table.className = 'summary';
  const rows = [
    ['Error rate (mEMG/decision)', (s) => num(s.overall_error_rate, 1)],
    ['PR', (s) => num(s.pr, 2)],
    ['Chequer error rate', (s) => num(s.chequer_error_rate, 1)],
    ['Cube error rate', (s) => num(s.cube_error_rate, 1)],
    ['Unforced moves', (s) => s.unforced_moves],
    ['Doubtful / bad / very bad moves', (s) => `${s.marks.moves.doubtful} / ${s.marks.moves.bad} / ${s.marks.moves.very_bad}`],
    ['Cube decisions (close)', (s) => `${s.cube_decisions} (${s.close_cube_decisions})`],
    ['Cube errors (?! / ? / ??)', (s) => `${s.marks.cube.doubtful} / ${s.marks.cube.bad} / ${s.marks.cube.very_bad}`],
    ['Luck rate', (s) => num(s.luck_rate, 1)],
    ['Rating', (s) => s.rating || 'n/a'],
  ];
  const head = document.createElement('tr');
  head.innerHTML = '<th></th><th></th><th></th>';
  head.children[1].textContent = data.summary[0].name;
  head.children[2].textContent = data.summary[1].name;
  table.appendChild(head);
  for (const [label, f] of rows) {
    const tr = document.createElement('tr');
    for (const v of [label, f(data.summary[0]), f(data.summary[1])]) {
      const td = document.createElement('td');
      td.textContent = String(v);
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  box.appendChild(table);
  return box;
}

const num = (x, d) => (x === null || x === undefined ? 'n/a' : x.toFixed(d));

function reviewGames(data, items) {
  const box = document.createElement('div');
  box.className = 'panel review-games';
  let list = null;
  let lastGame = -1;
  items.forEach((it, i) => {
    if (it.g !== lastGame) {
      lastGame = it.g;
      const h = document.createElement('h3');
      const winner = it.game.winner === null || it.game.winner === undefined ? 'unfinished' : `${data.players[it.game.winner]} wins ${it.game.points}`;
      h.textContent = `Game ${it.game.number}: score ${it.game.score[0]}-${it.game.score[1]}${it.game.crawford ? ', Crawford' : ''}; ${winner}`;
      box.appendChild(h);
      list = document.createElement('ol');
      list.className = 'records';
      box.appendChild(list);
    }
    const li = document.createElement('li');
    li.dataset.index = String(i);
    const mark = recordMark(it.rec);
    li.className = `record mark-${mark}${isDecision(it.rec) ? ' decision' : ''}`;
    li.dataset.mark = mark;
    li.textContent = recordLine(data, it.rec);
    list.appendChild(li);
  });
  box.addEventListener('click', (ev) => {
    const li = ev.target.closest('li[data-index]');
    if (li) selectReviewItem(Number(li.dataset.index));
  });
  return box;
}

function recordLine(data, rec) {
  const who = data.players[rec.player];
  const n = rec.move_number === null ? '' : `${rec.move_number}. `;
  let text;
  if (rec.action === 'move') {
    text = `${n}${who} ${rec.dice}: ${rec.move === '' ? '(no move)' : rec.move}`;
    if (rec.mark && rec.mark !== 'none') text += ` ${MARK_SYMBOL[rec.mark]} −${rec.loss.toFixed(3)}`;
  } else {
    text = `${n}${who} ${rec.action}s`;
  }
  if (rec.cube && rec.cube.mark !== 'none') text += ` · cube ${MARK_SYMBOL[rec.cube.mark]} −${rec.cube.error.toFixed(3)}`;
  return text;
}

function stepReview(delta) {
  const rv = state.review;
  if (!rv) return;
  const errorsOnly = $('review-errors-only') && $('review-errors-only').checked;
  let i = rv.index;
  for (;;) {
    i += delta;
    if (i < 0 || i >= rv.items.length) return;
    const rec = rv.items[i].rec;
    if (errorsOnly ? recordMark(rec) !== 'none' : isDecision(rec) || rec.action !== 'move') break;
  }
  selectReviewItem(i);
}

function selectReviewItem(i) {
  const rv = state.review;
  if (!rv || !rv.items[i]) return;
  rv.index = i;
  rv.after = null;
  for (const li of $('review-panel').querySelectorAll('li.selected')) li.classList.remove('selected');
  const li = $('review-panel').querySelector(`li[data-index="${i}"]`);
  if (li) {
    li.classList.add('selected');
    li.scrollIntoView({ block: 'nearest' });
  }
  showReviewDetail(rv.items[i]);
  redraw();
}

// The board of a review keeps the first player of the file at the bottom
// and each player's colour, whoever is on roll.
function reviewView() {
  const rv = state.review;
  const { rec } = rv.items[rv.index];
  let board;
  let context = { cube: 1, owner: null, dice: null };
  try {
    board = rv.after ? decodeAfterMove(rv.after.id) : decodePositionId(rec.position_id);
    if (rec.match_id) context = decodeMatchId(rec.match_id);
  } catch (e) {
    showError(`cannot draw this record: ${e.message}`);
    board = startingBoard();
  }
  const firstIsActing = rec.player === 0;
  const bottom = (firstIsActing ? 0 : 1) ^ (state.flipped ? 1 : 0);
  return {
    board,
    bottom,
    colours: firstIsActing ? ['dark', 'light'] : ['light', 'dark'],
    cube: { value: context.cube, owner: context.owner },
    dice: rv.after ? null : rec.dice,
    note: rv.after ? rv.after.label : '',
  };
}

// Under the board in a review: the record's IDs and the match score.
function showReviewLines() {
  const rv = state.review;
  const { rec, game } = rv.items[rv.index];
  $('position-ids').textContent = rec.match_id ? `${rec.position_id}:${rec.match_id}` : rec.position_id;
  const [a, b] = rv.data.players;
  const parts = [rv.data.match_length ? `${rv.data.match_length}-point match, score ${a} ${game.score[0]}, ${b} ${game.score[1]}` : 'money session'];
  if (game.crawford) parts.push('Crawford game');
  parts.push(`${rv.data.players[rec.player]} to act (${rec.player === 0 ? 'dark' : 'light'})`);
  $('context-line').textContent = parts.join(' · ');
}

// Opens a review record in the analysis tab, with its match context.
function analyseReviewRecord() {
  const rv = state.review;
  if (!rv) return;
  const { rec } = rv.items[rv.index];
  const text = rec.match_id ? `${rec.position_id}:${rec.match_id}` : rec.position_id;
  showTab('analyse');
  loadPosition(text, rec.dice);
}

function showReviewDetail(item) {
  const { rec, game } = item;
  const data = state.review.data;
  const box = $('review-detail');
  box.replaceChildren();
  const h = document.createElement('h3');
  h.textContent = `Game ${game.number}, ${recordLine(data, rec)}`;
  box.appendChild(h);
  const open = document.createElement('button');
  open.type = 'button';
  open.id = 'review-analyse';
  open.textContent = 'Analyse this position';
  open.addEventListener('click', analyseReviewRecord);
  box.appendChild(open);
  if (rec.action === 'move' && rec.candidates) {
    const p = document.createElement('p');
    const played = rec.candidates.find((c) => c.move === rec.move);
    p.innerHTML = '<b>Played</b> <span class="played"></span> &nbsp; <b>Best</b> <span class="best"></span>';
    p.querySelector('.played').textContent = `${rec.move} (${signed(rec.equity_played)}${rec.loss > 0 ? `, loss ${rec.loss.toFixed(3)}` : ''})`;
    p.querySelector('.best').textContent = `${rec.best} (${signed(rec.equity_best)})`;
    box.appendChild(p);
    const buttons = document.createElement('div');
    buttons.className = 'row';
    buttons.innerHTML = '<button type="button" data-show="before">Before</button><button type="button" data-show="played">After played</button><button type="button" data-show="best">After best</button>';
    buttons.addEventListener('click', (ev) => {
      const b = ev.target.closest('button[data-show]');
      if (!b) return;
      const rv = state.review;
      if (b.dataset.show === 'before') rv.after = null;
      else if (b.dataset.show === 'played' && played) rv.after = { id: played.after, label: `after ${rec.move} (played)` };
      else if (b.dataset.show === 'best') rv.after = { id: rec.best_after, label: `after ${rec.best} (best)` };
      redraw();
    });
    box.appendChild(buttons);
    box.appendChild(candidateTable(rec));
  } else if (rec.action === 'move') {
    const p = document.createElement('p');
    p.textContent = rec.legal_moves === 0 ? 'No legal move (a dance).' : 'Forced move.';
    box.appendChild(p);
  }
  if (rec.cube) box.appendChild(cubeRecord(rec.cube));
  if (rec.luck !== null && rec.luck !== undefined) {
    const p = document.createElement('p');
    p.className = 'muted';
    p.textContent = `Luck of the roll ${signed(rec.luck)}${rec.luck_mark && rec.luck_mark !== 'none' ? ` (${rec.luck_mark.replace('_', ' ')})` : ''}`;
    box.appendChild(p);
  }
}

function candidateTable(rec) {
  const table = document.createElement('table');
  table.className = 'moves candidates';
  table.innerHTML = '<tr><th>Move</th><th>Equity</th><th>Loss</th><th>Win</th><th>W g</th><th>L g</th><th>Ply</th></tr>';
  for (const c of rec.candidates) {
    const tr = document.createElement('tr');
    tr.dataset.move = c.move;
    tr.dataset.equity = String(c.equity);
    tr.dataset.after = c.after;
    if (c.move === rec.move) tr.classList.add('played');
    for (const v of [c.move, signed(c.equity), c.loss > 0 ? signed(-c.loss) : '', pct(c.win), pct(c.win_gammon), pct(c.lose_gammon), c.ply]) {
      const td = document.createElement('td');
      td.textContent = String(v);
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  table.addEventListener('mouseover', (ev) => {
    const tr = ev.target.closest('tr[data-after]');
    if (!tr) return;
    state.review.after = { id: tr.dataset.after, label: `after ${tr.dataset.move}` };
    redraw();
  });
  table.addEventListener('mouseleave', () => {
    state.review.after = null;
    redraw();
  });
  return table;
}

function cubeRecord(cube) {
  const box = document.createElement('div');
  const p = document.createElement('p');
  const choice = cube.choice.replace('_', ' ');
  p.innerHTML = '<b>Cube</b> <span></span>';
  p.querySelector('span').textContent = `${choice}; proper: ${cube.proper}${cube.error > 0 ? ` · error ${cube.error.toFixed(3)} ${MARK_SYMBOL[cube.mark] || ''}` : ''}`;
  box.appendChild(p);
  const table = document.createElement('table');
  table.className = 'cube-equities';
  for (const [name, v] of [['No double', cube.nd], ['Double, take', cube.dt], ['Double, pass', cube.dp]]) {
    const tr = document.createElement('tr');
    tr.innerHTML = '<th></th><td></td>';
    tr.children[0].textContent = name;
    tr.children[1].textContent = signed(v);
    table.appendChild(tr);
  }
  box.appendChild(table);
  return box;
}

// ------------------------------------------------------------- playing against the engine

// The game lives in this page's memory only: the game state where the human
// acts (opaque, signed by the server), the seed of the dice and the next step
// of their stream (docs/server.md, "Playing against the engine"). The human
// is side 0, always at the bottom.

const PLAY_SHOW_MS = 900; // how long each engine move stays on the board

// One click target per point, the bar and the bottom tray; the checkers of a
// point are drawn inside its target (see stackParent).
function drawPlayTargets(root) {
  const targets = {};
  const target = (point, x, y, width, height) => {
    const g = svg('g', { class: 'play-target', 'data-point': point }, root);
    svg('rect', { x, y, width, height, class: 'hit' }, g);
    targets[point] = g;
  };
  for (let s = 1; s <= 24; s += 1) {
    const { x, top } = pointSlot(s);
    target(String(s), x - G.pointW / 2, top ? G.topY : G.midY, G.pointW, G.halfH + G.gap / 2);
  }
  target('bar', G.barX, G.topY, G.barW, G.bottomY - G.topY);
  target('off', G.trayX + 4, G.bottomY - G.halfH, G.trayW - 2, G.halfH);
  return targets;
}

function playView() {
  const p = state.play;
  if (!p) {
    return { board: startingBoard(), bottom: 0, colours: ['dark', 'light'], cube: { value: 1, owner: null }, dice: null, note: '', play: true };
  }
  if (p.show) {
    // An engine move shown for a moment, before the position where the human acts.
    return { board: p.show.board, bottom: 0, colours: ['dark', 'light'], cube: p.cube, dice: p.show.dice, diceOwner: p.show.diceOwner, note: p.show.note, play: true };
  }
  const k = p.steps.length;
  const board = k > 0 ? matchingCandidates(p)[0].boards[k - 1] : p.board;
  return { board, bottom: 0, colours: ['dark', 'light'], cube: p.cube, dice: p.dice, diceOwner: 0, note: '', play: true };
}

// After drawing: the chosen checker, where it may go, the dice already used.
function markPlayBoard() {
  const p = state.play;
  if (!p || p.show || p.turn !== 'move' || !p.candidates) return;
  const root = $('board');
  const next = nextSteps(p);
  const mark = (point, cls) => {
    const g = root.querySelector(`.play-target[data-point="${point}"]`);
    if (g) g.classList.add(cls);
  };
  if (p.from !== null) {
    mark(p.from, 'selected');
    for (const st of next) if (st.from === p.from) mark(st.to, 'target');
  } else {
    for (const st of next) mark(st.from, 'source');
  }
  const used = matchingCandidates(p)[0];
  const dice = [...root.querySelectorAll('.die')];
  if (used && p.steps.length > 0) {
    for (const die of used.dice.slice(0, p.steps.length)) {
      const el = dice.find((d) => Number(d.dataset.die) === die && !d.classList.contains('used'));
      if (el) el.classList.add('used');
    }
  }
}

const stepsText = (steps) => steps.map((s) => `${s.from}/${s.to}`).join(' ');

function parseSteps(text) {
  const steps = [];
  for (const token of text.split(/\s+/).filter(Boolean)) {
    const m = /^(bar|\d+)\/(off|\d+)\*?(?:\((\d)\))?$/.exec(token);
    if (!m) return null;
    for (let i = 0; i < Number(m[3] || 1); i += 1) steps.push({ from: m[1], to: m[2] });
  }
  return steps;
}

// One step of the human on `board` (his numbering: 25 the bar, 0 off) with
// the dice `left`; null when the rules forbid it at this moment.
function applyStep(board, left, step) {
  const me = board[0];
  const them = board[1];
  const from = step.from === 'bar' ? 25 : Number(step.from);
  const to = step.to === 'off' ? 0 : Number(step.to);
  const dist = from - to;
  if (!(me[from] > 0) || dist <= 0) return null;
  if (me[25] > 0 && from !== 25) return null;
  let die = dist;
  if (to === 0) {
    for (let q = 7; q <= 25; q += 1) if (me[q] > 0) return null;
    if (!left.includes(dist)) {
      // A higher die bears off from the highest point only.
      const higher = left.filter((d) => d > dist);
      if (higher.length === 0) return null;
      for (let q = from + 1; q <= 6; q += 1) if (me[q] > 0) return null;
      die = Math.min(...higher);
    }
  } else if (!left.includes(dist) || them[25 - to] >= 2) {
    return null;
  }
  const next = copyBoard(board);
  next[0][from] -= 1;
  next[0][to] += 1;
  if (to > 0 && next[1][25 - to] === 1) {
    next[1][25 - to] = 0;
    next[1][25] += 1;
  }
  const rest = left.slice();
  rest.splice(rest.indexOf(die), 1);
  return { board: next, left: rest, die };
}

function permutations(items) {
  if (items.length <= 1) return [items];
  const out = [];
  items.forEach((item, i) => {
    for (const rest of permutations(items.filter((_, j) => j !== i))) out.push([item, ...rest]);
  });
  return out;
}

// The ways to click each legal move, one die per step: the server lists one
// order of its steps; any order the rules allow, and for one checker moving
// with both dice the other intermediate point, reach the same position. A
// way counts only when it ends on a legal move's result.
function buildCandidates(board, diceText, moves) {
  const [a, b] = [Number(diceText[0]), Number(diceText[1])];
  const dice = a === b ? [a, a, a, a] : [a, b];
  const results = new Map(moves.map((m) => [m.result, m.notation]));
  const seen = new Set();
  const out = [];
  for (const m of moves) {
    const steps = parseSteps(m.steps || '');
    if (!steps || steps.length === 0) continue;
    const orders = permutations(steps);
    if (a !== b && steps.length === 2 && steps[0].to === steps[1].from) {
      const from = steps[0].from === 'bar' ? 25 : Number(steps[0].from);
      const other = dice.find((d) => d !== from - Number(steps[0].to));
      const mid = from - other;
      if (other && mid >= 1) orders.push([{ from: steps[0].from, to: String(mid) }, { from: String(mid), to: steps[1].to }]);
    }
    for (const order of orders) {
      const key = stepsText(order);
      if (seen.has(key)) continue;
      let cur = { board, left: dice };
      const boards = [];
      const used = [];
      for (const st of order) {
        cur = applyStep(cur.board, cur.left, st);
        if (!cur) break;
        boards.push(cur.board);
        used.push(cur.die);
      }
      if (!cur) continue;
      // A result is seen by the next player: the engine's side first.
      const notation = results.get(encodePositionId({ 0: cur.board[1], 1: cur.board[0] }));
      if (notation === undefined) continue;
      seen.add(key);
      out.push({ steps: order, boards, dice: used, move: notation });
    }
  }
  return out;
}

function matchingCandidates(p) {
  const k = p.steps.length;
  return p.candidates.filter((c) => c.steps.length >= k
    && p.steps.every((s, i) => c.steps[i].from === s.from && c.steps[i].to === s.to));
}

function nextSteps(p) {
  const k = p.steps.length;
  return matchingCandidates(p).filter((c) => c.steps.length > k).map((c) => c.steps[k]);
}

// The game's state from an answer of /api/play. While the engine's double,
// raccoon or resignation waits for the human, the position is seen by the
// engine (on_roll): swapped, the human stays side 0.
function playStateFrom(answer) {
  const b = answer.board.board;
  const swapped = answer.on_roll === 'engine';
  const human = (swapped ? b.opponent : b.on_roll).slice();
  const engine = (swapped ? b.on_roll : b.opponent).slice();
  const ctx = answer.board.context;
  let owner = ownerIndex(ctx.owner);
  if (swapped && owner !== null) owner = 1 - owner;
  const diceField = answer.xgid.split(':')[4] || '';
  return {
    xgid: answer.xgid,
    state: answer.state, // echoed back as it came
    actions: answer.actions || [], // what the rules allow now
    resign: answer.resign || [], // the results he may resign now
    seed: answer.seed,
    nextStep: answer.next_step,
    signature: answer.signature, // the server continues only the states it signed
    turn: answer.turn,
    score: answer.score,
    context: ctx,
    board: { 0: human, 1: engine },
    cube: { value: ctx.cube, owner },
    dice: /^[1-6][1-6]$/.test(diceField) ? diceField : null,
    candidates: null,
    steps: [],
    from: null,
    busy: false,
    show: null,
    winner: null,
  };
}

const WHO = { human: 'you', engine: 'gammon' };

function eventText(e) {
  const who = WHO[e.by] || e.by;
  switch (e.event) {
    case 'opening_roll': return `New game. Opening roll ${e.dice}: ${e.starts === 'human' ? 'you start' : 'gammon starts'}.`;
    case 'rolled': return `${who} rolled ${e.dice}.`;
    case 'moved': return e.notation ? `${who} played ${e.notation}.` : `${who} cannot move.`;
    case 'doubled': return `${who} doubled to ${e.cube}.`;
    case 'took': return `${who} took.`;
    case 'passed': return `${who} passed.`;
    case 'beavered': return `${who} beavered: the cube goes to ${e.cube}.`;
    case 'raccooned': return `${who} raccooned: the cube goes to ${e.cube}.`;
    case 'automatic_double': return `Opening dice ${e.dice}: the cube turns to ${e.cube}.`;
    case 'resigned': return `${who} offered to resign a ${e.result === 'single' ? 'single game' : e.result}.`;
    case 'resignation_accepted': return `${who} accepted the resignation.`;
    case 'resignation_rejected': return `${who} rejected the resignation.`;
    case 'game_over': return `${WHO[e.winner] || e.winner} won the game: ${e.points} point${e.points === 1 ? '' : 's'}.`;
    case 'match_over': return `${WHO[e.winner] || e.winner} won the match.`;
    default: return `${e.event}`;
  }
}

function logEvents(events) {
  const log = $('play-log');
  for (const e of events) {
    const li = document.createElement('li');
    li.dataset.event = e.event;
    if (e.by || e.winner) li.dataset.by = e.by || e.winner;
    li.className = `by-${e.by || e.winner || 'none'}`;
    // "gammon" keeps its small letter.
    li.textContent = eventText(e).replace(/^you/, 'You');
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;
}

async function newPlayGame(ev) {
  ev.preventDefault();
  clearError();
  const length = Number($('play-length').value);
  if (!Number.isInteger(length) || length < 0) {
    showError('match length: give a whole number of points, 0 for money play');
    return;
  }
  const asked = ASKED_SEED;
  const seed = asked !== null && /^\d+$/.test(asked) ? Number(asked) : crypto.getRandomValues(new Uint32Array(1))[0];
  $('play-seed').textContent = String(seed);
  $('play-log').replaceChildren();
  state.play = null;
  state.playTally = [0, 0];
  const body = { action: 'new', match_length: length, seed };
  // Money play only: the server drops them in a match.
  if (length === 0 && $('play-beavers').checked) body.beavers = true;
  const murphy = Number($('play-murphy').value);
  if (length === 0 && Number.isInteger(murphy) && murphy > 0) body.murphy = murphy;
  await playRequest(body);
}

// Sends one action; the engine's moves are shown one by one, then the
// position where the human acts.
async function playRequest(body) {
  const p = state.play;
  const seq = ++state.seq.play;
  if (p) {
    Object.assign(body, { state: p.state, seed: p.seed, step: p.nextStep, signature: p.signature, ply: 0 });
    p.busy = true;
  }
  updatePlayControls();
  let answer;
  try {
    answer = await api('POST', '/api/play', body);
  } catch (e) {
    if (seq !== state.seq.play) return;
    if (p) {
      p.busy = false;
      p.steps = [];
      p.from = null;
    }
    showError(e.message);
    redraw();
    return;
  }
  if (seq !== state.seq.play) return;
  clearError();
  logEvents(answer.events);
  // The server's score is the match score; money games are counted here.
  for (const e of answer.events) {
    if (e.event === 'game_over' && state.playTally) state.playTally[e.winner === 'human' ? 0 : 1] += e.points;
  }
  const next = playStateFrom(answer);
  const shows = engineMoves(answer.events);
  if (shows.length > 0) {
    next.busy = true;
    state.play = next;
    for (const show of shows) {
      next.show = show;
      redraw();
      await new Promise((resolve) => setTimeout(resolve, PLAY_SHOW_MS));
      if (seq !== state.seq.play) return;
    }
    next.show = null;
    next.busy = false;
  }
  state.play = next;
  for (const e of answer.events) if (e.event === 'match_over') next.winner = e.winner;
  redraw();
  if (next.turn === 'move') loadPlayMoves(next, seq);
}

// The engine's moves in an answer, each with the dice it rolled.
function engineMoves(events) {
  const shows = [];
  let dice = null;
  for (const e of events) {
    if (e.event === 'opening_roll') dice = e.dice;
    if (e.event === 'rolled') dice = e.dice;
    if (e.event === 'moved' && e.by === 'engine' && e.position_id) {
      let board;
      try {
        board = decodePositionId(e.position_id); // seen by the human, next on roll
      } catch (err) {
        continue;
      }
      shows.push({ board, dice, diceOwner: 1, note: e.notation ? `gammon plays ${e.notation}` : 'gammon cannot move' });
    }
  }
  return shows;
}

async function loadPlayMoves(p, seq) {
  let answer;
  try {
    answer = await api('GET', `/api/moves?${query({ position: p.xgid })}`);
  } catch (e) {
    if (seq === state.seq.play) showError(e.message);
    return;
  }
  if (seq !== state.seq.play || state.play !== p) return;
  p.candidates = buildCandidates(p.board, p.dice, answer.moves || []);
  if (p.candidates.length === 0 && (answer.moves || []).length > 0) {
    showError('cannot follow the legal moves on the board: type the move instead');
  }
  redraw();
}

function onPlayBoardClick(ev) {
  if (state.tab !== 'play') return;
  const target = ev.target.closest('.play-target');
  const p = state.play;
  if (!target || !p || p.turn !== 'move' || p.busy || !p.candidates) return;
  const point = target.dataset.point;
  const next = nextSteps(p);
  if (p.from === null || point === p.from) {
    if (point === p.from) p.from = null;
    else if (next.some((st) => st.from === point)) p.from = point;
    else {
      showError(`no legal step starts from ${point === 'bar' ? 'the bar' : (point === 'off' ? 'the tray' : `point ${point}`)} now`);
      return;
    }
    clearError();
    redraw();
    return;
  }
  const step = next.find((st) => st.from === p.from && st.to === point);
  if (!step) {
    if (next.some((st) => st.from === point)) {
      p.from = point;
      clearError();
      redraw();
    } else {
      showError(`${p.from}/${point} is not a legal step now`);
    }
    return;
  }
  clearError();
  p.steps.push({ from: step.from, to: step.to });
  p.from = null;
  const done = matchingCandidates(p).find((c) => c.steps.length === p.steps.length);
  redraw();
  if (done && nextSteps(p).length === 0) playRequest({ action: 'move', move: done.move });
}

function playStatusText(p) {
  if (!p) return 'Start a new game.';
  const ctx = p.context;
  const parts = [];
  const turn = {
    roll_or_double: 'Your turn: roll or double',
    roll: 'Your turn: roll',
    move: `Your move: play ${p.dice}`,
    answer_double: `gammon doubles to ${2 * p.cube.value}: take or pass${p.actions.includes('beaver') ? ' (or beaver)' : ''}`,
    answer_beaver: `gammon beavers: accept (take) at ${4 * p.cube.value} or pass${p.actions.includes('raccoon') ? ' (or raccoon)' : ''}`,
    answer_raccoon: `gammon raccoons: accept (take) at ${8 * p.cube.value} or pass`,
    answer_resignation: 'gammon offers to resign: accept or reject',
    match_over: p.winner === 'human' ? 'You won the match' : (p.winner === 'engine' ? 'gammon won the match' : 'The match is over'),
  }[p.turn] || p.turn;
  parts.push(p.busy ? 'gammon is playing…' : turn);
  if (ctx.match_length) {
    const [you, it] = p.score;
    parts.push(`score you ${you}, gammon ${it} (${ctx.match_length}-point match${ctx.crawford ? ', Crawford game' : ''})`);
  } else {
    const [you, it] = state.playTally || [0, 0];
    parts.push(`money: you ${you}, gammon ${it} points won`);
  }
  const owner = p.cube.owner === null ? 'centred' : (p.cube.owner === 0 ? 'yours' : "gammon's");
  parts.push(`cube ${p.cube.value} ${owner}`);
  if (p.dice) parts.push(`dice ${p.dice}`);
  return parts.join(' · ');
}

function updatePlayControls() {
  const p = state.play;
  const turn = p && !p.busy ? p.turn : null;
  // The buttons of the actions the server says the rules allow now.
  const allowed = (action) => turn !== null && p.actions.includes(action);
  for (const [id, action] of [['play-roll', 'roll'], ['play-double', 'double'], ['play-take', 'take'], ['play-pass', 'pass'],
    ['play-beaver', 'beaver'], ['play-raccoon', 'raccoon'], ['play-resign', 'resign'],
    ['play-accept', 'accept_resignation'], ['play-reject', 'reject_resignation']]) {
    $(id).disabled = !allowed(action);
  }
  const results = $('play-resign-result');
  results.disabled = !allowed('resign');
  for (const option of results.options) option.disabled = !(p && p.resign.includes(option.value));
  if (p && results.selectedOptions[0] && results.selectedOptions[0].disabled) {
    const first = [...results.options].find((o) => !o.disabled);
    if (first) results.value = first.value;
  }
  $('play-undo').disabled = !(turn === 'move' && (p.steps.length > 0 || p.from !== null));
  $('play-move-input').disabled = turn !== 'move';
  $('play-move-submit').disabled = turn !== 'move';
  const status = $('play-status');
  status.textContent = playStatusText(p);
  status.dataset.turn = p ? (p.busy ? 'busy' : p.turn) : 'none';
  $('play-partial').textContent = p && p.steps.length ? `so far: ${stepsText(p.steps)}` : '';
}

function showPlayLines() {
  const p = state.play;
  $('position-ids').textContent = p ? p.xgid : '';
  $('context-line').textContent = p ? `pips: you ${pipCount(p.board[0])}, gammon ${pipCount(p.board[1])}` : '';
  updatePlayControls();
}

function wirePlay() {
  $('play-form').addEventListener('submit', newPlayGame);
  $('play-roll').addEventListener('click', () => playRequest({ action: 'roll' }));
  $('play-double').addEventListener('click', () => playRequest({ action: 'double' }));
  $('play-take').addEventListener('click', () => playRequest({ action: 'take' }));
  $('play-pass').addEventListener('click', () => playRequest({ action: 'pass' }));
  $('play-beaver').addEventListener('click', () => playRequest({ action: 'beaver' }));
  $('play-raccoon').addEventListener('click', () => playRequest({ action: 'raccoon' }));
  $('play-resign').addEventListener('click', () => playRequest({ action: 'resign', result: $('play-resign-result').value }));
  $('play-accept').addEventListener('click', () => playRequest({ action: 'accept_resignation' }));
  $('play-reject').addEventListener('click', () => playRequest({ action: 'reject_resignation' }));
  $('play-undo').addEventListener('click', () => {
    const p = state.play;
    if (!p) return;
    p.steps = [];
    p.from = null;
    redraw();
  });
  $('play-move-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = $('play-move-input').value.trim();
    if (!text) {
      showError('move: type a move like 8/5 6/5');
      return;
    }
    playRequest({ action: 'move', move: text }).then(() => {
      if (!$('error').hidden) return;
      $('play-move-input').value = '';
    });
  });
  $('board').addEventListener('click', onPlayBoardClick);
}

// ------------------------------------------------------------- tabs and start

function showTab(name) {
  state.tab = name;
  for (const b of document.querySelectorAll('.tab')) b.classList.toggle('active', b.dataset.tab === name);
  $('analyse-view').hidden = name !== 'analyse';
  $('review-view').hidden = name !== 'review';
  $('play-view').hidden = name !== 'play';
  if (name === 'play' && state.editing) stopEditing();
  // The player stays at the bottom, and a game is not edited.
  $('flip-button').disabled = name === 'play';
  $('edit-button').disabled = name === 'play' || Boolean(state.editing);
  redraw();
}

function wireControls() {
  $('position-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (state.editing) stopEditing();
    showTab('analyse');
    let dice = null;
    try {
      dice = normaliseDice($('dice-input').value);
    } catch (e) {
      showError(e.message);
      return;
    }
    // An XGID carries its own dice: only send ours when the user chose some.
    loadPosition($('position-input').value, dice);
  });
  $('dice-input').addEventListener('change', () => {
    try {
      setDice(normaliseDice($('dice-input').value));
      clearError();
    } catch (e) {
      showError(e.message);
    }
  });
  $('dice-input').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') {
      ev.preventDefault();
      ev.target.dispatchEvent(new Event('change'));
    }
  });
  $('dice-clear').addEventListener('click', () => setDice(null));
  $('ply-select').addEventListener('change', () => {
    state.ply = Number($('ply-select').value);
    updateAddress();
    analyseAll();
  });
  $('flip-button').addEventListener('click', () => {
    state.flipped = !state.flipped;
    redraw();
  });
  $('rollout-button').addEventListener('click', startRollout);
  $('rollout-cancel').addEventListener('click', cancelRollout);
  $('review-file').addEventListener('change', readReviewFile);
  $('review-button').addEventListener('click', startReview);
  $('review-cancel').addEventListener('click', cancelReview);
  for (const b of document.querySelectorAll('.tab')) b.addEventListener('click', () => showTab(b.dataset.tab));
  document.addEventListener('keydown', (ev) => {
    if (state.tab !== 'review' || !state.review || ev.target.tagName === 'INPUT') return;
    if (ev.key === 'ArrowLeft') stepReview(-1);
    if (ev.key === 'ArrowRight') stepReview(1);
  });
}

// Opening /?position=...&dice=31&ply=2 shows that position and its moves.
function start() {
  buildDiceButtons();
  wireControls();
  wireMoveList();
  wireEditing();
  wirePlay();
  const params = new URLSearchParams(location.search);
  const ply = Number(params.get('ply'));
  if (Number.isInteger(ply) && ply >= 0 && ply <= 3) {
    state.ply = ply;
    $('ply-select').value = String(ply);
  }
  let dice = null;
  try {
    dice = normaliseDice(params.get('dice'));
  } catch (e) {
    showError(e.message);
  }
  redraw();
  loadPosition(params.get('position') || 'start', dice);
}

document.addEventListener('DOMContentLoaded', start);
