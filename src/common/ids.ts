import { v7 as uuidv7 } from 'uuid';

/** A new opaque, time-ordered identifier. */
export function newId(): string {
  return uuidv7();
}
