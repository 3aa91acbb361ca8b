// The page's WebAuthn client: ask the server for options, hand them to the browser's
// authenticator, post what it answers back, and show the outcome (or the step that refused it).
'use strict';

/** A refusal from the server: its 400 (or 500) body, {"error", "code", "step"}. */
class ServerRefusal extends Error {
  constructor(body, status) {
    super(body.error || `the server answered ${status}`);
    this.code = body.code || `http${status}`;
    this.step = body.step || '';
  }
}

/** POSTs `body` as JSON to `path`; resolves to the JSON answer, rejects with a ServerRefusal. */
async function post(path, body) {
  const response = await fetch(path, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'same-origin',
  });
  let json = {};
  try {
    json = await response.json();
  } catch {
    // Not JSON (a proxy's error page, say): the status tells enough.
  }
  if (!response.ok) throw new ServerRefusal(json, response.status);
  return json;
}

/** Registers a new credential for `username`; resolves to {verified, credentialId}. */
async function register(username) {
  const options = await post('/registration/options', { username });
  const publicKey = PublicKeyCredential.parseCreationOptionsFromJSON(options);
  const credential = await navigator.credentials.create({ publicKey });
  return post('/registration/verify', credential.toJSON());
}

/**
 * Signs in as `username`, or with a discoverable credential (a passkey) when `username` is
 * undefined; resolves to {verified, username, signCount}.
 */
async function signIn(username) {
  const options = await post('/authentication/options', username === undefined ? {} : { username });
  const publicKey = PublicKeyCredential.parseRequestOptionsFromJSON(options);
  const credential = await navigator.credentials.get({ publicKey });
  return post('/authentication/verify', credential.toJSON());
}

const result = () => document.getElementById('result');
const buttons = () => document.querySelectorAll('#form button');

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

/** Shows why an action failed: the server's step and message, or the browser's error. */
function showFailure(error) {
  if (error instanceof ServerRefusal) {
    const where = error.step ? `Refused at ${error.step}` : 'Refused';
    show('error', `${where} (${error.code})`, error.message, { code: error.code, step: error.step });
  } else if (error instanceof DOMException) {
    // NotAllowedError: cancelled or timed out; InvalidStateError: the authenticator already
    // holds one of this user's credentials (excludeCredentials).
    show('error', `The browser stopped the ceremony (${error.name})`, error.message, { code: error.name });
  } else {
    show('error', 'Something went wrong', String(error), { code: 'clientError' });
  }
}

/** Runs `action` with the buttons disabled, showing what it resolves to or why it failed. */
async function run(action) {
  buttons().forEach((button) => { button.disabled = true; });
  show('pending', 'Waiting for your authenticator…');
  try {
    await action();
  } catch (error) {
    showFailure(error);
  } finally {
    buttons().forEach((button) => { button.disabled = false; });
  }
}

/** The username typed, trimmed; shows an error and returns null when there is none. */
function typedUsername() {
  const username = document.getElementById('username').value.trim();
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
    buttons().forEach((button) => { button.disabled = true; });
    show('error', 'This browser cannot run this page',
      'It needs WebAuthn with its JSON helpers (parseCreationOptionsFromJSON, toJSON): a current Chrome, Edge, Firefox or Safari.',
      { code: 'unsupported' });
    return;
  }
  document.getElementById('register').addEventListener('click', () => {
    const username = typedUsername();
    if (username === null) return;
    run(async () => {
      const outcome = await register(username);
      show('success', `Registered a passkey for ${username}`, `Credential ID ${outcome.credentialId}`);
    });
  });
  document.getElementById('form').addEventListener('submit', (event) => {
    event.preventDefault();
    const username = typedUsername();
    if (username === null) return;
    run(async () => {
      const outcome = await signIn(username);
      show('success', `Signed in as ${outcome.username}`, `Signature counter ${outcome.signCount}`);
    });
  });
  document.getElementById('passkey').addEventListener('click', () => {
    run(async () => {
      const outcome = await signIn(undefined);
      show('success', `Signed in as ${outcome.username} with a passkey`, `Signature counter ${outcome.signCount}`);
    });
  });
}

start();
