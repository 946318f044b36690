// The Nacre console, configurations part 2 of 2: the configuration chosen in the list, with its
// details and content, its beta (and stopping it), its history (a revision's content, and rolling
// back to it through the editor's review) and the clients listening to it. Calls:
//   GET /nacos/v1/cs/configs?show=all, ?beta=true; DELETE /nacos/v1/cs/configs?beta=true;
//   GET /nacos/v1/cs/history?search=accurate (a page), ?nid=ID (one revision with its content);
//   GET /nacos/v1/cs/configs/listener ({collectStatus, lisentersGroupkeyStatus: {ip: md5}}, Nacos' spelling).
'use strict';

/** Revisions shown: the newest page. */
const HISTORY_SHOWN = 100;
const OPERATIONS = { I: 'created', U: 'updated', D: 'deleted' };

/** The md5 of the content shown, to tell which listeners hold it. */
let shownMd5 = null;

function closeConfigDetail() {
  cfg.selected = null;
  $('config-panel').hidden = true;
  forgetConfigDetail();
}

/** Drops what the panel showed of the configuration before. */
function forgetConfigDetail() {
  shownMd5 = null;
  $('config-content-view').textContent = '';
  renderRows('config-meta', [], () => null);
  $('config-beta').hidden = true;
  $('config-revision-box').hidden = true;
  ['config-history', 'config-listeners'].forEach((t) => renderRows(t, [], () => null));
}

/** A time as Nacos sends it: epoch milliseconds, an ISO time, or another string shown as it is. */
function timeText(t) {
  if (t === undefined || t === null || t === '') return '—';
  const ms = typeof t === 'number' || /^\d+$/.test(String(t)) ? Number(t) : Date.parse(String(t));
  return Number.isNaN(ms) ? String(t) : new Date(ms).toLocaleString();
}

async function refreshConfigDetail() {
  const c = cfg.selected;
  if (!c) return;
  $('config-title').textContent = `${c.dataId} (${c.group}, namespace ${c.namespace})`;
  try {
    const detail = await readConfig(c);
    if (cfg.selected !== c) return;
    if (detail === null) {
      shownMd5 = null;
      $('config-content-view').textContent = '';
      renderRows('config-meta', [], () => null);
      status('config-status', 'There is no such configuration (any more); its history is below.', false);
      return;
    }
    shownMd5 = detail.md5;
    const view = $('config-content-view');
    if (view.textContent !== detail.content) view.textContent = detail.content; // text, never markup
    const meta = [
      ['Type', detail.type || 'text'], ['MD5', detail.md5], ['Application', detail.appName || ''],
      ['Description', detail.desc || ''], ['Tags', detail.configTags || ''],
      ['Created', `${timeText(detail.createTime)} by ${detail.createUser || 'unknown'} from ${detail.createIp || 'unknown'}`],
      ['Modified', timeText(detail.modifyTime)],
    ];
    renderRows('config-meta', meta, ([k, v]) => el('tr', { 'data-meta': k.toLowerCase() }, el('th', {}, k), el('td', {}, v)));
    status('config-status', '', false);
  } catch (e) {
    if (cfg.selected !== c) return;
    status('config-status', e.message, true);
    throw e;
  }
}

async function refreshBeta() {
  const c = cfg.selected;
  if (!c) return;
  let answer;
  try {
    answer = await getJson(`${CS}/configs`, { beta: 'true', ...configParams(c) });
  } catch (e) {
    if (/ answered 404:/.test(e.message)) answer = { data: null }; // no beta
    else throw e;
  }
  if (cfg.selected !== c) return;
  // Nacos wraps it: {code: 200, data: {..., betaIps}}; data is null when there is no beta.
  const beta = answer && 'data' in answer ? answer.data : answer;
  const running = Boolean(beta && beta.betaIps);
  $('config-beta').hidden = !running;
  if (running) {
    $('config-beta-ips-view').textContent = beta.betaIps;
    if ($('config-beta-content').textContent !== beta.content) $('config-beta-content').textContent = beta.content || '';
  }
}

async function stopBeta() {
  const c = cfg.selected;
  if (!c) return;
  $('config-stop-beta').disabled = true;
  try {
    await call('DELETE', `${CS}/configs`, { beta: 'true', ...configParams(c) });
    hideActionError();
  } catch (err) {
    showActionError(`Could not stop the beta of ${c.dataId}: ${err.message}`);
  } finally {
    $('config-stop-beta').disabled = false;
    refreshNow();
  }
}

