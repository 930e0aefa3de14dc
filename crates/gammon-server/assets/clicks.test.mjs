// The click matching against real answers of /api/moves (gammon moves
// POSITION DICE --json, keys the page reads only).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { boardAfter, Clicks } from './clicks.mjs';
import { startingBoard } from './board.mjs';

// 6-1 from the start (4HPwATDgc/ABMA).
const START_61 = {"moves":[{"notation":"8/2 6/5"},{"notation":"8/7 8/2"},{"notation":"24/23 8/2"},{"notation":"13/7 6/5"},{"notation":"13/6"},{"notation":"13/7 8/7"},{"notation":"24/23 13/7"},{"notation":"24/18 6/5"},{"notation":"24/18 8/7"},{"notation":"24/23 24/18"}],"step_graph":[{"steps":[{"from":8,"to":2,"die":6,"hit":false,"next":13},{"from":13,"to":7,"die":6,"hit":false,"next":8},{"from":24,"to":18,"die":6,"hit":false,"next":4},{"from":6,"to":5,"die":1,"hit":false,"next":3},{"from":8,"to":7,"die":1,"hit":false,"next":2},{"from":24,"to":23,"die":1,"hit":false,"next":1}],"move":null},{"steps":[{"from":8,"to":2,"die":6,"hit":false,"next":14},{"from":13,"to":7,"die":6,"hit":false,"next":9},{"from":24,"to":18,"die":6,"hit":false,"next":5}],"move":null},{"steps":[{"from":8,"to":2,"die":6,"hit":false,"next":15},{"from":13,"to":7,"die":6,"hit":false,"next":10},{"from":24,"to":18,"die":6,"hit":false,"next":6}],"move":null},{"steps":[{"from":8,"to":2,"die":6,"hit":false,"next":16},{"from":13,"to":7,"die":6,"hit":false,"next":12},{"from":24,"to":18,"die":6,"hit":false,"next":7}],"move":null},{"steps":[{"from":6,"to":5,"die":1,"hit":false,"next":7},{"from":8,"to":7,"die":1,"hit":false,"next":6},{"from":24,"to":23,"die":1,"hit":false,"next":5}],"move":null},{"steps":[],"move":9},{"steps":[],"move":8},{"steps":[],"move":7},{"steps":[{"from":6,"to":5,"die":1,"hit":false,"next":12},{"from":7,"to":6,"die":1,"hit":false,"next":11},{"from":8,"to":7,"die":1,"hit":false,"next":10},{"from":24,"to":23,"die":1,"hit":false,"next":9}],"move":null},{"steps":[],"move":6},{"steps":[],"move":5},{"steps":[],"move":4},{"steps":[],"move":3},{"steps":[{"from":6,"to":5,"die":1,"hit":false,"next":16},{"from":8,"to":7,"die":1,"hit":false,"next":15},{"from":24,"to":23,"die":1,"hit":false,"next":14}],"move":null},{"steps":[],"move":2},{"steps":[],"move":1},{"steps":[],"move":0}]};
// Three on the bar against a 5-point board with 6-6 (2zYAGAA8Bx8ADg).
const BAR_66 = {"moves":[{"notation":"bar/19(2) bar/13"},{"notation":"bar/19(3) 8/2"}],"step_graph":[{"steps":[{"from":25,"to":19,"die":6,"hit":false,"next":1}],"move":null},{"steps":[{"from":25,"to":19,"die":6,"hit":false,"next":2}],"move":null},{"steps":[{"from":25,"to":19,"die":6,"hit":false,"next":3}],"move":null},{"steps":[{"from":8,"to":2,"die":6,"hit":false,"next":5},{"from":19,"to":13,"die":6,"hit":false,"next":4}],"move":null},{"steps":[],"move":0},{"steps":[],"move":1}]};
// Bearing off from 5 and 2 with 6-3 (AwAAEAEAAAAAAA).
const OFF_63 = {"moves":[{"notation":"5/off 2/off"},{"notation":"5/off"}],"step_graph":[{"steps":[{"from":5,"to":0,"die":6,"hit":false,"next":3},{"from":5,"to":2,"die":3,"hit":false,"next":1}],"move":null},{"steps":[{"from":2,"to":0,"die":6,"hit":false,"next":2}],"move":null},{"steps":[],"move":1},{"steps":[{"from":2,"to":0,"die":3,"hit":false,"next":4}],"move":null},{"steps":[],"move":0}]};

