// The Nacre console, configurations part 1 of 2: the list of the chosen namespace's
// configurations, searching it, and the editor that publishes only after showing the line diff of
// the change. console-config-detail.js shows one configuration: content, beta, history, listeners.
// Calls Nacos' v1 configuration API:
//   GET /nacos/v1/cs/configs?search=accurate|blur (a page), ?show=all (one, with its details);
//   POST /nacos/v1/cs/configs (publish; betaIps as a header, as Nacos reads it, and as a field);
//   DELETE /nacos/v1/cs/configs.
'use strict';

const CS = '/nacos/v1/cs';
const CONFIGS_PER_PAGE = 20;
const DEFAULT_GROUP = 'DEFAULT_GROUP';
/** Past this many lines on either side the diff is shown as all removed then all added (the LCS is quadratic). */
const MAX_DIFF_LINES = 3000;

const cfg = {
  search: { dataId: '', group: '', mode: 'blur' },
  page: 1,
  selected: null, // {namespace, dataId, group} of the configuration shown below the list
  deleteArmed: null, // key of the configuration whose Delete was clicked once
  editing: null, // {mode: 'create'|'edit'|'rollback', namespace, old: {content, md5} or null, next: {...}}
};

/** Nacos' tenant of a namespace: the public namespace is the empty tenant. */
function tenantOf(namespace) {
  return namespace === PUBLIC ? '' : namespace;
}

function configKey(c) {
  return `${c.namespace}\u0001${c.group}\u0001${c.dataId}`;
}

/** The parameters that name a configuration in every call. */
function configParams(c) {
  return { dataId: c.dataId, group: c.group, tenant: tenantOf(c.namespace) };
}

/** In a fuzzy search a plain fragment matches anywhere in the name; with a * the operator placed it. */
function blurPattern(text) {
  return text === '' || text.includes('*') ? text : `*${text}*`;
}

// ---- the list ----

async function refreshConfigs() {
  const asked = { namespace: state.namespace, ...cfg.search, page: cfg.page };
  const blur = asked.mode === 'blur';
  try {
    const answer = await getJson(`${CS}/configs`, {
      search: asked.mode, tenant: tenantOf(asked.namespace),
      dataId: blur ? blurPattern(asked.dataId) : asked.dataId, group: blur ? blurPattern(asked.group) : asked.group,
      pageNo: asked.page, pageSize: CONFIGS_PER_PAGE,
    });
    if (asked.namespace !== state.namespace || asked.page !== cfg.page
      || JSON.stringify(cfg.search) !== JSON.stringify({ dataId: asked.dataId, group: asked.group, mode: asked.mode })) {
      return; // the operator moved on
    }
    const pages = Math.max(1, answer.pagesAvailable || Math.ceil((answer.totalCount || 0) / CONFIGS_PER_PAGE));
    if (cfg.page > pages) {
      cfg.page = pages;
      return refreshConfigs();
    }
    const rows = (answer.pageItems || []).map((c) => ({ ...c, namespace: asked.namespace }));
    renderRows('configs', rows, configRow, [cfg.deleteArmed, cfg.selected && configKey(cfg.selected)]);
    $('config-page-info').textContent = `page ${cfg.page} of ${pages} (${answer.totalCount} configurations)`;
    $('config-prev-page').disabled = cfg.page <= 1;
    $('config-next-page').disabled = cfg.page >= pages;
    const filtered = asked.dataId || asked.group;
    status('configs-status', answer.totalCount === 0
      ? `No configurations in namespace ${asked.namespace}${filtered ? ' matching the search' : ''}.` : '', false);
  } catch (e) {
    renderRows('configs', [], configRow);
    status('configs-status', e.message, true);
    throw e;
  }
}

function configRow(c) {
  const key = configKey(c);
  const selected = cfg.selected && configKey(cfg.selected) === key;
  const view = el('button', { type: 'button', class: 'link view-config', onclick: () => selectConfig(c) }, c.dataId);
  const edit = el('button', { type: 'button', class: 'edit-config', onclick: () => openConfigEditor('edit', c) }, 'Edit');
  const remove = el('button', { type: 'button', class: 'delete-config', onclick: () => deleteConfig(c) },
    cfg.deleteArmed === key ? 'Click again to delete' : 'Delete');
  return el('tr', { 'data-config': c.dataId, 'data-group': c.group, class: selected ? 'selected' : '' },
    el('td', {}, view),
    el('td', { 'data-field': 'group' }, c.group),
    el('td', { 'data-field': 'type' }, c.type || 'text'),
    el('td', { 'data-field': 'app' }, c.appName || ''),
    el('td', { 'data-field': 'md5' }, c.md5 || ''),
    el('td', { class: 'actions' }, edit, remove));
}

function selectConfig(c) {
  cfg.selected = { namespace: c.namespace, dataId: c.dataId, group: c.group };
  $('config-panel').hidden = false;
  forgetConfigDetail();
  refreshNow();
}