async function refreshHistory() {
  const c = cfg.selected;
  if (!c) return;
  try {
    const answer = await getJson(`${CS}/history`, {
      search: 'accurate', ...configParams(c), pageNo: 1, pageSize: HISTORY_SHOWN,
    });
    if (cfg.selected !== c) return;
    const list = [...(answer.pageItems || [])].sort((a, b) => Number(b.id) - Number(a.id)); // newest first
    renderRows('config-history', list, (r) => revisionRow(c, r), c);
    status('config-history-status', list.length === 0 ? 'No revisions.'
      : answer.totalCount > list.length ? `The newest ${list.length} of ${answer.totalCount} revisions.` : '', false);
  } catch (e) {
    if (cfg.selected !== c) return;
    renderRows('config-history', [], () => null);
    status('config-history-status', e.message, true);
    throw e;
  }
}

function revisionRow(c, r) {
  const view = el('button', { type: 'button', class: 'view-revision', onclick: () => showRevision(c, r) }, 'View');
  const rollback = el('button', { type: 'button', class: 'rollback', onclick: () => rollBackTo(c, r) }, 'Roll back to this');
  return el('tr', { 'data-revision': String(r.id) },
    el('td', {}, String(r.id)),
    el('td', { 'data-field': 'op' }, OPERATIONS[(r.opType || '').trim()] || r.opType || ''),
    el('td', { 'data-field': 'md5' }, r.md5 || ''),
    el('td', { 'data-field': 'user' }, r.srcUser || ''),
    el('td', { 'data-field': 'ip' }, r.srcIp || ''),
    el('td', { 'data-field': 'time' }, timeText(r.lastModifiedTime || r.createdTime)),
    el('td', { class: 'actions' }, view, rollback));
}

/** One revision with its content (the history's page may leave contents out). */
async function readRevision(c, r) {
  return getJson(`${CS}/history`, { nid: String(r.id), ...configParams(c) });
}

async function showRevision(c, r) {
  try {
    const revision = await readRevision(c, r);
    $('config-revision-id').textContent = `${r.id} (${OPERATIONS[(r.opType || '').trim()] || r.opType})`;
    $('config-revision').textContent = revision.content ?? '';
    $('config-revision-box').hidden = false;
    hideActionError();
  } catch (err) {
    showActionError(`Could not read revision ${r.id} of ${c.dataId}: ${err.message}`);
  }
}

/** Opens the editor with the revision's content and its diff against what is published now. */
async function rollBackTo(c, r) {
  try {
    const revision = await readRevision(c, r);
    await openConfigEditor('rollback', c, revision.content ?? '');
    $('config-editor').scrollIntoView();
  } catch (err) {
    showActionError(`Could not read revision ${r.id} of ${c.dataId}: ${err.message}`);
  }
}

async function refreshListeners() {
  const c = cfg.selected;
  if (!c) return;
  try {
    const answer = await getJson(`${CS}/configs/listener`, configParams(c));
    if (cfg.selected !== c) return;
    const byIp = answer.lisentersGroupkeyStatus || answer.listenersGroupkeyStatus || {};
    const list = Object.entries(byIp).map(([ip, md5]) => ({ ip, md5 })).sort((a, b) => a.ip.localeCompare(b.ip));
    renderRows('config-listeners', list, (l) => el('tr', { 'data-listener': l.ip },
      el('td', {}, l.ip), el('td', { 'data-field': 'md5' }, l.md5),
      el('td', { 'data-field': 'current', class: l.md5 === shownMd5 ? 'ok' : 'bad' },
        l.md5 === shownMd5 ? 'current' : 'not the published content')), [c, shownMd5]);
    status('config-listeners-status', list.length === 0 ? 'No client listens to it.' : '', false);
  } catch (e) {
    if (cfg.selected !== c) return;
    renderRows('config-listeners', [], () => null);
    if (/ answered 405:/.test(e.message)) { // a node that serves only the long poll there: a note, not a failure
      status('config-listeners-status', `This node does not report listeners: ${e.message}`, false);
      return;
    }
    status('config-listeners-status', e.message, true);
    throw e;
  }
}

/**
 * The configurations' one entry in each polling round: the list, then the chosen configuration's
 * reads (the detail first: listeners are compared with its md5). Fails when any of them failed,
 * each having shown its own error.
 */
async function refreshConfigurations() {
  const list = refreshConfigs();
  const detail = await Promise.allSettled([refreshConfigDetail()]);
  const rest = await Promise.allSettled([list, refreshBeta(), refreshHistory(), refreshListeners()]);
  const failed = [...detail, ...rest].find((r) => r.status === 'rejected');
  if (failed) throw failed.reason;
}

panels.push(refreshConfigurations);

document.addEventListener('DOMContentLoaded', () => {
  $('config-stop-beta').addEventListener('click', stopBeta);
});
