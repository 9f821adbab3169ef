import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { IsBoolean, IsDefined, IsIn, IsString, Length, ValidateIf } from 'class-validator';
import { IsOptionalNotNull, IsRefusedWhen } from '../../common/validation/validators.js';
import type { PasswordResetInput } from '../password-reset.rules.js';
import { HotspotUserDto } from './hotspot-user.response.js';

/** The body of POST /hotspot-users/:id/password: exactly one of password and generate. */
export class ResetPasswordDto {
  @ApiPropertyOptional({
    example: 'sunrise42',
    minLength: 4,
    maxLength: 128,
    writeOnly: true,
    description: 'The new password, as on create; stored only as an argon2id hash. Not with `generate`',
  })
  @ValidateIf((dto: ResetPasswordDto) => dto.generate === undefined || dto.password !== undefined)
  @IsDefined({ message: 'password or generate is required' })
  @IsRefusedWhen((dto: ResetPasswordDto) => dto.generate !== undefined, 'password cannot be sent with generate')
  @IsString()
  @Length(4, 128)
  password?: string;

  @ApiPropertyOptional({
    type: Boolean,
    enum: [true],
    description:
      'The service generates the password (10 characters without look-alikes, e.g. `k7mxq-p3hta`) and answers it ' +
      'once, in `password`. Not with `password`',
  })
  @IsOptionalNotNull()
  @IsIn([true], { message: 'generate must be true' })
  generate?: true;

  @ApiPropertyOptional({
    type: Boolean,
    default: false,
    description:
      "true: the user's running sessions end now, as a block ends them (unauth job of reason password-reset, " +
      'named in the Link header); false or absent: they run on, the new password counts from the next login',
  })
  @IsOptionalNotNull()
  @IsBoolean({ message: 'endSessions must be true or false' })
  endSessions?: boolean;
}

export function toPasswordResetInput(dto: ResetPasswordDto): PasswordResetInput {
  return {
    newPassword: dto.generate === true ? { kind: 'generated' } : { kind: 'typed', password: dto.password! },
    endSessions: dto.endSessions === true,
  };
}

export class PasswordResetResponseDto {
  @ApiProperty({ enum: [true] })
  success!: true;

  @ApiProperty({ example: 'Kullanıcının şifresi başarıyla değiştirildi' })
  message!: string;

  @ApiProperty({ type: HotspotUserDto, description: 'The user as GET answers it (the password is never part of it)' })
  data!: HotspotUserDto;

  @ApiPropertyOptional({
    example: 'k7mxq-p3hta',
    description:
      'Only with `generate`, and only in this answer: the generated password. Never stored in clear, never in ' +
      'a later answer, a replay under the same Idempotency-Key, a log or the audit trail',
  })
  password?: string;
}