async function deleteConfig(c) {
  const key = configKey(c);
  if (cfg.deleteArmed !== key) {
    cfg.deleteArmed = key; // a delete takes a second click, so a slip deletes nothing
    refreshNow();
    return;
  }
  cfg.deleteArmed = null;
  try {
    await call('DELETE', `${CS}/configs`, configParams(c));
    hideActionError();
    if (cfg.selected && configKey(cfg.selected) === key) closeConfigDetail();
  } catch (err) {
    showActionError(`Could not delete configuration ${c.dataId} of group ${c.group}: ${err.message}`);
  } finally {
    refreshNow();
  }
}

function configSearchChanged(e) {
  if (e) e.preventDefault();
  cfg.search = {
    dataId: $('config-search-data-id').value.trim(),
    group: $('config-search-group').value.trim(),
    mode: $('config-search-mode').value,
  };
  cfg.page = 1;
  refreshNow();
}

// ---- the editor: create, edit, roll back; publishing shows the diff first ----

/**
 * Opens the editor. {@code c} names the configuration (null for a new one); {@code content}, when
 * given, replaces what the editor starts with (a revision's content for a rollback).
 */
async function openConfigEditor(mode, c, content) {
  $('config-editor-status').textContent = '';
  const namespace = c ? c.namespace : state.namespace;
  let current = null;
  if (c) {
    try {
      current = await readConfig({ namespace, dataId: c.dataId, group: c.group });
    } catch (err) {
      showActionError(`Could not read configuration ${c.dataId} of group ${c.group}: ${err.message}`);
      return;
    }
  }
  cfg.editing = { mode, namespace, old: current };
  $('config-editor-title').textContent = mode === 'create' ? `New configuration in namespace ${namespace}`
    : `${mode === 'rollback' ? 'Roll back' : 'Edit'} ${c.dataId} (${c.group}, namespace ${namespace})`;
  $('config-data-id').value = c ? c.dataId : '';
  $('config-group').value = c ? c.group : '';
  $('config-data-id').readOnly = Boolean(c);
  $('config-group').readOnly = Boolean(c);
  $('config-type').value = (current && current.type) || 'text';
  $('config-desc').value = (current && current.desc) || '';
  $('config-beta-ips').value = '';
  $('config-content').value = content ?? (current ? current.content : '');
  $('config-review-box').hidden = true;
  $('config-editor').hidden = false;
  if (mode === 'rollback') {
    await reviewConfig();
  } else {
    (c ? $('config-content') : $('config-data-id')).focus();
  }
}

function closeConfigEditor() {
  cfg.editing = null;
  $('config-editor').hidden = true;
  $('config-review-box').hidden = true;
}

/** One configuration with its details, or null when there is none (Nacos answers an empty 200, Nacre a 404). */
async function readConfig(c) {
  let body;
  try {
    body = await call('GET', `${CS}/configs`, { show: 'all', ...configParams(c) });
  } catch (err) {
    if (/ answered 404:/.test(err.message)) return null;
    throw err;
  }
  if (body.trim() === '' || body.trim() === 'null') return null;
  try {
    return JSON.parse(body);
  } catch (err) {
    throw new Error(`GET ${CS}/configs?show=all did not answer JSON: ${body.slice(0, 200)}`);
  }
}

/** What the editor holds, checked; an Error whose message tells the operator what to fix. */
function editorValues() {
  const dataId = $('config-data-id').value.trim();
  if (!dataId) throw new Error('A configuration needs a data id.');
  if (!/^[\w.:-]+$/.test(dataId)) throw new Error('A data id holds letters, digits and . : _ - only.');
  const group = $('config-group').value.trim() || DEFAULT_GROUP;
  if (!/^[\w.:-]+$/.test(group)) throw new Error('A group holds letters, digits and . : _ - only.');
  const content = $('config-content').value;
  if (content.trim() === '') throw new Error('The content is empty; Nacos refuses to publish empty content.');
  return {
    dataId, group, content, type: $('config-type').value, desc: $('config-desc').value.trim(),
    betaIps: $('config-beta-ips').value.split(',').map((s) => s.trim()).filter(Boolean).join(','),
  };
}

