import type { UserStatus } from './entities/hotspot-user.entity.js';

/**
 * A venue's users are counted per status (the list's exact `total` without a COUNT over the venue),
 * and per status and hour of creation (the list's deep pages start at the hour that holds their
 * offset instead of walking the index from the newest user). A change of users inserts its counter
 * moves as rows of their own; a fold later adds them to the counters (see foldCounts).
 */
const COUNT_BUCKET_MS = 3_600_000;

/** What the counters know of a user: where it is counted. */
export interface CountedUser {
  status: UserStatus;
  createdAt: Date;
  venueIds: readonly string[];
}

export interface CountDelta {
  venueId: string;
  status: UserStatus;
  bucket: number;
  delta: number;
}

/** The hour a user created at `createdAt` is counted in. */
export function countBucket(createdAt: Date): number {
  return Math.floor(createdAt.getTime() / COUNT_BUCKET_MS);
}

/** The first instant after `bucket`: the list's rows of that hour and older are created before it. */
export function bucketEnd(bucket: number): Date {
  return new Date((bucket + 1) * COUNT_BUCKET_MS);
}

/**
 * The counter moves of a change from `before` to `after` (null: the user does not exist on that
 * side), without the ones that cancel out, ordered by venue, status and hour.
 */
export function countDeltas(before: CountedUser | null, after: CountedUser | null): CountDelta[] {
  const moves = (user: CountedUser | null, delta: number): CountDelta[] => {
    if (user === null) return [];
    const bucket = countBucket(user.createdAt);
    return [...new Set(user.venueIds)].map((venueId) => ({ venueId, status: user.status, bucket, delta }));
  };
  return summed([...moves(before, -1), ...moves(after, 1)]);
}

/** `deltas` summed per venue, status and hour, without the sums that cancel out, in that key order. */
function summed(deltas: readonly CountDelta[]): CountDelta[] {
  const sums = new Map<string, CountDelta>();
  for (const { venueId, status, bucket, delta } of deltas) {
    const key = JSON.stringify([venueId, status, bucket]);
    const entry = sums.get(key) ?? { venueId, status, bucket, delta: 0 };
    entry.delta += delta;
    sums.set(key, entry);
  }
  return [...sums.values()].filter(({ delta }) => delta !== 0).sort(compareCounters);
}

function compareCounters(a: CountDelta, b: CountDelta): number {
  if (a.venueId !== b.venueId) return a.venueId < b.venueId ? -1 : 1;
  if (a.status !== b.status) return a.status < b.status ? -1 : 1;
  return a.bucket - b.bucket;
}

/**
 * Where a page starting `offset` rows after the newest begins, from the venue's hour counts newest
 * first: the hour whose rows hold the offset and how many newer rows it skips. Null when the counts
 * end first (the offset lies past the end, or a change landed between the reads).
 */
export function pageStart(
  bucketsNewestFirst: ReadonlyArray<{ bucket: number; count: number }>,
  offset: number,
): { bucket: number; skipped: number } | null {
  let skipped = 0;
  for (const { bucket, count } of bucketsNewestFirst) {
    if (skipped + count > offset) return { bucket, skipped };
    skipped += count;
  }
  return null;
}

/** What a fold adds to the counters: per venue and status, and per venue, status and hour. */
export interface FoldedCounts {
  counts: Array<{ venueId: string; status: UserStatus; delta: number }>;
  buckets: CountDelta[];
}

/**
 * The sums of `changes` for the counters, without those that cancel out, in the order of the
 * counters' keys, so that two folds take the counter rows' locks in the same order.
 */
export function foldCounts(changes: readonly CountDelta[]): FoldedCounts {
  // The per-status counts are the same sums with the hour left out.
  const counts = summed(changes.map((change) => ({ ...change, bucket: 0 })));
  return {
    counts: counts.map(({ venueId, status, delta }) => ({ venueId, status, delta })),
    buckets: summed(changes),
  };
}
