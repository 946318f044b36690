// The Nacre console, part 2 of 3: services, instances and members, polled every few seconds.
// Everything shown comes from the node's Open API, so the page works on any member:
//   GET /nacos/v1/console/namespaces, /nacos/v1/ns/catalog/services, /nacos/v2/ns/catalog/instances,
//   /nacos/v1/core/cluster/nodes; PUT and PATCH /nacos/v1/ns/instance to take an instance
//   offline/online and to edit its weight and metadata. console-admin.js adds namespaces,
//   subscribers and clients.
'use strict';

const POLL_MS = 3000;
const SERVICES_PER_PAGE = 20;
/** The API's largest page: a service's instances are read in one page. */
const MAX_PAGE = 10000;
const NS = '/nacos/v1/ns';

const state = {
  namespace: 'public',
  group: '', // a part of the group name; empty for every group
  search: '',
  page: 1,
  selected: null, // {namespace, group, name} of the service whose instances are shown
  editing: null, // the instance (as read) whose weight and metadata the edit form holds
};

/** The reads of one polling round, each showing its own errors; console-admin.js adds its own. */
const panels = [];

async function refreshNamespaces() {
  try {
    const answer = await getJson('/nacos/v1/console/namespaces', {});
    const select = $('namespace');
    const list = answer.data || [];
    const options = list.map((n) => ({ id: n.namespace, label: n.namespaceShowName }));
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
    renderNamespaces(list);
    status('namespaces-status', '', false);
  } catch (e) {
    status('namespaces-status', e.message, true);
    throw e;
  }
}

async function refreshServices() {
  const asked = { namespace: state.namespace, group: state.group, search: state.search, page: state.page };
  try {
    const answer = await getJson(`${NS}/catalog/services`, {
      namespaceId: asked.namespace, groupNameParam: asked.group, serviceNameParam: asked.search,
      pageNo: asked.page, pageSize: SERVICES_PER_PAGE,
    });
    if (asked.namespace !== state.namespace || asked.group !== state.group || asked.search !== state.search) return; // the operator moved on
    const pages = Math.max(1, Math.ceil(answer.count / SERVICES_PER_PAGE));
    if (state.page > pages) { // the list shrank under the page shown
      state.page = pages;
      return refreshServices();
    }
    const rows = answer.serviceList.map((s) => ({ ...s, namespace: asked.namespace }));
    renderRows('services', rows, serviceRow, state.selected); // the selection moves the highlight
    const groups = $('groups');
    const groupsKey = JSON.stringify(answer.groups);
    if (groups.dataset.key !== groupsKey) {
      groups.dataset.key = groupsKey;
      groups.replaceChildren(...answer.groups.map((g) => el('option', { value: g })));
    }
    $('page-info').textContent = `page ${state.page} of ${pages} (${answer.count} services)`;
    $('prev-page').disabled = state.page <= 1;
    $('next-page').disabled = state.page >= pages;
    status('services-status', answer.count === 0
      ? `No services in namespace ${asked.namespace}${asked.group ? ` in a group matching '${asked.group}'` : ''}`
        + `${asked.search ? ' matching the search' : ''}.`
      : '', false);
  } catch (e) {
    renderRows('services', [], serviceRow);
    status('services-status', e.message, true);
    throw e;
  }
}

function serviceRow(row) {
  const s = { namespace: row.namespace, group: row.groupName, name: row.name };
  const isSelected = state.selected && state.selected.namespace === s.namespace
    && state.selected.group === s.group && state.selected.name === s.name;
  const open = el('button', { type: 'button', class: 'link', onclick: () => select(s) }, s.name);
  const reached = row.triggerFlag === 'true';
  return el('tr', { 'data-service': s.name, 'data-group': s.group, class: isSelected ? 'selected' : '' },
    el('td', {}, open), el('td', {}, s.group),
    el('td', { 'data-field': 'instances' }, row.ipCount),
    el('td', { 'data-field': 'healthy' }, row.healthyInstanceCount),
    el('td', { 'data-field': 'clusters' }, row.clusterCount),
    el('td', { 'data-field': 'protection', class: reached ? 'bad' : '' },
      `${row.protectThreshold}${reached ? ' (reached)' : ''}`));
}

