/**
 * Serving a published site: one entry point for both ways a site is reached (under
 * `PUBLIC_URL/sites/<org>/<basename>`, or on its own host), which decides access, then answers the
 * address: assets, files, search, the machine-readable files (sitemap, robots, llms), or a page.
 * Pages and Markdown come from the render cache, with an ETag honoured through `If-None-Match`.
 */
import { createHash } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { signingKey } from '../core/keys.js';
import { secretsKey } from '../core/secrets.js';
import { SYSTEM_ACTOR } from '../core/service.js';
import type { App } from '../http/app.js';
import { siteCustomization, siteSpaceCustomization } from '../sites/customization.js';
import { readBlob } from '../storage/files.js';
import { decideAccess, parseCookies, setCookie, unsignedClaims } from './access.js';
import { withoutHiddenHeaderItems } from './adaptive.js';
import type { Address } from './address.js';
import { type Generation, Memo, RenderCache, type Rendered, rendered } from './cache.js';
import { feedbackRoute } from './feedback.js';
import { fileType, securityHeaders } from './headers.js';
import { machineFile } from './machine.js';
import { hasConditions, loadSiteModel, previewView, readableSiteSpaces, type SiteModel, visitorView } from './model.js';
import { SiteReader, type SpaceContent } from './reader.js';
import type { Shell } from './render/layout.js';
import { pageMarkdown } from './render/markdown.js';
import { SITE_SCRIPT } from './render/script.js';
import { STYLESHEET } from './render/styles.js';

/**
 * The HTML renderer (hast, and shiki for code blocks) is loaded with the first page a process
 * renders, not at start-up: it is a large share of idle memory, and an API-only process never uses it.
 */
const renderer = () => import('./render/pages.js');

const asset = (body: string) => ({ body, hash: createHash('sha1').update(body).digest('hex').slice(0, 12) });
const CSS = asset(STYLESHEET);
const JS = asset(SITE_SCRIPT);

export class PublishedSites {
  /** Each site's model, kept until the data changes (src/published/cache.ts). */
  readonly models: Memo<SiteModel | null>;
  readonly renders = new RenderCache();

  /** @param generation the change feed's data generation (src/http/change-feed.ts). */
  constructor(
    readonly app: App,
    readonly generation: Generation,
  ) {
    this.models = new Memo<SiteModel | null>(generation);
  }

  model(siteId: string): Promise<SiteModel | null> {
    return this.models.get(siteId, () =>
      loadSiteModel(this.app.db, siteId, () => secretsKey(this.app.db, this.app.config.secretsKey, this.app.log)),
    );
  }

  async serve(request: FastifyRequest, reply: FastifyReply, address: Address): Promise<FastifyReply> {
    const segments = address.rest.split('/').filter(Boolean);
    // Whatever is answered; an HTML page sets its own policy when it is sent.
    securityHeaders(reply, 'resource');
    // Static assets are the same for every site and reveal nothing: served before any access check.
    if (segments[0] === '~assets' && segments.length === 2) return this.asset(reply, segments[1] as string);
    // The one address a site answers a POST at: the page feedback form.
    const feedback = request.method === 'POST';
    if (feedback && address.rest !== '/~feedback') return bare(reply, 404);

    const model = await this.model(address.siteId);
    if (!model) return bare(reply, 404);
    const url = request.url;
    const query = new URLSearchParams(url.includes('?') ? url.slice(url.indexOf('?') + 1) : '');
    const cookies = parseCookies(request.headers.cookie);
    const access = await decideAccess(model, {
      query,
      cookies,
      url,
      returnTo: `${address.origin}${address.basePath}${address.rest}`,
      signingKey: () => signingKey(this.app.db),
    });
    switch (access.kind) {
      case 'not-found':
        return bare(reply, 404);
      case 'unauthorized':
        return bare(reply, 401);
      case 'login':
        return reply.code(302).header('cache-control', 'no-store').redirect(access.location);
      case 'remember':
        reply.header('set-cookie', setCookie(access.cookie, address.basePath, address.secure));
        return reply.code(302).header('cache-control', 'no-store').redirect(access.location);
      default:
        break;
    }

    const isPublic = model.site.visibility === 'public' && !access.preview;
    // Adaptive content: what a visitor sees depends on their claims, so no shared cache may keep it.
    const adaptive = hasConditions(model);
    reply.header('cache-control', isPublic && !adaptive ? 'public, max-age=0, must-revalidate' : 'private, no-cache');
    if (!isPublic) reply.header('x-robots-tag', 'noindex');
    let view = model;
    if (adaptive) {
      const unsigned = unsignedClaims(query, cookies, model.site.id);
      if (unsigned.cookie) reply.header('set-cookie', setCookie(unsigned.cookie, address.basePath, address.secure));
      view = visitorView(model, { claims: { ...access.claims, unsigned: unsigned.claims } });
    }
    if (access.siteSpace !== undefined) view = previewView(view, access.siteSpace);
    return this.answer(request, reply, address, view, { isPublic, version: model.version, query, feedback });
  }

