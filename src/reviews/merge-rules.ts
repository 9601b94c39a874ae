/**
 * The merge rules of a change request: the space's `mergeRules`, or its organization's when the
 * space says `inherit` (default: `none`, nothing required). With `{type: 'rules'}` every rule must
 * pass; Bindery reads the official rules below, and one extension documented in the README and the
 * served OpenAPI: `minimum` on `require_at_least_one_approved_review` (default 1) is how many
 * current approvals are needed. Any rule asking for an approval also needs no outstanding
 * changes request. A rule Bindery cannot evaluate (agent review, description, custom expressions)
 * refuses the merge, saying so, rather than being skipped.
 */

import type { DbOrTrx } from '../core/service.js';
import type { ChangeRequestRow, SpaceRow } from '../db/schema.js';
import { conflict } from '../lib/errors.js';
import { reviewRequests, reviewsOf, storedMergeRules } from './repo.js';
import { type ReviewState, reviewState } from './state.js';

interface Rule {
  rule: string;
  users?: string[];
  minimum?: number;
}

export interface MergeFacts {
  state: ReviewState;
  requested: string[];
  changeRequest: ChangeRequestRow;
  space: SpaceRow;
  actorId: string;
}

/** The rules in force for a space: its own, or its organization's when it inherits; [] for none. */
export function effectiveRules(stored: { space: string | null; organization: string | null }): Rule[] {
  const space = stored.space ? (JSON.parse(stored.space) as { type: string; rules?: Rule[] }) : { type: 'inherit' };
  const config =
    space.type === 'inherit'
      ? stored.organization
        ? (JSON.parse(stored.organization) as { type: string; rules?: Rule[] })
        : { type: 'none' }
      : space;
  return config.type === 'rules' ? (config.rules ?? []) : [];
}

function minimumOf(rule: Rule): number {
  return Number.isInteger(rule.minimum) && (rule.minimum as number) >= 1 ? (rule.minimum as number) : 1;
}

function noChangesRequested(facts: MergeFacts): string | null {
  const blocking = [...facts.state.changesRequestedBy];
  return blocking.length > 0 ? `changes are requested by ${blocking.join(', ')}` : null;
}

/** Why the rule fails for these facts, or null when it passes. */
function failure(rule: Rule, facts: MergeFacts): string | null {
  const { state } = facts;
  const approvals = state.approvedBy.size;
  const users = rule.users ?? [];
  switch (rule.rule) {
    case 'require_at_least_one_review':
      return approvals + state.changesRequestedBy.size > 0 ? null : 'it needs a review';
    case 'require_at_least_one_approved_review': {
      const minimum = minimumOf(rule);
      if (approvals < minimum) {
        return `it needs ${minimum} approval${minimum === 1 ? '' : 's'} of its current revision and has ${approvals}`;
      }
      return noChangesRequested(facts);
    }
    case 'require_all_reviews_approved': {
      const missing = facts.requested.filter((u) => !state.approvedBy.has(u));
      if (missing.length > 0)
        return `requested reviewers have not approved its current revision: ${missing.join(', ')}`;
      return noChangesRequested(facts);
    }
    case 'require_specific_reviewers': {
      const missing = users.filter((u) => !state.approvedBy.has(u));
      return missing.length > 0 ? `it needs the approval of ${missing.join(', ')}` : noChangesRequested(facts);
    }
    case 'require_one_of_specific_reviewers':
      return users.some((u) => state.approvedBy.has(u))
        ? noChangesRequested(facts)
        : `it needs the approval of one of ${users.join(', ')}`;
    case 'require_up_to_date_change_request':
      return facts.space.revision_id ===
        (facts.changeRequest.revision_merged_ancestor ?? facts.changeRequest.revision_initial)
        ? null
        : 'it is not up to date with the live content';
    case 'require_change_request_subject':
      return facts.changeRequest.subject.trim() ? null : 'it needs a subject';
    case 'require_author_to_merge':
      return facts.changeRequest.created_by === facts.actorId ? null : 'only its author may merge it';
    case 'allow_bypass':
      return null;
    default:
      return `the merge rule ${rule.rule} is not supported by this server`;
  }
}

/** Every failing rule's reason ([] when the merge may go ahead). */
export function mergeRuleFailures(rules: Rule[], facts: MergeFacts): string[] {
  const bypass = rules.some((r) => r.rule === 'allow_bypass' && (r.users ?? []).includes(facts.actorId));
  if (bypass) return [];
  return [...new Set(rules.map((r) => failure(r, facts)).filter((r): r is string => r !== null))];
}

/**
 * 409 unless the change request passes the merge rules in force for its space. The merge calls it
 * before merging.
 */
export async function checkMergeRules(
  db: DbOrTrx,
  space: SpaceRow,
  changeRequest: ChangeRequestRow,
  actorId: string,
): Promise<void> {
  const rules = effectiveRules(await storedMergeRules(db, space.id));
  if (rules.length === 0) return;
  const [reviews, requests] = await Promise.all([
    reviewsOf(db, changeRequest.id),
    reviewRequests(db, changeRequest.id),
  ]);
  const state = reviewState(reviews, changeRequest.revision_id, requests);
  const failures = mergeRuleFailures(rules, { state, requested: [...requests.keys()], changeRequest, space, actorId });
  if (failures.length > 0) {
    throw conflict(`change request ${changeRequest.number} cannot be merged yet: ${failures.join('; ')}`);
  }
}
