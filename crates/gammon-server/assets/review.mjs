// The Review tab: a match file reviewed by a job on the server, its summary,
// every record marked by size, and stepping through it on the board.

import { api, clearError, pollLater, position, showError } from './api.mjs';
import { boardOfAnswer, moverBoard, startingBoard } from './board.mjs';
import { MARK_SYMBOL, num, pct, signed } from './format.mjs';
import { loadPosition } from './analysis.mjs';
import { $, redraw, showTab, state } from './state.mjs';

const MAX_BODY_BYTES = 1024 * 1024; // the server's body limit
// The largest file whose base64 fits the body with the depths beside it.
export const MAX_MATCH_FILE_BYTES = Math.floor((MAX_BODY_BYTES - 100) / 4) * 3;

// Bytes as standard base64: how a match file of any format (an .xg or
// .ogxm is binary) goes to the server, as `match_base64`.
export function base64OfBytes(bytes) {
  let binary = '';
  const CHUNK = 0x8000;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    binary += String.fromCharCode(...bytes.subarray(i, i + CHUNK));
  }
  return btoa(binary);
}

export async function readReviewFile() {
  const file = $('review-file').files[0];
  state.reviewFile = null;
  $('review-button').disabled = true;
  if (!file) return;
  if (file.size > MAX_MATCH_FILE_BYTES) {
    showError(`match file: ${file.name} is ${file.size} bytes; the server takes match files of at most ${MAX_MATCH_FILE_BYTES} bytes`);
    return;
  }
  state.reviewFile = base64OfBytes(new Uint8Array(await file.arrayBuffer()));
  $('review-button').disabled = false;
  startReview();
}

export async function startReview() {
  clearError();
  if (!state.reviewFile) return;
  const ply = Number($('review-ply').value);
  let job;
  try {
    job = await api('POST', '/api/reviews', { match_base64: state.reviewFile, ply, cube_ply: ply });
  } catch (e) {
    showError(e.message);
    return;
  }
  if (state.reviewJob && state.reviewJob.timer) clearTimeout(state.reviewJob.timer);
  state.reviewJob = { id: job.id, timer: null };
  $('review-cancel').disabled = false;
  $('review-button').disabled = true;
  showReviewJob(job);
}

function showReviewJob(job) {
  const p = job.progress || {};
  $('review-progress').max = p.total || 1;
  $('review-progress').value = p.done || 0;
  $('review-status').textContent = `${job.state}${p.total ? `: ${p.done} of ${p.total} decisions` : ''}`;
  if (job.state === 'queued' || job.state === 'running') {
    // Polled until the job ends.
    const j = state.reviewJob;
    j.timer = pollLater(`/api/reviews/${j.id}`, () => state.reviewJob === j, showReviewJob, (e) => {
      showError(e.message);
      endReviewJob();
    });
    return;
  }
  if (job.state === 'failed') showError(`review failed: ${job.error}`);
  if (job.result) showReview(job.result);
  endReviewJob();
}

function endReviewJob() {
  if (state.reviewJob && state.reviewJob.timer) clearTimeout(state.reviewJob.timer);
  state.reviewJob = null;
  $('review-cancel').disabled = true;
  $('review-button').disabled = !state.reviewFile;
}

export async function cancelReview() {
  const j = state.reviewJob;
  if (!j) return;
  try {
    await api('DELETE', `/api/reviews/${j.id}`);
  } catch (e) {
    showError(e.message);
  }
}

// A record is a decision worth stepping to when it is a move with a choice
// or carries a cube decision.
export function isDecision(rec) {
  return (rec.action === 'move' && rec.forced === false) || rec.cube !== null;
}

// The worse of a record's move and cube marks.
export function recordMark(rec) {
  const marks = ['none', 'doubtful', 'bad', 'very_bad'];
  const a = marks.indexOf(rec.mark || 'none');
  const b = rec.cube ? marks.indexOf(rec.cube.mark || 'none') : 0;
  return marks[Math.max(a, b, 0)];
}

