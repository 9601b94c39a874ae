/** The merge rules in force for the change request's space, in words, beside "Merge". */
import { useQueries, useQuery } from '@tanstack/react-query';
import type { Space } from '../../api/types';
import { memberQuery, organizationQuery } from '../organizations/queries';
import { describeRule, type MergeRules, rulesInForce } from './merge-rules';

export function MergeRulesNote({ id, space }: { id: string; space: Space & { mergeRules?: MergeRules } }) {
  const organization = useQuery(organizationQuery(space.organization));
  const rules = rulesInForce(
    space.mergeRules,
    (organization.data as { mergeRules?: MergeRules } | undefined)?.mergeRules,
  );
  const named = [...new Set(rules.flatMap((rule) => rule.users ?? []))];
  const members = useQueries({ queries: named.map((userId) => memberQuery(space.organization, userId)) });
  const names = new Map(members.flatMap((m) => (m.data ? [[m.data.user.id, m.data.user.displayName] as const] : [])));
  // Still there without rules: it is what "Merge" is described by.
  if (rules.length === 0) return <div id={id} />;
  return (
    <div id={id} className="merge-rules">
      <p className="muted">Merging needs:</p>
      <ul>
        {rules.map((rule) => {
          const text = describeRule(rule, (userId) => names.get(userId) ?? userId);
          return <li key={text}>{text}</li>;
        })}
      </ul>
    </div>
  );
}
