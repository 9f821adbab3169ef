import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { PaginationDto } from '../../hotspot-users/dto/hotspot-user.response.js';
import { USER_STATUSES, type UserStatus } from '../../hotspot-users/entities/hotspot-user.entity.js';

const NULLABLE = { nullable: true } as const;
const DATE_TIME = { type: String, format: 'date-time' } as const;

export class BatchCreatorDto {
  @ApiProperty({ enum: ['token', 'operator', 'cli', 'system'] })
  type!: string;

  @ApiProperty({
    type: String,
    ...NULLABLE,
    description: "The token's name or the operator's email; null for the command line",
  })
  name!: string | null;
}

/** A batch as the API shows it: never a password. */
export class BatchDto {
  @ApiProperty({ example: '019a9c4e-8f3a-7c21-b6d0-2f5e8a1c3b48' })
  id!: string;

  @ApiProperty({ example: 'istanbul-lobby' })
  venueId!: string;

  @ApiProperty({ type: String, ...NULLABLE, example: 'Conference 12 March' })
  label!: string | null;

  @ApiProperty({ example: 'guest-' })
  prefix!: string;

  @ApiProperty({ type: 'integer', minimum: 1, maximum: 1000, example: 50 })
  count!: number;

  @ApiProperty({ type: 'integer', minimum: 8, maximum: 12, example: 10 })
  passwordLength!: number;

  @ApiProperty({ ...DATE_TIME, ...NULLABLE, description: "Every account's expiresAt" })
  expiresAt!: string | null;

  @ApiProperty({ type: 'integer', ...NULLABLE, description: "Seconds of validity from each account's first login" })
  validFor!: number | null;

  @ApiProperty({
    type: String,
    ...NULLABLE,
    example: null,
    description: 'The service plan every account is on (GET /api/v1/plans/{id}); null: none',
  })
  planId!: string | null;

  @ApiProperty({ type: BatchCreatorDto })
  createdBy!: BatchCreatorDto;

  @ApiProperty(DATE_TIME)
  createdAt!: string;

  @ApiProperty({ ...DATE_TIME, ...NULLABLE, description: 'The first print, export or reveal of the passwords' })
  firstRevealedAt!: string | null;

  @ApiProperty({
    enum: ['available', 'gone'],
    description:
      'available: the passwords can be revealed (write permission); gone: only a password reset shows a new one',
  })
  passwords!: 'available' | 'gone';

  @ApiProperty({
    ...DATE_TIME,
    ...NULLABLE,
    description: 'Until when the passwords can be revealed: firstRevealedAt + 24 h; null before the first reveal',
  })
  passwordsShownUntil!: string | null;
}

export class BatchAccountDto {
  @ApiProperty({ description: 'The user id (GET /api/v1/hotspot-users/{id})' })
  _id!: string;

  @ApiProperty({ type: String, ...NULLABLE })
  username!: string | null;

  @ApiProperty({ enum: USER_STATUSES })
  status!: UserStatus;

  @ApiProperty({ ...DATE_TIME, ...NULLABLE })
  expiresAt!: string | null;
}

export class BatchDetailDto extends BatchDto {
  @ApiProperty({ type: [BatchAccountDto], description: 'The accounts that still exist, by username; no password' })
  accounts!: BatchAccountDto[];
}

export class BatchCardDto extends BatchAccountDto {
  @ApiProperty({ example: 'k7Rm2xPq9A', description: 'From an alphabet without look-alikes (no 0/O/o, 1/l/I/i)' })
  password!: string;
}

export class BatchCardsDto {
  @ApiProperty({ type: BatchDto })
  batch!: BatchDto;

  @ApiProperty({ type: [BatchCardDto], description: 'By username; accounts deleted since are left out' })
  cards!: BatchCardDto[];
}

export class BatchResponseDto {
  @ApiProperty({ enum: [true] })
  success!: true;

  @ApiProperty({ type: BatchDetailDto })
  data!: BatchDetailDto;
}

export class BatchCardsResponseDto {
  @ApiProperty({ enum: [true] })
  success!: true;

  @ApiProperty({ type: BatchCardsDto })
  data!: BatchCardsDto;
}

export class BatchListResponseDto {
  @ApiProperty({ enum: [true] })
  success!: true;

  @ApiProperty({ type: [BatchDto] })
  data!: BatchDto[];

  @ApiPropertyOptional({ type: PaginationDto })
  pagination!: PaginationDto;
}
