/** The pure rules of service plans. */

export const PLAN_NAME_MAX_LENGTH = 100;
