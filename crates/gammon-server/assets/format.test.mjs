import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normaliseDice, pct, positionAddress, query, signed, num, est, stepsText, xgidBeforeRoll, pointName } from './format.mjs';

test('dice are written high die first, from any form', () => {
  assert.equal(normaliseDice('13'), '31');
  assert.equal(normaliseDice('3-1'), '31');
  assert.equal(normaliseDice('66'), '66');
  assert.equal(normaliseDice(''), null);
  assert.equal(normaliseDice(null), null);
  assert.throws(() => normaliseDice('71'), (e) => e.field === 'dice' && e.message.includes('"71"'));
  assert.throws(() => normaliseDice('312'), /each die shows 1 to 6/);
});

test('numbers: percentages, signed equities, n/a', () => {
  assert.equal(pct(0.1234), '12.3');
  assert.equal(pct(null), '');
  assert.equal(signed(-0.5), '−0.500');
  assert.equal(signed(0.25, 2), '+0.25');
  assert.equal(signed(undefined), '');
  assert.equal(num(null, 1), 'n/a');
  assert.equal(num(3.14159, 2), '3.14');
  assert.equal(est({ mean: 0.1, standard_error: 0.0123 }), '+0.100 ± 0.012');
});

test('a query leaves out absent parameters and encodes the rest', () => {
  assert.equal(query({ position: 'XGID=a:b', dice: null, ply: 0, x: '' }), 'position=XGID%3Da%3Ab&ply=0');
});

test('the address keeps an XGID readable and the dice and depth when set', () => {
  assert.equal(positionAddress('XGID=-b:0:0', '31', 2), '/?position=XGID=-b:0:0&dice=31&ply=2');
  assert.equal(positionAddress('4HPwATDgc/ABMA', null, 0), '/?position=4HPwATDgc/ABMA');
});

test('before the roll an XGID has its dice cleared', () => {
  assert.equal(xgidBeforeRoll('XGID=-b----E-C---eE---c-e----B-:0:0:1:31:0:0:0:0:10'), 'XGID=-b----E-C---eE---c-e----B-:0:0:1:00:0:0:0:0:10');
  // Not rolled (00, or D for a double): unchanged.
  assert.equal(xgidBeforeRoll('XGID=-b:0:0:1:D:0:0:0:0:10'), 'XGID=-b:0:0:1:D:0:0:0:0:10');
});

test('steps read like the notation: bar, off and hits', () => {
  assert.equal(pointName(25), 'bar');
  assert.equal(pointName(0), 'off');
  assert.equal(stepsText([{ from: 25, to: 22, hit: true }, { from: 6, to: 0, hit: false }]), 'bar/22* 6/off');
});
