// The Nacre console: plain JS against the node's Open API (v1), polled every few seconds.
// Everything shown comes from these endpoints, so the page works on any member:
//   GET /nacos/v1/console/namespaces, /nacos/v1/ns/service/list, /nacos/v1/ns/catalog/instances,
//   /nacos/v1/core/cluster/nodes; PUT /nacos/v1/ns/instance to take an instance offline/online.
'use strict';

const POLL_MS = 3000;
const SERVICES_PER_PAGE = 20;
/** The API's largest page: service names and a service's instances are read in one page each. */
const MAX_PAGE = 10000;
const NS = '/nacos/v1/ns';

const state = {
  namespace: 'public',
  group: 'DEFAULT_GROUP',
  search: '',
  page: 1,
  selected: null, // {namespace, group, name} of the service whose instances are shown
};

const $ = (id) => document.getElementById(id);

/** Builds an element; text goes in as text, never as HTML, so names and metadata cannot inject markup. */
function el(tag, attrs, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === 'class') e.className = v;
    else if (k.startsWith('on')) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v);
  }
  for (const c of children) e.append(c instanceof Node ? c : String(c));
  return e;
}

// ---- API ----

/** Nacos' v1 errors read "caused: <message>;": show just the message. */
function errorMessage(body) {
  const m = /^caused: ([\s\S]*);\s*$/.exec(body.trim());
  return (m ? m[1] : body.trim()) || '(empty answer)';
}

// ---- client authentication (when the node has it on) ----

/** The token of this tab's login; sessionStorage, so it ends with the tab. */
let token = sessionStorage.getItem('nacre.accessToken');

function showLogin(reason) {
  $('login').hidden = false;
  $('login-status').textContent = reason || '';
  $('signed-in').hidden = true;
}

async function login(e) {
  e.preventDefault();
  token = null;
  try {
    const answer = JSON.parse(await call('POST', '/nacos/v1/auth/login',
      { username: $('login-user').value, password: $('login-password').value }));
    token = answer.accessToken || null; // none when the node has authentication off
    if (token) sessionStorage.setItem('nacre.accessToken', token);
    $('login').hidden = true;
    $('login-password').value = '';
    $('signed-in').hidden = false;
    $('signed-in-user').textContent = answer.username;
    refreshNow();
  } catch (err) {
    $('login-status').textContent = err.message;
  }
}

function logout() {
  token = null;
  sessionStorage.removeItem('nacre.accessToken');
  showLogin('signed out');
  refreshNow();
}

/** One API call; any failure throws an Error whose message says what was asked and what came back. */
async function call(method, path, params) {
  const query = new URLSearchParams(params);
  if (token) query.set('accessToken', token);
  const init = { method, cache: 'no-store' };
  let url = path;
  if (method === 'GET') {
    url += '?' + query;
  } else {
    init.body = query; // sent as application/x-www-form-urlencoded, which the v1 API reads
  }
  let res;
  try {
    res = await fetch(url, init);
  } catch (e) {
    throw new Error(`${method} ${path}: no answer from ${location.host} (${e.message}); is the node running?`);
  }
  const body = await res.text();
  if (res.status === 403 && /access token|token (invalid|expired)|no longer exists|administrator is set/.test(body)) {
    showLogin(errorMessage(body)); // authentication is on and this tab has no (valid) token
  }
  if (!res.ok) {
    throw new Error(`${method} ${path} answered ${res.status}: ${errorMessage(body)}`);
  }
  return body;
}

async function getJson(path, params) {
  const body = await call('GET', path, params);
  try {
    return JSON.parse(body);
  } catch (e) {
    throw new Error(`GET ${path} did not answer JSON: ${body.slice(0, 200)}`);
  }
}

// ---- panels ----

/** A panel's status line: an error (kept until its next successful read) or a note. */
function status(id, text, isError) {
  const p = $(id);
  p.textContent = text || '';
  p.classList.toggle('error', Boolean(isError));
}

