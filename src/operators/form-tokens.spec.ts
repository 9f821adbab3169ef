import { isFormTokenOf, newFormToken } from './form-tokens.js';
import { newSessionId } from './session-ids.js';

describe('form tokens', () => {
  const session = newSessionId();

  it('are a fresh random nonce and its MAC each time, and check for their own session', () => {
    const tokens = Array.from({ length: 20 }, () => newFormToken(session));
    for (const token of tokens) {
      expect(token).toMatch(/^[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]{22}$/);
      expect(isFormTokenOf(token, session)).toBe(true);
    }
    expect(new Set(tokens).size).toBe(tokens.length);
  });

  it('do not check for another session, nor once altered', () => {
    const token = newFormToken(session);
    expect(isFormTokenOf(token, newSessionId())).toBe(false);
    const [nonce, mac] = token.split('.');
    const flipped = (text: string) => (text[0] === 'A' ? 'B' : 'A') + text.slice(1);
    expect(isFormTokenOf(`${flipped(nonce)}.${mac}`, session)).toBe(false);
    expect(isFormTokenOf(`${nonce}.${flipped(mac)}`, session)).toBe(false);
    expect(isFormTokenOf(`${nonce}.${newFormToken(session).split('.')[1]}`, session)).toBe(false);
  });

  it('check in one spelling only (the spare bits of the last base64url character)', () => {
    const token = newFormToken(session);
    const mac = token.split('.')[1];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const bytes = (text: string) => Buffer.from(text, 'base64url');
    const sameBytes = [...alphabet].filter((c) => c !== mac.at(-1) && bytes(mac.slice(0, -1) + c).equals(bytes(mac)));
    expect(sameBytes.length).toBeGreaterThan(0);
    for (const c of sameBytes) expect(isFormTokenOf(token.slice(0, -1) + c, session)).toBe(false);
  });

  it('refuse any other text without throwing', () => {
    for (const text of ['', '.', 'x'.repeat(45), `${'a'.repeat(22)}.${'b'.repeat(23)}`, 'é'.repeat(45), '\u0000']) {
      expect(isFormTokenOf(text, session)).toBe(false);
    }
  });
});