const clickAll = (answer, steps) => {
  const c = new Clicks(answer);
  for (const [from, to] of steps) assert.ok(c.play(from, to), `${from}/${to} after ${c.steps.length} steps`);
  return c;
};

test('a 6-1 point-making move plays in either order', () => {
  assert.equal(clickAll(START_61, [['13', '7'], ['8', '7']]).done(), '13/7 8/7');
  assert.equal(clickAll(START_61, [['8', '7'], ['13', '7']]).done(), '13/7 8/7');
});

test('one checker with both dice goes through the open point only', () => {
  // 13/6: through 7 (13/12 lands on the opponent's midpoint).
  assert.equal(clickAll(START_61, [['13', '7'], ['7', '6']]).done(), '13/6');
  const c = new Clicks(START_61);
  assert.equal(c.play('13', '12'), null);
});

test('a move is not done until its dice are used', () => {
  const c = clickAll(START_61, [['24', '18']]);
  assert.equal(c.done(), null);
  assert.deepEqual(c.diceUsed(), [6]);
  // The 6 is used: only ones remain.
  assert.ok(c.next().every((s) => s.die === 1), JSON.stringify(c.next()));
  assert.deepEqual(c.targets('24'), ['23']);
});

test('the sources at the start are the checkers that can move', () => {
  const c = new Clicks(START_61);
  assert.deepEqual(new Set(c.sources()), new Set(['24', '13', '8', '6']));
  assert.deepEqual(new Set(c.targets('8')), new Set(['2', '7']));
  assert.deepEqual(c.targets('5'), []);
});

test('checkers on the bar enter first, then the fourth six is free', () => {
  const c = new Clicks(BAR_66);
  assert.deepEqual(c.sources(), ['bar']);
  assert.deepEqual(c.targets('bar'), ['19']);
  assert.equal(c.play('8', '2'), null);
  for (let i = 0; i < 3; i += 1) assert.ok(c.play('bar', '19'));
  assert.deepEqual(new Set(c.sources()), new Set(['8', '19']));
  assert.ok(c.play('8', '2'));
  assert.equal(c.done(), 'bar/19(3) 8/2');
});

test('bearing off: the higher die takes the highest checker, and then the lower one the next', () => {
  const c = new Clicks(OFF_63);
  // 2/off with the 3 is not allowed while a checker stands on 5.
  assert.deepEqual(new Set(c.sources()), new Set(['5']));
  assert.deepEqual(new Set(c.targets('5')), new Set(['off', '2']));
  assert.ok(c.play('5', 'off'));
  assert.deepEqual(c.diceUsed(), [6]);
  assert.ok(c.play('2', 'off'));
  assert.equal(c.done(), '5/off 2/off');
  // 5/2 with the 3, then the 6 bears that checker off: "5/off".
  assert.equal(clickAll(OFF_63, [['5', '2'], ['2', 'off']]).done(), '5/off');
});

test('undo starts the move again', () => {
  const c = clickAll(START_61, [['24', '18']]);
  c.from = '13';
  c.undo();
  assert.deepEqual([c.steps, c.node, c.from], [[], 0, null]);
  assert.equal(c.sources().length, 4);
});

test('no legal move: nothing to click, nothing done', () => {
  const c = new Clicks({ moves: [], step_graph: [] });
  assert.deepEqual([c.sources(), c.next(), c.done()], [[], [], null]);
});

test('boardAfter moves the checkers and puts a hit blot on the bar', () => {
  const board = startingBoard();
  // An opponent blot on the mover's 7-point (the opponent's 18).
  board[1][13] -= 1;
  board[1][18] = 1;
  const after = boardAfter(board, [{ from: 13, to: 7, die: 6, hit: true }, { from: 6, to: 0, die: 6, hit: false }]);
  assert.deepEqual([after[0][13], after[0][7], after[0][6], after[0][0]], [4, 1, 4, 1]);
  assert.deepEqual([after[1][18], after[1][25]], [0, 1]);
  // The board given is left alone.
  assert.deepEqual([board[0][13], board[1][18]], [5, 1]);
});
