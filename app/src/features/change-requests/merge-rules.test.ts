import { describe, expect, it } from 'vitest';
import { describeRule, mergeBlockers, rulesInForce } from './merge-rules';

describe('the merge rules in force', () => {
  const org = { type: 'rules' as const, rules: [{ rule: 'require_change_request_subject' }] };
  it("is the space's own rules, or its organization's when it inherits or says nothing", () => {
    const own = { type: 'rules' as const, rules: [{ rule: 'require_author_to_merge' }] };
    expect(rulesInForce(own, org)).toEqual(own.rules);
    expect(rulesInForce({ type: 'inherit' }, org)).toEqual(org.rules);
    expect(rulesInForce(undefined, org)).toEqual(org.rules);
  });
  it('is nothing for none, on either side', () => {
    expect(rulesInForce({ type: 'none' }, org)).toEqual([]);
    expect(rulesInForce({ type: 'inherit' }, { type: 'none' })).toEqual([]);
    expect(rulesInForce({ type: 'inherit' }, undefined)).toEqual([]);
  });
});

describe('a merge rule in words', () => {
  it('says how many approvals, 1 by default', () => {
    expect(describeRule({ rule: 'require_at_least_one_approved_review' })).toBe('1 approval of the latest changes');
    expect(describeRule({ rule: 'require_at_least_one_approved_review', minimum: 3 })).toBe(
      '3 approvals of the latest changes',
    );
    expect(describeRule({ rule: 'require_at_least_one_approved_review', minimum: 0 })).toBe(
      '1 approval of the latest changes',
    );
  });
  it('names the people a rule names', () => {
    const names: Record<string, string> = { u1: 'Ada', u2: 'Grace' };
    expect(describeRule({ rule: 'require_specific_reviewers', users: ['u1', 'u2'] }, (id) => names[id] ?? id)).toBe(
      'Approval from Ada, Grace',
    );
    expect(describeRule({ rule: 'require_one_of_specific_reviewers', users: ['u3'] })).toBe('Approval from one of u3');
  });
  it('reads an unknown rule as its words', () => {
    expect(describeRule({ rule: 'require_agent_review' })).toBe('require agent review');
  });
});

describe('a refused merge', () => {
  it('lists each failing merge rule', () => {
    expect(
      mergeBlockers(
        'change request 3 cannot be merged yet: it needs 1 approval of its current revision and has 0; it needs a subject',
      ),
    ).toEqual(['it needs 1 approval of its current revision and has 0', 'it needs a subject']);
  });
  it('is null for another refusal', () => {
    expect(mergeBlockers('change request 3 is merged')).toBeNull();
  });
});
