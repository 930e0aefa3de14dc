// gammon's web page: the board, the analysis of a position, the review of a
// match and games against the engine, all through the server's JSON API
// (docs/server.md). ES modules, no framework, nothing fetched but this
// server's /api; the rules are the server's.

import { clearError } from './api.mjs';
import { drawBoard } from './board.mjs';
import { analyseAll, buildDiceButtons, loadPosition, setDice, showContext, typedDice, updateAddress, wireMoveList } from './analysis.mjs';
import { showEditLines, stopEditing, wireEditing } from './edit.mjs';
import { showMatrix } from './matrix.mjs';
import { cancelRollout, startRollout } from './rollout.mjs';
import { cancelReview, readReviewFile, reviewView, showReviewLines, startReview, stepReview } from './review.mjs';
import { markPlayBoard, playView, showPlayLines, wirePlay } from './play.mjs';
import { $, setHooks, state } from './state.mjs';

const ownerIndex = (owner) => (owner === 'me' ? 0 : (owner === 'opponent' ? 1 : null));

// What the Analyse tab draws: the position, a move's preview or the editor's board.
function analyseView() {
  const board = state.editing ? state.editing.board : (state.preview ? state.preview.board : state.board);
  const ctx = state.context;
  return {
    board,
    bottom: state.flipped ? 1 : 0,
    colours: ['dark', 'light'],
    cube: ctx ? { value: ctx.cube, owner: ownerIndex(ctx.owner) } : { value: 1, owner: null },
    // After a move the dice are used: show them only on the position itself.
    dice: state.preview || state.editing ? null : state.dice,
    note: state.preview ? state.preview.label : (state.editing ? 'editing' : ''),
    edit: Boolean(state.editing),
  };
}

function redraw() {
  const root = $('board');
  if (state.tab === 'play') {
    drawBoard(root, playView());
    markPlayBoard();
    showPlayLines();
    return;
  }
  if (state.tab === 'review' && state.review) {
    drawBoard(root, reviewView());
    showReviewLines();
    return;
  }
  drawBoard(root, analyseView());
  if (state.editing) {
    showEditLines();
    return;
  }
  $('position-ids').textContent = state.info ? `${state.info.position_id}  ·  ${state.info.xgid}` : '';
  showContext();
}

function showTab(name) {
  state.tab = name;
  for (const b of document.querySelectorAll('.tab')) b.classList.toggle('active', b.dataset.tab === name);
  $('analyse-view').hidden = name !== 'analyse';
  $('review-view').hidden = name !== 'review';
  $('play-view').hidden = name !== 'play';
  if (name === 'play' && state.editing) stopEditing();
  // The player stays at the bottom, and a game is not edited.
  $('flip-button').disabled = name === 'play';
  $('edit-button').disabled = name === 'play' || Boolean(state.editing);
  redraw();
}

function wireControls() {
  $('position-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    if (state.editing) stopEditing();
    showTab('analyse');
    const typed = typedDice($('dice-input').value);
    // An XGID carries its own dice: only send ours when the user chose some.
    if (typed) loadPosition($('position-input').value, typed.dice);
  });
  $('dice-input').addEventListener('change', () => {
    const typed = typedDice($('dice-input').value);
    if (!typed) return;
    setDice(typed.dice);
    clearError();
  });
  $('dice-input').addEventListener('keydown', (ev) => {
    if (ev.key === 'Enter') {
      ev.preventDefault();
      ev.target.dispatchEvent(new Event('change'));
    }
  });
  $('dice-clear').addEventListener('click', () => setDice(null));
  $('ply-select').addEventListener('change', () => {
    state.ply = Number($('ply-select').value);
    updateAddress();
    analyseAll();
  });
  $('flip-button').addEventListener('click', () => {
    state.flipped = !state.flipped;
    redraw();
  });
  $('matrix-button').addEventListener('click', showMatrix);
  $('rollout-button').addEventListener('click', startRollout);
  $('rollout-cancel').addEventListener('click', cancelRollout);
  $('review-file').addEventListener('change', readReviewFile);
  $('review-button').addEventListener('click', startReview);
  $('review-cancel').addEventListener('click', cancelReview);
  for (const b of document.querySelectorAll('.tab')) b.addEventListener('click', () => showTab(b.dataset.tab));
  document.addEventListener('keydown', (ev) => {
    if (state.tab !== 'review' || !state.review || ev.target.tagName === 'INPUT') return;
    if (ev.key === 'ArrowLeft') stepReview(-1);
    if (ev.key === 'ArrowRight') stepReview(1);
  });
}

// Opening /?position=...&dice=31&ply=2 shows that position and its moves.
function start() {
  setHooks({ redraw, showTab });
  buildDiceButtons();
  wireControls();
  wireMoveList();
  wireEditing();
  wirePlay();
  const params = new URLSearchParams(location.search);
  const ply = Number(params.get('ply'));
  if (Number.isInteger(ply) && ply >= 0 && ply <= 3) {
    state.ply = ply;
    $('ply-select').value = String(ply);
  }
  const typed = params.get('dice') ? typedDice(params.get('dice')) : { dice: null };
  redraw();
  loadPosition(params.get('position') || 'start', typed ? typed.dice : null);
}

// A module runs after the document is parsed, like the deferred script it replaces.
start();
