// The client of the server's JSON API (docs/server.md) and the page's error
// line.

import { query } from './format.mjs';

export class ApiError extends Error {
  constructor(field, reason) {
    super(field ? `${field}: ${reason}` : reason);
    this.field = field;
  }
}

// Every answer is JSON; a refusal is {"error": {"field", "reason"}}.
export async function api(method, path, body) {
  const init = { method, headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, init);
  } catch (e) {
    throw new ApiError(null, `cannot reach the server (${e.message})`);
  }
  let data = null;
  try {
    data = await response.json();
  } catch (e) {
    throw new ApiError(null, `the server answered ${response.status} without JSON`);
  }
  if (!response.ok) {
    const err = data && data.error;
    if (err && typeof err.reason === 'string') throw new ApiError(err.field, err.reason);
    throw new ApiError(null, `the server answered ${response.status}`);
  }
  return data;
}

// Asks again in 500 ms for the job (rollout, review) at `path`: its answer
// goes to `show`, a refusal to `failed`, both only while `current()` holds
// (the job is still the one shown). The timer, for clearTimeout.
export function pollLater(path, current, show, failed) {
  return setTimeout(async () => {
    if (!current()) return;
    let job;
    try {
      job = await api('GET', path);
    } catch (e) {
      if (current()) failed(e);
      return;
    }
    if (current()) show(job);
  }, 500);
}

// /api/position's answers by the text asked, kept: the page asks again for
// the same positions (hovered moves, review steps), and they never change.
const positions = new Map();

export function position(text) {
  if (!positions.has(text)) {
    const answer = api('GET', `/api/position?${query({ position: text })}`);
    // A refusal is not kept: the next ask tries again.
    answer.catch(() => positions.delete(text));
    positions.set(text, answer);
  }
  return positions.get(text);
}

const box = () => document.getElementById('error');

export function showError(message) {
  box().textContent = message;
  box().hidden = false;
}

export function clearError() {
  box().hidden = true;
  box().textContent = '';
}
