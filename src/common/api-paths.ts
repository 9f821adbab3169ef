/**
 * The version prefix is part of each controller's path rather than a global prefix, so Nest's
 * not-found and error handling cover every path, /healthz and unknown ones included.
 */
export const API_V1 = 'api/v1';

/** Where an unauth job can be read: `/${UNAUTH_JOBS_PATH}/<id>`. */
export const UNAUTH_JOBS_PATH = `${API_V1}/unauth-jobs`;

/** The v1 resources read by an id in the path (`/${path}/<id>…`), each with its own not-found message. */
export const USERS_PATH = `${API_V1}/hotspot-users`;
export const PLANS_PATH = `${API_V1}/plans`;
export const BATCHES_PATH = `${API_V1}/hotspot-user-batches`;
