import type { Permission } from '../auth/permissions.js';
import type { OperatorStatus } from './entities/operator.entity.js';
import type { SessionStage } from './entities/operator-session.entity.js';

/** A session with what every console request needs of its operator, read in one statement. */
export interface SessionWithOperator {
  idHash: string;
  stage: SessionStage;
  rightsVersion: number;
  pendingTotpSecret: string | null;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
  operator: {
    id: string;
    email: string;
    name: string;
    status: OperatorStatus;
    rightsVersion: number;
    admin: boolean;
    mustChangePassword: boolean;
    totpEnrolled: boolean;
    permissions: Permission[];
    /** null: every venue. */
    venueIds: string[] | null;
    /** An IANA time zone the operator chose for dates; null: UTC. */
    timeZone: string | null;
  };
}
