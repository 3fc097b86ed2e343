// The scope an operator names for reconcile and rebuildProjection: exactly one of a fitness campaign,
// an orders window, or any other registered domain's own scope as JSON (its reconciliation part
// parses and checks it, so a domain registered from outside src/ is reconciled like a built-in one).
import { Field, InputType, Int } from 'type-graphql';
import { GraphQLDateTimeISO } from 'graphql-scalars';
import { campaignScope } from '../../domains/fitness/reconciliation/campaignScope';
import { orderWindowScope } from '../../domains/orders/reconciliation/windowScope';
import { reconciledDomain } from '../../domains/reconciledDomains';
import type { Scope } from '../../reconciliation/scope';
import { ValidationError } from '../../shared/errors';

@InputType({ description: 'A fitness campaign (detectId), optionally one project (test item) of it.' })
export class CampaignScopeInput {
  @Field(() => Int) detectId!: number;
  @Field(() => Int, { nullable: true }) projectId?: number | null;
}

@InputType({ description: 'Orders created in [from, to) (at most 31 days).' })
export class OrderWindowInput {
  @Field(() => GraphQLDateTimeISO) from!: Date;
  @Field(() => GraphQLDateTimeISO) to!: Date;
}

@InputType({ description: "A scope of another registered domain: its name and the scope as that domain's JSON (checked by it)." })
export class DomainScopeInput {
  @Field(() => String) domain!: string;
  @Field(() => String, { description: 'The scope as JSON text, e.g. {"notebookId":"..."}; at most 4,096 characters.' }) scope!: string;
}

@InputType({ description: 'Exactly one of campaign (fitness), orderWindow (orders) or domain (any other registered domain).' })
export class ReconciliationScopeInput {
  @Field(() => CampaignScopeInput, { nullable: true }) campaign?: CampaignScopeInput | null;
  @Field(() => OrderWindowInput, { nullable: true }) orderWindow?: OrderWindowInput | null;
  @Field(() => DomainScopeInput, { nullable: true }) domain?: DomainScopeInput | null;
}

export function toScope(input: ReconciliationScopeInput): Scope {
  const given = [input.campaign, input.orderWindow, input.domain].filter((x) => x != null);
  if (given.length !== 1) throw new ValidationError('scope', 'give exactly one of campaign, orderWindow or domain');
  if (input.campaign) return campaignScope(input.campaign.detectId, input.campaign.projectId ?? undefined);
  if (input.orderWindow) return orderWindowScope(input.orderWindow.from, input.orderWindow.to);
  return domainScope(input.domain!);
}

/** A registered domain's scope from its JSON: the domain's own parser checks it (ValidationError). */
function domainScope(input: { domain: string; scope: string }): Scope {
  if (input.scope.length > 4096) throw new ValidationError('scope', 'a scope is at most 4,096 characters of JSON');
  let json: unknown;
  try {
    json = JSON.parse(input.scope);
  } catch {
    throw new ValidationError('scope', 'the scope is not JSON');
  }
  if (json === null || typeof json !== 'object' || Array.isArray(json)) throw new ValidationError('scope', 'the scope is a JSON object');
  return reconciledDomain(input.domain).scopeFromJson({ ...(json as Record<string, unknown>), domain: input.domain });
}
