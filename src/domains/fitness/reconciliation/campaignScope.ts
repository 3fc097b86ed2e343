// The fitness reconciliation scope: a campaign (detectId), optionally narrowed to one project (test
// item). Scopes are values: their key names them in the ledger, so two runs of the same scope can be
// compared and discrepancies of a scope resolved by a later run of it. Pure validation; no I/O.
import { ValidationError } from '../../../shared/errors';
import { MAX_ID } from '../decide';

export interface CampaignScope {
  domain: 'fitness';
  detectId: number;
  projectId?: number;
}

function positiveId(field: string, v: unknown): number {
  if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || v > MAX_ID)
    throw new ValidationError(field, `${field} must be an integer between 1 and ${MAX_ID}`);
  return v;
}

export function campaignScope(detectId: unknown, projectId?: unknown): CampaignScope {
  const s: CampaignScope = { domain: 'fitness', detectId: positiveId('detectId', detectId) };
  if (projectId !== undefined && projectId !== null) s.projectId = positiveId('projectId', projectId);
  return s;
}

/** fitness:detect=10001, or fitness:detect=10001:project=3. */
export function campaignKey(s: CampaignScope): string {
  return `fitness:detect=${s.detectId}${s.projectId ? `:project=${s.projectId}` : ''}`;
}

export function campaignJson(s: CampaignScope): Record<string, unknown> {
  return { domain: s.domain, detectId: s.detectId, ...(s.projectId ? { projectId: s.projectId } : {}) };
}

/** A whole campaign partitions the domain; a single project of it is an operator's narrower question. */
export function isWholeCampaign(s: CampaignScope): boolean {
  return s.projectId === undefined;
}

/** The scope as a filter on pending publications (detectId and projectId never change across versions). */
export function campaignPendingFilter(s: CampaignScope): { dataEquals: Record<string, number> } {
  return { dataEquals: { detectId: s.detectId, ...(s.projectId ? { projectId: s.projectId } : {}) } };
}
