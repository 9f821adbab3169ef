import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ example: 'venueIds.0' })
  field!: string;

  @ApiProperty({ example: 'each value in venueIds must be a string' })
  message!: string;
}

/** The spec's ErrorResponse, declared once and referenced by every operation. */
export class ErrorResponseDto {
  @ApiProperty({ enum: [false], example: false })
  success!: false;

  @ApiProperty({ example: 'Validation error' })
  message!: string;

  @ApiPropertyOptional({ type: [FieldErrorDto], description: 'Present for validation, conflict and scope errors' })
  errors?: FieldErrorDto[];
}

export class MessageResponseDto {
  @ApiProperty({ enum: [true], example: true })
  success!: true;

  @ApiProperty({ example: 'Server API aktif' })
  message!: string;
}
