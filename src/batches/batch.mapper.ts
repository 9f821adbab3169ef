import type { BatchAccount } from './batches.repository.js';
import { revealState } from './batch.rules.js';
import type { BatchAccountDto, BatchDto } from './dto/batch.response.js';
import type { UserBatchEntity } from './entities/user-batch.entity.js';

export function toBatchDto(batch: UserBatchEntity, now: Date): BatchDto {
  const state = revealState(batch, now);
  return {
    id: batch.id,
    venueId: batch.venueId,
    label: batch.label,
    prefix: batch.prefix,
    count: batch.count,
    passwordLength: batch.passwordLength,
    expiresAt: batch.expiresAt?.toISOString() ?? null,
    validFor: batch.validFor,
    planId: batch.planId,
    createdBy: { type: batch.createdByType, name: batch.createdByName },
    createdAt: batch.createdAt.toISOString(),
    firstRevealedAt: batch.firstRevealedAt?.toISOString() ?? null,
    passwords: state.kind === 'open' ? 'available' : 'gone',
    passwordsShownUntil:
      state.kind === 'open' ? (state.closesAt?.toISOString() ?? null) : (state.closedAt?.toISOString() ?? null),
  };
}

export function toBatchAccountDto(account: BatchAccount): BatchAccountDto {
  return {
    _id: account.id,
    username: account.username,
    status: account.status,
    expiresAt: account.expiresAt?.toISOString() ?? null,
  };
}
