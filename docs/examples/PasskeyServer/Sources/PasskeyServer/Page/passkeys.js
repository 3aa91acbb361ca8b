// The page's WebAuthn client: ask the server for options, hand them to the browser's
// authenticator, post what it answers back, and show the outcome (or the step that refused it).
// Signed in, the account view lists the passkeys, with rename, delete, add and sign out.
// Where the browser has the Signal API, the page tells the user's passkey provider what the
// server knows: a credential it does not know, the account's passkeys after a deletion, the
// account's names after each sign-in.
'use strict';

/** A refusal from the server: its 4xx (or 500) body, {"error", "code", "step", "unknownCredential"?}. */
class ServerRefusal extends Error {
  constructor(body, status) {
    super(body.error || `the server answered ${status}`);
    this.code = body.code || `http${status}`;
    this.step = body.step || '';
    this.status = status;
    this.unknownCredential = body.unknownCredential || null;
  }
}

/** The Signal API calls made, newest last, by name (for people and tests reading the page). */
const signalsSent = [];

/**
 * Calls `PublicKeyCredential[name](payload)` where the browser has it; a browser without it
 * (or one that refuses) changes nothing: a signal is a hint to the provider, never required.
 */
async function sendSignal(name, payload) {
  if (!payload || !window.PublicKeyCredential || typeof PublicKeyCredential[name] !== 'function') return;
  try {
    await PublicKeyCredential[name](payload);
    signalsSent.push(name);
  } catch (error) {
    signalsSent.push(`${name}: ${error.name}`);
  }
  document.body.dataset.signals = signalsSent.join(' ');
}

/** Sends `body` as JSON to `path` with `method`; resolves to the JSON answer, rejects with a ServerRefusal. */
async function request(method, path, body) {
  const init = { method, credentials: 'same-origin', headers: {} };
  if (body !== undefined) {
    init.headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }
  const response = await fetch(path, init);
  let json = {};
  try {
    json = await response.json();
  } catch {
    // Not JSON (a proxy's error page, say): the status tells enough.
  }
  if (!response.ok) throw new ServerRefusal(json, response.status);
  return json;
}

const post = (path, body = {}) => request('POST', path, body);

/**
 * Registers a new credential: a sign-up for `username`, or another passkey for the signed-in
 * account when `username` is undefined; resolves to {verified, credentialId, username}.
 */
async function register(username) {
  const options = await post('/registration/options', username === undefined ? {} : { username });
  const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options);
  const credential = await navigator.credentials.create({ publicKey });
  return post('/registration/verify', credential.toJSON());
}

/**
 * Signs in as `username`, or with a discoverable credential (a passkey) when `username` is
 * undefined; `mediation` 'conditional' lets the browser offer the passkeys in the username
 * field's autofill. Resolves to {verified, username, signCount}.
 */
async function signIn(username, { mediation, signal } = {}) {
  const options = await post('/authentication/options', username === undefined ? {} : { username });
  const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(options);
  const credential = await navigator.credentials.get(mediation ? { publicKey, mediation, signal } : { publicKey });
  let outcome;
  try {
    outcome = await post('/authentication/verify', credential.toJSON());
  } catch (error) {
    // Only for a credential ID the server does not know: it says so in its refusal.
    if (error instanceof ServerRefusal && error.unknownCredential) {
      await sendSignal('signalUnknownCredential', error.unknownCredential);
    }
    throw error;
  }
  await sendSignal('signalCurrentUserDetails', outcome.currentUserDetails);
  return outcome;
}

const $ = (selector) => document.querySelector(selector);
const result = () => $('#result');
const buttons = () => document.querySelectorAll('button');

/** Shows an outcome: `state` is idle, pending, success or error (also as data-outcome). */
function show(state, title, detail = '', { code = '', step = '' } = {}) {
  const box = result();
  box.dataset.outcome = state;
  box.dataset.code = code;
  box.dataset.step = step;
  const heading = document.createElement('strong');
  heading.textContent = title;
  box.replaceChildren(heading);
  if (detail) {
    const paragraph = document.createElement('p');
    paragraph.textContent = detail;
    box.append(paragraph);
  }
}

