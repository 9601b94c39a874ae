/**
 * Credentials never reach the request log: the published sites' `?share=`, `?jwt_token=` and
 * `?preview=` (and the API's `shareKey`, `access_token`) are redacted from every logged URL, and no
 * header is logged (so neither `Authorization` nor `Cookie`).
 */
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loggableUrl, serializeRequest } from '../../src/http/request-log.js';
import { createHarness, type Harness } from '../helpers/app.js';
import { publishedWorld } from '../helpers/published.js';

let h: Harness;
const lines: string[] = [];
beforeAll(async () => {
  h = await createHarness({
    env: { LOG_LEVEL: 'info' },
    logStream: { write: (text: string) => lines.push(...text.split('\n').filter((line) => line !== '')) },
  });
}, 120_000);
afterAll(async () => h?.close());

/** The log as written so far (the request lines are written once the turn's I/O is done). */
async function log(): Promise<string> {
  await new Promise((resolve) => setImmediate(resolve));
  return lines.join('\n');
}

const urlsOf = (text: string) =>
  text
    .split('\n')
    .map((line) => JSON.parse(line) as { req?: { url?: string } })
    .flatMap((entry) => (entry.req?.url ? [entry.req.url] : []));

describe('loggableUrl', () => {
  it('redacts the value of every credential parameter, however its name is written, and keeps the rest', () => {
    expect(loggableUrl('/sites/o/b/page?share=k3y&x=1')).toBe('/sites/o/b/page?share=[REDACTED]&x=1');
    expect(loggableUrl('/s?a=1&jwt_token=eyJ.x.y')).toBe('/s?a=1&jwt_token=[REDACTED]');
    expect(loggableUrl('/s?preview=eyJ.x.y&preview=again')).toBe('/s?preview=[REDACTED]&preview=[REDACTED]');
    expect(loggableUrl('/v1/orgs/o/sites/s/published?shareKey=abc')).toBe(
      '/v1/orgs/o/sites/s/published?shareKey=[REDACTED]',
    );
    expect(loggableUrl('/v1/user?access_token=t0k')).toBe('/v1/user?access_token=[REDACTED]');
    // Names the server would read the same way (URLSearchParams decodes them) or that differ in case.
    expect(loggableUrl('/s?jwt%5Ftoken=secret1&SHARE=secret2&%73hare=secret3')).toBe(
      '/s?jwt%5Ftoken=[REDACTED]&SHARE=[REDACTED]&%73hare=[REDACTED]',
    );
    expect(loggableUrl('/s?share')).toBe('/s?share=[REDACTED]');
    // Nothing to hide: the very same string.
    for (const url of ['/v1/user', '/v1/spaces?limit=2&page=abc', '/s?shared=1', '/s?q=%zz']) {
      expect(loggableUrl(url)).toBe(url);
    }
  });

  it('is what the `req` serializer logs (every entry that logs a request, errors included)', () => {
    const request = { method: 'GET', url: '/s?jwt_token=eyJ.secret', ip: '127.0.0.1', headers: {} };
    expect(serializeRequest(request as unknown as Parameters<typeof serializeRequest>[0])).toEqual({
      method: 'GET',
      url: '/s?jwt_token=[REDACTED]',
      remoteAddress: '127.0.0.1',
    });
  });
});

describe('the request log', () => {
  it('holds no share key, visitor token, preview token, bearer token or cookie of a request', async () => {
    const share = await publishedWorld(h, 'share-link');
    const link = await share.admin.client.post(`${share.api}/share-links`, { name: 'Partners' });
    const shareKey = new URL(link.body.urls.published).searchParams.get('share') as string;
    expect((await h.anonymous.get(`${share.base}?share=${shareKey}`)).status).toBe(302);
    expect((await h.anonymous.get(`${share.base}/installation?x=1&share=${shareKey}-wrong`)).status).toBe(404);
    const sharedCookie = `bindery_share_${share.siteId}=${shareKey}`;
    expect((await h.anonymous.request('GET', share.base, undefined, { cookie: sharedCookie })).status).toBe(200);

    const visitor = await publishedWorld(h, 'visitor-auth');
    const key = (await visitor.admin.client.get(`${visitor.api}/publishing/auth`)).body.privateKey as string;
    const jwt = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode(key));
    expect((await h.anonymous.get(`${visitor.base}?jwt_token=${jwt}`)).status).toBe(302);

    const preview = (await visitor.admin.client.get(`${visitor.api}/publishing/preview`)).body.url as string;
    const previewToken = new URL(preview).searchParams.get('preview') as string;
    expect((await h.anonymous.get(new URL(preview).pathname + new URL(preview).search)).status).toBe(302);

    const api = await h.anonymous.request(
      'GET',
      `/v1/orgs/${share.orgId}?access_token=${share.admin.token}`,
      undefined,
      {
        authorization: `Bearer ${share.admin.token}`,
      },
    );
    expect(api.status).toBe(200);

    const text = await log();
    for (const secret of [shareKey, jwt, previewToken, share.admin.token]) expect(text).not.toContain(secret);
    const urls = urlsOf(text);
    expect(urls).toContain(`${share.base}?share=[REDACTED]`);
    expect(urls).toContain(`${share.base}/installation?x=1&share=[REDACTED]`);
    expect(urls).toContain(`${visitor.base}?jwt_token=[REDACTED]`);
    expect(urls.some((url) => url.endsWith('?preview=[REDACTED]'))).toBe(true);
    expect(urls).toContain(`/v1/orgs/${share.orgId}?access_token=[REDACTED]`);
    expect(text).not.toMatch(/cookie|authorization/i);
  });
});
