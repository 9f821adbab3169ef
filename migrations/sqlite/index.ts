import type { MigrationInterface } from 'typeorm';
import { InitialSchema1795305600000 } from './1795305600000-InitialSchema.js';
import { PublicTokenPrefixes1795420800000 } from './1795420800000-PublicTokenPrefixes.js';
import { NasClients1795507200000 } from './1795507200000-NasClients.js';
import { RadiusAccounting1795680000000 } from './1795680000000-RadiusAccounting.js';
import { SafeRetries1795766400000 } from './1795766400000-SafeRetries.js';
import { DisconnectTracking1795852800000 } from './1795852800000-DisconnectTracking.js';
import { VenueUserCounts1795939200000 } from './1795939200000-VenueUserCounts.js';
import { UsernameKeyIndex1796025600000 } from './1796025600000-UsernameKeyIndex.js';
import { NasAddressUnique1796112000000 } from './1796112000000-NasAddressUnique.js';
import { SessionUserName1796198400000 } from './1796198400000-SessionUserName.js';
import { VenueUserCountChanges1796284800000 } from './1796284800000-VenueUserCountChanges.js';
import { SessionNasStopped1796371200000 } from './1796371200000-SessionNasStopped.js';
import { NasAcceptsCoa1796457600000 } from './1796457600000-NasAcceptsCoa.js';
import { LoginAttemptsLookup1796544000000 } from './1796544000000-LoginAttemptsLookup.js';
import { Operators1796630400000 } from './1796630400000-Operators.js';
import { AuditEvents1796716800000 } from './1796716800000-AuditEvents.js';
import { OperatorSessions1796803200000 } from './1796803200000-OperatorSessions.js';
import { Venues1796976000000 } from './1796976000000-Venues.js';
import { SessionsVenueListIndex1797062400000 } from './1797062400000-SessionsVenueListIndex.js';
import { OperatorTimeZone1797062401000 } from './1797062401000-OperatorTimeZone.js';
import { UserSearchKeys1797148800000 } from './1797148800000-UserSearchKeys.js';
import { SessionsNasLastAccountingIndex1797321600000 } from './1797321600000-SessionsNasLastAccountingIndex.js';
import { ValidityFromFirstLogin1797408000000 } from './1797408000000-ValidityFromFirstLogin.js';
import { UserBatches1797580800000 } from './1797580800000-UserBatches.js';
import { OneTimePasswordExpiry1797667200000 } from './1797667200000-OneTimePasswordExpiry.js';
import { OperatorPasskeys1797753600000 } from './1797753600000-OperatorPasskeys.js';
import { UserRoom1797753601000 } from './1797753601000-UserRoom.js';
import { VenueCheckOutTime1797753602000 } from './1797753602000-VenueCheckOutTime.js';
import { UnauthJobNotSent1797753603000 } from './1797753603000-UnauthJobNotSent.js';
import { SessionDisconnectJob1797753604000 } from './1797753604000-SessionDisconnectJob.js';
import { ConsoleFormTokens1797753605000 } from './1797753605000-ConsoleFormTokens.js';
import { DeskSearch1797753610000 } from './1797753610000-DeskSearch.js';
import { VenueRowsInBatch1797753630000 } from './1797753630000-VenueRowsInBatch.js';
import { Plans1797753700000 } from './1797753700000-Plans.js';
import { UsageCounters1797753750000 } from './1797753750000-UsageCounters.js';
import { GuestAccess1797800000000 } from './1797800000000-GuestAccess.js';
import { SmsOutboxAndPhoneCodes1797810000000 } from './1797810000000-SmsOutboxAndPhoneCodes.js';
import { SocialSignIn1797820000000 } from './1797820000000-SocialSignIn.js';
import { AccessRecords1797830000000 } from './1797830000000-AccessRecords.js';
import { PortalGatewayHosts1797850000000 } from './1797850000000-PortalGatewayHosts.js';
import { NameWordPages1797850001000 } from './1797850001000-NameWordPages.js';

/** Every sqlite migration, oldest first. Listed explicitly so the app, the CLI and the tests load the same set. */
export const SQLITE_MIGRATIONS: Array<new () => MigrationInterface> = [
  InitialSchema1795305600000,
  PublicTokenPrefixes1795420800000,
  NasClients1795507200000,
  RadiusAccounting1795680000000,
  SafeRetries1795766400000,
  DisconnectTracking1795852800000,
  VenueUserCounts1795939200000,
  UsernameKeyIndex1796025600000,
  NasAddressUnique1796112000000,
  SessionUserName1796198400000,
  VenueUserCountChanges1796284800000,
  SessionNasStopped1796371200000,
  NasAcceptsCoa1796457600000,
  LoginAttemptsLookup1796544000000,
  Operators1796630400000,
  AuditEvents1796716800000,
  OperatorSessions1796803200000,
  Venues1796976000000,
  SessionsVenueListIndex1797062400000,
  OperatorTimeZone1797062401000,
  UserSearchKeys1797148800000,
  SessionsNasLastAccountingIndex1797321600000,
  ValidityFromFirstLogin1797408000000,
  UserBatches1797580800000,
  OneTimePasswordExpiry1797667200000,
  OperatorPasskeys1797753600000,
  UserRoom1797753601000,
  VenueCheckOutTime1797753602000,
  UnauthJobNotSent1797753603000,
  SessionDisconnectJob1797753604000,
  ConsoleFormTokens1797753605000,
  DeskSearch1797753610000,
  VenueRowsInBatch1797753630000,
  Plans1797753700000,
  UsageCounters1797753750000,
  GuestAccess1797800000000,
  SmsOutboxAndPhoneCodes1797810000000,
  SocialSignIn1797820000000,
  AccessRecords1797830000000,
  PortalGatewayHosts1797850000000,
  NameWordPages1797850001000,
];
