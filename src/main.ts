import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import type { Server } from 'node:http';
import { createApp } from './app.setup.js';
import { BootstrapTokenService } from './auth/bootstrap-token.service.js';
import {
  describeDatabase,
  firstAdminBanner,
  generatedTokenBanner,
  missingTokenMessage,
} from './common/logging/startup-banner.js';
import {
  credentialsDelivery,
  credentialsFileMessage,
  firstStartCredentialsPath,
  writePrivateFile,
} from './common/logging/first-start-credentials.js';
import { connectionsOf } from './common/http-connections.js';
import { exitGracefullyOnSignals } from './common/shutdown.js';
import { serviceVersion, versionLine } from './common/service-version.js';
import { DOCS_PATH } from './common/swagger/openapi.js';
import { readProcessConfig } from './config/environment.js';
import { FirstAdminService } from './operators/first-admin.service.js';
import { UnauthJobWorker } from './unauth-jobs/unauth-job-worker.service.js';

async function main(): Promise<void> {
  const config = readProcessConfig();
  const app = await createApp(config);
  await app.listen(config.port, config.host);
  const logger = new Logger('Main');
  exitGracefullyOnSignals(
    async () => {
      // Stop accepting and let requests under way finish while the worker stops claiming and finishes
      // or hands back its jobs; then the database closes (Nest's shutdown hooks).
      const server: Server = app.getHttpServer();
      const connections = connectionsOf(server);
      const closed = new Promise((resolve) => server.close(resolve));
      // close() waits for every open connection: drop each as soon as no request is under way on it
      // (a keep-alive connection would otherwise stay open for keepAliveTimeout after its answer).
      connections?.closeIdle();
      const dropIdle = setInterval(() => connections?.closeIdle(), 100);
      await Promise.all([closed.finally(() => clearInterval(dropIdle)), app.get(UnauthJobWorker).stop()]);
      await app.close();
    },
    config.shutdownTimeoutMs,
    logger,
  );
  const shownHost =
    config.host === '0.0.0.0' ? 'localhost' : config.host.includes(':') ? `[${config.host}]` : config.host;
  const origin = `http://${shownHost}:${config.port}`;
  const database = describeDatabase(config.database);
  logger.log(
    `Hotspot API listening on ${origin}/api/v1 (version ${versionLine(serviceVersion())}, docs: /${DOCS_PATH}, database: ${database})`,
  );

  // Last, so that they are what a first start leaves on the screen.
  const outcome = app.get(BootstrapTokenService).takeOutcome();
  let credentials = '';
  if (outcome?.kind === 'generated') {
    credentials += generatedTokenBanner({
      token: outcome.token,
      apiUrl: `${origin}/api/v1`,
      docsUrl: `${origin}/${DOCS_PATH}`,
      database,
    });
  } else if (outcome?.kind === 'missing' && config.database.type !== 'sqlite') {
    logger.warn(missingTokenMessage(config.database));
  }
  const firstAdmin = app.get(FirstAdminService).takeFirstAdmin();
  if (firstAdmin !== null) {
    credentials += firstAdminBanner({ consoleUrl: `${origin}/admin/login`, ...firstAdmin });
  }
  if (credentials !== '') handOver(credentials, firstStartCredentialsPath(config.database), logger);
}

/**
 * The credentials a first start generated go to the terminal and to a file only this user can read,
 * never into the log: when the output is not a terminal (a process manager collects it), a log line
 * names the file instead.
 */
function handOver(credentials: string, path: string | null, logger: Logger): void {
  if (path !== null) writePrivateFile(path, credentials.trim() + '\n');
  const delivery = credentialsDelivery(process.stdout.isTTY === true, path);
  if (delivery.print === 'stdout') {
    process.stdout.write(credentials + (path === null ? '' : `They are also in ${path} (readable by you only).\n\n`));
  } else if (delivery.print === 'stderr') {
    process.stderr.write(credentials);
  } else {
    logger.warn(credentialsFileMessage(delivery.file));
  }
}

main().catch((error: unknown) => {
  new Logger('Main').fatal(`Start-up failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
