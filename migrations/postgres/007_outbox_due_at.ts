// One (status, due_at) index on the orders outbox instead of four; see migrations/outboxDueAt.ts.
import type { KnexMigration } from '../types';
import { addOutboxDueAt, dropOutboxDueAt } from '../outboxDueAt';

export const m007OutboxDueAt: KnexMigration = { name: '007_outbox_due_at', up: addOutboxDueAt, down: dropOutboxDueAt };
