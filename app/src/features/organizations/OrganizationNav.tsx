/**
 * The organization's navigation landmark: its change requests, people (members, teams) and sites
 * (and, for its admins, webhooks and audit log), then its collections and spaces as a tree, each
 * space a link named by its title, each item its caller administers with its actions menu (rename,
 * move, delete), and "New" to create a space or a collection when the caller may. Shown beside
 * every screen of the organization.
 */
import { useSuspenseQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import type { Collection, Space } from '../../api/types';
import { CreateMenu } from './CreateMenu';
import { organizationCollectionsQuery, organizationQuery, organizationSpacesQuery } from './queries';
import { TreeActions } from './TreeActions';
import { buildTree, type TreeNode } from './tree';

interface TreeProps {
  organizationId: string;
  tree: TreeNode[];
  currentSpaceId?: string;
}

export function OrganizationNav({
  organizationId,
  currentSpaceId,
}: {
  organizationId: string;
  currentSpaceId?: string;
}) {
  const { data: organization } = useSuspenseQuery(organizationQuery(organizationId));
  const { data: spaces } = useSuspenseQuery(organizationSpacesQuery(organizationId));
  const { data: collections } = useSuspenseQuery(organizationCollectionsQuery(organizationId));
  const tree = buildTree(collections, spaces);
  return (
    <nav className="sidebar" aria-label={organization.title}>
      <p className="sidebar-title">
        {/* Current only on the organization's home, not on every screen below its address. */}
        <Link to="/o/$organizationId" params={{ organizationId }} activeOptions={{ exact: true }}>
          {organization.title}
        </Link>
      </p>
      <ul className="tree org-links">
        <li>
          <Link
            to="/o/$organizationId/change-requests"
            params={{ organizationId }}
            activeProps={{ 'aria-current': 'page' }}
          >
            Change requests
          </Link>
        </li>
        <li>
          <Link to="/o/$organizationId/members" params={{ organizationId }} activeProps={{ 'aria-current': 'page' }}>
            Members
          </Link>
        </li>
        <li>
          <Link to="/o/$organizationId/teams" params={{ organizationId }} activeProps={{ 'aria-current': 'page' }}>
            Teams
          </Link>
        </li>
        <li>
          <Link to="/o/$organizationId/sites" params={{ organizationId }} activeProps={{ 'aria-current': 'page' }}>
            Sites
          </Link>
        </li>
        {organization.permissions?.admin ? (
          <>
            <li>
              <Link
                to="/o/$organizationId/webhooks"
                params={{ organizationId }}
                activeProps={{ 'aria-current': 'page' }}
              >
                Webhooks
              </Link>
            </li>
            <li>
              <Link to="/o/$organizationId/audit" params={{ organizationId }} activeProps={{ 'aria-current': 'page' }}>
                Audit log
              </Link>
            </li>
          </>
        ) : null}
      </ul>
      <div className="sidebar-heading">
        <span className="group-title">Spaces</span>
        {organization.permissions.createContent ? <CreateMenu organizationId={organizationId} /> : null}
      </div>
      <TreeList nodes={tree} organizationId={organizationId} tree={tree} currentSpaceId={currentSpaceId} />
    </nav>
  );
}

function TreeList({ nodes, ...props }: TreeProps & { nodes: TreeNode[] }) {
  if (nodes.length === 0) return null;
  return (
    <ul className="tree">
      {nodes.map((node) => (
        <li key={node.item.id}>
          <div className="tree-row">
            <TreeItem node={node} currentSpaceId={props.currentSpaceId} />
            {node.item.permissions?.admin === false ? null : (
              <TreeActions
                organizationId={props.organizationId}
                kind={node.item.object}
                id={node.item.id}
                title={node.item.title}
                parent={node.item.parent ?? null}
                tree={props.tree}
              />
            )}
          </div>
          <TreeList nodes={node.children} {...props} />
        </li>
      ))}
    </ul>
  );
}

function TreeItem({ node, currentSpaceId }: { node: TreeNode; currentSpaceId?: string }) {
  if (node.item.object === 'collection') {
    const collection = node.item as Collection;
    return (
      <Link to="/c/$collectionId" params={{ collectionId: collection.id }} className="collection">
        {collection.title}
      </Link>
    );
  }
  const space = node.item as Space;
  return (
    <Link
      to="/s/$spaceId"
      params={{ spaceId: space.id }}
      aria-current={space.id === currentSpaceId ? 'page' : undefined}
    >
      {space.emoji ? <span aria-hidden="true">{space.emoji} </span> : null}
      {space.title}
    </Link>
  );
}
