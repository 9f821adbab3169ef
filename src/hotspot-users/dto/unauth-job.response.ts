import { ApiProperty } from '@nestjs/swagger';
import { DELIVERY_STATUSES, type DeliveryStatus } from '../../unauth-jobs/delivery.js';
import {
  UNAUTH_JOB_STATUSES,
  UNAUTH_REASONS,
  type UnauthJobStatus,
  type UnauthReason,
} from '../../unauth-jobs/entities/unauth-job.entity.js';
import {
  NOT_SENT_REASONS,
  SESSION_OUTCOMES,
  SESSION_STATES,
  type NotSentReason,
  type SessionOutcomeKind,
  type SessionState,
} from '../../unauth-jobs/job-report.js';
import { DATE_TIME_OUTPUT, MAC_OUTPUT, NULLABLE, VENUE_ID_SCHEMA } from './field-schemas.js';
import { PaginationDto } from './hotspot-user.response.js';

/** The RFC 5176 Error-Cause a NAS sent. */
export interface ErrorCauseDto {
  code: number;
  /** As RFC 5176 names it; null for a value no RFC names. */
  name: string | null;
}

/** What a done job did not send to a NAS. */
export interface NotSentDto {
  reason: NotSentReason;
  sessions: number;
}

/** One session the job is about, and what the NAS made of the job's request for it. */
export class UnauthJobSessionDto {
  @ApiProperty({ example: '019a9c4e-9b10-7d42-a1c3-5e6f7a8b9c0d', description: 'The session (as in /sessions)' })
  id!: string;

  @ApiProperty({ ...VENUE_ID_SCHEMA, example: 'istanbul-lobby' })
  venueId!: string;

  @ApiProperty({ ...MAC_OUTPUT, ...NULLABLE })
  macAddress!: string | null;

  @ApiProperty({ type: String, nullable: true, example: '10.5.50.23' })
  ipAddress!: string | null;

  @ApiProperty({ type: String, nullable: true, example: 'lobby-gw', description: 'The NAS the request goes to' })
  nas!: string | null;

  @ApiProperty({
    enum: SESSION_OUTCOMES,
    example: 'ack',
    description:
      '`waiting`: not tried yet; `ack`: the NAS confirmed (Disconnect-ACK, or CoA-ACK for a `coa` job); `nak`: the ' +
      'NAS refused, see errorCause (503, no such session, counts as done); `no-answer`: the NAS did not answer or ' +
      'could not be reached; `not-sent`: nothing was sent (no NAS known for the session, a NAS without RFC 5176 ' +
      'listener, or nothing to identify the session with); `stopped-by-nas`: the NAS reported the session over ' +
      'first, so nothing was sent',
  })
  outcome!: SessionOutcomeKind;

  @ApiProperty({
    enum: SESSION_STATES,
    example: 'done',
    description: '`pending`: sent (again) with the next attempt; `done` and `failed` are final',
  })
  state!: SessionState;

  // Inline: beside a $ref, OpenAPI 3.0 ignores `nullable`, and with allOf the null fails the $ref.
  @ApiProperty({
    type: 'object',
    nullable: true,
    required: ['code', 'name'],
    properties: {
      code: { type: 'integer', example: 404 },
      name: {
        type: 'string',
        nullable: true,
        example: 'Invalid-Request',
        description: 'As RFC 5176 names it; null for a value no RFC names',
      },
    },
    description: 'The Error-Cause the NAS sent, if any',
  })
  errorCause!: ErrorCauseDto | null;

  @ApiProperty({
    type: String,
    nullable: true,
    example: null,
    description: 'Why it was not sent, failed or is tried again, in words',
  })
  detail!: string | null;

  @ApiProperty({ type: 'integer', minimum: 0, example: 1, description: 'Attempts of the job that included it' })
  attempts!: number;

  @ApiProperty({ ...DATE_TIME_OUTPUT, ...NULLABLE, description: 'When the outcome came; null while waiting' })
  at!: string | null;
}

/** How one configured way of delivering jobs (radius, webhook, log) stands. */
export class UnauthJobDeliveryDto {
  @ApiProperty({ example: 'radius' })
  dispatcher!: string;

