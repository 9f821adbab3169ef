import { Logger } from '@nestjs/common';
import type { UnauthDispatcher, UnauthJobPayload } from './unauth-dispatcher.js';

/** The default: one structured log line per job, then done. For sites whose NAS reads the logs. */
export class LogDispatcher implements UnauthDispatcher {
  readonly name = 'log';
  private readonly logger = new Logger('UnauthJob');

  dispatch(payload: UnauthJobPayload): Promise<void> {
    this.logger.log({ message: 'unauth job', ...payload });
    return Promise.resolve();
  }
}