/**
 * Replaces a table body only when what it shows changed, so that polling does not rebuild rows
 * under the operator's pointer (or a test's click).
 */
function renderRows(table, data, rowOf, context) {
  const body = $(table).tBodies[0];
  const key = JSON.stringify([context, data]);
  if (body.dataset.key === key) return;
  body.dataset.key = key;
  body.replaceChildren(...data.map(rowOf));
}

async function refreshNamespaces() {
  try {
    const answer = await getJson('/nacos/v1/console/namespaces', {});
    const select = $('namespace');
    const options = (answer.data || []).map((n) => ({ id: n.namespace, label: n.namespaceShowName }));
    if (!options.some((o) => o.id === state.namespace)) {
      options.push({ id: state.namespace, label: '(unknown)' }); // keep what the URL asked for visible
    }
    const key = JSON.stringify(options);
    if (select.dataset.key !== key) {
      select.dataset.key = key;
      select.replaceChildren(...options.map((o) =>
        el('option', { value: o.id }, o.label === o.id ? o.id : `${o.label} (${o.id})`)));
    }
    select.value = state.namespace;
    status('namespaces-status', '', false);
  } catch (e) {
    status('namespaces-status', e.message, true);
    throw e;
  }
}

/** Instance, healthy and cluster counts of one service, from its full instance list. */
function counts(instances) {
  return {
    total: instances.count,
    healthy: instances.list.filter((i) => i.healthy).length,
    clusters: new Set(instances.list.map((i) => i.clusterName)).size,
  };
}

function catalog(service) {
  return getJson(`${NS}/catalog/instances`, {
    namespaceId: service.namespace, groupName: service.group, serviceName: service.name,
    pageNo: 1, pageSize: MAX_PAGE,
  });
}

async function refreshServices() {
  const asked = { namespace: state.namespace, group: state.group, search: state.search.toLowerCase() };
  try {
    const page = await getJson(`${NS}/service/list`, {
      namespaceId: asked.namespace, groupName: asked.group, pageNo: 1, pageSize: MAX_PAGE,
    });
    const names = (page.doms || []).filter((n) => n.toLowerCase().includes(asked.search));
    const pages = Math.max(1, Math.ceil(names.length / SERVICES_PER_PAGE));
    state.page = Math.min(state.page, pages);
    const shown = names.slice((state.page - 1) * SERVICES_PER_PAGE, state.page * SERVICES_PER_PAGE);
    // A service removed between the two reads shows its error in its row, not for the whole table.
    const rows = await Promise.all(shown.map((name) => {
      const service = { namespace: asked.namespace, group: asked.group, name };
      return catalog(service).then((c) => ({ service, ...counts(c) }), (e) => ({ service, error: e.message }));
    }));
    if (asked.namespace !== state.namespace || asked.group !== state.group) return; // the operator moved on
    renderRows('services', rows, serviceRow, state.selected); // the selection moves the highlight
    $('page-info').textContent = `page ${state.page} of ${pages} (${names.length} services)`;
    $('prev-page').disabled = state.page <= 1;
    $('next-page').disabled = state.page >= pages;
    status('services-status', names.length === 0
      ? `No services in group ${asked.group} of namespace ${asked.namespace}${asked.search ? ' matching the search' : ''}.`
      : '', false);
  } catch (e) {
    renderRows('services', [], serviceRow);
    status('services-status', e.message, true);
    throw e;
  }
}

function serviceRow(row) {
  const s = row.service;
  const isSelected = state.selected && state.selected.namespace === s.namespace
    && state.selected.group === s.group && state.selected.name === s.name;
  const open = el('button', { type: 'button', class: 'link', onclick: () => select(s) }, s.name);
  const cells = row.error
    ? [el('td', { colspan: 3, class: 'error' }, row.error)]
    : [el('td', { 'data-field': 'instances' }, row.total), el('td', { 'data-field': 'healthy' }, row.healthy),
      el('td', { 'data-field': 'clusters' }, row.clusters)];
  return el('tr', { 'data-service': s.name, class: isSelected ? 'selected' : '' },
    el('td', {}, open), el('td', {}, s.group), ...cells);
}

