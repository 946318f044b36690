// The Nacre console, part 1 of 3: page helpers, sign-in and calls to the node's Open API.
// Loaded first (the scripts are deferred, so they run in order); console.js drives the page.
'use strict';

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

/**
 * The operator-facing part of an error answer: v1 writes "caused: <message>;", v2 writes
 * {"code":..,"message":..,"data":"<detail>"}.
 */
function errorMessage(body) {
  const text = body.trim();
  if (text.startsWith('{')) {
    try {
      const v2 = JSON.parse(text);
      if (v2 && 'code' in v2) {
        const detail = typeof v2.data === 'string' ? v2.data : JSON.stringify(v2.data);
        return `${v2.message} (code ${v2.code}): ${detail}`;
      }
    } catch (e) {
      // not JSON after all: shown as it is
    }
  }
  const m = /^caused: ([\s\S]*);\s*$/.exec(text);
  return (m ? m[1] : text) || '(empty answer)';
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

/**
 * One API call; any failure throws an Error whose message says what was asked and what came back.
 * {@code headers} are extra request headers (Nacos reads a beta publish's betaIps from one).
 */
async function call(method, path, params, headers) {
  const query = new URLSearchParams(params);
  if (token) query.set('accessToken', token);
  const init = { method, cache: 'no-store', headers: headers || {} };
  let url = path;
  if (method === 'GET') {
    url += '?' + query;
  } else {
    init.body = query; // sent as application/x-www-form-urlencoded, which the API reads
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

/** A v2 read: the data of {"code":0,"message":"success","data":...}. */
async function getData(path, params) {
  const answer = await getJson(path, params);
  if (answer.code !== 0) {
    throw new Error(`GET ${path} answered code ${answer.code}: ${answer.message}`);
  }
  return answer.data;
}

// ---- what panels share ----

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

/** Makes the next renderRows of a table rebuild it (after an action whose buttons changed state). */
function forgetRows(table) {
  $(table).tBodies[0].dataset.key = '';
}

function showActionError(text) {
  $('action-error-text').textContent = text;
  $('action-error').hidden = false;
}

function hideActionError() {
  $('action-error').hidden = true;
  $('action-error-text').textContent = '';
}
