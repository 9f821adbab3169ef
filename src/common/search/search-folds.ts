/**
 * The folds every search of the service shares (the users list's `q`, login attempts by username,
 * Online now), kept here so that each feature stores and reads its keys the same way.
 */

/** Case, accents and white space folded: `  İstanbul   Şube ` → `istanbul sube`. */
export function foldedText(text: string): string {
  return text.normalize('NFD').replace(/\p{M}/gu, '').replace(/ı/g, 'i').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/**
 * A MAC address's stored form (`AA:BB:CC:DD:EE:FF`) read backwards, character by character
 * (`FF:EE:DD:CC:BB:AA`, the separators staying in place): a suffix of the MAC is a prefix of this
 * key, so an index over it finds a MAC by its last digits.
 */
export function reversedMac(mac: string): string {
  return [...mac].reverse().join('');
}
