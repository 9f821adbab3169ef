import { spawn, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Test certificates for EAP-TTLS (made with openssl) and eapol_test, a real EAP client for one login
 * straight to FreeRADIUS (no NAS in between).
 */

/** The name in the server certificate; devices are set to check it (domain_suffix_match). */
export const EAP_SERVER_NAME = 'radius.hotspot.test';
const EAPOL_TEST_TIMEOUT_S = 15;

export interface TestCertificates {
  caPath: string;
  certificatePath: string;
  privateKeyPath: string;
}

function openssl(args: string[], cwd: string): void {
  const run = spawnSync('openssl', args, { cwd, encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`openssl ${args[0]} failed: ${run.stderr}`);
}

/** A CA and a server certificate for EAP_SERVER_NAME it issued, valid for a day, in `dir`. */
export function makeTestCertificates(dir: string): TestCertificates {
  openssl(
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'ca.key',
      '-out',
      'ca.pem',
      '-days',
      '1',
      '-subj',
      '/CN=Hotspot test CA',
    ],
    dir,
  );
  openssl(
    [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      'server.key',
      '-out',
      'server.csr',
      '-subj',
      `/CN=${EAP_SERVER_NAME}`,
    ],
    dir,
  );
  writeFileSync(join(dir, 'server.ext'), `subjectAltName=DNS:${EAP_SERVER_NAME}\nextendedKeyUsage=serverAuth\n`);
  openssl(
    [
      'x509',
      '-req',
      '-in',
      'server.csr',
      '-CA',
      'ca.pem',
      '-CAkey',
      'ca.key',
      '-CAcreateserial',
      '-out',
      'server.pem',
      '-days',
      '1',
      '-extfile',
      'server.ext',
    ],
    dir,
  );
  return {
    caPath: join(dir, 'ca.pem'),
    certificatePath: join(dir, 'server.pem'),
    privateKeyPath: join(dir, 'server.key'),
  };
}

export function eapolTestInstalled(): boolean {
  return spawnSync('eapol_test', ['-v'], { stdio: 'ignore' }).error === undefined;
}

/** A wpa_supplicant network block for EAP-TTLS/PAP that checks the server certificate and its name. */
export function ttlsNetwork(options: {
  identity: string;
  password: string;
  caPath: string;
  anonymousIdentity?: string;
  extra?: string[];
}): string {
  const lines = [
    'key_mgmt=IEEE8021X',
    'eap=TTLS',
    `identity=${JSON.stringify(options.identity)}`,
    `password=${JSON.stringify(options.password)}`,
    'phase2="auth=PAP"',
    `ca_cert=${JSON.stringify(options.caPath)}`,
    `domain_suffix_match=${JSON.stringify(EAP_SERVER_NAME)}`,
    ...(options.anonymousIdentity === undefined
      ? []
      : [`anonymous_identity=${JSON.stringify(options.anonymousIdentity)}`]),
    ...(options.extra ?? []),
  ];
  return `network={\n${lines.map((line) => `\t${line}`).join('\n')}\n}\n`;
}

export interface EapolTestResult {
  success: boolean;
  /** The attributes of the last Access-Accept (or Reject) as eapol_test printed them: id → values. */
  attributes: Map<number, string[]>;
  output: string;
}

/** One EAP-TTLS/PAP login with eapol_test against FreeRADIUS on 127.0.0.1:port. */
export function eapolTest(options: {
  port: number;
  secret: string;
  network: string;
  dir: string;
  macAddress?: string;
  /** How long eapol_test tries in all (seconds). */
  timeoutSeconds?: number;
}): Promise<EapolTestResult> {
  const timeoutSeconds = options.timeoutSeconds ?? EAPOL_TEST_TIMEOUT_S;
  const config = join(options.dir, `eapol-${process.hrtime.bigint()}.conf`);
  writeFileSync(config, options.network, { mode: 0o600 });
  const args = [
    '-c',
    config,
    '-a',
    '127.0.0.1',
    '-p',
    String(options.port),
    '-s',
    options.secret,
    '-t',
    String(timeoutSeconds),
    '-n',
  ];
  if (options.macAddress) args.push('-M', options.macAddress);
  return new Promise((done, fail) => {
    const child = spawn('eapol_test', args, { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (output += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), (timeoutSeconds + 5) * 1000);
    child.once('error', fail);
    child.once('close', () => {
      clearTimeout(timer);
      done({ success: /^SUCCESS$/m.test(output), attributes: lastReplyAttributes(output), output });
    });
  });
}

/** eapol_test prints each RADIUS message as "Attribute N (Name) length=L" then "Value: …" lines. */
function lastReplyAttributes(output: string): Map<number, string[]> {
  const at = output.lastIndexOf('RADIUS message: code=');
  const attributes = new Map<number, string[]>();
  if (at === -1) return attributes;
  let current: number | null = null;
  for (const line of output.slice(at).split('\n').slice(1)) {
    const attribute = /^\s+Attribute (\d+) /.exec(line);
    const value = /^\s+Value: (.*)$/.exec(line);
    if (attribute) current = Number(attribute[1]);
    else if (value && current !== null) attributes.set(current, [...(attributes.get(current) ?? []), value[1]]);
    else if (!/^\s/.test(line)) break;
  }
  return attributes;
}
