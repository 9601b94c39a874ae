/** `/`: the organizations of the signed-in person; with only one, its home directly. */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, Navigate } from '@tanstack/react-router';
import { organizationsQuery } from './queries';

export function Home() {
  const { data: organizations } = useSuspenseQuery(organizationsQuery);
  const only = organizations.length === 1 ? organizations[0] : undefined;
  if (only) return <Navigate to="/o/$organizationId" params={{ organizationId: only.id }} replace />;
  return (
    <main className="screen">
      <h1>Your organizations</h1>
      {organizations.length === 0 ? (
        <p>You are not a member of any organization yet. Ask an administrator for an invitation.</p>
      ) : (
        <ul className="cards">
          {organizations.map((organization) => (
            <li key={organization.id}>
              <Link to="/o/$organizationId" params={{ organizationId: organization.id }}>
                {organization.title}
              </Link>
            </li>
          ))}
        </ul>
      )}
    </main>
  );
}
