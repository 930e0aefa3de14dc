// Pure text helpers of the page: numbers, dice, query strings, step lists.

// A probability as a percentage with one decimal; '' when absent.
export const pct = (x) => (x === null || x === undefined ? '' : (100 * x).toFixed(1));

// An equity with its sign (a real minus sign); '' when absent.
export const signed = (x, digits = 3) => (x === null || x === undefined ? '' : `${x < 0 ? '−' : '+'}${Math.abs(x).toFixed(digits)}`);

// A number with `d` decimals, 'n/a' when absent.
export const num = (x, d) => (x === null || x === undefined ? 'n/a' : x.toFixed(d));

// A rollout estimate: mean ± standard error.
export const est = (e) => (e ? `${signed(e.mean)} ± ${e.standard_error.toFixed(3)}` : '');
export const estPct = (e) => (e ? `${pct(e.mean)} ± ${pct(e.standard_error)}` : '');

export const MARK_SYMBOL = { none: '', doubtful: '?!', bad: '?', very_bad: '??' };

// The query string of `params`, leaving out the absent ones (the API refuses
// parameters it does not take).
export function query(params) {
  const parts = [];
  for (const [key, value] of Object.entries(params)) {
    if (value !== null && value !== undefined && value !== '') {
      parts.push(`${key}=${encodeURIComponent(value)}`);
    }
  }
  return parts.join('&');
}

export class DiceError extends Error {
  constructor(reason) {
    super(`dice: ${reason}`);
    this.field = 'dice';
  }
}

// Canonical "31" from "31", "13", "3-1"; null for an empty text.
export function normaliseDice(text) {
  const digits = (text || '').replace(/[^0-9]/g, '');
  if (digits === '') return null;
  if (!/^[1-6][1-6]$/.test(digits)) throw new DiceError(`cannot read "${text}" (write them like 31): each die shows 1 to 6`);
  const [a, b] = [Number(digits[0]), Number(digits[1])];
  return `${Math.max(a, b)}${Math.min(a, b)}`;
}

// A point of the mover's numbering as the board's targets name it.
export const pointName = (n) => (n === 25 ? 'bar' : (n === 0 ? 'off' : String(n)));

// Steps as "bar/22 13/7*".
export const stepsText = (steps) => steps.map((s) => `${pointName(s.from)}/${pointName(s.to)}${s.hit ? '*' : ''}`).join(' ');

// The address that reopens a position: readable, with ':' '/' '=' kept.
export function positionAddress(positionText, dice, ply) {
  const readable = (v) => encodeURIComponent(v).replace(/%3A/gi, ':').replace(/%2F/gi, '/').replace(/%3D/gi, '=');
  let url = `/?position=${readable(positionText)}`;
  if (dice) url += `&dice=${dice}`;
  if (ply !== 0) url += `&ply=${ply}`;
  return url;
}

// The XGID before the roll: its dice field cleared ("00"), so that the API
// answers the cube decision, not the moves.
export function xgidBeforeRoll(xgid) {
  const fields = xgid.split(':');
  if (fields.length > 4 && /^[1-6][1-6]$/.test(fields[4])) fields[4] = '00';
  return fields.join(':');
}
