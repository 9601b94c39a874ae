/**
 * Every screen and the URL it answers: the `urls.app` addresses the API hands out (`/o/{org}`,
 * `/o/{org}/sites/{site}`, `/s/{space}`, `/s/{space}/{page path}`, `/c/{collection}`), so that a link
 * from the API, or a reload, opens the same screen; and the organization's administration (sites,
 * webhooks, audit log) under `/o/{org}/`.
 */
import { createRootRoute, createRoute, createRouter } from '@tanstack/react-router';
import { basePath } from './base';
import { AccountScreen } from './features/account/AccountScreen';
import { AuditScreen } from './features/audit/AuditScreen';
import { ChangeRequestScreen } from './features/change-requests/ChangeRequestScreen';
import { ChangeRequestsScreen } from './features/change-requests/ChangeRequestsScreen';
import {
  type ChangeRequestTab,
  isChangeRequestTab,
  OrganizationChangeRequests,
} from './features/change-requests/OrganizationChangeRequests';
import { AppShell } from './features/layout/AppShell';
import { ErrorScreen } from './features/layout/ErrorScreen';
import { NotFound } from './features/layout/NotFound';
import { MembersScreen } from './features/members/MembersScreen';
import { CollectionScreen } from './features/organizations/CollectionScreen';
import { Home } from './features/organizations/Home';
import { OrganizationHome } from './features/organizations/OrganizationHome';
import { SiteScreen } from './features/sites/SiteScreen';
import { SitesScreen } from './features/sites/SitesScreen';
import { SpaceScreen } from './features/spaces/SpaceScreen';
import { TeamsScreen } from './features/teams/TeamsScreen';
import { WebhookScreen } from './features/webhooks/WebhookScreen';
import { WebhooksScreen } from './features/webhooks/WebhooksScreen';
import { lazyScreen } from './lazy';

// The editor (TipTap and all) and the change request preview load only when opened.
const loadEditor = () => import('./features/editor/EditorScreen');
const EditorScreen = lazyScreen(loadEditor);
const PreviewScreen = lazyScreen(() => import('./features/editor/PreviewScreen'));

const rootRoute = createRootRoute({ component: AppShell, notFoundComponent: NotFound });

const homeRoute = createRoute({ getParentRoute: () => rootRoute, path: '/', component: Home });

export const organizationRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/o/$organizationId',
  component: OrganizationHome,
});

export const membersRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/o/$organizationId/members',
  component: MembersScreen,
});

export const teamsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/o/$organizationId/teams',
  component: TeamsScreen,
});

const sitesRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/o/$organizationId/sites',
  component: SitesScreen,
});

/** A Site's `urls.app`. */
const siteRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/o/$organizationId/sites/$siteId',
  component: SiteScreen,
});

const webhooksRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/o/$organizationId/webhooks',
  component: WebhooksScreen,
});

const webhookRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/o/$organizationId/webhooks/$webhookId',
  component: WebhookScreen,
});

const auditRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/o/$organizationId/audit',
  component: AuditScreen,
});

export const organizationChangeRequestsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/o/$organizationId/change-requests',
  // The tab is in the address (`?tab=review`), so a reload or a shared link opens the same list.
  validateSearch: (search: Record<string, unknown>): { tab?: ChangeRequestTab } =>
    isChangeRequestTab(search.tab) ? { tab: search.tab } : {},
  component: OrganizationChangeRequests,
});

export const collectionRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/c/$collectionId',
  component: CollectionScreen,
});

export const spaceRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/s/$spaceId',
  component: () => <SpaceScreen />,
});

export const pageByIdRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/s/$spaceId/~/page/$pageId',
  component: () => <SpaceScreen />,
});

export const changeRequestsRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/s/$spaceId/~/changes',
  component: ChangeRequestsScreen,
});

export const changeRequestRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/s/$spaceId/~/changes/$number',
  component: ChangeRequestScreen,
});

const editRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/s/$spaceId/~/changes/$number/edit',
  // The editor's chunk is fetched as the route matches, alongside the sign-in check, not after it
  // (a failure is lazyScreen's to handle, when the screen renders).
  loader: () => void loadEditor().catch(() => undefined),
  component: () => <EditorScreen />,
});

const editPageRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/s/$spaceId/~/changes/$number/edit/$pageId',
  // The editor's chunk is fetched as the route matches, alongside the sign-in check, not after it
  // (a failure is lazyScreen's to handle, when the screen renders).
  loader: () => void loadEditor().catch(() => undefined),
  component: () => <EditorScreen />,
});

const previewRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/s/$spaceId/~/changes/$number/preview',
  component: () => <PreviewScreen />,
});

const previewPageRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/s/$spaceId/~/changes/$number/preview/$pageId',
  component: () => <PreviewScreen />,
});

export const pageByPathRoute = createRoute({
  getParentRoute: () => rootRoute,
  path: '/s/$spaceId/$',
  component: () => <SpaceScreen />,
});

const accountRoute = createRoute({ getParentRoute: () => rootRoute, path: '/account', component: AccountScreen });

const routeTree = rootRoute.addChildren([
  homeRoute,
  accountRoute,
  organizationRoute,
  membersRoute,
  teamsRoute,
  sitesRoute,
  siteRoute,
  webhooksRoute,
  webhookRoute,
  auditRoute,
  organizationChangeRequestsRoute,
  collectionRoute,
  spaceRoute,
  pageByIdRoute,
  changeRequestsRoute,
  changeRequestRoute,
  editRoute,
  editPageRoute,
  previewRoute,
  previewPageRoute,
  pageByPathRoute,
]);

export const router = createRouter({
  routeTree,
  basepath: basePath || '/',
  defaultPreload: 'intent',
  defaultErrorComponent: ErrorScreen,
});

declare module '@tanstack/react-router' {
  interface Register {
    router: typeof router;
  }
}
