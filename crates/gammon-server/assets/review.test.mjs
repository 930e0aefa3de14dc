import { test } from 'node:test';
import assert from 'node:assert/strict';
import { base64OfBytes, isDecision, MAX_MATCH_FILE_BYTES, recordLine, recordMark, storedName, storedRows, storedVerdict } from './review.mjs';

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

test('a match file goes to the server as standard base64', () => {
  const bytes = new Uint8Array([0x52, 0x47, 0x4d, 0x48, 0x00, 0xff, 0x80]);
  assert.equal(base64OfBytes(bytes), Buffer.from(bytes).toString('base64'));
  // Longer than one chunk of String.fromCharCode.
  const big = new Uint8Array(100_000).map((_, i) => (i * 7) % 256);
  assert.equal(base64OfBytes(big), Buffer.from(big).toString('base64'));
  // The largest file the page sends fits the server's 1 MiB body with its base64.
  assert.ok(Math.ceil(MAX_MATCH_FILE_BYTES / 3) * 4 + 100 <= 1024 * 1024);
});

test("the stored program's verdict and rows, as gammon review words them", () => {
  assert.equal(storedName('eXtreme Gammon 2.19'), 'XG');
  assert.equal(storedName('GNU Backgammon 1.07.001'), 'gnubg');
  assert.equal(storedName(null), null);
  const rec = { xg: { loss: 0.0451, depth: '2-ply', cube_error: 0, cube_depth: '3-ply' } };
  assert.equal(storedVerdict('XG', rec), 'XG: move lost 0.045 (2-ply); cube lost 0.000 (3-ply)');
  assert.equal(storedVerdict('XG', { xg: { loss: null, cube_error: null } }), null);
  assert.equal(storedVerdict(null, rec), null);
  const rows = storedRows('XG');
  const player = { xg: { moves: 24, cube_decisions: 3, chequer_error_rate: 22.25, cube_error_rate: 34.95, pr: 11.83 } };
  assert.deepEqual(rows.map(([label, f]) => [label, f(player)]), [
    ['Moves and cube decisions analysed by XG', '24/3'],
    ['Chequer error rate by XG', '22.3'],
    ['Cube error rate by XG', '35.0'],
    ['PR by XG', '11.83'],
  ]);
  assert.deepEqual(storedRows(null), []);
});
