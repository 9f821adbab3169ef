import 'reflect-metadata';
import type { ValidationError } from '@nestjs/common';
import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, MinLength, ValidateNested } from 'class-validator';
import { ApiError, type ErrorBody } from '../errors/api-error.js';
import { IsMetadata } from '../validation/validators.js';
import { NoQueryDto } from '../validation/no-query.dto.js';
import { createValidationPipe, inheritedMemberKeys, toFieldErrors } from './validation.pipe.js';

function error(
  property: string,
  constraints?: Record<string, string>,
  children: ValidationError[] = [],
): ValidationError {
  return { property, constraints, children };
}

describe('toFieldErrors', () => {
  it('gives one entry per failing field, in order', () => {
    expect(
      toFieldErrors([
        error('name', { isString: 'name must be a string' }),
        error('loginMethod', { isIn: 'loginMethod must be one of the following values: guest' }),
      ]),
    ).toEqual([
      { field: 'name', message: 'name must be a string' },
      { field: 'loginMethod', message: 'loginMethod must be one of the following values: guest' },
    ]);
  });

  it('reports a field breaking several rules once, with one of its messages', () => {
    const result = toFieldErrors([
      error('name', {
        isString: 'name must be a string',
        minLength: 'name must be longer than or equal to 1 characters',
      }),
    ]);
    expect(result).toHaveLength(1);
    expect(result[0].field).toBe('name');
    expect(['name must be a string', 'name must be longer than or equal to 1 characters']).toContain(result[0].message);
  });

  it('names nested fields with dotted paths, array positions included', () => {
    expect(
      toFieldErrors([
        error('address', undefined, [error('city', { isString: 'city must be a string' })]),
        error('devices', undefined, [
          error('1', undefined, [error('macAddress', { isMacAddress: 'macAddress must be a MAC address' })]),
        ]),
      ]),
    ).toEqual([
      { field: 'address.city', message: 'city must be a string' },
      { field: 'devices.1.macAddress', message: 'macAddress must be a MAC address' },
    ]);
  });

  it('says an unknown field is not allowed, whatever else it breaks', () => {
    expect(
      toFieldErrors([
        error('_id', { whitelistValidation: 'property _id should not exist' }),
        error('address', undefined, [error('zip', { whitelistValidation: 'property zip should not exist' })]),
      ]),
    ).toEqual([
      { field: '_id', message: '_id is not an allowed field' },
      { field: 'address.zip', message: 'address.zip is not an allowed field' },
    ]);
  });

  it('reports a field with its own constraint and failing children both', () => {
    expect(
      toFieldErrors([
        error('address', { isObject: 'address must be an object' }, [
          error('city', { isString: 'city must be a string' }),
        ]),
      ]),
    ).toEqual([
      { field: 'address', message: 'address must be an object' },
      { field: 'address.city', message: 'city must be a string' },
    ]);
  });

  it('is empty when nothing failed', () => {
    expect(toFieldErrors([])).toEqual([]);
    expect(toFieldErrors([error('address', undefined, [])])).toEqual([]);
  });
});

class AddressDto {
  @IsString()
  city!: string;
}

class ExampleDto {
  @IsString()
  @MinLength(1)
  name!: string;

  @IsOptional()
  @IsInt()
  count?: number;

  @IsOptional()
  @ValidateNested()
  @Type(() => AddressDto)
  address?: AddressDto;
}

