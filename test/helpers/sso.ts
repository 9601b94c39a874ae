/**
 * Real peers for the single sign-on tests: an OpenID Connect provider (`oidc-provider` with its
 * development login and consent pages) on loopback, and a browser stand-in that follows redirects
 * and submits forms with a cookie jar per origin, as a person's browser would.
 */
import http from 'node:http';
import Provider from 'oidc-provider';

import { freePort } from './ports.js';

export { freePort };

export interface TestAccount {
  email: string;
  email_verified: boolean;
  name?: string;
}

export interface TestOidcProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  close(): Promise<void>;
}

/** An OpenID Connect provider whose accounts are `accounts` (the login page takes their ids). */
export async function startOidcProvider(
  redirectUri: string,
  accounts: Record<string, TestAccount>,
): Promise<TestOidcProvider> {
  const port = await freePort();
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'bindery';
  const clientSecret = 'a-client-secret-for-the-tests-only';
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: [redirectUri],
        response_types: ['code'],
        grant_types: ['authorization_code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: ['test-cookie-key'] },
    async findAccount(_ctx, id) {
      const account = accounts[id];
      if (!account) return undefined;
      return { accountId: id, claims: async () => ({ sub: id, ...account }) };
    },
  });
  const server = http.createServer(provider.callback());
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    issuer,
    clientId,
    clientSecret,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export interface Hop {
  url: string;
  status: number;
  location: string | null;
  text: string;
}

/** A browser stand-in: cookies per origin, redirects followed, forms submitted. */
export class Browser {
  private readonly jars = new Map<string, Map<string, string>>();

  cookies(origin: string): Map<string, string> {
    let jar = this.jars.get(origin);
    if (!jar) {
      jar = new Map();
      this.jars.set(origin, jar);
    }
    return jar;
  }

  /** One request, its cookies kept; no redirect followed. */
  async request(url: string, init: { method?: string; form?: Record<string, string> } = {}): Promise<Hop> {
    const { origin } = new URL(url);
    const jar = this.cookies(origin);
    const headers: Record<string, string> = {};
    if (jar.size > 0) headers.cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    if (init.form) headers['content-type'] = 'application/x-www-form-urlencoded';
    const res = await fetch(url, {
      method: init.method ?? (init.form ? 'POST' : 'GET'),
      headers,
      body: init.form ? new URLSearchParams(init.form).toString() : undefined,
      redirect: 'manual',
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attributes] = line.split(';');
      const eq = (pair as string).indexOf('=');
      const name = (pair as string).slice(0, eq).trim();
      const value = (pair as string).slice(eq + 1).trim();
      const gone =
        value === '' || attributes.some((a) => /^\s*max-age=0\s*$/i.test(a) || /^\s*expires=thu, 01 jan 1970/i.test(a));
      if (gone) jar.delete(name);
      else jar.set(name, value);
    }
    const location = res.headers.get('location');
    return { url, status: res.status, location: location ? new URL(location, url).href : null, text: await res.text() };
  }

  /** Follows redirects from `url` until an answer that is not one (or `stop` says so); every hop. */
  async follow(url: string, stop: (next: string) => boolean = () => false): Promise<Hop[]> {
    const hops: Hop[] = [];
    let next: string | null = url;
    let init: { form?: Record<string, string> } = {};
    while (next && hops.length < 20) {
      const hop = await this.request(next, init);
      hops.push(hop);
      init = {};
      next = hop.status >= 300 && hop.status < 400 ? hop.location : null;
      if (next && stop(next)) break;
    }
    return hops;
  }
}

/** The form of an HTML page: its action (absolute) and its hidden fields. */
export function formOf(page: Hop): { action: string; fields: Record<string, string> } {
  const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(page.text);
  if (!form) throw new Error(`no form at ${page.url} (${page.status}): ${page.text.slice(0, 200)}`);
  const fields: Record<string, string> = {};
  for (const input of (form[2] as string).matchAll(
    /<input[^>]*type="hidden"[^>]*name="([^"]+)"[^>]*value="([^"]*)"/g,
  )) {
    fields[input[1] as string] = input[2] as string;
  }
  return { action: new URL((form[1] as string).replace(/&amp;/g, '&'), page.url).href, fields };
}
