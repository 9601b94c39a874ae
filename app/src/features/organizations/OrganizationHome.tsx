/** `/o/{organizationId}`: the organization's navigation and its spaces. */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { SearchBox } from '../search/SearchBox';
import { OrganizationNav } from './OrganizationNav';
import { organizationQuery, organizationSpacesQuery } from './queries';

export function OrganizationHome() {
  const { organizationId } = useParams({ from: '/o/$organizationId' });
  const { data: organization } = useSuspenseQuery(organizationQuery(organizationId));
  const { data: spaces } = useSuspenseQuery(organizationSpacesQuery(organizationId));
  return (
    <div className="layout">
      <OrganizationNav organizationId={organizationId} />
      <main className="screen">
        <h1>{organization.title}</h1>
        <SearchBox organizationId={organizationId} label={`Search ${organization.title}`} />
        <h2>Spaces</h2>
        {spaces.length === 0 ? (
          <p>No spaces yet.</p>
        ) : (
          <ul className="cards">
            {spaces.map((space) => (
              <li key={space.id}>
                <Link to="/s/$spaceId" params={{ spaceId: space.id }}>
                  {space.title}
                </Link>
              </li>
            ))}
          </ul>
        )}
      </main>
    </div>
  );
}
