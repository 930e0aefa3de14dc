// The score matrix of the cube panel: the cube decision of the analysed
// position at every score of an N-point match (`GET /api/cube?matrix=N`),
// a grid as `gammon cube --matrix` prints it.

import { api, clearError, showError } from './api.mjs';
import { beforeRoll } from './analysis.mjs';
import { query } from './format.mjs';
import { $, state } from './state.mjs';

// The grid of a matrix answer: `rows` from the player on roll's away (2 to
// N), `columns` the opponent's, each cell the proper action's short code
// and the margin of the decision in match winning chances (%): how much
// the better of playing on and doubling gains over the other.
export function matrixGrid(answer) {
  const cells = new Map();
  const aways = new Set();
  for (const entry of answer.matrix) {
    const [me, them] = entry.settings.away;
    aways.add(me);
    aways.add(them);
    const m = entry.mwc;
    const doubling = Math.min(m.double_take, m.double_pass);
    const margin = entry.can_double ? Math.abs(m.no_double - doubling) : null;
    cells.set(`${me}/${them}`, { action: entry.action_short, margin, title: entry.action });
  }
  const order = [...aways].sort((a, b) => a - b);
  return {
    columns: order,
    rows: order.map((me) => ({ away: me, cells: order.map((them) => cells.get(`${me}/${them}`) || null) })),
  };
}

// A cell's text: "DT 1.2" (the margin in MWC %).
export const cellText = (cell) => (cell ? `${cell.action}${cell.margin === null ? '' : ` ${(100 * cell.margin).toFixed(1)}`}` : '');

export async function showMatrix() {
  clearError();
  const length = Number($('matrix-length').value);
  const box = $('matrix-panel');
  box.textContent = `${length}-point match, ${state.ply}-ply: thinking…`;
  let answer;
  try {
    answer = await api('GET', `/api/cube?${query({ position: beforeRoll(), ply: state.ply, matrix: length })}`);
  } catch (e) {
    box.replaceChildren();
    showError(e.message);
    return;
  }
  box.replaceChildren(matrixTable(answer));
}

function matrixTable(answer) {
  const grid = matrixGrid(answer);
  const table = document.createElement('table');
  table.className = 'cube-matrix';
  const caption = document.createElement('caption');
  caption.textContent = `${answer.match_length}-point match at ${answer.ply}-ply${answer.met ? ` (${answer.met})` : ''}: rows the away of the player on roll, columns the opponent's; the margin in MWC %`;
  table.appendChild(caption);
  const head = document.createElement('tr');
  head.appendChild(document.createElement('th'));
  for (const away of grid.columns) {
    const th = document.createElement('th');
    th.textContent = `${away}-away`;
    head.appendChild(th);
  }
  table.appendChild(head);
  for (const row of grid.rows) {
    const tr = document.createElement('tr');
    const th = document.createElement('th');
    th.textContent = `${row.away}-away`;
    tr.appendChild(th);
    for (const cell of row.cells) {
      const td = document.createElement('td');
      td.textContent = cellText(cell);
      if (cell) {
        td.title = cell.title;
        td.dataset.action = cell.action;
      }
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  return table;
}