describe('createValidationPipe', () => {
  const pipe = createValidationPipe();
  const metadata = { type: 'body' as const, metatype: ExampleDto };

  async function refusal(value: unknown): Promise<{ status: number; body: ErrorBody }> {
    try {
      await pipe.transform(value, metadata);
    } catch (thrown) {
      expect(thrown).toBeInstanceOf(ApiError);
      return { status: (thrown as ApiError).getStatus(), body: (thrown as ApiError).body };
    }
    throw new Error('the pipe accepted the value');
  }

  it('returns an instance of the DTO for a valid body', async () => {
    const result = await pipe.transform({ name: 'Ada', count: 2, address: { city: 'Izmir' } }, metadata);
    expect(result).toBeInstanceOf(ExampleDto);
    expect(result.address).toBeInstanceOf(AddressDto);
    expect(result).toEqual({ name: 'Ada', count: 2, address: { city: 'Izmir' } });
  });

  it('refuses unknown fields with one entry each, rather than stripping them', async () => {
    const { status, body } = await refusal({ name: 'Ada', _id: 'x', createdAt: 'y' });
    expect(status).toBe(400);
    expect(body.message).toBe('Validation error');
    expect(body.errors).toEqual([
      { field: '_id', message: '_id is not an allowed field' },
      { field: 'createdAt', message: 'createdAt is not an allowed field' },
    ]);
  });

  it('names a missing required field', async () => {
    const { body } = await refusal({});
    expect(body.errors).toEqual([{ field: 'name', message: expect.stringContaining('name') }]);
  });

  it('does not convert types implicitly: a numeric string is not an integer', async () => {
    const { body } = await refusal({ name: 'Ada', count: '5' });
    expect(body.errors).toEqual([{ field: 'count', message: expect.stringContaining('count') }]);
  });

  it('names nested failures and nested unknown fields by their path', async () => {
    const { body } = await refusal({ name: 'Ada', address: { city: 5, zip: '35000' } });
    expect(body.errors).toEqual(
      expect.arrayContaining([
        { field: 'address.city', message: expect.any(String) },
        { field: 'address.zip', message: 'address.zip is not an allowed field' },
      ]),
    );
    expect(body.errors).toHaveLength(2);
  });

  it('never echoes the submitted value or a target object', async () => {
    const { body } = await refusal({ name: 'Ada', count: 'secret-value-123' });
    expect(JSON.stringify(body)).not.toContain('secret-value-123');
  });

  it.each(['toString', 'hasOwnProperty', 'valueOf', '__defineGetter__', 'constructor'])(
    'refuses a field named %s, which class-transformer would skip without a word',
    async (key) => {
      const { body } = await refusal(JSON.parse(`{"name": "Ada", "${key}": 1}`));
      expect(body.errors).toEqual([{ field: key, message: `${key} is not an allowed field` }]);
    },
  );

  it('refuses an own __proto__ key, as JSON.parse makes one', async () => {
    const { body } = await refusal(JSON.parse('{"name": "Ada", "__proto__": {"count": 1}}'));
    expect(body.errors).toEqual([{ field: '__proto__', message: '__proto__ is not an allowed field' }]);
  });

  it('names such a field after the failures of the fields the DTO has', async () => {
    const { body } = await refusal({ count: 'x', toString: 1 });
    expect(body.errors).toEqual([
      { field: 'name', message: expect.stringContaining('name') },
      { field: 'count', message: expect.stringContaining('count') },
      { field: 'toString', message: 'toString is not an allowed field' },
    ]);
  });
});

describe('inheritedMemberKeys', () => {
  class WithMethod {
    name?: string;
    describe(): string {
      return 'x';
    }
  }

  it("finds the keys that name an object's inherited members or the DTO's methods, and only those", () => {
    const value = JSON.parse('{"name": 1, "describe": 2, "isPrototypeOf": 3, "__proto__": 4, "plain": 5}') as object;
    expect(inheritedMemberKeys(value, WithMethod)).toEqual(['describe', 'isPrototypeOf', '__proto__']);
  });
});

describe('createValidationPipe on a query without parameters (NoQueryDto)', () => {
  const pipe = createValidationPipe();
  const metadata = { type: 'query' as const, metatype: NoQueryDto };

  it('accepts none', async () => {
    await expect(pipe.transform({}, metadata)).resolves.toBeInstanceOf(NoQueryDto);
  });

  it('refuses each parameter by name, inherited member names included', async () => {
    const query = Object.assign(Object.create(null) as object, { foo: '1', toString: '2' });
    await expect(pipe.transform(query, metadata)).rejects.toMatchObject({
      body: {
        message: 'Validation error',
        errors: [
          { field: 'foo', message: 'foo is not an allowed field' },
          { field: 'toString', message: 'toString is not an allowed field' },
        ],
      },
    });
  });
});

class WithMetadataDto {
  @IsMetadata()
  metadata!: Record<string, unknown>;
}

describe('createValidationPipe on metadata', () => {
  const pipe = createValidationPipe();
  const metadata = { type: 'body' as const, metatype: WithMetadataDto };

  it('keeps keys named like inherited members, at every level', async () => {
    const sent = { metadata: { toString: 1, valueOf: { hasOwnProperty: [2, { isPrototypeOf: 'x' }] }, room: '1204' } };
    const result = (await pipe.transform(JSON.parse(JSON.stringify(sent)), metadata)) as WithMetadataDto;
    expect(result.metadata).toEqual(sent.metadata);
  });
});