/** Shows why `action` failed: the server's step and message, or the browser's error. */
function showFailure(action, error) {
  if (error instanceof ServerRefusal) {
    const where = error.step ? `Refused at ${error.step}` : 'Refused';
    show('error', `${action}: ${where} (${error.code})`, error.message, { code: error.code, step: error.step });
  } else if (error instanceof DOMException) {
    // NotAllowedError: cancelled, timed out or no matching passkey; InvalidStateError: the
    // authenticator already holds one of this account's passkeys (excludeCredentials).
    show('error', `${action}: the browser stopped the ceremony (${error.name})`, error.message, { code: error.name });
  } else {
    show('error', `${action}: something went wrong`, String(error), { code: 'clientError' });
  }
}

/** The pending autofill (conditional) sign-in, aborted before any other ceremony. */
let autofill = null;
/** Settles when the autofill sign-in has stopped: its options request must not land after another's. */
let autofillStopped = Promise.resolve();
/** Whether a ceremony started by a button is under way: autofill waits until it is over. */
let busy = false;

/** Runs `action` (named `name`) with the buttons disabled, showing why it failed if it does. */
async function run(name, action) {
  busy = true;
  if (autofill) autofill.abort();
  await autofillStopped;
  buttons().forEach((button) => { button.disabled = true; });
  show('pending', 'Waiting for your authenticator…');
  try {
    await action();
  } catch (error) {
    showFailure(name, error);
  } finally {
    buttons().forEach((button) => { button.disabled = false; });
    busy = false;
  }
  await refreshAccount();
}

/** A date in milliseconds as the browser's locale writes it, or `never`. */
const when = (milliseconds) => (milliseconds === null ? 'never' : new Date(milliseconds).toLocaleString());

/** One passkey of the account view, with its name field and its two buttons. */
function passkeyItem(passkey) {
  const item = document.createElement('li');
  item.dataset.id = passkey.credentialId;
  item.dataset.provider = passkey.provider || '';
  const name = document.createElement('input');
  name.className = 'passkey-name';
  name.value = passkey.name;
  name.maxLength = 64;
  name.setAttribute('aria-label', 'Passkey name');
  const details = document.createElement('span');
  details.className = 'details';
  const provider = passkey.provider ? `${passkey.provider}. ` : '';
  details.textContent = `${provider}Created ${when(passkey.createdAt)}, last used ${when(passkey.lastUsedAt)}, `
    + `${passkey.backedUp ? 'backed up' : 'not backed up'}. ID ${passkey.credentialId}`;
  const rename = document.createElement('button');
  rename.type = 'button';
  rename.className = 'rename secondary';
  rename.textContent = 'Rename';
  rename.addEventListener('click', () => run('Rename', async () => {
    const id = encodeURIComponent(passkey.credentialId);
    await post(`/account/passkeys/${id}/name`, { name: name.value });
    show('success', `Renamed the passkey to ${name.value.trim()}`);
  }));
  const remove = document.createElement('button');
  remove.type = 'button';
  remove.className = 'delete secondary';
  remove.textContent = 'Delete';
  remove.addEventListener('click', () => run('Delete', async () => {
    const account = await request('DELETE', `/account/passkeys/${encodeURIComponent(passkey.credentialId)}`);
    await sendSignal('signalAllAcceptedCredentials', account.allAcceptedCredentials);
    show('success', `Deleted the passkey ${passkey.name}`,
      'Also remove it from your authenticator: the site can no longer check it.');
  }));
  const actions = document.createElement('div');
  actions.className = 'buttons';
  actions.append(rename, remove);
  item.append(name, details, actions);
  return item;
}

