import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isDecision, recordLine, recordMark } from './review.mjs';

const players = ['Alice', 'Bob'];
const move = { action: 'move', player: 1, move_number: 3, dice: '31', move: '8/5 6/5', forced: false, mark: 'bad', loss: 0.1234, cube: null };

test('a record line names the player, the roll, the move and its mark', () => {
  assert.equal(recordLine(players, move), '3. Bob 31: 8/5 6/5 ? −0.123');
  assert.equal(recordLine(players, { ...move, move: '', mark: 'none' }), '3. Bob 31: (no move)');
  assert.equal(recordLine(players, { action: 'take', player: 0, move_number: null, cube: null }), 'Alice takes');
  const cube = { mark: 'very_bad', error: 0.5 };
  assert.equal(recordLine(players, { ...move, mark: 'none', cube }), '3. Bob 31: 8/5 6/5 · cube ?? −0.500');
});

test('the worse of the move and cube marks', () => {
  assert.equal(recordMark(move), 'bad');
  assert.equal(recordMark({ ...move, cube: { mark: 'very_bad' } }), 'very_bad');
  assert.equal(recordMark({ ...move, mark: undefined }), 'none');
});

test('decisions: unforced moves and cube decisions, not forced moves', () => {
  assert.equal(isDecision(move), true);
  assert.equal(isDecision({ ...move, forced: true }), false);
  assert.equal(isDecision({ ...move, forced: true, cube: { mark: 'none' } }), true);
});
