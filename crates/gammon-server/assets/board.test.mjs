import { test } from 'node:test';
import assert from 'node:assert/strict';
import { G, cubeLabel, cubeY, moverBoard, pipCount, pointSlot, screenPoint, startingBoard } from './board.mjs';

test('the geometry fits the viewBox of index.html (790 x 568)', () => {
  assert.ok(G.width <= 790, G.width);
  assert.equal(G.height, 568);
});

test('points: the bottom player home board bottom right, 13-24 on top', () => {
  const slots = Array.from({ length: 24 }, (_, i) => pointSlot(i + 1));
  assert.ok(slots.slice(0, 12).every((s) => !s.top) && slots.slice(12).every((s) => s.top));
  // Point 1 at the right edge, 12 and 13 at the left edge, 24 at the right.
  assert.equal(slots[0].x, G.innerRight - G.pointW / 2);
  assert.equal(slots[11].x, G.leftHalfX + G.pointW / 2);
  assert.equal(slots[12].x, slots[11].x);
  assert.equal(slots[23].x, slots[0].x);
  // Six points each side of the bar, none on it.
  const xs = new Set(slots.map((s) => s.x));
  assert.equal(xs.size, 12);
  assert.ok([...xs].every((x) => x < G.barX || x > G.barX + G.barW));
});

test('the player at the top counts from the other side', () => {
  assert.equal(screenPoint(0, 6, 0), 6);
  assert.equal(screenPoint(1, 6, 0), 19);
  assert.equal(screenPoint(0, 24, 1), 1);
});

test('pips and the starting board', () => {
  const start = startingBoard();
  assert.equal(pipCount(start[0]), 167);
  const side = new Array(26).fill(0);
  side[25] = 1;
  side[3] = 2;
  assert.equal(pipCount(side), 31);
});

test('a result seen by the next player is turned back to the mover', () => {
  const seen = { 0: ['next'], 1: ['mover'] };
  assert.deepEqual(moverBoard(seen), { 0: ['mover'], 1: ['next'] });
});

test('the cube: centred at 64, or on its owner side', () => {
  assert.equal(cubeLabel({ value: 1, owner: null }), '64');
  assert.equal(cubeLabel({ value: 2, owner: 0 }), '2');
  assert.equal(cubeY({ owner: null }, 0), G.midY - 20);
  assert.ok(cubeY({ owner: 0 }, 0) > G.midY);
  assert.ok(cubeY({ owner: 0 }, 1) < G.midY);
});
