// The Play tab: a game against the engine through POST /api/play. The game
// lives in this page's memory only: the game state where the human acts
// (opaque, signed by the server), the seed of the dice and the next step of
// their stream (docs/server.md, "Playing against the engine"). The human is
// side 0, always at the bottom. His moves are clicked step by step and
// matched against the legal moves of /api/moves (clicks.mjs).

import { api, clearError, position, showError } from './api.mjs';
import { boardOfAnswer, pipCount, startingBoard } from './board.mjs';
import { boardAfter, Clicks } from './clicks.mjs';
import { query, stepsText } from './format.mjs';
import { $, redraw, state } from './state.mjs';

const PLAY_SHOW_MS = 900; // how long each engine move stays on the board

// `?seed=N` in the address the page was opened at replays a game (tests, bug
// reports); read before the page rewrites its address. Else a fresh seed.
const ASKED_SEED = new URLSearchParams(location.search).get('seed');

const ownerIndex = (owner) => (owner === 'me' ? 0 : (owner === 'opponent' ? 1 : null));

export function playView() {
  const p = state.play;
  const view = { bottom: 0, colours: ['dark', 'light'], note: '', play: true };
  if (!p) return { ...view, board: startingBoard(), cube: { value: 1, owner: null }, dice: null };
  if (p.show) {
    // An engine move shown for a moment, before the position where the human acts.
    return { ...view, board: p.show.board, cube: p.cube, dice: p.show.dice, diceOwner: p.show.diceOwner, note: p.show.note };
  }
  const board = p.clicks ? boardAfter(p.board, p.clicks.steps) : p.board;
  return { ...view, board, cube: p.cube, dice: p.dice, diceOwner: 0 };
}

// After drawing: the chosen checker, where it may go, the dice already used.
export function markPlayBoard() {
  const p = state.play;
  if (!p || p.show || p.turn !== 'move' || !p.clicks) return;
  const c = p.clicks;
  const root = $('board');
  const mark = (point, cls) => {
    const g = root.querySelector(`.play-target[data-point="${point}"]`);
    if (g) g.classList.add(cls);
  };
  if (c.from !== null) {
    mark(c.from, 'selected');
    for (const to of c.targets(c.from)) mark(to, 'target');
  } else {
    for (const from of c.sources()) mark(from, 'source');
  }
  const dice = [...root.querySelectorAll('.die')];
  for (const die of c.diceUsed()) {
    const el = dice.find((d) => Number(d.dataset.die) === die && !d.classList.contains('used'));
    if (el) el.classList.add('used');
  }
}

// The game's state from an answer of /api/play. While the engine's double,
// raccoon or resignation waits for the human, the position is seen by the
// engine (on_roll): swapped, the human stays side 0.
function playStateFrom(answer) {
  const b = answer.board.board;
  const swapped = answer.on_roll === 'engine';
  const human = (swapped ? b.opponent : b.on_roll).slice();
  const engine = (swapped ? b.on_roll : b.opponent).slice();
  const ctx = answer.board.context;
  let owner = ownerIndex(ctx.owner);
  if (swapped && owner !== null) owner = 1 - owner;
  const diceField = answer.xgid.split(':')[4] || '';
  return {
    xgid: answer.xgid,
    state: answer.state, // echoed back as it came
    actions: answer.actions || [], // what the rules allow now
    resign: answer.resign || [], // the results he may resign now
    seed: answer.seed,
    nextStep: answer.next_step,
    signature: answer.signature, // the server continues only the states it signed
    turn: answer.turn,
    score: answer.score,
    context: ctx,
    board: { 0: human, 1: engine },
    cube: { value: ctx.cube, owner },
    dice: /^[1-6][1-6]$/.test(diceField) ? diceField : null,
    clicks: null, // the move being clicked, once the legal moves came
    busy: false,
    show: null,
    winner: null,
  };
}

const WHO = { human: 'you', engine: 'gammon' };

// One line of the game log for an event of /api/play.
export function eventText(e) {
  const who = WHO[e.by] || e.by;
  switch (e.event) {
    case 'opening_roll': return `New game. Opening roll ${e.dice}: ${e.starts === 'human' ? 'you start' : 'gammon starts'}.`;
    case 'rolled': return `${who} rolled ${e.dice}.`;
    case 'moved': return e.notation ? `${who} played ${e.notation}.` : `${who} cannot move.`;
    case 'doubled': return `${who} doubled to ${e.cube}.`;
    case 'took': return `${who} took.`;
    case 'passed': return `${who} passed.`;
    case 'beavered': return `${who} beavered: the cube goes to ${e.cube}.`;
    case 'raccooned': return `${who} raccooned: the cube goes to ${e.cube}.`;
    case 'automatic_double': return `Opening dice ${e.dice}: the cube turns to ${e.cube}.`;
    case 'resigned': return `${who} offered to resign a ${e.result === 'single' ? 'single game' : e.result}.`;
    case 'resignation_accepted': return `${who} accepted the resignation.`;
    case 'resignation_rejected': return `${who} rejected the resignation.`;
    case 'game_over': return `${WHO[e.winner] || e.winner} won the game: ${e.points} point${e.points === 1 ? '' : 's'}.`;
    case 'match_over': return `${WHO[e.winner] || e.winner} won the match.`;
    default: return `${e.event}`;
  }
}