function select(service) {
  state.selected = service;
  closeEditor();
  saveLocation();
  $('instances-panel').hidden = false;
  refreshNow();
}

async function refreshInstances() {
  const service = state.selected;
  if (!service) return;
  $('instances-service').textContent = `${service.group}@@${service.name} (namespace ${service.namespace})`;
  try {
    const answer = await getData('/nacos/v2/ns/catalog/instances', {
      namespaceId: service.namespace, groupName: service.group, serviceName: service.name,
      pageNo: 1, pageSize: MAX_PAGE,
    });
    if (state.selected !== service) return;
    // The API's order follows its index; rows that keep their place are easier to follow.
    const list = [...answer.instances].sort((a, b) => a.ip.localeCompare(b.ip) || a.port - b.port);
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
  const edit = el('button', { type: 'button', class: 'edit-instance', onclick: () => openEditor(service, i) }, 'Edit');
  return el('tr', { 'data-instance': address, class: i.enabled ? '' : 'offline' },
    el('td', {}, address),
    el('td', { 'data-field': 'cluster' }, i.clusterName),
    el('td', { 'data-field': 'healthy', class: i.healthy ? 'ok' : 'bad' }, i.healthy ? 'healthy' : 'unhealthy'),
    el('td', { 'data-field': 'enabled' }, String(i.enabled)),
    el('td', { 'data-field': 'weight' }, i.weight),
    el('td', { 'data-field': 'kind' }, i.ephemeral ? 'ephemeral' : 'persistent'),
    el('td', { 'data-field': 'owner' }, i.ownerNode || '—'),
    el('td', { 'data-field': 'metadata' }, el('ul', { class: 'metadata' }, ...metadata)),
    el('td', { class: 'actions' }, toggle, edit));
}

/** The parameters that name an instance in the v1 instance calls. */
function instanceParams(service, i) {
  return {
    namespaceId: service.namespace, groupName: service.group, serviceName: service.name,
    clusterName: i.clusterName, ip: i.ip, port: i.port, ephemeral: i.ephemeral,
  };
}

/**
 * Nacos' update call with the instance's own values, so that only enabled changes. An ephemeral
 * instance's edit is an operator override laid over what its client registers: metadata is left
 * out, so the client's stays its own. A persistent instance is replaced whole, so it goes along
 * with its health.
 */
async function setEnabled(button, service, i, enabled) {
  const params = { ...instanceParams(service, i), weight: i.weight, enabled };
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
    forgetRows('instances'); // re-render: the button's text and state come back from the API
    refreshNow();
  }
}

// ---- editing an instance's weight and metadata ----

function openEditor(service, i) {
  state.editing = { service, instance: i };
  $('edit-address').textContent = `${i.ip}:${i.port} (${i.clusterName}, ${i.ephemeral ? 'ephemeral' : 'persistent'})`;
  $('edit-weight').value = i.weight;
  $('edit-metadata').value = JSON.stringify(i.metadata || {}, null, 1);
  $('edit-status').textContent = '';
  $('edit-instance').hidden = false;
  $('edit-weight').focus();
}

function closeEditor() {
  state.editing = null;
  $('edit-instance').hidden = true;
}

/**
 * A patch of weight and metadata only: enabled and health stay as they are. On an ephemeral
 * instance it is an operator override, kept when its client registers again.
 */
