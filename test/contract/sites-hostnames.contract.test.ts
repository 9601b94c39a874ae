/**
 * Contract test of where sites live: custom hostnames and subdomains, through the official
 * `@gitbook/api` client (bodies validated against the official document; the claim, which the
 * official document has no operation for, with fetch). DNS is a stand-in the test controls: a claim
 * stays pending until its TXT record is there, then the published site answers on that `Host`.
 */
import { describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { edit } from '../helpers/published.js';
import { contractServer, newMember, newOrg, useContractServer } from './server.js';
import { expectApiError, expectConforms, expectOperationsCovered, validateAgainst } from './validate.js';

/** The TXT records the stand-in DNS answers, by name; any other name does not exist. */
const zone = new Map<string, string[][]>();
useContractServer({
  resolveTxt: async (name) => {
    const records = zone.get(name);
    if (!records) throw Object.assign(new Error(`queryTxt ENOTFOUND ${name}`), { code: 'ENOTFOUND' });
    return records;
  },
});

const OPERATIONS = [
  'getCustomHostname',
  'dnsRevalidateCustomHostname',
  'removeCustomHostname',
  'getSubdomain',
] as const;

const freshHost = (label: string) => `${label}.${newId(8).toLowerCase()}.test`;

interface Tenant {
  orgId: string;
  token: string;
  api: Awaited<ReturnType<typeof newOrg>>['api'];
  siteId: string;
  marker: string;
}

/** An organization with a published site whose page says `marker`. */
async function tenant(marker: string): Promise<Tenant> {
  const org = await newOrg();
  const c = org.admin.client;
  const spaceId = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Handbook' })).body.id as string;
  await edit(c, spaceId, [
    () => [{ operation: 'insert_page', title: 'Welcome', document: { markdown: `${marker} lives here.` } }],
  ]);
  const site = await c.post(`/v1/orgs/${org.id}/sites`, { title: 'Docs', spaces: [spaceId] });
  expect((await c.post(`/v1/orgs/${org.id}/sites/${site.body.id}/publish`)).status).toBe(200);
  return { orgId: org.id, token: org.admin.token, api: org.api, siteId: site.body.id, marker };
}

/** `PUT /v1/custom-hostnames/{hostname}` as `token`. */
async function claim(token: string, hostname: string, site: string) {
  const res = await fetch(`${contractServer().endpoint}/v1/custom-hostnames/${encodeURIComponent(hostname)}`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ site }),
  });
  return { status: res.status, body: (await res.json()) as any };
}

/** The published page at `/docs` on `host`. */
const onHost = (host: string) => contractServer().harness.anonymous.request('GET', '/docs', undefined, { host });

