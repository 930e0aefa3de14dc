// Rollouts of the analysed position (or of its moves, with dice): a job on
// the server, polled for its progress.

import { api, clearError, pollLater, showError } from './api.mjs';
import { beforeRoll, endPreview, previewResult } from './analysis.mjs';
import { est, estPct, pct, signed } from './format.mjs';
import { $, state } from './state.mjs';

export async function startRollout() {
  clearError();
  const games = Number($('rollout-games').value);
  if (!Number.isInteger(games) || games < 1) {
    showError('games: give a whole number of games, at least 1');
    return;
  }
  const cube = $('rollout-cube').value;
  const decision = cube === 'decision';
  // A cube decision comes before the roll: the position without its dice.
  const withDice = state.dice && !decision;
  const body = { position: withDice ? state.positionText : beforeRoll(), games, seed: 1, ply: Number($('rollout-ply').value) };
  Object.assign(body, rolloutCubeFields(cube));
  if (withDice) body.dice = state.dice;
  let job;
  try {
    job = await api('POST', '/api/rollouts', body);
  } catch (e) {
    showError(e.message);
    return;
  }
  stopRolloutPolling();
  const inMatch = Boolean(state.context && state.context.match_length);
  state.rollout = { id: job.id, timer: null, dice: withDice ? state.dice : null, inMatch };
  $('rollout-button').disabled = true;
  $('rollout-cancel').disabled = false;
  $('rollout-result').replaceChildren();
  showRolloutJob(job);
}

// The body's cube fields for the cube choice: the server's default (money
// cubeless, a match cubeful at its score), either one, or the cube decision.
export function rolloutCubeFields(choice) {
  switch (choice) {
    case 'cubeful': return { cubeful: true };
    case 'cubeless': return { cubeful: false };
    case 'decision': return { cube_decision: true };
    default: return {};
  }
}

function stopRolloutPolling() {
  if (state.rollout && state.rollout.timer) clearTimeout(state.rollout.timer);
}

function showRolloutJob(job) {
  const p = job.progress || {};
  const bar = $('rollout-progress');
  bar.max = p.total || 1;
  bar.value = p.done || 0;
  let text = `${job.state}`;
  if (job.state === 'queued' && job.queue_position !== undefined && job.queue_position !== null) text += ` (place ${job.queue_position} in the queue)`;
  if (p.total) text += `: ${p.done} of ${p.total} games`;
  if (p.equity !== null && p.equity !== undefined) text += ` · ${progressWhat(job)} ${signed(p.equity)} ± ${p.standard_error === null ? '?' : p.standard_error.toFixed(3)}`;
  $('rollout-status').textContent = text;
  if (job.state === 'queued' || job.state === 'running') {
    // Polled until the job ends.
    const r = state.rollout;
    r.timer = pollLater(`/api/rollouts/${r.id}`, () => state.rollout === r, showRolloutJob, (e) => {
      showError(e.message);
      endRollout();
    });
    return;
  }
  if (job.state === 'failed') showError(`rollout failed: ${job.error}`);
  if (job.result) showRolloutResult(job.result);
  endRollout();
}

// What a running rollout's estimate is: a match rollout reports its
// match winning chances.
function progressWhat(job) {
  const r = state.rollout;
  return r && r.inMatch ? 'match winning chances' : 'equity';
}

function endRollout() {
  stopRolloutPolling();
  state.rollout = null;
  $('rollout-button').disabled = false;
  $('rollout-cancel').disabled = true;
}

export async function cancelRollout() {
  const r = state.rollout;
  if (!r) return;
  try {
    await api('DELETE', `/api/rollouts/${r.id}`);
  } catch (e) {
    showError(e.message);
  }
  // The next poll shows the cancelled job and its partial result.
}

