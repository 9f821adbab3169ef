import { Injectable, OnApplicationBootstrap } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import type { AppConfig } from '../config/configuration.js';
import { OperatorsService } from './operators.service.js';

/** The administrator a first start created: its email and one-time password, to show once. */
export interface FirstAdmin {
  email: string;
  oneTimePassword: string;
}

/**
 * Makes a fresh installation's console reachable: on the embedded database (SQLite), a start that
 * finds no operator creates an administrator (ADMIN_EMAIL) with a one-time password, which the
 * process entry point prints once beside the API token (takeFirstAdmin), never through the logger.
 * On MySQL nothing is created, as for the API token: the administrator runs `hotspot operator create`.
 */
@Injectable()
export class FirstAdminService implements OnApplicationBootstrap {
  private created: FirstAdmin | null = null;

  constructor(
    private readonly operators: OperatorsService,
    private readonly config: ConfigService<AppConfig, true>,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    if (this.config.get('database', { infer: true }).type !== 'sqlite') return;
    const created = await this.operators.createFirstAdmin(this.config.get('adminEmail', { infer: true }));
    if (created !== null) {
      this.created = { email: created.operator.email, oneTimePassword: created.oneTimePassword! };
    }
  }

  /** The administrator this start created, once: its password is not kept in memory after it was shown. */
  takeFirstAdmin(): FirstAdmin | null {
    const created = this.created;
    this.created = null;
    return created;
  }
}
