import { Get, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import {
  ADMIN_ONLY_TARGET_TYPES,
  AUDIT_ACTIONS,
  AUDIT_ACTOR_TYPES,
  AUDIT_TARGET_TYPES,
  type AuditAction,
  type AuditActorType,
  type AuditPageQuery,
  type AuditTargetType,
} from '../../audit/audit.rules.js';
import { AuditService } from '../../audit/audit.service.js';
import { ConsolePages, session } from '../console-page.js';
import { queryValue, textFields } from '../../web/forms.js';
import type { ConsoleRequest } from '../console-request.js';
import { wallDateTime } from '../../web/zoned-time.js';
import { ConsoleScreen } from '../console-screen.decorator.js';

const PAGE_SIZE = 50;
/** Pages further back than this are not offered (a filter finds older rows faster). */
const MAX_PAGE = 200;
const MAX_TEXT_FILTER = 254;

/** The filter as typed, shown in the form again and carried by the pager's links. */
const FILTER_NAMES = ['actorType', 'actor', 'action', 'targetType', 'targetId', 'from', 'to'] as const;

type AuditFilterValues = Record<(typeof FILTER_NAMES)[number], string>;

/**
 * The audit log: who changed what, newest first, filtered by actor, action, target and time, a page
 * at a time. Administrators see every row; other operators only rows about their venues.
 */
@ConsoleScreen()
export class AuditController {
  constructor(
    private readonly pages: ConsolePages,
    private readonly audit: AuditService,
  ) {}

  @Get('audit')
  async list(@Req() request: ConsoleRequest, @Res() response: Response): Promise<void> {
    const { operator } = session(request);
    const values = textFields(FILTER_NAMES, (name) => queryValue(request, name).trim());
    const rawPage = queryValue(request, 'page');
    const page = /^\d{1,3}$/.test(rawPage) ? Math.min(Math.max(Number(rawPage), 1), MAX_PAGE) : 1;
    const query: AuditPageQuery = {
      viewer: { admin: operator.admin, venueIds: operator.venueIds },
      offset: (page - 1) * PAGE_SIZE,
      limit: PAGE_SIZE + 1,
    };
    const problem = readFilter(values, operator.timeZone, query);
    const rows = problem === null ? await this.audit.page(query) : [];
    const params = new URLSearchParams(
      FILTER_NAMES.filter((name) => values[name] !== '').map((name): [string, string] => [name, values[name]]),
    );
    const link = (to: number) => {
      const copy = new URLSearchParams(params);
      copy.set('page', String(to));
      return `/admin/audit?${copy.toString()}`;
    };
    await this.pages.render(request, response, problem === null ? 200 : 400, 'audit/list', {
      values,
      problem,
      rows: rows.slice(0, PAGE_SIZE),
      page,
      previous: page > 1 ? link(page - 1) : null,
      next: rows.length > PAGE_SIZE && page < MAX_PAGE ? link(page + 1) : null,
      actorTypes: AUDIT_ACTOR_TYPES,
      actions: AUDIT_ACTIONS,
      targetTypes: operator.admin
        ? AUDIT_TARGET_TYPES
        : AUDIT_TARGET_TYPES.filter((type) => !ADMIN_ONLY_TARGET_TYPES.includes(type)),
    });
  }
}

/** Fills `query` from the typed filter; the message key of the first problem, or null. */
function readFilter(values: AuditFilterValues, zone: string | null, query: AuditPageQuery): string | null {
  if (values.actorType !== '') {
    if (!(AUDIT_ACTOR_TYPES as readonly string[]).includes(values.actorType)) return 'audit.problem.actorType';
    query.actorType = values.actorType as AuditActorType;
  }
  if (values.actor !== '') {
    if (values.actor.length > MAX_TEXT_FILTER) return 'audit.problem.actor';
    query.actor = values.actor;
  }
  if (values.action !== '') {
    if (!(AUDIT_ACTIONS as readonly string[]).includes(values.action)) return 'audit.problem.action';
    query.action = values.action as AuditAction;
  }
  if (values.targetType !== '') {
    if (!(AUDIT_TARGET_TYPES as readonly string[]).includes(values.targetType)) return 'audit.problem.targetType';
    query.targetType = values.targetType as AuditTargetType;
  }
  if (values.targetId !== '') {
    if (values.targetId.length > 64) return 'audit.problem.targetId';
    query.targetId = values.targetId;
  }
  for (const name of ['from', 'to'] as const) {
    if (values[name] === '') continue;
    const instant = wallDateTime(values[name], zone);
    if (instant === null) return 'audit.problem.time';
    query[name] = instant;
  }
  return null;
}
