import { AuditRepository } from '../audit/audit.repository.js';
import { AuditService } from '../audit/audit.service.js';
import { ConfigService } from '@nestjs/config';
import type { Clock } from '../common/clock.js';
import type { DatabaseService } from '../database/database.service.js';
import { RegisteredVenuesCheck } from '../venues/registered-venues-check.js';
import { VenuesRepository } from '../venues/venues.repository.js';
import { VenuesService } from '../venues/venues.service.js';

/** The VENUES_REGISTERED_ONLY check over a test database (false by default, as in production). */
export function registeredVenuesCheck(
  database: DatabaseService,
  clock: Clock,
  registeredOnly = false,
): RegisteredVenuesCheck {
  return new RegisteredVenuesCheck(
    new VenuesService(
      database,
      new VenuesRepository(),
      clock,
      new AuditService(database, new AuditRepository(), clock),
    ),
    new ConfigService({ venuesRegisteredOnly: registeredOnly }),
  );
}