  /**
   * Answers `address` from `view`, the site as this reader sees it (access decided): the site's
   * files, search, machine-readable files and pages. `version` keys the render cache: equal
   * versions render equal pages. A change request's preview (./change-preview.ts) has no feedback,
   * search or machine-readable files: they would read or write the live site.
   */
  async answer(
    request: FastifyRequest,
    reply: FastifyReply,
    address: Address,
    view: SiteModel,
    options: { isPublic: boolean; version: string; query: URLSearchParams; feedback: boolean; preview?: boolean },
  ): Promise<FastifyReply> {
    const { isPublic, query, feedback } = options;
    // A change request's preview has no search (it would search the live site): no search box either.
    const search = !options.preview;
    const segments = address.rest.split('/').filter(Boolean);
    const reader = new SiteReader(this.app.db, view, address.basePath);

    let decoded: string[];
    try {
      decoded = segments.map((s) => decodeURIComponent(s));
    } catch {
      return this.send(request, reply, await this.missing(reader, null, address, isPublic, search));
    }
    if (feedback)
      return feedbackRoute(
        { db: this.app.db, urls: this.app.urls, actor: SYSTEM_ACTOR },
        request,
        reply,
        reader,
        address,
      );
    if (decoded[0] === '~files') return this.file(reply, view, decoded);
    const searching = decoded[0] === '~search' || decoded[0] === '~search.json' || decoded[0] === '~ask';
    if (searching && options.preview) return bare(reply, 404);
    if (searching) {
      const { searchRoute } = await import('./search-pages.js');
      return searchRoute(
        { ai: this.app.config.ai, log: this.app.log },
        request,
        reply,
        reader,
        decoded[0] as string,
        query,
        (content) => this.shell(reader, content, !isPublic),
      );
    }
    // What the visitor may not see, unambiguously (header conditions are free text) and briefly.
    const hidden =
      view.hidden.size > 0
        ? createHash('sha256')
            .update(JSON.stringify([...view.hidden].sort()))
            .digest('base64url')
        : '';
    const key = `${options.version}|${hidden}|${address.origin}${address.basePath}|${isPublic ? 'p' : 'n'}|${decoded.join('/')}`;
    if (decoded.length === 1 && !options.preview) {
      const machine = await this.renders.through(
        `${key}|machine`,
        async () => (await machineFile(reader, decoded[0] as string, isPublic, address.origin)) ?? rendered(0, '', ''),
      );
      if (machine.status !== 0) return this.send(request, reply, machine);
    }

    const place = await reader.resolve(decoded);
    if (place.kind === 'redirect') return reply.code(place.status).redirect(place.location);
    const result = await this.renders.through(key, async () => {
      if (place.kind === 'missing') return this.missing(reader, place.content, address, isPublic, search);
      if (place.markdown) {
        return rendered(
          200,
          'text/markdown; charset=utf-8',
          await pageMarkdown(reader, place.content, place.entry, address.origin),
        );
      }
      const shell = this.shell(reader, place.content, !isPublic, search);
      const { renderContentPage } = await renderer();
      const html = await renderContentPage(
        shell,
        place.content,
        place.entry,
        (path) => `${address.origin}${reader.href(path)}`,
      );
      return rendered(200, 'text/html; charset=utf-8', html);
    });
    return this.send(request, reply, result);
  }