function showRolloutResult(result) {
  const box = $('rollout-result');
  box.replaceChildren();
  const head = document.createElement('p');
  head.className = 'muted';
  const settings = result.rollout && result.rollout.games !== undefined ? result.rollout : result.settings;
  const games = settings ? settings.games : '';
  const where = settings && settings.match ? ` at ${settings.match.score[0]}-${settings.match.score[1]} in a ${settings.match.match_length}-point match` : '';
  head.textContent = `${result.partial ? 'Partial result (cancelled). ' : ''}${games} games asked at ${settings ? settings.ply : '?'}-ply${where}, ${result.seconds ? result.seconds.toFixed(1) : '?'} s.`;
  box.appendChild(head);
  if (result.standard_errors) {
    box.appendChild(cubeDecisionTable(result));
    return;
  }
  if (result.rollout) {
    box.appendChild(rolloutTable([['', result.rollout]]));
  }
  if (result.moves) {
    const table = rolloutTable(result.moves.map((m) => [m.move, m.rollout, m.result]));
    table.classList.add('rollout-moves');
    box.appendChild(table);
  }
}

// A rolled-out cube decision: the three equities with their standard
// errors (and match winning chances in a match), and the proper action.
export function cubeDecisionRows(result) {
  const se = result.standard_errors;
  const mwc = result.mwc || null;
  const row = (name, value, error, chances, chancesError) => [name, signed(value), error === null ? '' : error.toFixed(3),
    mwc ? pct(chances) : '', mwc && chancesError !== null ? pct(chancesError) : ''];
  return [
    row('No double', result.no_double, se.no_double, mwc && mwc.no_double, se.mwc ? se.mwc.no_double : null),
    row('Double, take', result.double_take, se.double_take, mwc && mwc.double_take, se.mwc ? se.mwc.double_take : null),
    row('Double, pass', result.double_pass, null, mwc && mwc.double_pass, null),
  ];
}

function cubeDecisionTable(result) {
  const table = document.createElement('table');
  table.className = 'rollout';
  const mwc = Boolean(result.mwc);
  table.innerHTML = `<tr><th></th><th>${mwc ? 'EMG' : 'Equity'}</th><th>SE</th>${mwc ? '<th>MWC %</th><th>SE</th>' : ''}</tr>`;
  for (const cells of cubeDecisionRows(result)) {
    const tr = document.createElement('tr');
    for (const v of mwc ? cells : cells.slice(0, 3)) {
      const td = document.createElement('td');
      td.textContent = v;
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  const action = document.createElement('tr');
  action.innerHTML = `<th>Proper action</th><td colspan="${mwc ? 4 : 2}"></td>`;
  action.querySelector('td').textContent = result.action;
  table.appendChild(action);
  return table;
}

function rolloutTable(rows) {
  const table = document.createElement('table');
  table.className = 'rollout';
  // A cubeless rollout has no cubeful column (an empty one made the table
  // wider than the side column).
  const cubeful = rows.some(([, r]) => r.cubeful_equity);
  const inMatch = rows.some(([, r]) => r.mwc);
  const extra = (cubeful ? '<th>Cubeful</th>' : '') + (inMatch ? '<th>MWC %</th><th>EMG</th>' : '');
  table.innerHTML = `<tr><th>Move</th><th>Trials</th><th>Equity</th>${extra}<th>Win %</th><th>W g</th><th>L g</th></tr>`;
  for (const [name, r, result] of rows) {
    const tr = document.createElement('tr');
    if (result) tr.dataset.result = result;
    if (name) tr.dataset.move = name;
    const equities = [est(r.equity)];
    if (cubeful) equities.push(est(r.cubeful_equity));
    if (inMatch) equities.push(estPct(r.mwc), est(r.emg));
    for (const v of [name || '(this position)', r.trials, ...equities, estPct(r.win), estPct(r.win_gammon), estPct(r.lose_gammon)]) {
      const td = document.createElement('td');
      td.textContent = String(v);
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  // The rolled-out moves preview like the move list.
  table.addEventListener('mouseover', (ev) => {
    const tr = ev.target.closest('tr[data-result]');
    if (tr) previewResult(tr);
  });
  table.addEventListener('mouseleave', endPreview);
  return table;
}
