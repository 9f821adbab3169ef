/** The Error-Cause values of RFC 5176 §3.5 (and RFC 8559's 508), by number, as the RFCs name them. */
const ERROR_CAUSE_NAMES: Readonly<Record<number, string>> = {
  201: 'Residual-Session-Context-Removed',
  202: 'Invalid-EAP-Packet',
  401: 'Unsupported-Attribute',
  402: 'Missing-Attribute',
  403: 'NAS-Identification-Mismatch',
  404: 'Invalid-Request',
  405: 'Unsupported-Service',
  406: 'Unsupported-Extension',
  407: 'Invalid-Attribute-Value',
  501: 'Administratively-Prohibited',
  502: 'Request-Not-Routable',
  503: 'Session-Context-Not-Found',
  504: 'Session-Context-Not-Removable',
  505: 'Other-Proxy-Processing-Error',
  506: 'Resources-Unavailable',
  507: 'Request-Initiated',
  508: 'Multiple-Session-Selection-Unsupported',
};

/** The name of an Error-Cause value; null for a value no RFC names (a NAS's own). */
export function errorCauseName(code: number): string | null {
  return ERROR_CAUSE_NAMES[code] ?? null;
}
