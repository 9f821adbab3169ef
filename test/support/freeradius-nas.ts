import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freeUdpPorts, runFreeRadius, type RunningFreeRadius } from './freeradius.js';

/**
 * FreeRADIUS playing a NAS's RFC 5176 listener for e2e tests: `listen { type = coa }` on a free port
 * of 127.0.0.1, one client (127.0.0.1) whose secret it checks, Message-Authenticator required. Its
 * `recv-coa` section (Disconnect-Requests go there too) ACKs the Acct-Session-Ids it knows and NAKs
 * any other with Error-Cause 503 (Session-Context-Not-Found). FreeRADIUS verifies the Request
 * Authenticator and the MA itself and signs its answers: an independent implementation of RFC 5176.
 */
export interface FreeRadiusNas extends RunningFreeRadius {
  coaPort: number;
  close(): Promise<void>;
}

export async function startFreeRadiusNas(secret: string, knownSessionIds: readonly string[]): Promise<FreeRadiusNas> {
  const root = mkdtempSync(join(tmpdir(), 'hotspot-freeradius-nas-'));
  const dir = join(root, 'raddb');
  for (const folder of ['', 'log', 'run']) mkdirSync(join(dir, folder), { recursive: true, mode: 0o700 });
  const [coaPort] = await freeUdpPorts(1);
  const known = knownSessionIds.map((id) => `(&Acct-Session-Id == "${id}")`).join(' || ') || 'false';
  writeFileSync(join(dir, 'dictionary'), '');
  writeFileSync(
    join(dir, 'radiusd.conf'),
    `prefix = /usr
exec_prefix = /usr
sysconfdir = /etc
localstatedir = /var
sbindir = /usr/sbin
libdir = /usr/lib/freeradius
confdir = ${dir}
raddbdir = ${dir}
logdir = ${dir}/log
run_dir = ${dir}/run
radacctdir = ${dir}/log
pidfile = ${dir}/run/radiusd.pid
name = freeradius
hostname_lookups = no
proxy_requests = no
max_request_time = 30
cleanup_delay = 5
max_requests = 1024
log {
	destination = stdout
	colourise = no
}
security {
	allow_core_dumps = no
	max_attributes = 200
	reject_delay = 0
	status_server = no
}
modules {
	always ok {
		rcode = ok
	}
	always reject {
		rcode = reject
	}
}
client nas-under-test {
	ipaddr = 127.0.0.1
	secret = "${secret}"
	require_message_authenticator = yes
}
server nas {
	listen {
		type = coa
		ipaddr = 127.0.0.1
		port = ${coaPort}
	}
	recv-coa {
		if (${known}) {
			ok
		}
		else {
			update reply {
				Error-Cause := Session-Context-Not-Found
			}
			reject
		}
	}
	send-coa {
		ok
	}
}
`,
  );
  const server = await runFreeRadius(dir, { authPort: coaPort, acctPort: coaPort });
  return {
    ...server,
    coaPort,
    async close() {
      await server.stop();
      rmSync(root, { recursive: true, force: true });
    },
  };
}
