// The Analyse tab: loading a position, its ranked moves (previewed on the
// board), the cube decision and the dice.

import { api, clearError, position, showError } from './api.mjs';
import { boardOfAnswer } from './board.mjs';
import { afterMove } from './clicks.mjs';
import { normaliseDice, pct, positionAddress, query, signed, xgidBeforeRoll } from './format.mjs';
import { $, redraw, state } from './state.mjs';

// Reads what the user typed (or the address bar gave) through /api/position,
// which knows every form (Position ID, XGID, PositionID:MatchID).
export async function loadPosition(text, dice) {
  clearError();
  const seq = ++state.seq.load;
  text = (text || '').trim() || 'start';
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
  state.board = boardOfAnswer(info);
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

export function showContext() {
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
export function updateAddress() {
  history.replaceState(null, '', positionAddress(state.positionText, state.dice, state.ply));
}

export function analyseAll() {
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
export function wireMoveList() {
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

// Shows the board after the move of row `tr` (its data-result, asked of
// /api/position), unless another preview or none was asked for meanwhile.
export async function previewResult(tr) {
  const seq = ++state.seq.preview;
  let answer;
  try {
    answer = await position(tr.dataset.result);
  } catch (e) {
    if (seq === state.seq.preview) showError(`cannot draw the position after ${tr.dataset.move}: ${e.message}`);
    return false;
  }
  if (seq !== state.seq.preview) return false;
  state.preview = { board: afterMove(answer), label: `after ${tr.dataset.move}` };
  redraw();
  return true;
}

async function previewMove(tr) {
  if (!(await previewResult(tr))) return;
  for (const row of $('move-list').querySelectorAll('tr.previewed')) row.classList.remove('previewed');
  tr.classList.add('previewed');
}

export function endPreview() {
  state.seq.preview += 1;
  state.preview = null;
  for (const row of $('move-list').querySelectorAll('tr.previewed')) row.classList.remove('previewed');
  redraw();
}

// The position before the roll, for the cube decision and a rollout of the
// position: an XGID or Match ID can carry rolled dice, and the API then
// answers with the moves, so the dice of the XGID are cleared.
export function beforeRoll() {
  const xgid = state.info && state.info.xgid;
  return xgid ? xgidBeforeRoll(xgid) : state.positionText;
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

export function buildDiceButtons() {
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

export function setDice(dice) {
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

// The dice the user typed, or an error shown.
export function typedDice(text) {
  try {
    return { dice: normaliseDice(text) };
  } catch (e) {
    showError(e.message);
    return null;
  }
}
