import type { Response } from 'supertest';
import type {
  DeleteResponseDto,
  ExpireResponseDto,
  HotspotUserListResponseDto,
  HotspotUserMessageResponseDto,
  HotspotUserResponseDto,
} from '../../src/hotspot-users/dto/hotspot-user.response.js';
import type { MessageResponseDto } from '../../src/common/swagger/error-response.dto.js';
import type { TestApp } from './test-app.js';

export const API_PATH = '/api/v1';
export const USERS_PATH = `${API_PATH}/hotspot-users`;

/** What an error answer carries besides `success: false`; typed so tests may read it from any call. */
export interface ErrorFields {
  message?: string;
  errors?: Array<{ field: string; message: string }>;
}

/** supertest's response, its body typed with the success shape of the call. */
export type ApiResponse<T> = Omit<Response, 'body'> & { body: T & ErrorFields };

/**
 * The supertest request itself, so tests chain `.expect(status)` and `.set(header, value)` as
 * usual; awaiting it gives an ApiResponse.
 */
export interface ApiCall<T> extends Promise<ApiResponse<T>> {
  expect(status: number, body?: unknown): ApiCall<T>;
  expect(field: string, value: string | RegExp): ApiCall<T>;
  set(field: string, value: string): ApiCall<T>;
}

export interface CallOptions {
  /** Sent as `Authorization: Bearer <token>`; the test app's admin token when not given, no header when null. */
  token?: string | null;
}

export interface UserCallOptions extends CallOptions {
  /** `?venueId=` (get, update, remove) or the `venueId` of the body (expire). */
  venueId?: string;
  /** More query parameters, sent as given (e.g. an unknown one, to see it refused). */
  query?: Record<string, string>;
}

export interface ExpireOptions extends UserCallOptions {
  /** The body as sent, instead of `{venueId}`; without both, the request has no body at all. */
  body?: object | string;
}

/** The list filters; a string is sent verbatim as the query (e.g. a repeated parameter). */
export type ListQuery = Record<string, string | number> | string;

type Method = 'get' | 'post' | 'put' | 'delete';

function withQuery(path: string, query: Record<string, string | number | undefined>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined) params.append(name, String(value));
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

/**
 * A client of the v1 API on a test app. Ids go into the path as given, not encoded, so tests can
 * send malformed ones (`%ZZ`, `..%2F`).
 */
export function api(testApp: TestApp) {
  function call<T>(method: Method, path: string, options: CallOptions, body?: object | string): ApiCall<T> {
    let request = testApp.http[method](path);
    const token = options.token === undefined ? testApp.adminToken : options.token;
    if (token !== null) request = request.set('Authorization', `Bearer ${token}`);
    if (body !== undefined) request = request.send(body);
    return request;
  }

  const userPath = (id: string, options: UserCallOptions) =>
    withQuery(`${USERS_PATH}/${id}`, { venueId: options.venueId, ...options.query });

  return {
    users: {
      create: (body: object, options: CallOptions = {}) =>
        call<HotspotUserMessageResponseDto>('post', USERS_PATH, options, body),
      get: (id: string, options: UserCallOptions = {}) =>
        call<HotspotUserResponseDto>('get', userPath(id, options), options),
      list: (query: ListQuery = {}, options: CallOptions = {}) =>
        call<HotspotUserListResponseDto>(
          'get',
          typeof query === 'string' ? `${USERS_PATH}${query === '' ? '' : `?${query}`}` : withQuery(USERS_PATH, query),
          options,
        ),
      update: (id: string, body: object, options: UserCallOptions = {}) =>
        call<HotspotUserMessageResponseDto>('put', userPath(id, options), options, body),
      expire: (id: string, options: ExpireOptions = {}) =>
        call<ExpireResponseDto>(
          'post',
          withQuery(`${USERS_PATH}/${id}/expire`, { ...options.query }),
          options,
          options.body ?? (options.venueId === undefined ? undefined : { venueId: options.venueId }),
        ),
      remove: (id: string, options: UserCallOptions = {}) =>
        call<DeleteResponseDto>('delete', userPath(id, options), options),
    },
    status: (options: CallOptions = {}) => call<MessageResponseDto>('get', API_PATH, options),
  };
}

export type ApiClient = ReturnType<typeof api>;