// The short name of the program whose analysis the file stores: "XG",
// "gnubg", or its own name shortened.
export function storedName(program) {
  if (!program) return null;
  if (program.includes('eXtreme Gammon')) return 'XG';
  if (program.startsWith('GNU Backgammon')) return 'gnubg';
  return program.length > 16 ? `${program.slice(0, 15)}…` : program;
}

// The stored program's verdict on a record, in a few words: "XG: move
// lost 0.045 (2-ply); cube lost 0.000 (3-ply)"; null without one.
export function storedVerdict(name, rec) {
  const s = rec.xg;
  if (!name || !s) return null;
  const parts = [];
  if (s.loss !== null && s.loss !== undefined) parts.push(`move lost ${s.loss.toFixed(3)}${s.depth ? ` (${s.depth})` : ''}`);
  if (s.cube_error !== null && s.cube_error !== undefined) parts.push(`cube lost ${s.cube_error.toFixed(3)}${s.cube_depth ? ` (${s.cube_depth})` : ''}`);
  return parts.length ? `${name}: ${parts.join('; ')}` : null;
}

// The stored program's rows of the summary table.
export function storedRows(name) {
  if (!name) return [];
  return [
    [`Moves and cube decisions analysed by ${name}`, (s) => `${s.xg.moves}/${s.xg.cube_decisions}`],
    [`Chequer error rate by ${name}`, (s) => num(s.xg.chequer_error_rate, 1)],
    [`Cube error rate by ${name}`, (s) => num(s.xg.cube_error_rate, 1)],
    [`PR by ${name}`, (s) => num(s.xg.pr, 2)],
  ];
}

// One line of the record list: "3. Alice 31: 8/5 6/5 ? −0.123".
export function recordLine(players, rec) {
  const who = players[rec.player];
  const n = rec.move_number === null ? '' : `${rec.move_number}. `;
  let text;
  if (rec.action === 'move') {
    text = `${n}${who} ${rec.dice}: ${rec.move === '' ? '(no move)' : rec.move}`;
    if (rec.mark && rec.mark !== 'none') text += ` ${MARK_SYMBOL[rec.mark]} −${rec.loss.toFixed(3)}`;
  } else {
    text = `${n}${who} ${rec.action}s`;
  }
  if (rec.cube && rec.cube.mark !== 'none') text += ` · cube ${MARK_SYMBOL[rec.cube.mark]} −${rec.cube.error.toFixed(3)}`;
  return text;
}

function showReview(data) {
  const items = [];
  data.games.forEach((game, g) => game.records.forEach((rec, r) => {
    if (rec.position_id) items.push({ game, g, rec, r });
  }));
  state.review = { data, items, index: 0, after: null, drawn: null, seq: 0 };
  const panel = $('review-panel');
  panel.replaceChildren();
  panel.appendChild(reviewSummary(data));
  const controls = document.createElement('div');
  controls.className = 'row review-controls';
  controls.innerHTML = '<button type="button" id="review-prev">◀ Previous</button>'
    + '<button type="button" id="review-next">Next ▶</button>'
    + '<label><input type="checkbox" id="review-errors-only"> errors only</label>';
  panel.appendChild(controls);
  const detail = document.createElement('div');
  detail.id = 'review-detail';
  detail.className = 'panel';
  panel.appendChild(detail);
  panel.appendChild(reviewGames(data, items));
  $('review-prev').addEventListener('click', () => stepReview(-1));
  $('review-next').addEventListener('click', () => stepReview(1));
  const first = items.findIndex((it) => isDecision(it.rec));
  selectReviewItem(first < 0 ? 0 : first);
}

