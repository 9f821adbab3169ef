import { AuditRepository } from '../audit/audit.repository.js';
import { AuditService } from '../audit/audit.service.js';
import { VenueScopeService } from '../auth/venue-scope.service.js';
import type { Clock } from '../common/clock.js';
import type { DatabaseService } from '../database/database.service.js';
import { PlanOffers } from '../plans/plan-offers.js';
import { PlansRepository } from '../plans/plans.repository.js';
import { PlansService } from '../plans/plans.service.js';
import { registeredVenuesCheck } from './venues.js';

/** The plans service over a test database, as PlansModule wires it. */
export function plansService(database: DatabaseService, clock: Clock): PlansService {
  const repository = new PlansRepository(database);
  return new PlansService(
    database,
    clock,
    new VenueScopeService(),
    repository,
    new AuditService(database, new AuditRepository(), clock),
    registeredVenuesCheck(database, clock),
    new PlanOffers(repository),
  );
}