  /** The page shell of `content`'s site space (or of the site as a whole). */
  shell(reader: SiteReader, content: SpaceContent | null, noindex: boolean, search = true): Shell {
    const { site, hidden } = reader.model;
    const customization = content ? siteSpaceCustomization(site, content.siteSpace) : siteCustomization(site);
    return {
      reader,
      customization: withoutHiddenHeaderItems(customization, hidden),
      section: content ? content.section : reader.defaultSection(),
      content,
      assets: {
        css: reader.href(`/~assets/site-${CSS.hash}.css`),
        js: reader.href(`/~assets/site-${JS.hash}.js`),
      },
      noindex,
      search,
    };
  }

  private async missing(
    reader: SiteReader,
    content: SpaceContent | null,
    address: Address,
    isPublic: boolean,
    search = true,
  ) {
    const fallback = content ?? (await this.defaultContent(reader));
    void address;
    const { renderMissingPage } = await renderer();
    return rendered(
      404,
      'text/html; charset=utf-8',
      await renderMissingPage(this.shell(reader, fallback, !isPublic, search)),
    );
  }

  private async defaultContent(reader: SiteReader): Promise<SpaceContent | null> {
    const siteSpace = reader.defaultSiteSpace(reader.defaultSection());
    return siteSpace ? reader.content(siteSpace) : null;
  }

  /** Sends a rendered response, or 304 when the reader already has it. */
  send(request: FastifyRequest, reply: FastifyReply, result: Rendered): FastifyReply {
    reply.header('etag', result.etag);
    // Before a 304 too: the browser takes a 304's headers as the new headers of the page it keeps.
    if (result.type.startsWith('text/html')) securityHeaders(reply, 'page');
    const match = request.headers['if-none-match'];
    if (
      result.status === 200 &&
      match &&
      match.split(',').some((tag) => tag.trim().replace(/^W\//, '') === result.etag)
    ) {
      return reply.code(304).send();
    }
    return reply.code(result.status).type(result.type).send(result.body);
  }

  private async asset(reply: FastifyReply, name: string): Promise<FastifyReply> {
    const found =
      name === `site-${CSS.hash}.css`
        ? { body: CSS.body, type: 'text/css; charset=utf-8' }
        : name === `site-${JS.hash}.js`
          ? { body: JS.body, type: 'text/javascript; charset=utf-8' }
          : null;
    if (!found) return bare(reply, 404);
    return reply.header('cache-control', 'public, max-age=31536000, immutable').type(found.type).send(found.body);
  }

  /** `~files/<spaceId>/<fileId>/<name>`: a file of the live revision of one of the site's spaces. */
  private async file(reply: FastifyReply, model: SiteModel, decoded: string[]): Promise<FastifyReply> {
    const [, spaceId, fileId] = decoded;
    const space = spaceId ? model.spaces.get(spaceId) : undefined;
    const reader = new SiteReader(this.app.db, model, '');
    const siteSpace = space ? readableSiteSpaces(model).find((s) => s.space_id === space.id) : undefined;
    const content = siteSpace ? await reader.content(siteSpace) : null;
    const file = content?.snapshot.files.find((f) => f.id === fileId);
    const bytes = file ? await readBlob(this.app.db, file.blob) : undefined;
    if (!file || !bytes) return bare(reply, 404);
    const inline = file.contentType.startsWith('image/') && file.contentType !== 'image/svg+xml';
    return securityHeaders(reply, 'file')
      .type(fileType(file.contentType))
      .header('etag', `"${file.blob}"`)
      .header(
        'content-disposition',
        `${inline ? 'inline' : 'attachment'}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
      )
      .send(bytes);
  }
}

/** A bare page that reveals nothing of the site. */
export async function bare(reply: FastifyReply, status: 401 | 404): Promise<FastifyReply> {
  const { renderBarePage } = await renderer();
  const [heading, message] =
    status === 401
      ? ['Authentication required', 'You need to sign in to read this site.']
      : ['Page not found', 'There is no site or page at this address.'];
  return securityHeaders(reply, 'page')
    .code(status)
    .header('cache-control', 'no-store')
    .header('x-robots-tag', 'noindex')
    .type('text/html; charset=utf-8')
    .send(renderBarePage(heading, message));
}