function select(service) {
  state.selected = service;
  saveLocation();
  $('instances-panel').hidden = false;
  refreshNow();
}

async function refreshInstances() {
  const service = state.selected;
  if (!service) return;
  $('instances-service').textContent = `${service.group}@@${service.name} (namespace ${service.namespace})`;
  try {
    const answer = await catalog(service);
    if (state.selected !== service) return;
    // The API's order follows its index; rows that keep their place are easier to follow.
    const list = [...answer.list].sort((a, b) => a.ip.localeCompare(b.ip) || a.port - b.port);
    renderRows('instances', list, (i) => instanceRow(service, i), service);
    status('instances-status', list.length === 0 ? 'This service has no instances.' : '', false);
  } catch (e) {
    if (state.selected !== service) return;
    renderRows('instances', [], () => null);
    status('instances-status', e.message, true);
    throw e;
  }
}

function instanceRow(service, i) {
  const address = `${i.ip}:${i.port}`;
  const metadata = Object.entries(i.metadata || {}).map(([k, v]) => el('li', {}, `${k}=${v}`));
  const toggle = el('button', { type: 'button', class: 'toggle-enabled', onclick: (ev) => setEnabled(ev.target, service, i, !i.enabled) },
    i.enabled ? 'Take offline' : 'Bring online');
  return el('tr', { 'data-instance': address, class: i.enabled ? '' : 'offline' },
    el('td', {}, address),
    el('td', { 'data-field': 'cluster' }, i.clusterName),
    el('td', { 'data-field': 'healthy', class: i.healthy ? 'ok' : 'bad' }, i.healthy ? 'healthy' : 'unhealthy'),
    el('td', { 'data-field': 'enabled' }, String(i.enabled)),
    el('td', { 'data-field': 'weight' }, i.weight),
    el('td', { 'data-field': 'kind' }, i.ephemeral ? 'ephemeral' : 'persistent'),
    el('td', { 'data-field': 'metadata' }, el('ul', { class: 'metadata' }, ...metadata)),
    el('td', {}, toggle));
}

/**
 * Nacos' update call with the instance's own values, so that only enabled changes. An ephemeral
 * instance's edit is an operator override laid over what its client registers: metadata is left
 * out, so the client's stays its own. A persistent instance is replaced whole, so it goes along
 * with its health.
 */
async function setEnabled(button, service, i, enabled) {
  const params = {
    namespaceId: service.namespace, groupName: service.group, serviceName: service.name,
    clusterName: i.clusterName, ip: i.ip, port: i.port, ephemeral: i.ephemeral, weight: i.weight, enabled,
  };
  if (!i.ephemeral) {
    params.metadata = JSON.stringify(i.metadata || {});
    params.healthy = i.healthy;
  }
  button.disabled = true;
  button.textContent = enabled ? 'Bringing online…' : 'Taking offline…';
  try {
    await call('PUT', `${NS}/instance`, params);
    hideActionError();
  } catch (e) {
    showActionError(`Could not take ${i.ip}:${i.port} ${enabled ? 'online' : 'offline'}: ${e.message}`);
  } finally {
    $('instances').tBodies[0].dataset.key = ''; // re-render: the button's text and state come back from the API
    refreshNow();
  }
}

function showActionError(text) {
  $('action-error-text').textContent = text;
  $('action-error').hidden = false;
}

function hideActionError() {
  $('action-error').hidden = true;
  $('action-error-text').textContent = '';
}

async function refreshMembers() {
  try {
    const answer = await getJson('/nacos/v1/core/cluster/nodes', {});
    renderRows('members', answer.data || [], memberRow);
    status('members-status', '', false);
  } catch (e) {
    renderRows('members', [], memberRow);
    status('members-status', e.message, true);
    throw e;
  }
}

