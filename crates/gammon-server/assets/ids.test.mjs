import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodePositionId } from './ids.mjs';
import { startingBoard } from './board.mjs';

test('the starting position', () => {
  assert.equal(encodePositionId(startingBoard()), '4HPwATDgc/ABMA');
});

test('the position after 8/5 6/5, seen by the next player, as the server writes it', () => {
  // gammon moves start 31 --json: "8/5 6/5" leads to sGfwATDgc/ABMA.
  const start = startingBoard();
  const mover = start[0].slice();
  mover[8] -= 1;
  mover[6] -= 1;
  mover[5] += 2;
  assert.equal(encodePositionId({ 0: start[1], 1: mover }), 'sGfwATDgc/ABMA');
});