/** Shows the diff of what is published and what would be, and the Publish button. */
async function reviewConfig(e) {
  if (e) e.preventDefault();
  const editing = cfg.editing;
  if (!editing) return;
  let next;
  try {
    next = editorValues();
  } catch (err) {
    $('config-editor-status').textContent = err.message;
    return;
  }
  if (editing.mode === 'create') {
    try { // publishing a new data id over an existing one replaces it: say so, and diff against it
      editing.old = await readConfig({ namespace: editing.namespace, dataId: next.dataId, group: next.group });
    } catch (err) {
      $('config-editor-status').textContent = err.message;
      return;
    }
  }
  $('config-editor-status').textContent = '';
  editing.next = next;
  const old = editing.old ? editing.old.content : '';
  const diff = lineDiff(old, next.content);
  $('config-diff').replaceChildren(...diff.map((d) =>
    el('span', { class: d.op === '+' ? 'add' : d.op === '-' ? 'del' : 'same' }, `${d.op === '=' ? ' ' : d.op} ${d.line}`)));
  const added = diff.filter((d) => d.op === '+').length;
  const removed = diff.filter((d) => d.op === '-').length;
  const what = editing.old ? (editing.mode === 'create' ? 'This replaces the existing configuration: ' : '')
    + `${lines(added)} added, ${lines(removed)} removed` : `A new configuration of ${lines(added)}`;
  $('config-review-summary').textContent = `${what}${next.betaIps ? `; published as a beta to ${next.betaIps} only` : ''}.`
    + (added + removed === 0 && editing.old ? ' The content is unchanged.' : '');
  $('config-review-box').hidden = false;
  $('config-publish').focus();
}

function lines(n) {
  return n === 1 ? '1 line' : `${n} lines`;
}

async function publishConfig() {
  const editing = cfg.editing;
  if (!editing || !editing.next) return;
  const n = editing.next;
  const params = {
    dataId: n.dataId, group: n.group, tenant: tenantOf(editing.namespace), content: n.content, type: n.type,
    desc: n.desc,
  };
  // A formal publish replaces only what the editor was opened on; a beta's CAS would compare the
  // beta content instead, which the editor does not hold.
  if (editing.old && editing.old.md5 && editing.mode !== 'create' && !n.betaIps) params.casMd5 = editing.old.md5;
  const headers = {};
  if (n.betaIps) {
    params.betaIps = n.betaIps;
    headers.betaIps = n.betaIps;
  }
  $('config-publish').disabled = true;
  try {
    const answer = await call('POST', `${CS}/configs`, params, headers);
    if (answer.trim() !== 'true') throw new Error(`POST ${CS}/configs answered ${answer.slice(0, 200)}`);
    hideActionError();
    closeConfigEditor();
    selectConfig({ namespace: editing.namespace, dataId: n.dataId, group: n.group });
  } catch (err) {
    $('config-editor-status').textContent = `Not published: ${err.message}`;
  } finally {
    $('config-publish').disabled = false;
    refreshNow();
  }
}

/**
 * The lines of {@code a} and {@code b} as a list of {op, line}: '=' kept, '-' only in a, '+' only
 * in b, from a longest common subsequence of lines.
 */
function lineDiff(a, b) {
  const x = a === '' ? [] : a.split('\n');
  const y = b === '' ? [] : b.split('\n');
  if (x.length > MAX_DIFF_LINES || y.length > MAX_DIFF_LINES) {
    return [...x.map((line) => ({ op: '-', line })), ...y.map((line) => ({ op: '+', line }))];
  }
  // lcs[i][j]: the length of the longest common subsequence of x[i..] and y[j..].
  const lcs = Array.from({ length: x.length + 1 }, () => new Uint32Array(y.length + 1));
  for (let i = x.length - 1; i >= 0; i--) {
    for (let j = y.length - 1; j >= 0; j--) {
      lcs[i][j] = x[i] === y[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
    }
  }
  const out = [];
  let i = 0;
  let j = 0;
  while (i < x.length && j < y.length) {
    if (x[i] === y[j]) {
      out.push({ op: '=', line: x[i] });
      i++;
      j++;
    } else if (lcs[i + 1][j] >= lcs[i][j + 1]) {
      out.push({ op: '-', line: x[i++] });
    } else {
      out.push({ op: '+', line: y[j++] });
    }
  }
  while (i < x.length) out.push({ op: '-', line: x[i++] });
  while (j < y.length) out.push({ op: '+', line: y[j++] });
  return out;
}

document.addEventListener('DOMContentLoaded', () => {
  $('config-filters').addEventListener('submit', configSearchChanged);
  $('config-search-mode').addEventListener('change', () => configSearchChanged());
  $('config-new').addEventListener('click', () => openConfigEditor('create', null));
  $('config-prev-page').addEventListener('click', () => { cfg.page -= 1; refreshNow(); });
  $('config-next-page').addEventListener('click', () => { cfg.page += 1; refreshNow(); });
  $('config-editor').addEventListener('submit', reviewConfig);
  $('config-editor').addEventListener('input', () => { $('config-review-box').hidden = true; });
  $('config-cancel').addEventListener('click', closeConfigEditor);
  $('config-back').addEventListener('click', () => { $('config-review-box').hidden = true; $('config-content').focus(); });
  $('config-publish').addEventListener('click', publishConfig);
  // Another namespace: what was shown belongs to the one before.
  $('namespace').addEventListener('change', () => {
    cfg.page = 1;
    closeConfigDetail();
    closeConfigEditor();
  });
});
