// The Nacre console, part 3 of 3: namespaces (create, edit, delete), the subscribers of the
// shown service and the clients connected to this node. Reads:
//   /nacos/v1/console/namespaces (read by console.js, rendered here; POST, PUT, DELETE to change),
//   /nacos/v2/ns/client/service/subscriber/list, /nacos/v2/ns/client/list, /client,
//   /client/publish/list, /client/subscribe/list.
'use strict';

const NAMESPACES = '/nacos/v1/console/namespaces';
const CLIENTS = '/nacos/v2/ns/client';
/** Clients shown at most: each costs three reads per round. */
const MAX_CLIENTS_SHOWN = 50;
/** Nacos' own namespace: it cannot be edited or deleted. */
const PUBLIC = 'public';

// ---- namespaces ----

/** The namespace whose name the form edits; null while it creates one. */
let editingNamespace = null;
/** The namespace whose Delete was clicked once; a second click deletes it. */
let deleteArmed = null;

function renderNamespaces(list) {
  renderRows('namespaces', list, namespaceRow, deleteArmed);
}

function namespaceRow(n) {
  const fixed = n.namespace === PUBLIC;
  const edit = el('button', { type: 'button', class: 'edit-namespace', onclick: () => editNamespace(n) }, 'Edit');
  const remove = el('button', { type: 'button', class: 'delete-namespace', onclick: () => deleteNamespace(n) },
    deleteArmed === n.namespace ? 'Click again to delete' : 'Delete');
  edit.disabled = fixed;
  remove.disabled = fixed;
  return el('tr', { 'data-namespace': n.namespace },
    el('td', {}, n.namespace),
    el('td', { 'data-field': 'name' }, n.namespaceShowName),
    el('td', { 'data-field': 'description' }, n.namespaceDesc || ''),
    el('td', { class: 'actions' }, edit, remove));
}

function editNamespace(n) {
  editingNamespace = n.namespace;
  $('ns-id').value = n.namespace;
  $('ns-id').readOnly = true;
  $('ns-name').value = n.namespaceShowName;
  $('ns-desc').value = n.namespaceDesc || '';
  $('ns-submit').textContent = 'Save';
  $('ns-cancel').hidden = false;
  $('ns-name').focus();
}

function resetNamespaceForm() {
  editingNamespace = null;
  $('namespace-form').reset();
  $('ns-id').readOnly = false;
  $('ns-submit').textContent = 'Create';
  $('ns-cancel').hidden = true;
}

async function submitNamespace(e) {
  e.preventDefault();
  const name = $('ns-name').value.trim();
  if (!name) {
    showActionError('A namespace needs a name.');
    return;
  }
  const desc = $('ns-desc').value.trim();
  try {
    if (editingNamespace) {
      await call('PUT', NAMESPACES, { namespace: editingNamespace, namespaceShowName: name, namespaceDesc: desc });
    } else {
      const params = { namespaceName: name, namespaceDesc: desc };
      const id = $('ns-id').value.trim();
      if (id) params.customNamespaceId = id; // else the node makes up an id
      await call('POST', NAMESPACES, params);
    }
    hideActionError();
    resetNamespaceForm();
  } catch (err) {
    showActionError(`Could not ${editingNamespace ? 'save' : 'create'} namespace ${name}: ${err.message}`);
  } finally {
    refreshNow();
  }
}

async function deleteNamespace(n) {
  if (deleteArmed !== n.namespace) {
    deleteArmed = n.namespace; // a delete takes a second click, so a slip deletes nothing
    refreshNow();
    return;
  }
  deleteArmed = null;
  try {
    await call('DELETE', NAMESPACES, { namespaceId: n.namespace });
    hideActionError();
    if (state.namespace === n.namespace) {
      $('namespace').value = PUBLIC;
      filtersChanged();
    }
  } catch (err) {
    showActionError(`Could not delete namespace ${n.namespace}: ${err.message}`);
  } finally {
    refreshNow();
  }
}

// ---- subscribers of the shown service ----

async function refreshSubscribers() {
  const service = state.selected;
  if (!service) return;
  try {
    const list = await getData(`${CLIENTS}/service/subscriber/list`, {
      namespaceId: service.namespace, groupName: service.group, serviceName: service.name,
    });
    if (state.selected !== service) return;
    renderRows('subscribers', list, (s) => el('tr', { 'data-client': s.clientId },
      el('td', {}, s.clientId), el('td', { 'data-field': 'address' }, `${s.ip}:${s.port}`)), service);
    status('subscribers-status', list.length === 0 ? 'No client connected to this node subscribes to it.' : '', false);
  } catch (e) {
    if (state.selected !== service) return;
    renderRows('subscribers', [], () => null);
    status('subscribers-status', e.message, true);
    throw e;
  }
}

// ---- clients connected to this node ----

async function refreshClients() {
  try {
    const ids = await getData(`${CLIENTS}/list`, {});
    const shown = ids.slice(0, MAX_CLIENTS_SHOWN);
    // A client gone between the reads is left out rather than failing the whole table.
    const rows = (await Promise.all(shown.map((id) => Promise.all([
      getData(CLIENTS, { clientId: id }),
      getData(`${CLIENTS}/publish/list`, { clientId: id }),
      getData(`${CLIENTS}/subscribe/list`, { clientId: id }),
    ]).then(([detail, published, subscribed]) => ({ detail, published, subscribed }), () => null))))
      .filter((r) => r !== null);
    renderRows('clients', rows, clientRow);
    status('clients-status', ids.length === 0 ? 'No Nacos 2.x client is connected to this node.'
      : ids.length > shown.length ? `Showing ${shown.length} of ${ids.length} clients.` : '', false);
  } catch (e) {
    renderRows('clients', [], clientRow);
    status('clients-status', e.message, true);
    throw e;
  }
}

function clientRow(c) {
  const d = c.detail;
  const services = (list) => el('ul', { class: 'metadata' },
    ...list.map((s) => el('li', {}, `${s.namespace}/${s.group}@@${s.serviceName}`
      + (s.registeredInstance ? ` ${s.registeredInstance.ip}:${s.registeredInstance.port}` : ''))));
  return el('tr', { 'data-client': d.clientId },
    el('td', {}, d.clientId),
    el('td', { 'data-field': 'address' }, `${d.clientIp}:${d.clientPort}`),
    el('td', { 'data-field': 'version' }, d.version || '—'),
    el('td', { 'data-field': 'registered' }, services(c.published)),
    el('td', { 'data-field': 'subscribed' }, services(c.subscribed)),
    el('td', { 'data-field': 'last-active' }, new Date(d.lastUpdatedTime).toLocaleTimeString()));
}

panels.push(refreshSubscribers, refreshClients);

document.addEventListener('DOMContentLoaded', () => {
  $('namespace-form').addEventListener('submit', submitNamespace);
  $('ns-cancel').addEventListener('click', resetNamespaceForm);
});
