// The board: its geometry and its SVG drawing from a view (what to draw).
// Draws whatever board it is given; the rules stay on the server.

const SVG_NS = 'http://www.w3.org/2000/svg';

export function svg(tag, attrs, parent) {
  const el = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs || {})) el.setAttribute(k, String(v));
  if (parent) parent.appendChild(el);
  return el;
}

// Board geometry, in viewBox units (the viewBox in index.html is 790 x 568).
export const G = (() => {
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
export function pointSlot(s) {
  const W = G.pointW;
  if (s <= 6) return { x: G.rightHalfX + (6 - s + 0.5) * W, top: false };
  if (s <= 12) return { x: G.leftHalfX + (12 - s + 0.5) * W, top: false };
  if (s <= 18) return { x: G.leftHalfX + (s - 13 + 0.5) * W, top: true };
  return { x: G.rightHalfX + (s - 19 + 0.5) * W, top: true };
}

// Screen numbering (from the bottom player) of a side's own point q.
export function screenPoint(side, q, bottom) {
  return side === bottom ? q : 25 - q;
}

export function pipCount(side) {
  let pips = 25 * side[25];
  for (let p = 1; p <= 24; p += 1) pips += p * side[p];
  return pips;
}

export function startingBoard() {
  const side = () => {
    const s = new Array(26).fill(0);
    s[24] = 2; s[13] = 5; s[8] = 3; s[6] = 5;
    return s;
  };
  return { 0: side(), 1: side() };
}

export function copyBoard(board) {
  return { 0: board[0].slice(), 1: board[1].slice() };
}

// The board of /api/position's answer, side 0 on roll.
export const boardOfAnswer = (answer) => ({ 0: answer.board.on_roll.slice(), 1: answer.board.opponent.slice() });

// A position after a move (`result`, `after`) is seen by the next player:
// his on-roll half is the mover's opponent. Swapping keeps the mover as side 0.
export const moverBoard = (seenByNext) => ({ 0: seenByNext[1], 1: seenByNext[0] });

// A view says what to draw: `board`, `bottom` (the side at the bottom),
// `colours` of each side, `cube` {value, owner}, `dice` ("31" or null) and
// `diceOwner`, a `note` over the board, and whether the play tab's (`play`)
// or the editor's (`edit`) click targets are drawn.
export function drawBoard(root, view) {
  root.replaceChildren();
  root.dataset.preview = view.note ? 'true' : 'false';
  drawFrame(root);
  drawPoints(root);
  const targets = view.play ? drawPlayTargets(root) : null;
  for (const side of [0, 1]) drawSide(root, view, side, targets);
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
  if (view.edit) drawHitAreas(root, view.bottom);
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

function drawSide(root, view, side, targets) {
  const counts = view.board[side];
  const colour = view.colours[side];
  const atBottom = side === view.bottom;
  // In the play tab each point's checkers sit inside its click target, so a
  // click on a checker is a click on its point.
  const parent = (point) => (targets && targets[point]) || root;
  for (let q = 1; q <= 24; q += 1) {
    const n = counts[q];
    if (n === 0) continue;
    const { x, top } = pointSlot(screenPoint(side, q, view.bottom));
    const onRollPoint = String(side === 0 ? q : 25 - q);
    drawStack(parent(onRollPoint), n, 5, colour, side, onRollPoint, x, (i) => (top ? G.topY + G.r + i * 2 * G.r : G.bottomY - G.r - i * 2 * G.r));
  }
  // On the bar the bottom player's checkers wait in the upper half, near the
  // home board they enter, the top player's in the lower half.
  if (counts[25] > 0) {
    const x = G.barX + G.barW / 2;
    const y = atBottom
      ? (i) => G.midY - G.gap / 2 - G.r - i * 2 * G.r
      : (i) => G.midY + G.gap / 2 + G.r + i * 2 * G.r;
    drawStack(parent('bar'), counts[25], 3, colour, side, 'bar', x, y);
  }
  // Only the bottom player's tray is a target (he bears off there).
  drawOff(atBottom ? parent('off') : root, counts[0], colour, side, atBottom);
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

// Where the cube lies: centred on the left, or on its owner's side.
export function cubeY(cube, bottom, size = 40) {
  if (cube.owner === null) return G.midY - size / 2;
  return cube.owner === bottom ? G.bottomY - size - 4 : G.topY + 4;
}

// A centred cube at 1 shows 64, as on a real board.
export const cubeLabel = (cube) => (cube.owner === null && cube.value === 1 ? '64' : String(cube.value));

function drawCube(root, view) {
  const size = 40;
  const x = G.left / 2 - size / 2 + 2;
  const y = cubeY(view.cube, view.bottom, size);
  const g = svg('g', { class: 'cube', 'data-value': view.cube.value, 'data-owner': view.cube.owner === null ? 'centre' : view.cube.owner }, root);
  svg('rect', { x, y, width: size, height: size, rx: 5 }, g);
  svg('text', { x: x + size / 2, y: y + size / 2 + 7, 'text-anchor': 'middle' }, g).textContent = cubeLabel(view.cube);
}

export const PIPS = { 1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]], 4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]], 6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]] };

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

// One click target per point, the bar and the bottom tray (play tab); the
// checkers of a point are drawn inside its target.
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
