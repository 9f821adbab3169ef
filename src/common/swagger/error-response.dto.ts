import { applyDecorators } from '@nestjs/common';
import { ApiProperty, ApiPropertyOptional, ApiResponse } from '@nestjs/swagger';

export class FieldErrorDto {
  @ApiProperty({ example: 'venueIds.0' })
  field!: string;

  @ApiProperty({ example: 'each value in venueIds must be a string' })
  message!: string;
}

/** The v1 API's ErrorResponse, declared once and referenced by every operation. */
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

/** Statuses any /api/v1 operation may answer, and those of operations that take a JSON body. */
export function ApiStandardErrors(options: { body: boolean }): MethodDecorator & ClassDecorator {
  const decorators = [
    ApiResponse({
      status: 500,
      description: 'Internal server error (nothing internal in the body)',
      type: ErrorResponseDto,
    }),
    ApiResponse({
      status: 503,
      description: 'Service Unavailable: the database cannot be reached or stayed contended; repeat after Retry-After',
      type: ErrorResponseDto,
      headers: {
        'Retry-After': { description: 'Seconds to wait before repeating the request', schema: { type: 'integer' } },
      },
    }),
  ];
  if (options.body) {
    decorators.push(
      ApiResponse({ status: 413, description: 'Payload Too Large: the body exceeds 100 KiB', type: ErrorResponseDto }),
      ApiResponse({
        status: 415,
        description: 'Unsupported Media Type: the body is not application/json',
        type: ErrorResponseDto,
      }),
    );
  }
  return applyDecorators(...decorators);
}
