// The score matrix's grid from an answer of /api/cube?matrix=N.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cellText, matrixGrid } from './matrix.mjs';

const entry = (me, them, action, [nd, dt, dp], canDouble = true) => ({
  settings: { away: [me, them] },
  action_short: action,
  action: `${action} in words`,
  can_double: canDouble,
  mwc: { no_double: nd, double_take: dt, double_pass: dp },
});

test('rows are the away of the player on roll, columns the opponent', () => {
  const answer = {
    matrix: [
      entry(2, 2, 'DT', [0.50, 0.52, 0.68]),
      entry(2, 3, 'DP', [0.70, 0.80, 0.75]),
      entry(3, 2, 'ND', [0.40, 0.38, 0.60]),
      entry(3, 3, 'ND', [0.50, 0.49, 0.62], false),
    ],
  };
  const grid = matrixGrid(answer);
  assert.deepEqual(grid.columns, [2, 3]);
  assert.deepEqual(grid.rows.map((r) => r.away), [2, 3]);
  assert.deepEqual(grid.rows[0].cells.map(cellText), ['DT 2.0', 'DP 5.0']);
  // No double: the margin is what doubling would lose; without cube access
  // there is no margin.
  assert.deepEqual(grid.rows[1].cells.map(cellText), ['ND 2.0', 'ND']);
});

test('a score the answer lacks is an empty cell', () => {
  const grid = matrixGrid({ matrix: [entry(2, 2, 'DT', [0.5, 0.52, 0.68]), entry(3, 2, 'ND', [0.4, 0.38, 0.6])] });
  assert.deepEqual(grid.rows[0].cells.map(cellText), ['DT 2.0', '']);
});