function reviewSummary(data) {
  const box = document.createElement('div');
  box.className = 'panel';
  const title = document.createElement('h2');
  title.textContent = `${data.players[0]} vs ${data.players[1]}, ${data.match_length ? `${data.match_length}-point match` : 'money session'}`;
  box.appendChild(title);
  const table = document.createElement('table');
  table.className = 'summary';
  const rows = [
    ['Error rate (mEMG/decision)', (s) => num(s.overall_error_rate, 1)],
    ['PR', (s) => num(s.pr, 2)],
    ['Chequer error rate', (s) => num(s.chequer_error_rate, 1)],
    ['Cube error rate', (s) => num(s.cube_error_rate, 1)],
    ['Unforced moves', (s) => s.unforced_moves],
    ['Doubtful / bad / very bad moves', (s) => `${s.marks.moves.doubtful} / ${s.marks.moves.bad} / ${s.marks.moves.very_bad}`],
    ['Cube decisions (close)', (s) => `${s.cube_decisions} (${s.close_cube_decisions})`],
    ['Cube errors (?! / ? / ??)', (s) => `${s.marks.cube.doubtful} / ${s.marks.cube.bad} / ${s.marks.cube.very_bad}`],
    ['Luck rate', (s) => num(s.luck_rate, 1)],
    ['Rating', (s) => s.rating || 'n/a'],
    ...storedRows(storedName(data.stored_program)),
  ];
  const head = document.createElement('tr');
  head.innerHTML = '<th></th><th></th><th></th>';
  head.children[1].textContent = data.summary[0].name;
  head.children[2].textContent = data.summary[1].name;
  table.appendChild(head);
  for (const [label, f] of rows) {
    const tr = document.createElement('tr');
    for (const v of [label, f(data.summary[0]), f(data.summary[1])]) {
      const td = document.createElement('td');
      td.textContent = String(v);
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  box.appendChild(table);
  return box;
}

function reviewGames(data, items) {
  const box = document.createElement('div');
  box.className = 'panel review-games';
  let list = null;
  let lastGame = -1;
  items.forEach((it, i) => {
    if (it.g !== lastGame) {
      lastGame = it.g;
      const h = document.createElement('h3');
      const winner = it.game.winner === null || it.game.winner === undefined ? 'unfinished' : `${data.players[it.game.winner]} wins ${it.game.points}`;
      h.textContent = `Game ${it.game.number}: score ${it.game.score[0]}-${it.game.score[1]}${it.game.crawford ? ', Crawford' : ''}; ${winner}`;
      box.appendChild(h);
      list = document.createElement('ol');
      list.className = 'records';
      box.appendChild(list);
    }
    const li = document.createElement('li');
    li.dataset.index = String(i);
    const mark = recordMark(it.rec);
    li.className = `record mark-${mark}${isDecision(it.rec) ? ' decision' : ''}`;
    li.dataset.mark = mark;
    li.textContent = recordLine(data.players, it.rec);
    list.appendChild(li);
  });
  box.addEventListener('click', (ev) => {
    const li = ev.target.closest('li[data-index]');
    if (li) selectReviewItem(Number(li.dataset.index));
  });
  return box;
}

export function stepReview(delta) {
  const rv = state.review;
  if (!rv) return;
  const errorsOnly = $('review-errors-only') && $('review-errors-only').checked;
  let i = rv.index;
  for (;;) {
    i += delta;
    if (i < 0 || i >= rv.items.length) return;
    const rec = rv.items[i].rec;
    if (errorsOnly ? recordMark(rec) !== 'none' : isDecision(rec) || rec.action !== 'move') break;
  }
  selectReviewItem(i);
}

function selectReviewItem(i) {
  const rv = state.review;
  if (!rv || !rv.items[i]) return;
  rv.index = i;
  rv.after = null;
  for (const li of $('review-panel').querySelectorAll('li.selected')) li.classList.remove('selected');
  const li = $('review-panel').querySelector(`li[data-index="${i}"]`);
  if (li) {
    li.classList.add('selected');
    li.scrollIntoView({ block: 'nearest' });
  }
  showReviewDetail(rv.items[i]);
  showReviewBoard();
}

// Asks the server for the board to show (the record's position with its
// match context, or the position after a move) and draws it; the board
// shown before stays until the answer comes.
async function showReviewBoard() {
  const rv = state.review;
  const seq = ++rv.seq;
  const { rec } = rv.items[rv.index];
  const after = rv.after;
  let drawn;
  try {
    if (after) {
      const answer = await position(after.id);
      drawn = { board: moverBoard(boardOfAnswer(answer)), cube: rv.drawn ? rv.drawn.cube : { value: 1, owner: null } };
    } else {
      const answer = await position(rec.match_id ? `${rec.position_id}:${rec.match_id}` : rec.position_id);
      const c = answer.context;
      drawn = { board: boardOfAnswer(answer), cube: { value: c.cube, owner: c.owner === 'me' ? 0 : (c.owner === 'opponent' ? 1 : null) } };
    }
  } catch (e) {
    if (seq === rv.seq) showError(`cannot draw this record: ${e.message}`);
    drawn = { board: startingBoard(), cube: { value: 1, owner: null } };
  }
  if (seq !== rv.seq || state.review !== rv) return;
  rv.drawn = { ...drawn, index: rv.index, after };
  redraw();
}

// The board of a review keeps the first player of the file at the bottom
// and each player's colour, whoever is on roll.
export function reviewView() {
  const rv = state.review;
  const { rec } = rv.items[rv.index];
  const drawn = rv.drawn || { board: startingBoard(), cube: { value: 1, owner: null }, after: null };
  const firstIsActing = rec.player === 0;
  const bottom = (firstIsActing ? 0 : 1) ^ (state.flipped ? 1 : 0);
  return {
    board: drawn.board,
    bottom,
    colours: firstIsActing ? ['dark', 'light'] : ['light', 'dark'],
    cube: drawn.cube,
    dice: drawn.after ? null : rec.dice,
    note: drawn.after ? drawn.after.label : '',
  };
}

// Under the board in a review: the record's IDs and the match score.
export function showReviewLines() {
  const rv = state.review;
  const { rec, game } = rv.items[rv.index];
  $('position-ids').textContent = rec.match_id ? `${rec.position_id}:${rec.match_id}` : rec.position_id;
  const [a, b] = rv.data.players;
  const parts = [rv.data.match_length ? `${rv.data.match_length}-point match, score ${a} ${game.score[0]}, ${b} ${game.score[1]}` : 'money session'];
  if (game.crawford) parts.push('Crawford game');
  parts.push(`${rv.data.players[rec.player]} to act (${rec.player === 0 ? 'dark' : 'light'})`);
  $('context-line').textContent = parts.join(' · ');
}

// Opens a review record in the analysis tab, with its match context.
function analyseReviewRecord() {
  const rv = state.review;
  if (!rv) return;
  const { rec } = rv.items[rv.index];
  const text = rec.match_id ? `${rec.position_id}:${rec.match_id}` : rec.position_id;
  showTab('analyse');
  loadPosition(text, rec.dice);
}

function showAfter(after) {
  state.review.after = after;
  showReviewBoard();
}

function showReviewDetail(item) {
  const { rec, game } = item;
  const data = state.review.data;
  const box = $('review-detail');
  box.replaceChildren();
  const h = document.createElement('h3');
  h.textContent = `Game ${game.number}, ${recordLine(data.players, rec)}`;
  box.appendChild(h);
  const open = document.createElement('button');
  open.type = 'button';
  open.id = 'review-analyse';
  open.textContent = 'Analyse this position';
  open.addEventListener('click', analyseReviewRecord);
  box.appendChild(open);
  if (rec.action === 'move' && rec.candidates) {
    const p = document.createElement('p');
    const played = rec.candidates.find((c) => c.move === rec.move);
    p.innerHTML = '<b>Played</b> <span class="played"></span> &nbsp; <b>Best</b> <span class="best"></span>';
    p.querySelector('.played').textContent = `${rec.move} (${signed(rec.equity_played)}${rec.loss > 0 ? `, loss ${rec.loss.toFixed(3)}` : ''})`;
    p.querySelector('.best').textContent = `${rec.best} (${signed(rec.equity_best)})`;
    box.appendChild(p);
    const buttons = document.createElement('div');
    buttons.className = 'row';
    buttons.innerHTML = '<button type="button" data-show="before">Before</button><button type="button" data-show="played">After played</button><button type="button" data-show="best">After best</button>';
    buttons.addEventListener('click', (ev) => {
      const b = ev.target.closest('button[data-show]');
      if (!b) return;
      if (b.dataset.show === 'before') showAfter(null);
      else if (b.dataset.show === 'played' && played) showAfter({ id: played.after, label: `after ${rec.move} (played)` });
      else if (b.dataset.show === 'best') showAfter({ id: rec.best_after, label: `after ${rec.best} (best)` });
    });
    box.appendChild(buttons);
    box.appendChild(candidateTable(rec));
  } else if (rec.action === 'move') {
    const p = document.createElement('p');
    p.textContent = rec.legal_moves === 0 ? 'No legal move (a dance).' : 'Forced move.';
    box.appendChild(p);
  }
  if (rec.cube) box.appendChild(cubeRecord(rec.cube));
  const verdict = storedVerdict(storedName(data.stored_program), rec);
  if (verdict) {
    const p = document.createElement('p');
    p.className = 'stored';
    p.textContent = verdict;
    box.appendChild(p);
  }
  if (rec.luck !== null && rec.luck !== undefined) {
    const p = document.createElement('p');
    p.className = 'muted';
    p.textContent = `Luck of the roll ${signed(rec.luck)}${rec.luck_mark && rec.luck_mark !== 'none' ? ` (${rec.luck_mark.replace('_', ' ')})` : ''}`;
    box.appendChild(p);
  }
}

function candidateTable(rec) {
  const table = document.createElement('table');
  table.className = 'moves candidates';
  table.innerHTML = '<tr><th>Move</th><th>Equity</th><th>Loss</th><th>Win</th><th>W g</th><th>L g</th><th>Ply</th></tr>';
  for (const c of rec.candidates) {
    const tr = document.createElement('tr');
    tr.dataset.move = c.move;
    tr.dataset.equity = String(c.equity);
    tr.dataset.after = c.after;
    if (c.move === rec.move) tr.classList.add('played');
    for (const v of [c.move, signed(c.equity), c.loss > 0 ? signed(-c.loss) : '', pct(c.win), pct(c.win_gammon), pct(c.lose_gammon), c.ply]) {
      const td = document.createElement('td');
      td.textContent = String(v);
      tr.appendChild(td);
    }
    table.appendChild(tr);
  }
  table.addEventListener('mouseover', (ev) => {
    const tr = ev.target.closest('tr[data-after]');
    if (tr) showAfter({ id: tr.dataset.after, label: `after ${tr.dataset.move}` });
  });
  table.addEventListener('mouseleave', () => showAfter(null));
  return table;
}

function cubeRecord(cube) {
  const box = document.createElement('div');
  const p = document.createElement('p');
  const choice = cube.choice.replace('_', ' ');
  p.innerHTML = '<b>Cube</b> <span></span>';
  p.querySelector('span').textContent = `${choice}; proper: ${cube.proper}${cube.error > 0 ? ` · error ${cube.error.toFixed(3)} ${MARK_SYMBOL[cube.mark] || ''}` : ''}`;
  box.appendChild(p);
  const table = document.createElement('table');
  table.className = 'cube-equities';
  for (const [name, v] of [['No double', cube.nd], ['Double, take', cube.dt], ['Double, pass', cube.dp]]) {
    const tr = document.createElement('tr');
    tr.innerHTML = '<th></th><td></td>';
    tr.children[0].textContent = name;
    tr.children[1].textContent = signed(v);
    table.appendChild(tr);
  }
  box.appendChild(table);
  return box;
}
