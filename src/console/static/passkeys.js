// Passkeys (WebAuthn): a form marked data-passkey asks the browser for a passkey with the options
// its data-options address gives, puts the browser's answer in its `response` field and is sent.
// The library is @simplewebauthn/browser (webauthn.min.js, loaded before this file).
/* global SimpleWebAuthnBrowser */
document.addEventListener('submit', (event) => {
  const form = event.target;
  if (!(form instanceof HTMLFormElement) || !form.hasAttribute('data-passkey')) return;
  const answer = form.elements.namedItem('response');
  if (answer.value !== '') return;
  event.preventDefault();
  const problem = form.querySelector('[data-passkey-problem]');
  problem.hidden = true;
  const ceremony =
    form.getAttribute('data-passkey') === 'register'
      ? SimpleWebAuthnBrowser.startRegistration
      : SimpleWebAuthnBrowser.startAuthentication;
  fetch(form.getAttribute('data-options'), { credentials: 'same-origin', headers: { Accept: 'application/json' } })
    .then((options) => {
      if (!options.ok) throw new Error(`options answered ${options.status}`);
      return options.json();
    })
    .then((optionsJSON) => ceremony({ optionsJSON }))
    .then((response) => {
      answer.value = JSON.stringify(response);
      form.submit();
    })
    .catch(() => {
      problem.hidden = false;
    });
});