function logEvents(events) {
  const log = $('play-log');
  for (const e of events) {
    const li = document.createElement('li');
    li.dataset.event = e.event;
    if (e.by || e.winner) li.dataset.by = e.by || e.winner;
    li.className = `by-${e.by || e.winner || 'none'}`;
    // "gammon" keeps its small letter.
    li.textContent = eventText(e).replace(/^you/, 'You');
    log.appendChild(li);
  }
  log.scrollTop = log.scrollHeight;
}

async function newPlayGame(ev) {
  ev.preventDefault();
  clearError();
  const length = Number($('play-length').value);
  if (!Number.isInteger(length) || length < 0) {
    showError('match length: give a whole number of points, 0 for money play');
    return;
  }
  const asked = ASKED_SEED;
  const seed = asked !== null && /^\d+$/.test(asked) ? Number(asked) : crypto.getRandomValues(new Uint32Array(1))[0];
  $('play-seed').textContent = String(seed);
  $('play-log').replaceChildren();
  state.play = null;
  state.playTally = [0, 0];
  const body = { action: 'new', match_length: length, seed };
  // Money play only: the server drops them in a match.
  if (length === 0 && $('play-beavers').checked) body.beavers = true;
  const murphy = Number($('play-murphy').value);
  if (length === 0 && Number.isInteger(murphy) && murphy > 0) body.murphy = murphy;
  await playRequest(body);
}

// Sends one action; the engine's moves are shown one by one, then the
// position where the human acts.
async function playRequest(body) {
  const p = state.play;
  const seq = ++state.seq.play;
  if (p) {
    Object.assign(body, { state: p.state, seed: p.seed, step: p.nextStep, signature: p.signature, ply: 0 });
    p.busy = true;
  }
  updatePlayControls();
  let answer;
  try {
    answer = await api('POST', '/api/play', body);
  } catch (e) {
    if (seq !== state.seq.play) return;
    if (p) {
      p.busy = false;
      if (p.clicks) p.clicks.undo();
    }
    showError(e.message);
    redraw();
    return;
  }
  if (seq !== state.seq.play) return;
  clearError();
  logEvents(answer.events);
  // The server's score is the match score; money games are counted here.
  for (const e of answer.events) {
    if (e.event === 'game_over' && state.playTally) state.playTally[e.winner === 'human' ? 0 : 1] += e.points;
  }
  const next = playStateFrom(answer);
  const shows = await engineMoves(answer.events);
  if (seq !== state.seq.play) return;
  if (shows.length > 0) {
    next.busy = true;
    state.play = next;
    for (const show of shows) {
      next.show = show;
      redraw();
      await new Promise((resolve) => setTimeout(resolve, PLAY_SHOW_MS));
      if (seq !== state.seq.play) return;
    }
    next.show = null;
    next.busy = false;
  }
  state.play = next;
  for (const e of answer.events) if (e.event === 'match_over') next.winner = e.winner;
  redraw();
  if (next.turn === 'move') loadPlayMoves(next, seq);
}

// The engine's moves in an answer, each with the dice it rolled and the
// board after it (asked of /api/position: seen by the human, next on roll).
async function engineMoves(events) {
  const shows = [];
  let dice = null;
  for (const e of events) {
    if (e.event === 'opening_roll') dice = e.dice;
    if (e.event === 'rolled') dice = e.dice;
    if (e.event === 'moved' && e.by === 'engine' && e.position_id) {
      let answer;
      try {
        answer = await position(e.position_id);
      } catch (err) {
        continue;
      }
      shows.push({ board: boardOfAnswer(answer), dice, diceOwner: 1, note: e.notation ? `gammon plays ${e.notation}` : 'gammon cannot move' });
    }
  }
  return shows;
}

async function loadPlayMoves(p, seq) {
  let answer;
  try {
    answer = await api('GET', `/api/moves?${query({ position: p.xgid })}`);
  } catch (e) {
    if (seq === state.seq.play) showError(e.message);
    return;
  }
  if (seq !== state.seq.play || state.play !== p) return;
  p.clicks = new Clicks(answer);
  redraw();
}

const placeName = (point) => (point === 'bar' ? 'the bar' : (point === 'off' ? 'the tray' : `point ${point}`));

function onPlayBoardClick(ev) {
  if (state.tab !== 'play') return;
  const target = ev.target.closest('.play-target');
  const p = state.play;
  if (!target || !p || p.turn !== 'move' || p.busy || !p.clicks) return;
  const c = p.clicks;
  const point = target.dataset.point;
  if (c.from === null || point === c.from) {
    if (point === c.from) c.from = null;
    else if (c.sources().includes(point)) c.from = point;
    else {
      showError(`no legal step starts from ${placeName(point)} now`);
      return;
    }
    clearError();
    redraw();
    return;
  }
  if (!c.play(c.from, point)) {
    if (c.sources().includes(point)) {
      c.from = point;
      clearError();
      redraw();
    } else {
      showError(`${c.from}/${point} is not a legal step now`);
    }
    return;
  }
  clearError();
  redraw();
  const move = c.done();
  if (move !== null) playRequest({ action: 'move', move });
}

