/**
 * Every API area, mounted under `/v1`. Each folder holds its routes, schemas, data access (`repo.ts`)
 * and response shaping (`present.ts`).
 */
import type { App } from '../http/app.js';
import askRoutes from './ask/routes.js';
import auditRoutes from './audit/routes.js';
import changeRequestRoutes from './change-requests/routes.js';
import collectionRoutes from './collections/routes.js';
import commentRoutes from './comments/routes.js';
import changeRequestContentRoutes from './content/change-request-routes.js';
import contentEditRoutes from './content/edit-routes.js';
import contentRoutes from './content/routes.js';
import { RevisionPage } from './content/schemas.js';
import documentRoutes from './documents/routes.js';
import gitRoutes from './git/routes.js';
import grantRoutes from './grants/routes.js';
import integrationRoutes from './integrations/routes.js';
import inviteRoutes from './invites/routes.js';
import memberRoutes from './members/routes.js';
import openapiRoutes from './openapi/routes.js';
import organizationRoutes from './organizations/routes.js';
import reviewRoutes from './reviews/routes.js';
import changeRequestChangesRoutes from './revisions/change-request-routes.js';
import revisionRoutes from './revisions/routes.js';
import searchRoutes from './search/routes.js';
import siteAdaptiveRoutes from './sites/adaptive/routes.js';
import adsRoutes from './sites/ads/routes.js';
import siteCustomizationRoutes from './sites/customization/routes.js';
import siteHostnameRoutes from './sites/hostnames/routes.js';
import siteInsightsRoutes from './sites/insights/routes.js';
import sitePermissionRoutes from './sites/permissions/routes.js';
import siteRedirectRoutes from './sites/redirects/routes.js';
import siteRoutes from './sites/routes.js';
import siteSectionRoutes from './sites/sections/routes.js';
import shareLinkRoutes from './sites/share-links/routes.js';
import siteSpaceRoutes from './sites/spaces/routes.js';
import siteStructureRoutes from './sites/structure/routes.js';
import spaceRoutes from './spaces/routes.js';
import ssoRoutes from './sso/routes.js';
import storageRoutes from './storage/routes.js';
import teamRoutes from './teams/routes.js';
import translationRoutes from './translations/routes.js';
import urlRoutes from './urls/routes.js';
import userSessionRoutes from './user-sessions/routes.js';
import userRoutes from './users/routes.js';
import webhookRoutes from './webhooks/routes.js';

export async function registerApi(app: App): Promise<void> {
  await app.register(adsRoutes);
  await app.register(userRoutes);
  await app.register(userSessionRoutes);
  await app.register(organizationRoutes);
  await app.register(memberRoutes);
  await app.register(inviteRoutes);
  await app.register(teamRoutes);
  await app.register(spaceRoutes);
  await app.register(collectionRoutes);
  await app.register(grantRoutes);
  await app.register(integrationRoutes);
  await app.register(openapiRoutes);
  await app.register(translationRoutes);
  await app.register(storageRoutes);
  // The sites family: the Site itself, then its sub-areas (each imports only `sites/shared` and `src/sites`).
  await app.register(siteRoutes);
  await app.register(siteCustomizationRoutes);
  await app.register(siteSpaceRoutes);
  await app.register(siteSectionRoutes);
  await app.register(siteStructureRoutes);
  await app.register(siteAdaptiveRoutes);
  await app.register(siteRedirectRoutes);
  await app.register(shareLinkRoutes);
  await app.register(siteInsightsRoutes);
  await app.register(sitePermissionRoutes);
  await app.register(siteHostnameRoutes);
  // Shared by the content and change-request areas (pages nest pages).
  app.addSchema(RevisionPage);
  await app.register(changeRequestRoutes);
  await app.register(contentEditRoutes);
  await app.register(contentRoutes);
  await app.register(changeRequestContentRoutes);
  await app.register(revisionRoutes);
  await app.register(changeRequestChangesRoutes);
  await app.register(commentRoutes);
  await app.register(reviewRoutes);
  await app.register(askRoutes);
  await app.register(searchRoutes);
  await app.register(gitRoutes);
  await app.register(webhookRoutes);
  await app.register(auditRoutes);
  await app.register(urlRoutes);
  await app.register(documentRoutes);
  await app.register(ssoRoutes);
}
