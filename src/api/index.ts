/**
 * Every API area, mounted under `/v1`. Each folder holds its routes, schemas, data access (`repo.ts`)
 * and response shaping (`present.ts`).
 */
import type { App } from '../app.js';
import importRoutes from './change-requests/imports.js';
import changeRequestRoutes from './change-requests/routes.js';
import collectionRoutes from './collections/routes.js';
import contentRoutes from './content/routes.js';
import { RevisionPage } from './content/schemas.js';
import memberRoutes from './members/routes.js';
import organizationRoutes from './organizations/routes.js';
import permissionRoutes from './permissions/routes.js';
import spaceRoutes from './spaces/routes.js';
import teamRoutes from './teams/routes.js';
import userRoutes from './users/routes.js';

export async function registerApi(app: App): Promise<void> {
  await app.register(userRoutes);
  await app.register(organizationRoutes);
  await app.register(memberRoutes);
  await app.register(teamRoutes);
  await app.register(spaceRoutes);
  await app.register(collectionRoutes);
  await app.register(permissionRoutes);
  // Shared by the content and change-request areas (pages nest pages).
  app.addSchema(RevisionPage);
  await app.register(changeRequestRoutes);
  await app.register(importRoutes);
  await app.register(contentRoutes);
}
