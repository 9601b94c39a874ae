/**
 * URLs (`/v1/urls/…`): what a URL Bindery hands out points to (an app URL: getContentByUrl; a
 * published URL: resolvePublishedContentByUrl and its older GET form), link-card metadata of an
 * outside URL (getEmbedByUrl, and getEmbedByUrlInSpace for a space's readers), and the API's version
 * (`GET /v1/`).
 *
 * Resolving a published URL is open to anyone (no token): it answers only what the published site
 * itself shows that caller (share key, visitor token), and a renderer of published sites must not
 * need a member's token. The embeds need a token: they make the server fetch a page.
 */
import { readFileSync, statSync } from 'node:fs';
import { Type } from 'typebox';
import type { App } from '../../http/app.js';
import { caller } from '../../http/auth.js';
import { authorizeSpace } from '../../permissions/content.js';
import { contentByUrl } from './content.js';
import { embedOf } from './embed.js';
import { resolvePublishedUrl } from './published.js';
import {
  ApiInformation,
  ContentLookup,
  Embed,
  PublishedBody,
  PublishedLookup,
  PublishedQuery,
  UrlQuery,
} from './schemas.js';

const tags = ['urls'];

/** The version of this build and when it was built (its package file's time). */
function apiInformation(): { version: string; build: string } {
  const file = new URL('../../../package.json', import.meta.url);
  try {
    const { version } = JSON.parse(readFileSync(file, 'utf8')) as { version: string };
    return { version, build: statSync(file).mtime.toISOString() };
  } catch {
    return { version: '0.0.0', build: new Date(0).toISOString() };
  }
}

export default async function urlRoutes(app: App) {
  const info = apiInformation();

  app.get(
    '/',
    {
      config: { public: true },
      schema: { operationId: 'getApiInformation', tags: ['system'], response: { 200: ApiInformation } },
    },
    async () => info,
  );

  app.get(
    '/urls/content',
    {
      config: { scope: 'space:read' },
      schema: { operationId: 'getContentByUrl', tags, querystring: UrlQuery, response: { 200: ContentLookup } },
    },
    async (request) => contentByUrl(app, caller(request).user.id, request.query.url),
  );

  app.get(
    '/urls/published',
    {
      config: { public: true },
      schema: {
        operationId: 'getPublishedContentByUrl',
        deprecated: true,
        tags,
        querystring: PublishedQuery,
        response: { 200: PublishedLookup },
      },
    },
    async (request) => {
      const { url, visitorAuthToken, redirectOnError } = request.query;
      return resolvePublishedUrl(app, {
        url,
        ...(visitorAuthToken ? { visitorAuthToken } : {}),
        ...(redirectOnError !== undefined ? { redirectOnError } : {}),
      });
    },
  );

  app.post(
    '/urls/published',
    {
      config: { public: true },
      schema: {
        operationId: 'resolvePublishedContentByUrl',
        tags,
        body: PublishedBody,
        response: { 200: PublishedLookup },
      },
    },
    async (request) => {
      const { url, redirectOnError, visitor } = request.body;
      return resolvePublishedUrl(app, {
        url,
        ...(visitor?.jwtToken ? { visitorAuthToken: visitor.jwtToken } : {}),
        ...(redirectOnError !== undefined ? { redirectOnError } : {}),
        ...(visitor?.unsignedClaims ? { unsignedClaims: visitor.unsignedClaims } : {}),
        ...(visitor?.type ? { visitorType: visitor.type } : {}),
      });
    },
  );

  app.get(
    '/urls/embed',
    {
      config: { scope: 'space:read' },
      schema: { operationId: 'getEmbedByUrl', tags, querystring: UrlQuery, response: { 200: Embed } },
    },
    async (request) => embedOf(app, request.query.url),
  );

  app.get(
    '/spaces/:spaceId/embed',
    {
      config: { scope: 'space:read' },
      schema: {
        operationId: 'getEmbedByUrlInSpace',
        tags: ['space-embeds'],
        params: Type.Object({ spaceId: Type.String({ minLength: 1 }) }),
        querystring: UrlQuery,
        response: { 200: Embed },
      },
    },
    async (request) => {
      await authorizeSpace(app.db, caller(request).user.id, request.params.spaceId, 'read', 'read it');
      return embedOf(app, request.query.url);
    },
  );
}
