import type { Response } from 'express';
import { securityHeaders } from '../common/middleware/security-headers.js';

/**
 * The headers of the server-rendered pages (the console under /admin, the portal under /portal, whose
 * venues' logos come from their own https hosts: `imageSources`), in place of the service's general ones: a
 * Content-Security-Policy without any inline script or style (the pages have none), no framing, and
 * no caching (pages show personal data; the static files set their own Cache-Control afterwards).
 */
export function pageSecurityHeaders(options: { imageSources?: string[] } = {}): (res: Response) => void {
  const helmetHeaders = securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        'default-src': ["'self'"],
        'script-src': ["'self'"],
        'style-src': ["'self'"],
        'img-src': ["'self'", 'data:', ...(options.imageSources ?? [])],
        'frame-ancestors': ["'none'"],
        'form-action': ["'self'"],
        'base-uri': ["'none'"],
        'object-src': ["'none'"],
      },
    },
  });
  return (res) => {
    helmetHeaders(res);
    res.setHeader('Cache-Control', 'no-store');
  };
}
