import type { EntityManager } from 'typeorm';

/**
 * A caller's claim on one run of a use case, made part of the use case's own transaction: `take` is
 * the first thing the transaction does, and throws (the transaction rolls back, nothing of the use
 * case is written) when another request holds the claim; `settle` is the last, with what the use case
 * made. The claim and the change commit together or not at all; of two requests with one claim, the
 * second waits for the first's transaction (its row lock) and then finds the claim taken, whatever
 * else the two would have collided on.
 *
 * The console's one-time form tokens are the claims (ConsoleFormTokensService); a service takes one
 * as its last, optional parameter and passes it nothing but its EntityManager and its result.
 */
export interface TransactionClaim<T> {
  take(em: EntityManager): Promise<void>;
  settle(em: EntityManager, result: T): Promise<void>;
}
