import type { Static } from 'typebox';
import type { CustomHostnameRow } from '../../../db/schema.js';
import { verificationRecord } from '../../../lib/dns.js';
import type { Urls } from '../../../lib/urls.js';
import type { CustomHostname } from './schemas.js';

const location = (urls: Urls, hostname: string) => urls.api(`/custom-hostnames/${encodeURIComponent(hostname)}`);

/** A site's claim: active once verified, with the TXT record that verifies it. */
export function presentClaim(claim: CustomHostnameRow, urls: Urls): Static<typeof CustomHostname> {
  const active = claim.verified_at !== null;
  return {
    object: 'custom-hostname',
    hostname: claim.hostname,
    target: { type: 'site', site: claim.site_id },
    isActive: active,
    status: active ? 'live' : 'dns_no_cname',
    verification: verificationRecord(claim.hostname, claim.token),
    urls: { location: location(urls, claim.hostname) },
  };
}

/** An organization's custom hostname, which an operator sets (served as soon as it is set). */
export function presentOrganizationHostname(
  hostname: string,
  organizationId: string,
  urls: Urls,
): Static<typeof CustomHostname> {
  return {
    object: 'custom-hostname',
    hostname,
    target: { type: 'organization', organization: organizationId },
    isActive: true,
    status: 'live',
    urls: { location: location(urls, hostname) },
  };
}
