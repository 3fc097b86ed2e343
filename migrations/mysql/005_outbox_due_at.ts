// One (status, due_at) index on the shard outboxes instead of four; see migrations/outboxDueAt.ts.
import type { KnexMigration } from '../types';
import { addOutboxDueAt, dropOutboxDueAt } from '../outboxDueAt';

export const m005OutboxDueAt: KnexMigration = { name: '005_outbox_due_at', up: addOutboxDueAt, down: dropOutboxDueAt };