  @ApiProperty({ enum: DELIVERY_STATUSES, example: 'done', description: '`skipped`: not for this kind of job' })
  status!: DeliveryStatus;

  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  attempts!: number;
}

export class UnauthJobDto {
  @ApiProperty({ example: '019a9c4f-0c21-7b10-9d3e-2a4b6c8d0e1f' })
  id!: string;

  @ApiProperty({
    example: '019a9c4e-1a2b-7c3d-8e4f-5a6b7c8d9e0f',
    description: 'The user (which may since be deleted)',
  })
  userId!: string;

  @ApiProperty({ type: String, nullable: true, example: 'room-1204', description: "The user's username then" })
  username!: string | null;

  @ApiProperty({
    enum: UNAUTH_REASONS,
    example: 'blocked',
    description:
      '`coa`: not a disconnect but a changed expiresAt, sent as a CoA-Request with the new Session-Timeout; ' +
      '`venue-removed`: venues taken from the user; `enforcement`: the NAS reported a session the user may not have; ' +
      '`operator`: an operator disconnected one session in the console; ' +
      '`password-reset`: a password reset with endSessions',
  })
  reason!: UnauthReason;

  @ApiProperty({ enum: UNAUTH_JOB_STATUSES, example: 'done' })
  status!: UnauthJobStatus;

  // Inline, as errorCause: beside a $ref, OpenAPI 3.0 ignores `nullable`.
  @ApiProperty({
    type: 'object',
    nullable: true,
    required: ['reason', 'sessions'],
    properties: {
      reason: {
        type: 'string',
        enum: [...NOT_SENT_REASONS],
        example: 'no-radius-dispatcher',
        description:
          '`no-radius-dispatcher`: the service sends no Disconnect-Request (UNAUTH_DISPATCHER without radius, and ' +
          'no webhook took the job); `no-nas`: no registered NAS reported the session, or its NAS is no longer ' +
          'registered; `no-coa-port`: its NAS has no RFC 5176 listener (CoA port 0); `refuses-coa`: its NAS takes ' +
          "no CoA-Requests; `other`: see each session's detail; `several`: sessions not sent for different reasons",
      },
      sessions: { type: 'integer', minimum: 1, example: 1, description: 'How many of its sessions were not sent' },
    },
    example: null,
    description:
      'An addition to v1: set once the job is `done` when some of its sessions were never sent to their NAS ' +
      '(`status` stays `done`, as v1 defines it: every dispatcher is through with the job); why, and how many. ' +
      'Null while the job is open, when it failed, and when every session was sent or its NAS reported it over',
  })
  notSent!: NotSentDto | null;

  @ApiProperty({ ...DATE_TIME_OUTPUT, ...NULLABLE, example: null, description: 'For a `coa` job: the new expiresAt' })
  expiresAt!: string | null;

  @ApiProperty({ type: 'integer', minimum: 0, example: 1 })
  attempts!: number;

  @ApiProperty({
    ...DATE_TIME_OUTPUT,
    ...NULLABLE,
    example: null,
    description: 'When the next attempt is due; null once the job is done or failed',
  })
  nextAttemptAt!: string | null;

  @ApiProperty({ type: [UnauthJobSessionDto] })
  sessions!: UnauthJobSessionDto[];

  @ApiProperty({ type: [UnauthJobDeliveryDto], description: 'Empty before the first attempt' })
  deliveries!: UnauthJobDeliveryDto[];

  @ApiProperty(DATE_TIME_OUTPUT)
  createdAt!: string;

  @ApiProperty(DATE_TIME_OUTPUT)
  updatedAt!: string;
}

export class UnauthJobResponseDto {
  @ApiProperty({ enum: [true] })
  success!: true;

  @ApiProperty({ type: UnauthJobDto })
  data!: UnauthJobDto;
}

export class UnauthJobListResponseDto {
  @ApiProperty({ enum: [true] })
  success!: true;

  @ApiProperty({ type: [UnauthJobDto] })
  data!: UnauthJobDto[];

  @ApiProperty({ type: PaginationDto })
  pagination!: PaginationDto;
}
