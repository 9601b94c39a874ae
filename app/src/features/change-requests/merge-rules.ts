/**
 * The merge rules in force for a space, as the API reports them in its settings: the space's
 * `mergeRules`, or its organization's when the space says `inherit` (none: nothing required). Each
 * rule in words, for beside "Merge"; which of them block a merge the API says when it refuses one
 * (see `mergeBlockers`).
 */

interface Rule {
  rule: string;
  users?: string[];
  minimum?: number;
}

export type MergeRules = { type: 'inherit' } | { type: 'none' } | { type: 'rules'; rules?: Rule[] };

export function rulesInForce(space: MergeRules | undefined, organization: MergeRules | undefined): Rule[] {
  const config = !space || space.type === 'inherit' ? (organization ?? { type: 'none' }) : space;
  return config.type === 'rules' ? (config.rules ?? []) : [];
}

/** One rule in words; `name` gives a user's display name (their id when unknown). */
export function describeRule(rule: Rule, name: (userId: string) => string = (id) => id): string {
  const users = (rule.users ?? []).map(name).join(', ');
  switch (rule.rule) {
    case 'require_at_least_one_review':
      return 'At least one review';
    case 'require_at_least_one_approved_review': {
      const minimum = Number.isInteger(rule.minimum) && (rule.minimum ?? 0) >= 1 ? (rule.minimum as number) : 1;
      return `${minimum} approval${minimum === 1 ? '' : 's'} of the latest changes`;
    }
    case 'require_all_reviews_approved':
      return 'Approval from every requested reviewer';
    case 'require_specific_reviewers':
      return `Approval from ${users || 'specific reviewers'}`;
    case 'require_one_of_specific_reviewers':
      return `Approval from one of ${users || 'specific reviewers'}`;
    case 'require_up_to_date_change_request':
      return 'Up to date with the live content';
    case 'require_change_request_subject':
      return 'A subject';
    case 'require_author_to_merge':
      return 'Merged by its author';
    case 'allow_bypass':
      return users ? `${users} may merge regardless` : 'Some people may merge regardless';
    default:
      return rule.rule.replace(/_/g, ' ');
  }
}

/**
 * The failing merge rules in a refused merge's message (`… cannot be merged yet: a; b`), one per
 * rule, or null when the message is not about merge rules.
 */
export function mergeBlockers(message: string): string[] | null {
  const match = /cannot be merged yet: (.+)$/s.exec(message);
  if (!match?.[1]) return null;
  return match[1]
    .split('; ')
    .map((reason) => reason.trim())
    .filter(Boolean);
}