function playStatusText(p) {
  if (!p) return 'Start a new game.';
  const ctx = p.context;
  const parts = [];
  const turn = {
    roll_or_double: 'Your turn: roll or double',
    roll: 'Your turn: roll',
    move: `Your move: play ${p.dice}`,
    answer_double: `gammon doubles to ${2 * p.cube.value}: take or pass${p.actions.includes('beaver') ? ' (or beaver)' : ''}`,
    answer_beaver: `gammon beavers: accept (take) at ${4 * p.cube.value} or pass${p.actions.includes('raccoon') ? ' (or raccoon)' : ''}`,
    answer_raccoon: `gammon raccoons: accept (take) at ${8 * p.cube.value} or pass`,
    answer_resignation: 'gammon offers to resign: accept or reject',
    match_over: p.winner === 'human' ? 'You won the match' : (p.winner === 'engine' ? 'gammon won the match' : 'The match is over'),
  }[p.turn] || p.turn;
  parts.push(p.busy ? 'gammon is playing…' : turn);
  if (ctx.match_length) {
    const [you, it] = p.score;
    parts.push(`score you ${you}, gammon ${it} (${ctx.match_length}-point match${ctx.crawford ? ', Crawford game' : ''})`);
  } else {
    const [you, it] = state.playTally || [0, 0];
    parts.push(`money: you ${you}, gammon ${it} points won`);
  }
  const owner = p.cube.owner === null ? 'centred' : (p.cube.owner === 0 ? 'yours' : "gammon's");
  parts.push(`cube ${p.cube.value} ${owner}`);
  if (p.dice) parts.push(`dice ${p.dice}`);
  return parts.join(' · ');
}

function updatePlayControls() {
  const p = state.play;
  const turn = p && !p.busy ? p.turn : null;
  // The buttons of the actions the server says the rules allow now.
  const allowed = (action) => turn !== null && p.actions.includes(action);
  for (const [id, action] of [['play-roll', 'roll'], ['play-double', 'double'], ['play-take', 'take'], ['play-pass', 'pass'],
    ['play-beaver', 'beaver'], ['play-raccoon', 'raccoon'], ['play-resign', 'resign'],
    ['play-accept', 'accept_resignation'], ['play-reject', 'reject_resignation']]) {
    $(id).disabled = !allowed(action);
  }
  const results = $('play-resign-result');
  results.disabled = !allowed('resign');
  for (const option of results.options) option.disabled = !(p && p.resign.includes(option.value));
  if (p && results.selectedOptions[0] && results.selectedOptions[0].disabled) {
    const first = [...results.options].find((o) => !o.disabled);
    if (first) results.value = first.value;
  }
  const c = p && p.clicks;
  $('play-undo').disabled = !(turn === 'move' && c && (c.steps.length > 0 || c.from !== null));
  $('play-move-input').disabled = turn !== 'move';
  $('play-move-submit').disabled = turn !== 'move';
  const status = $('play-status');
  status.textContent = playStatusText(p);
  status.dataset.turn = p ? (p.busy ? 'busy' : p.turn) : 'none';
  $('play-partial').textContent = c && c.steps.length ? `so far: ${stepsText(c.steps)}` : '';
}

export function showPlayLines() {
  const p = state.play;
  $('position-ids').textContent = p ? p.xgid : '';
  $('context-line').textContent = p ? `pips: you ${pipCount(p.board[0])}, gammon ${pipCount(p.board[1])}` : '';
  updatePlayControls();
}

export function wirePlay() {
  $('play-form').addEventListener('submit', newPlayGame);
  for (const action of ['roll', 'double', 'take', 'pass', 'beaver', 'raccoon']) {
    $(`play-${action}`).addEventListener('click', () => playRequest({ action }));
  }
  $('play-resign').addEventListener('click', () => playRequest({ action: 'resign', result: $('play-resign-result').value }));
  $('play-accept').addEventListener('click', () => playRequest({ action: 'accept_resignation' }));
  $('play-reject').addEventListener('click', () => playRequest({ action: 'reject_resignation' }));
  $('play-undo').addEventListener('click', () => {
    const p = state.play;
    if (!p || !p.clicks) return;
    p.clicks.undo();
    redraw();
  });
  $('play-move-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const text = $('play-move-input').value.trim();
    if (!text) {
      showError('move: type a move like 8/5 6/5');
      return;
    }
    playRequest({ action: 'move', move: text }).then(() => {
      if (!$('error').hidden) return;
      $('play-move-input').value = '';
    });
  });
  $('board').addEventListener('click', onPlayBoardClick);
}
