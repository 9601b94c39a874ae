/** `/c/{collectionId}`: a collection's spaces and sub-collections, in its organization's frame. */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link, useParams } from '@tanstack/react-router';
import { ShareButton } from '../sharing/ShareDialog';
import { CreateMenu } from './CreateMenu';
import { OrganizationNav } from './OrganizationNav';
import { collectionQuery, organizationSpacesQuery } from './queries';

export function CollectionScreen() {
  const { collectionId } = useParams({ from: '/c/$collectionId' });
  const { data: collection } = useSuspenseQuery(collectionQuery(collectionId));
  const { data: spaces } = useSuspenseQuery(organizationSpacesQuery(collection.organization));
  const inside = spaces.filter((space) => space.parent === collection.id);
  return (
    <div className="layout">
      <OrganizationNav organizationId={collection.organization} />
      <main className="screen">
        <div className="title-row">
          <h1>{collection.title}</h1>
          <ShareButton
            target={{
              kind: 'collection',
              id: collection.id,
              title: collection.title,
              organizationId: collection.organization,
              admin: collection.permissions.admin,
            }}
          />
          <CreateMenu
            organizationId={collection.organization}
            parent={collection.id}
            label={`New in ${collection.title}`}
          />
        </div>
        {inside.length === 0 ? (
          <p>No spaces in this collection.</p>
        ) : (
          <ul className="cards">
            {inside.map((space) => (
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
