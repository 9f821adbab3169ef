import { Injectable, Logger } from '@nestjs/common';
import type { AuthenticatedToken } from '../auth/authenticated-token.js';
import { VenueScopeService } from '../auth/venue-scope.service.js';
import type { Deadline } from '../common/load/deadline.js';
import { isNetwork } from '../nas/nas-rules.js';
import { NasService } from '../nas/nas.service.js';
import type { RadiusNas } from './nas-identity.js';

/**
 * The registered NAS a FreeRADIUS request comes from: the client FreeRADIUS authenticated (its
 * shortname and the packet's source address), provided the token's venues include the NAS's.
 */
@Injectable()
export class RadiusNasResolver {
  private readonly logger = new Logger('Radius');

  constructor(
    private readonly nases: NasService,
    private readonly venueScope: VenueScopeService,
  ) {}

  /** The NAS, or null (logged at warn) when none matches or the token may not serve it. */
  async resolve(
    token: AuthenticatedToken,
    name: string | undefined,
    sourceIp: string | undefined,
    section: string,
    deadline: Deadline,
  ): Promise<RadiusNas | null> {
    const nas =
      name === undefined || sourceIp === undefined ? null : await this.nases.identify(name, sourceIp, { deadline });
    if (nas !== null && this.venueScope.isInScope(token, nas.venueId))
      return {
        id: nas.id,
        name: nas.name,
        venueId: nas.venueId,
        vendor: nas.vendor,
        sourceIp,
        network: isNetwork(nas.ipAddress),
      };
    this.logger.warn(
      `RADIUS ${section} refused: ${nas === null ? 'no registered NAS matches' : "the token's venues do not include"}` +
        ` client ${JSON.stringify(name?.slice(0, 64) ?? null)} from ${JSON.stringify(sourceIp?.slice(0, 64) ?? null)}`,
    );
    return null;
  }
}
