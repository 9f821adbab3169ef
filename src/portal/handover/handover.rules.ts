/**
 * The Content-Security-Policy of the hand-over page: the portal's, without form-action, since the
 * form goes to the gateway and browsers apply form-action to the redirects after it too (the
 * gateway sends the guest on to where it was going).
 */
export const HANDOVER_CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "object-src 'none'",
].join('; ');
