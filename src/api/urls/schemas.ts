import { Type } from 'typebox';

const Url = Type.String({ minLength: 1, maxLength: 2048, description: 'URL to resolve' });

export const UrlQuery = Type.Object({ url: Url });

export const PublishedQuery = Type.Object({
  url: Url,
  visitorAuthToken: Type.Optional(Type.String({ maxLength: 8192 })),
  redirectOnError: Type.Optional(Type.Boolean({ default: false })),
});

export const PublishedBody = Type.Object({
  url: Url,
  redirectOnError: Type.Optional(Type.Boolean({ default: false })),
  visitor: Type.Optional(
    Type.Object({
      type: Type.Optional(Type.Union([Type.Literal('human'), Type.Literal('agent')])),
      jwtToken: Type.Optional(Type.String({ maxLength: 8192 })),
      unsignedClaims: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
    }),
  ),
});

/** The official `PublishedSiteContentLookup`: a redirect, or the content the URL opens. */
export const PublishedLookup = Type.Object({
  target: Type.Optional(Type.String()),
  redirect: Type.Optional(Type.String()),
  site: Type.Optional(Type.String()),
  siteSection: Type.Optional(Type.String()),
  siteSpace: Type.Optional(Type.String()),
  space: Type.Optional(Type.String()),
  changeRequest: Type.Optional(Type.String()),
  revision: Type.Optional(Type.String()),
  pathname: Type.Optional(Type.String()),
  basePath: Type.Optional(Type.String()),
  siteBasePath: Type.Optional(Type.String()),
  apiToken: Type.Optional(Type.String()),
  organization: Type.Optional(Type.String()),
  shareKey: Type.Optional(Type.String()),
  complete: Type.Optional(Type.Boolean()),
  contextId: Type.Optional(Type.String()),
  canonicalUrl: Type.Optional(Type.String()),
  preview: Type.Optional(Type.Boolean()),
});

/** getContentByUrl: a collection, or a space with the change request and page the URL names. */
export const ContentLookup = Type.Object({
  collection: Type.Optional(Type.Unknown()),
  space: Type.Optional(Type.Unknown()),
  changeRequest: Type.Optional(Type.Unknown()),
  page: Type.Optional(Type.Unknown()),
});

/** The official `Embed` (of type `link`). */
export const Embed = Type.Object({
  type: Type.Literal('link'),
  title: Type.String(),
  site: Type.String(),
  icon: Type.Optional(Type.String()),
});

export const ApiInformation = Type.Object({ version: Type.String(), build: Type.String() });