async function saveEditor(e) {
  e.preventDefault();
  const editing = state.editing;
  if (!editing) return;
  const weight = Number($('edit-weight').value);
  if ($('edit-weight').value.trim() === '' || !Number.isFinite(weight) || weight < 0) {
    $('edit-status').textContent = 'The weight is a number, 0 or more (Nacos allows up to 10000).';
    return;
  }
  let metadata;
  try {
    metadata = JSON.parse($('edit-metadata').value.trim() || '{}');
  } catch (err) {
    $('edit-status').textContent = `The metadata is not JSON (${err.message}); write an object such as {"zone":"a"}.`;
    return;
  }
  if (metadata === null || typeof metadata !== 'object' || Array.isArray(metadata)) {
    $('edit-status').textContent = 'The metadata is a JSON object of names to values, such as {"zone":"a"}.';
    return;
  }
  $('edit-save').disabled = true;
  try {
    await call('PATCH', `${NS}/instance`, {
      ...instanceParams(editing.service, editing.instance), weight, metadata: JSON.stringify(metadata),
    });
    hideActionError();
    closeEditor();
  } catch (err) {
    $('edit-status').textContent = err.message;
  } finally {
    $('edit-save').disabled = false;
    refreshNow();
  }
}

// ---- members ----

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
  const extend = m.extendInfo || {};
  const raft = extend.raftMetaData || {};
  const stalled = raft.applyStalledMs;
  const self = m.address === location.host;
  return el('tr', { 'data-member': m.address, class: self ? 'self' : '' },
    el('td', {}, m.address + (self ? ' (this node)' : '')),
    el('td', { 'data-field': 'state', class: m.state === 'UP' ? 'ok' : 'bad' }, m.state),
    el('td', { 'data-field': 'role' }, raft.role || '—'),
    el('td', { 'data-field': 'term' }, raft.term ?? '—'),
    el('td', { 'data-field': 'commit-index' }, raft.commitIndex ?? '—'),
    el('td', { 'data-field': 'leader' }, raft.leader || 'none'),
    el('td', { 'data-field': 'apply-stall', class: stalled > 0 ? 'bad' : '' },
      stalled === undefined ? '—' : stalled > 0 ? `${stalled} ms behind` : 'none'),
    el('td', { 'data-field': 'distro-queue' }, extend.distroPendingKeys ?? '—'),
    el('td', { 'data-field': 'last-sync' }, extend.distroLastSyncTime === undefined ? '—'
      : new Date(extend.distroLastSyncTime).toLocaleTimeString()));
}

// ---- polling and controls ----

let timer = null;
let reading = false;
let readAgain = false;

/** One round of reads; each panel shows its own errors, so one failing endpoint hides nothing else. */
async function refresh() {
  const results = await Promise.allSettled(panels.map((read) => read()));
  const failed = results.filter((r) => r.status === 'rejected').length;
  const time = new Date().toLocaleTimeString();
  $('updated').textContent = failed ? `updated ${time}, ${failed} of ${panels.length} reads failed` : `updated ${time}`;
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
  if (state.selected) {
    p.set('service', state.selected.name);
    p.set('serviceGroup', state.selected.group);
  }
  history.replaceState(null, '', '#' + p);
}

function loadLocation() {
  const p = new URLSearchParams(location.hash.slice(1));
  state.namespace = p.get('namespace') || state.namespace;
  state.group = p.get('group') ?? state.group;
  if (p.get('service')) {
    state.selected = { namespace: state.namespace, group: p.get('serviceGroup') || 'DEFAULT_GROUP', name: p.get('service') };
    $('instances-panel').hidden = false;
  }
  $('group').value = state.group;
}

function filtersChanged() {
  const namespace = $('namespace').value || state.namespace;
  const group = $('group').value.trim();
  const search = $('search').value.trim();
  if (namespace !== state.namespace) {
    state.selected = null;
    closeEditor();
    $('instances-panel').hidden = true;
  }
  if (namespace !== state.namespace || group !== state.group || search !== state.search) state.page = 1;
  state.namespace = namespace;
  state.group = group;
  state.search = search;
  saveLocation();
  refreshNow();
}

let typing = null;
function debounced() {
  clearTimeout(typing);
  typing = setTimeout(filtersChanged, 300);
}

panels.push(refreshNamespaces, refreshServices, refreshInstances, refreshMembers);

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
  $('edit-instance').addEventListener('submit', saveEditor);
  $('edit-cancel').addEventListener('click', closeEditor);
  $('login').addEventListener('submit', login);
  $('logout').addEventListener('click', logout);
  refreshNow();
});
