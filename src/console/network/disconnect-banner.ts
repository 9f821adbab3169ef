import { Injectable } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../../config/configuration.js';
import { NasService } from '../../nas/nas.service.js';
import { disconnectProblem } from './network.rules.js';
import type { Words } from './network-view.js';

/**
 * The banner of the network screens (Online now, the jobs, Settings → NAS) while this service's
 * Disconnects reach no NAS: UNAUTH_DISPATCHER without `radius` (as this instance is configured), or
 * no registered NAS with a Disconnect/CoA port. Null when they can.
 */
@Injectable()
export class DisconnectBanner {
  private readonly dispatchers: readonly string[];

  constructor(
    private readonly nases: NasService,
    config: ConfigService<AppConfig, true>,
  ) {
    this.dispatchers = config.get('unauthJobs', { infer: true }).dispatchers.map((dispatcher) => dispatcher.type);
  }

  async problem(): Promise<Words | null> {
    // Without radius the NASes do not matter: no count is needed.
    if (!this.dispatchers.includes('radius')) return disconnectProblem(this.dispatchers, 0);
    return disconnectProblem(this.dispatchers, await this.nases.countWithCoaPort());
  }
}
