import { CEREMONY_RESPONSE_MAX_LENGTH, parsedCeremonyResponse, passkeyName } from './passkeys.rules.js';

describe('passkey rules', () => {
  it('names a passkey with 1 to 100 characters, trimmed, without control characters', () => {
    expect(passkeyName('  Laptop  ')).toBe('Laptop');
    expect(passkeyName('🔑'.repeat(100))).toBe('🔑'.repeat(100));
    for (const bad of ['', '   ', 'x'.repeat(101), 'a\nb', 'tab\there']) expect(passkeyName(bad)).toBeNull();
  });

  it('reads a ceremony answer only as an object with an id and a response', () => {
    expect(parsedCeremonyResponse('{"id":"abc","response":{}}')).toEqual({ id: 'abc', response: {} });
    for (const bad of [
      '',
      'null',
      '[]',
      '"x"',
      '{"id":1,"response":{}}',
      '{"id":"a"}',
      '{',
      'x'.repeat(CEREMONY_RESPONSE_MAX_LENGTH + 1),
    ]) {
      expect(parsedCeremonyResponse(bad)).toBeNull();
    }
  });
});