/** Shows the account view when the session is signed in, the form (and autofill) otherwise. */
async function refreshAccount() {
  let account = null;
  try {
    account = await request('GET', '/account');
  } catch (error) {
    if (!(error instanceof ServerRefusal && error.status === 401)) {
      showFailure('Loading the account', error);
    }
  }
  $('#account').hidden = account === null;
  $('#form').hidden = account !== null;
  document.body.dataset.signedIn = account === null ? 'false' : 'true';
  if (account === null) {
    startAutofill();
    return;
  }
  $('#account-name').textContent = account.username;
  $('#passkeys').replaceChildren(...account.passkeys.map(passkeyItem));
}

/**
 * Offers the passkeys in the username field's autofill (`autocomplete="username webauthn"`):
 * a conditional request that waits until the user picks one, aborted by any button.
 */
async function startAutofill() {
  if (busy || autofill || typeof PublicKeyCredential.isConditionalMediationAvailable !== 'function') return;
  // Set before the first await, so that a button pressed meanwhile aborts it.
  const controller = new AbortController();
  autofill = controller;
  let stopped;
  autofillStopped = new Promise((resolve) => { stopped = resolve; });
  document.body.dataset.autofill = 'waiting';
  try {
    if (!(await PublicKeyCredential.isConditionalMediationAvailable()) || controller.signal.aborted) return;
    const outcome = await signIn(undefined, { mediation: 'conditional', signal: controller.signal });
    show('success', `Signed in as ${outcome.username} with a passkey from autofill`, `Signature counter ${outcome.signCount}`);
  } catch (error) {
    if (!controller.signal.aborted) showFailure('Sign in from autofill', error);
  } finally {
    if (autofill === controller) autofill = null;
    document.body.dataset.autofill = 'stopped';
    stopped();
  }
  if (!controller.signal.aborted) await refreshAccount();
}

/** The username typed, trimmed; shows an error and returns null when there is none. */
function typedUsername() {
  const username = $('#username').value.trim();
  if (!username) {
    show('error', 'Type a username first', 'Or sign in with a passkey, which needs no name.', { code: 'noUsername' });
    return null;
  }
  return username;
}

function start() {
  const supported = window.PublicKeyCredential
    && typeof PublicKeyCredential.parseCreationOptionsFromJSON === 'function'
    && typeof PublicKeyCredential.parseRequestOptionsFromJSON === 'function';
  if (!supported) {
    $('#form').hidden = false;
    buttons().forEach((button) => { button.disabled = true; });
    show('error', 'This browser cannot run this page',
      'It needs WebAuthn with its JSON helpers (parseCreationOptionsFromJSON, toJSON): a current Chrome, Edge, Firefox or Safari.',
      { code: 'unsupported' });
    return;
  }
  $('#register').addEventListener('click', () => {
    const username = typedUsername();
    if (username === null) return;
    run('Sign up', async () => {
      const outcome = await register(username);
      show('success', `Registered a passkey for ${outcome.username}`, `Credential ID ${outcome.credentialId}`);
    });
  });
  $('#form').addEventListener('submit', (event) => {
    event.preventDefault();
    const username = typedUsername();
    if (username === null) return;
    run('Sign in', async () => {
      const outcome = await signIn(username);
      show('success', `Signed in as ${outcome.username}`, `Signature counter ${outcome.signCount}`);
    });
  });
  $('#passkey').addEventListener('click', () => {
    run('Sign in with a passkey', async () => {
      const outcome = await signIn(undefined);
      show('success', `Signed in as ${outcome.username} with a passkey`, `Signature counter ${outcome.signCount}`);
    });
  });
  $('#add-passkey').addEventListener('click', () => {
    run('Add a passkey', async () => {
      const outcome = await register(undefined);
      show('success', `Added a passkey for ${outcome.username}`, `Credential ID ${outcome.credentialId}`);
    });
  });
  $('#signout').addEventListener('click', () => {
    run('Sign out', async () => {
      await post('/signout');
      show('idle', 'Signed out.');
    });
  });
  refreshAccount();
}

start();
