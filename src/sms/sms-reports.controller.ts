import { Controller, Get, HttpCode, Param, Post, Req } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Request } from 'express';
import { ApiError } from '../common/errors/api-error.js';
import { Clock } from '../common/clock.js';
import { Public } from '../common/public-route.js';
import { kannelDeliveryState, wordDeliveryState } from './sms.rules.js';
import { SmsService } from './sms.service.js';
import type { SmsDeliveryState } from './entities/sms-message.entity.js';

/** Where the gateways' delivery reports arrive (its form posts are parsed as such: app.setup.ts). */
export const SMS_REPORTS_PATH = '/sms/reports/';

/**
 * Delivery reports, called by the gateway (not part of the v1 API): Kannel's dlr-url (GET, `type` =
 * its DLR type) or a provider's status callback (GET or a form POST, `MessageStatus` or `status`).
 * The path's reference, unguessable and one per message, is the only credential: no API token.
 */
@ApiExcludeController()
@Public()
@Controller('sms/reports')
export class SmsReportsController {
  constructor(
    private readonly sms: SmsService,
    private readonly clock: Clock,
  ) {}

  @Get(':reference')
  @HttpCode(200)
  byQuery(@Param('reference') reference: string, @Req() request: Request): Promise<{ success: true; message: string }> {
    return this.record(reference, request.query);
  }

  @Post(':reference')
  @HttpCode(200)
  byForm(@Param('reference') reference: string, @Req() request: Request): Promise<{ success: true; message: string }> {
    return this.record(reference, { ...request.query, ...(request.body as Record<string, unknown> | undefined) });
  }

  private async record(
    reference: string,
    fields: Record<string, unknown>,
  ): Promise<{ success: true; message: string }> {
    const state = stateOf(fields);
    if (state === null) throw new ApiError(400, 'The report names no delivery state (type, MessageStatus or status)');
    const outcome = await this.sms.recordReport(reference, state, this.clock.now());
    if (outcome === 'unknown') throw new ApiError(404, 'No such message');
    return { success: true, message: outcome === 'recorded' ? 'Recorded' : 'Already known' };
  }
}

function stateOf(fields: Record<string, unknown>): SmsDeliveryState | null {
  const text = (name: string) => (typeof fields[name] === 'string' ? fields[name] : null);
  const type = text('type');
  if (type !== null) return kannelDeliveryState(type);
  const word = text('MessageStatus') ?? text('status');
  return word === null ? null : wordDeliveryState(word);
}
