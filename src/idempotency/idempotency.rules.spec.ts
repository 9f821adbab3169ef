import {
  canonicalJson,
  isFinalStatus,
  keyProblem,
  keyState,
  requestFingerprint,
  RETENTION_MS,
  toStoredAnswer,
} from './idempotency.rules.js';

describe('idempotency rules', () => {
  describe('keyProblem', () => {
    it('accepts 1 to 255 printable ASCII characters, spaces included', () => {
      for (const key of ['a', 'k'.repeat(255), '0193f3a4-7b5e-7c1d-9a2b-3c4d5e6f7a8b', 'order 42 / retry ~!']) {
        expect(keyProblem(key)).toBeNull();
      }
    });

    it('names the header for an empty, too long, non-ASCII, control-character or repeated key', () => {
      for (const key of ['', 'k'.repeat(256), 'clé', 'a\tb', 'a\x7f', ['a', 'b']]) {
        expect(keyProblem(key)).toMatch(/^Idempotency-Key /);
      }
    });
  });

  describe('canonicalJson', () => {
    it('sorts object keys at every level and keeps array order', () => {
      expect(canonicalJson({ b: 1, a: { d: [2, 1], c: null } })).toBe('{"a":{"c":null,"d":[2,1]},"b":1}');
      expect(canonicalJson({ a: { c: null, d: [2, 1] }, b: 1 })).toBe(
        canonicalJson({ b: 1, a: { d: [2, 1], c: null } }),
      );
      expect(canonicalJson([{ y: 1, x: 2 }])).toBe('[{"x":2,"y":1}]');
    });

    it('escapes strings as JSON does, so no two values share a spelling', () => {
      expect(canonicalJson({ 'a"b': 'c\\d' })).toBe('{"a\\"b":"c\\\\d"}');
      expect(canonicalJson('1')).not.toBe(canonicalJson(1));
    });
  });

  describe('requestFingerprint', () => {
    const request = { method: 'POST', path: '/api/v1/hotspot-users', query: {}, body: { name: 'a', venueIds: ['v'] } };

    it('is the same for the same request, whatever the key order of body and query', () => {
      expect(requestFingerprint(request)).toMatch(/^[0-9a-f]{64}$/);
      expect(requestFingerprint({ ...request, body: { venueIds: ['v'], name: 'a' } })).toBe(
        requestFingerprint(request),
      );
      expect(requestFingerprint({ ...request, query: { b: '1', a: '2' } })).toBe(
        requestFingerprint({ ...request, query: { a: '2', b: '1' } }),
      );
    });

    it('differs with the method, the path, the query or the body', () => {
      const base = requestFingerprint(request);
      expect(requestFingerprint({ ...request, method: 'PUT' })).not.toBe(base);
      expect(requestFingerprint({ ...request, path: '/api/v1/hotspot-users/x/expire' })).not.toBe(base);
      expect(requestFingerprint({ ...request, query: { venueId: 'v' } })).not.toBe(base);
      expect(requestFingerprint({ ...request, body: { name: 'b', venueIds: ['v'] } })).not.toBe(base);
      expect(requestFingerprint({ ...request, body: { name: 'a', venueIds: ['v', 'w'] } })).not.toBe(base);
    });
  });

  describe('isFinalStatus', () => {
    it('keeps successes and client errors a repeat would get again, never 5xx nor "try again later" ones', () => {
      for (const status of [200, 201, 400, 403, 404, 409, 412, 422]) expect(isFinalStatus(status)).toBe(true);
      for (const status of [408, 425, 429, 500, 502, 503, 504]) expect(isFinalStatus(status)).toBe(false);
    });
  });

  describe('keyState', () => {
    const now = new Date('2026-11-22T10:00:00.000Z');
    const answer = toStoredAnswer({ status: 201, headers: { ETag: '"v1"' }, body: { success: true } });
    const stored = { fingerprint: 'f', answer, createdAt: now };

    it('replays the stored answer for the same request within 24 hours', () => {
      expect(keyState(null, 'f', now)).toEqual({ kind: 'new' });
      expect(keyState(stored, 'f', new Date(now.getTime() + RETENTION_MS))).toEqual({ kind: 'replay', answer });
      expect(answer.body).toBe('{"success":true}');
    });

    it('refuses another request, reports one without an answer as in progress, and forgets a key past 24 hours', () => {
      expect(keyState(stored, 'g', now)).toEqual({ kind: 'mismatch' });
      expect(keyState({ ...stored, answer: null }, 'f', now)).toEqual({ kind: 'in-progress' });
      expect(keyState(stored, 'g', new Date(now.getTime() + RETENTION_MS + 1))).toEqual({ kind: 'expired' });
    });
  });
});
