// Rollouts of the analysed position (or of its moves, with dice): a job on
// the server, polled for its progress.

import { api, clearError, pollLater, showError } from './api.mjs';
import { beforeRoll, endPreview, previewResult } from './analysis.mjs';
import { est, estPct, signed } from './format.mjs';
import { $, state } from './state.mjs';

export async function startRollout() {
  clearError();
  const games = Number($('rollout-games').value);
  if (!Number.isInteger(games) || games < 1) {
    showError('games: give a whole number of games, at least 1');
    return;
  }
  const body = { position: state.dice ? state.positionText : beforeRoll(), games, seed: 1, ply: Number($('rollout-ply').value), cubeful: $('rollout-cubeful').checked };
  if (state.dice) body.dice = state.dice;
  let job;
  try {
    job = await api('POST', '/api/rollouts', body);
  } catch (e) {
    showError(e.message);
    return;
  }
  stopRolloutPolling();
  state.rollout = { id: job.id, timer: null, dice: state.dice };
  $('rollout-button').disabled = true;
  $('rollout-cancel').disabled = false;
  $('rollout-result').replaceChildren();
  showRolloutJob(job);
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
  if (p.equity !== null && p.equity !== undefined) text += ` · equity ${signed(p.equity)} ± ${p.standard_error === null ? '?' : p.standard_error.toFixed(3)}`;
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
  const games = result.settings ? result.settings.games : '';
  head.textContent = `${result.partial ? 'Partial result (cancelled). ' : ''}${games} games asked at ${result.settings ? result.settings.ply : '?'}-ply, ${result.seconds ? result.seconds.toFixed(1) : '?'} s.`;
  box.appendChild(head);
  if (result.rollout) {
    box.appendChild(rolloutTable([['', result.rollout]]));
  }
  if (result.moves) {
    const table = rolloutTable(result.moves.map((m) => [m.move, m.rollout, m.result]));
    table.classList.add('rollout-moves');
    box.appendChild(table);
  }
}

function rolloutTable(rows) {
  const table = document.createElement('table');
  table.className = 'rollout';
  // A cubeless rollout has no cubeful column (an empty one made the table
  // wider than the side column).
  const cubeful = rows.some(([, r]) => r.cubeful_equity);
  table.innerHTML = `<tr><th>Move</th><th>Trials</th><th>Equity</th>${cubeful ? '<th>Cubeful</th>' : ''}<th>Win %</th><th>W g</th><th>L g</th></tr>`;
  for (const [name, r, result] of rows) {
    const tr = document.createElement('tr');
    if (result) tr.dataset.result = result;
    if (name) tr.dataset.move = name;
    const equities = cubeful ? [est(r.equity), est(r.cubeful_equity)] : [est(r.equity)];
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
