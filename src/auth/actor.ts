import type { Permission } from './permissions.js';

export const ACTOR_KINDS = ['token', 'operator'] as const;
export type ActorKind = (typeof ACTOR_KINDS)[number];

/**
 * Who acts on the service's resources: an API token or a console operator. Both go through the same
 * permission and venue rules, so an operator gets exactly the answers a token with the same
 * permissions and venues gets.
 */
export interface Actor {
  kind: ActorKind;
  id: string;
  /** The token's name or the operator's email, for logs and the audit trail. */
  name: string;
  permissions: Permission[];
  /** null: every venue. */
  venueIds: string[] | null;
}
