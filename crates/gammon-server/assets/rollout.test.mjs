// The rollout panel's pure parts: the body's cube fields and the rows of a
// rolled-out cube decision.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cubeDecisionRows, rolloutCubeFields } from './rollout.mjs';

test('the cube choice leaves the default to the server unless one is chosen', () => {
  assert.deepEqual(rolloutCubeFields('auto'), {});
  assert.deepEqual(rolloutCubeFields('cubeful'), { cubeful: true });
  assert.deepEqual(rolloutCubeFields('cubeless'), { cubeful: false });
  assert.deepEqual(rolloutCubeFields('decision'), { cube_decision: true });
});

test('a money cube decision shows three equities and two standard errors', () => {
  const result = {
    no_double: 0.6579, double_take: 0.6653, double_pass: 1,
    standard_errors: { no_double: 0.0015, double_take: 0.0017 },
  };
  const rows = cubeDecisionRows(result);
  assert.deepEqual(rows.map((r) => r[0]), ['No double', 'Double, take', 'Double, pass']);
  assert.deepEqual(rows.map((r) => r[1]), ['+0.658', '+0.665', '+1.000']);
  assert.deepEqual(rows.map((r) => r[2]), ['0.002', '0.002', '']);
  assert.equal(rows[0][3], '');
});

test('a match cube decision adds the match winning chances', () => {
  const result = {
    no_double: 0.17, double_take: -0.21, double_pass: 1,
    mwc: { no_double: 0.5868, double_take: 0.5586, double_pass: 0.648 },
    standard_errors: { no_double: 0.005, double_take: 0.009, mwc: { no_double: 0.0004, double_take: 0.0006 } },
  };
  const rows = cubeDecisionRows(result);
  assert.deepEqual(rows.map((r) => r[3]), ['58.7', '55.9', '64.8']);
  assert.deepEqual(rows.map((r) => r[4]), ['0.0', '0.1', '']);
  assert.equal(rows[1][1], '−0.210');
});