function memberRow(m) {
  const raft = (m.extendInfo && m.extendInfo.raftMetaData) || {};
  const stalled = raft.applyStalledMs;
  return el('tr', { 'data-member': m.address, class: m.address === location.host ? 'self' : '' },
    el('td', {}, m.address + (m.address === location.host ? ' (this node)' : '')),
    el('td', { 'data-field': 'state', class: m.state === 'UP' ? 'ok' : 'bad' }, m.state),
    el('td', { 'data-field': 'role' }, raft.role || '—'),
    el('td', { 'data-field': 'term' }, raft.term ?? '—'),
    el('td', { 'data-field': 'leader' }, raft.leader || 'none'),
    el('td', { 'data-field': 'apply-stall', class: stalled > 0 ? 'bad' : '' },
      stalled === undefined ? '—' : stalled > 0 ? `${stalled} ms behind` : 'none'));
}

// ---- polling and controls ----

let timer = null;
let reading = false;
let readAgain = false;

/** One round of reads; each panel shows its own errors, so one failing endpoint hides nothing else. */
async function refresh() {
  const results = await Promise.allSettled([refreshNamespaces(), refreshServices(), refreshInstances(), refreshMembers()]);
  const failed = results.filter((r) => r.status === 'rejected').length;
  const time = new Date().toLocaleTimeString();
  $('updated').textContent = failed ? `updated ${time}, ${failed} of 4 reads failed` : `updated ${time}`;
  $('updated').classList.toggle('error', failed > 0);
}

/** Reads now (or right after the round in flight: never two at once), then every POLL_MS. */
async function refreshNow() {
  clearTimeout(timer);
  if (reading) {
    readAgain = true;
    return;
  }
  reading = true;
  try {
    await refresh();
  } finally {
    reading = false;
    if (readAgain) {
      readAgain = false;
      refreshNow();
    } else {
      timer = setTimeout(refreshNow, POLL_MS);
    }
  }
}

function saveLocation() {
  const p = new URLSearchParams({ namespace: state.namespace, group: state.group });
  if (state.selected) p.set('service', state.selected.name);
  history.replaceState(null, '', '#' + p);
}

function loadLocation() {
  const p = new URLSearchParams(location.hash.slice(1));
  state.namespace = p.get('namespace') || state.namespace;
  state.group = p.get('group') || state.group;
  if (p.get('service')) {
    state.selected = { namespace: state.namespace, group: state.group, name: p.get('service') };
    $('instances-panel').hidden = false;
  }
  $('group').value = state.group;
}

function filtersChanged() {
  const namespace = $('namespace').value || state.namespace;
  const group = $('group').value.trim() || 'DEFAULT_GROUP';
  if (namespace !== state.namespace || group !== state.group) {
    state.selected = null;
    $('instances-panel').hidden = true;
    state.page = 1;
  }
  state.namespace = namespace;
  state.group = group;
  state.search = $('search').value.trim();
  saveLocation();
  refreshNow();
}

let typing = null;
function debounced() {
  clearTimeout(typing);
  typing = setTimeout(filtersChanged, 300);
}

document.addEventListener('DOMContentLoaded', () => {
  $('served-by').textContent = `served by ${location.host}`;
  loadLocation();
  $('filters').addEventListener('submit', (e) => { e.preventDefault(); filtersChanged(); });
  $('namespace').addEventListener('change', filtersChanged);
  $('group').addEventListener('input', debounced);
  $('search').addEventListener('input', debounced);
  $('prev-page').addEventListener('click', () => { state.page -= 1; refreshNow(); });
  $('next-page').addEventListener('click', () => { state.page += 1; refreshNow(); });
  $('action-error-dismiss').addEventListener('click', hideActionError);
  $('login').addEventListener('submit', login);
  $('logout').addEventListener('click', logout);
  refreshNow();
});