describe('custom hostnames', () => {
  it('pending until the TXT record exists, then served on that Host; removal stops it', async () => {
    const a = await tenant(`Alpha-${newId(6)}`);
    const host = freshHost('docs');
    const claimed = await claim(a.token, host.toUpperCase(), a.siteId);
    expect(claimed.status).toBe(201);
    expect(validateAgainst('#/components/schemas/CustomHostname', claimed.body)).toEqual([]);
    expect(claimed.body).toMatchObject({ hostname: host, isActive: false, target: { type: 'site', site: a.siteId } });
    const { name, value } = claimed.body.verification as { name: string; value: string };
    expect(name).toBe(`_bindery-verification.${host}`);
    // Claiming it again changes nothing (same token).
    const again = await claim(a.token, host, a.siteId);
    expect(again.status).toBe(200);
    expect(again.body.verification.value).toBe(value);

    // No record yet: the check changes nothing; nothing is served there.
    await expectConforms('dnsRevalidateCustomHostname', a.api.customHostnames.dnsRevalidateCustomHostname(host), 204);
    let read = await expectConforms('getCustomHostname', a.api.customHostnames.getCustomHostname(host), 200);
    expect(read.data.isActive).toBe(false);
    expect((await onHost(host)).body).not.toContain(a.marker);
    // A record of another value is not the claim's.
    zone.set(name, [['bindery-verification=someone-else']]);
    await a.api.customHostnames.dnsRevalidateCustomHostname(host);
    expect((await a.api.customHostnames.getCustomHostname(host)).data.isActive).toBe(false);

    // The record: verified, served on that Host (any case), shown on the Site.
    zone.set(name, [['v=spf1 -all'], [value.slice(0, 10), value.slice(10)]]);
    await expectConforms('dnsRevalidateCustomHostname', a.api.customHostnames.dnsRevalidateCustomHostname(host), 204);
    read = await expectConforms('getCustomHostname', a.api.customHostnames.getCustomHostname(host.toUpperCase()), 200);
    expect(read.data).toMatchObject({ isActive: true, status: 'live' });
    const page = await onHost(host.toUpperCase());
    expect(page.status).toBe(200);
    expect(page.body).toContain(a.marker);
    const site = await a.api.orgs.getSiteById(a.orgId, a.siteId);
    expect(site.data.hostname).toBe(host);
    expect(site.data.urls.published).toBe(`https://${host}/docs`);

    await expectConforms('removeCustomHostname', a.api.customHostnames.removeCustomHostname(host), 205);
    expect((await onHost(host)).body).not.toContain(a.marker);
    await expectConforms('removeCustomHostname', a.api.customHostnames.removeCustomHostname(host), 204);
    await expectApiError('getCustomHostname', a.api.customHostnames.getCustomHostname(host), 404);
    expect((await a.api.orgs.getSiteById(a.orgId, a.siteId)).data.hostname).toBeUndefined();
    zone.delete(name);
  });

  it('another organization cannot claim, verify, read or remove a verified hostname', async () => {
    const a = await tenant(`Owner-${newId(6)}`);
    const b = await tenant(`Taker-${newId(6)}`);
    const host = freshHost('help');
    // Both claim it while it is pending: a pending claim blocks nobody.
    const mine = await claim(a.token, host, a.siteId);
    const theirs = await claim(b.token, host, b.siteId);
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.verification.value).not.toBe(mine.body.verification.value);
    zone.set(mine.body.verification.name, [[mine.body.verification.value]]);
    await a.api.customHostnames.dnsRevalidateCustomHostname(host);
    // B's record would be there too: the hostname is A's now (409), whatever the case.
    zone.set(mine.body.verification.name, [[mine.body.verification.value], [theirs.body.verification.value]]);
    await expectApiError('dnsRevalidateCustomHostname', b.api.customHostnames.dnsRevalidateCustomHostname(host), 409);
    for (const taken of [host, host.toUpperCase()]) {
      const res = await claim(b.token, taken, b.siteId);
      expect(res.status, taken).toBe(409);
      expect(res.body.error.code).toBe(409);
    }
    // B sees its own pending claim, never A's; removing drops only its own.
    expect((await b.api.customHostnames.getCustomHostname(host)).data).toMatchObject({
      isActive: false,
      target: { site: b.siteId },
    });
    await expectConforms('removeCustomHostname', b.api.customHostnames.removeCustomHostname(host), 205);
    await expectApiError('getCustomHostname', b.api.customHostnames.getCustomHostname(host), 404);
    await expectConforms('removeCustomHostname', b.api.customHostnames.removeCustomHostname(host), 204);
    const page = await onHost(host);
    expect(page.body).toContain(a.marker);
    expect(page.body).not.toContain(b.marker);
    // B's site cannot claim it through a proxy either.
    const proxied = await b.api.orgs.updateSiteById(b.orgId, b.siteId, { proxy: `${host}/docs` }).catch((e) => e);
    expect(proxied.code ?? proxied.status).toBe(400);
    // Another site of A's organization cannot take it either.
    const other = await a.api.orgs.createSite(a.orgId, { title: 'Other' });
    expect((await claim(a.token, host, other.data.id)).status).toBe(409);
    await a.api.customHostnames.removeCustomHostname(host);
  });

  it("an organization's operator-set hostname cannot be claimed by another (409)", async () => {
    const a = await tenant(`Operator-${newId(6)}`);
    const b = await tenant(`Other-${newId(6)}`);
    const host = freshHost('www');
    await contractServer()
      .harness.db.updateTable('organizations')
      .set({ custom_hostname: host })
      .where('id', '=', a.orgId)
      .execute();
    expect((await claim(b.token, host, b.siteId)).status).toBe(409);
    const read = await expectConforms('getCustomHostname', a.api.customHostnames.getCustomHostname(host), 200);
    expect(read.data.target).toEqual({ type: 'organization', organization: a.orgId });
    await expectApiError('getCustomHostname', b.api.customHostnames.getCustomHostname(host), 404);
    await contractServer()
      .harness.db.updateTable('organizations')
      .set({ custom_hostname: null })
      .where('id', '=', a.orgId)
      .execute();
  });

  it('authorization and bad input', async () => {
    const a = await tenant(`Auth-${newId(6)}`);
    const host = freshHost('auth');
    const reader = await newMember(a.orgId, 'read');
    const outsider = await newOrg();
    // Only a site admin claims; a reader can see the site (403), an outsider cannot (404).
    expect((await claim(reader.token, host, a.siteId)).status).toBe(403);
    expect((await claim(outsider.admin.token, host, a.siteId)).status).toBe(404);
    expect((await claim(a.token, host, 'nosuchsite')).status).toBe(404);
    expect((await claim(a.token, host, a.siteId)).status).toBe(201);
    await expectConforms('getCustomHostname', reader.api.customHostnames.getCustomHostname(host), 200);
    await expectApiError(
      'dnsRevalidateCustomHostname',
      reader.api.customHostnames.dnsRevalidateCustomHostname(host),
      403,
    );
    await expectApiError('removeCustomHostname', reader.api.customHostnames.removeCustomHostname(host), 403);
    await expectApiError('getCustomHostname', outsider.api.customHostnames.getCustomHostname(host), 404);
    await expectApiError(
      'dnsRevalidateCustomHostname',
      outsider.api.customHostnames.dnsRevalidateCustomHostname(host),
      404,
    );
    await expectConforms('removeCustomHostname', outsider.api.customHostnames.removeCustomHostname(host), 204);
    // Not a hostname of at least three labels, or this server's own: 400.
    for (const bad of [
      'example.test',
      'a b.example.test',
      '-x.example.test',
      'x..example.test',
      'bindery.test',
      'docs.exa_mple.test',
    ]) {
      const res = await claim(a.token, bad, a.siteId);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.code).toBe(400);
    }
    const noBody = await fetch(`${contractServer().endpoint}/v1/custom-hostnames/${host}`, {
      method: 'PUT',
      headers: { authorization: `Bearer ${a.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ site: a.siteId, extra: 1 }),
    });
    expect(noBody.status).toBe(400);
  });
});

describe('subdomains', () => {
  it("an organization's address, for its members", async () => {
    const a = await tenant(`Sub-${newId(6)}`);
    const subdomain = `sub-${newId(8).toLowerCase()}`;
    expect((await a.api.orgs.updateOrganizationById(a.orgId, { hostname: subdomain })).status).toBe(200);
    const res = await expectConforms('getSubdomain', a.api.subdomains.getSubdomain(subdomain), 200);
    expect(res.data).toEqual({
      object: 'subdomain',
      subdomain,
      target: { type: 'organization', organization: a.orgId },
      isActive: true,
    });
    const outsider = await newOrg();
    await expectApiError('getSubdomain', outsider.api.subdomains.getSubdomain(subdomain), 404);
    await expectApiError('getSubdomain', a.api.subdomains.getSubdomain(`none-${newId(6).toLowerCase()}`), 404);
    await expectApiError('getSubdomain', a.api.subdomains.getSubdomain('A_B'), 400);
  });

  it('covers every operation', () => {
    expectOperationsCovered(OPERATIONS);
  });
});
