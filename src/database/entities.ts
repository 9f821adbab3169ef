import { AuditEventEntity } from '../audit/entities/audit-event.entity.js';
import { ApiTokenEntity } from '../auth/entities/api-token.entity.js';
import { BatchPasswordEntity } from '../batches/entities/batch-password.entity.js';
import { UserBatchEntity } from '../batches/entities/user-batch.entity.js';
import { HotspotUserNameWordEntity } from '../hotspot-users/entities/hotspot-user-name-word.entity.js';
import { HotspotUserVenueEntity } from '../hotspot-users/entities/hotspot-user-venue.entity.js';
import { HotspotUserEntity } from '../hotspot-users/entities/hotspot-user.entity.js';
import {
  VenueUserBucketEntity,
  VenueUserCountChangeEntity,
  VenueUserCountEntity,
} from '../hotspot-users/entities/venue-user-count.entity.js';
import { ConsoleFormTokenEntity } from '../operators/entities/console-form-token.entity.js';
import { OperatorPasskeyEntity } from '../operators/entities/operator-passkey.entity.js';
import { OperatorRecoveryCodeEntity } from '../operators/entities/operator-recovery-code.entity.js';
import { OperatorSessionEntity } from '../operators/entities/operator-session.entity.js';
import { SignInFailureEntity } from '../operators/entities/sign-in-failure.entity.js';
import { NasClientEntity } from '../nas/entities/nas-client.entity.js';
import { OperatorEntity } from '../operators/entities/operator.entity.js';
import { PlanVenueEntity } from '../plans/entities/plan-venue.entity.js';
import { PlanEntity } from '../plans/entities/plan.entity.js';
import { LoginAttemptEntity } from '../radius/entities/login-attempt.entity.js';
import { GuestIdentityEntity } from '../guest-access/entities/guest-identity.entity.js';
import { PortalPassEntity } from '../guest-access/entities/portal-pass.entity.js';
import { TermsAcceptanceEntity } from '../guest-access/entities/terms-acceptance.entity.js';
import { VenuePortalEntity } from '../guest-access/entities/venue-portal.entity.js';
import { PhoneChallengeEntity } from '../phone-verification/entities/phone-challenge.entity.js';
import { PhoneCodeCounterEntity } from '../phone-verification/entities/phone-code-counter.entity.js';
import { SmsMessageEntity } from '../sms/entities/sms-message.entity.js';
import { IdempotencyKeyEntity } from '../idempotency/entities/idempotency-key.entity.js';
import { DeviceEntity } from '../sessions/entities/device.entity.js';
import { SessionEntity } from '../sessions/entities/session.entity.js';
import { UserUsageEntity } from '../usage/entities/user-usage.entity.js';
import { UnauthJobEntity } from '../unauth-jobs/entities/unauth-job.entity.js';
import { VenueEntity } from '../venues/entities/venue.entity.js';

export const ENTITIES = [
  ApiTokenEntity,
  HotspotUserEntity,
  HotspotUserVenueEntity,
  HotspotUserNameWordEntity,
  VenueUserCountEntity,
  VenueUserBucketEntity,
  VenueUserCountChangeEntity,
  DeviceEntity,
  SessionEntity,
  UnauthJobEntity,
  NasClientEntity,
  LoginAttemptEntity,
  IdempotencyKeyEntity,
  OperatorEntity,
  AuditEventEntity,
  OperatorSessionEntity,
  OperatorRecoveryCodeEntity,
  OperatorPasskeyEntity,
  ConsoleFormTokenEntity,
  SignInFailureEntity,
  VenueEntity,
  UserBatchEntity,
  BatchPasswordEntity,
  PlanEntity,
  PlanVenueEntity,
  UserUsageEntity,
  VenuePortalEntity,
  GuestIdentityEntity,
  TermsAcceptanceEntity,
  PortalPassEntity,
  SmsMessageEntity,
  PhoneChallengeEntity,
  PhoneCodeCounterEntity,
];
