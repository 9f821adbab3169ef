import {
  appliedVenueChanges,
  changedVenueFields,
  checkOutTimeProblem,
  displayNameProblem,
  missingVenueIds,
  portalUrlProblem,
  ssidProblem,
  timeZoneProblem,
  venueChangesProblem,
  venueIdProblem,
} from './venue-rules.js';

describe('venue rules', () => {
  it('takes venue ids as the v1 API spells them', () => {
    expect(venueIdProblem('lobby-1:north.2_a')).toBeNull();
    expect(venueIdProblem('')).not.toBeNull();
    expect(venueIdProblem('a'.repeat(65))).not.toBeNull();
    expect(venueIdProblem('lobby 1')).not.toBeNull();
  });

  it('takes display names of at most 100 characters without control characters', () => {
    expect(displayNameProblem('Café Lobby')).toBeNull();
    expect(displayNameProblem('é'.repeat(100))).toBeNull();
    expect(displayNameProblem('é'.repeat(101))).toBe('must be at most 100 characters');
    expect(displayNameProblem('a\nb')).toBe('must not contain control characters');
  });

  it('takes IANA time zones and refuses others', () => {
    expect(timeZoneProblem('Europe/Berlin')).toBeNull();
    expect(timeZoneProblem('America/Argentina/Buenos_Aires')).toBeNull();
    expect(timeZoneProblem('UTC')).toBeNull();
    expect(timeZoneProblem('Mars/Olympus_Mons')).toBe('must be an IANA time zone such as Europe/Berlin');
    expect(timeZoneProblem('+02:00')).not.toBeNull();
    expect(timeZoneProblem('Europe/Berlin ')).not.toBeNull();
  });

  it('counts an SSID in UTF-8 octets, at most 32', () => {
    expect(ssidProblem('a'.repeat(32))).toBeNull();
    expect(ssidProblem('a'.repeat(33))).toBe('must be at most 32 octets');
    expect(ssidProblem('é'.repeat(16))).toBeNull();
    expect(ssidProblem('é'.repeat(17))).toBe('must be at most 32 octets');
  });

  it('takes http and https portal URLs of at most 2048 characters', () => {
    expect(portalUrlProblem('https://portal.example/login?venue=lobby')).toBeNull();
    expect(portalUrlProblem('http://192.0.2.1:8080/')).toBeNull();
    expect(portalUrlProblem('ftp://portal.example/')).toBe('must be an http or https URL');
    expect(portalUrlProblem('javascript:alert(1)')).toBe('must be an http or https URL');
    expect(portalUrlProblem('portal.example')).toBe('must be an http or https URL');
    expect(portalUrlProblem(`https://p.example/${'a'.repeat(2048)}`)).toBe('must be at most 2048 characters');
  });

  it('names the first bad field of a change, and reads an empty value or null as clearing', () => {
    expect(venueChangesProblem({ displayName: 'Lobby', timeZone: 'Nowhere/City' })).toEqual([
      'timeZone',
      'must be an IANA time zone such as Europe/Berlin',
    ]);
    expect(venueChangesProblem({ timeZone: '', ssid: null })).toBeNull();
  });

  it('applies a change to the given fields only; empty and null clear', () => {
    const current = {
      displayName: 'Lobby',
      timeZone: 'Europe/Berlin',
      ssid: 'Guest',
      portalUrl: null,
      checkOutTime: '11:00',
      defaultPlanId: 'plan-1',
    };
    expect(appliedVenueChanges(current, { ssid: 'Guests', displayName: '', timeZone: null })).toEqual({
      displayName: null,
      timeZone: null,
      ssid: 'Guests',
      portalUrl: null,
      checkOutTime: '11:00',
      defaultPlanId: 'plan-1',
    });
    expect(appliedVenueChanges(null, { ssid: 'Guest', checkOutTime: '12:30' })).toEqual({
      displayName: null,
      timeZone: null,
      ssid: 'Guest',
      portalUrl: null,
      checkOutTime: '12:30',
      defaultPlanId: null,
    });
  });

  it('lists the fields a change moves', () => {
    const current = {
      displayName: 'Lobby',
      timeZone: null,
      ssid: 'Guest',
      portalUrl: null,
      checkOutTime: null,
      defaultPlanId: null,
    };
    expect(changedVenueFields(current, { ...current, ssid: 'Guest' })).toEqual([]);
    expect(changedVenueFields(current, { ...current, displayName: null, portalUrl: 'https://p.example/' })).toEqual([
      'displayName',
      'portalUrl',
    ]);
    expect(changedVenueFields(current, { ...current, defaultPlanId: 'plan-1' })).toEqual(['defaultPlanId']);
  });

  it('takes a check-out time as HH:MM on a 24-hour clock', () => {
    for (const time of ['00:00', '09:30', '12:00', '23:59']) expect(checkOutTimeProblem(time)).toBeNull();
    for (const time of ['24:00', '9:30', '12:60', '12:00:00', 'noon', ' 12:00'])
      expect(checkOutTimeProblem(time)).toBe('must be a time of day as HH:MM, e.g. 11:00');
  });

  it('lists the venue ids without an entry once each, in the order given', () => {
    expect(missingVenueIds(['b', 'a', 'c', 'b'], ['a'])).toEqual(['b', 'c']);
    expect(missingVenueIds(['a'], ['a'])).toEqual([]);
  });
});
