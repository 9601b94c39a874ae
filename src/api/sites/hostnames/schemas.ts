import { Type } from 'typebox';
import { StringEnum } from '../../../lib/schemas.js';

/** Any case; compared lower-case, checked against the official `SiteHostname` by the service (400). */
export const HostnameParams = Type.Object({ hostname: Type.String({ minLength: 1, maxLength: 512 }) });
export const SubdomainParams = Type.Object({
  subdomain: Type.String({ pattern: '^[a-z0-9][a-z0-9-]{1,30}[a-z0-9]$', minLength: 3, maxLength: 32 }),
});

/** `PUT /custom-hostnames/{hostname}` (Bindery's: the official document has no way to set one). */
export const SetCustomHostnameBody = Type.Object(
  { site: Type.String({ minLength: 1, description: 'ID of the site the hostname is for' }) },
  { additionalProperties: false },
);

const Target = Type.Union([
  Type.Object({ type: Type.Literal('organization'), organization: Type.String() }),
  Type.Object({ type: Type.Literal('site'), site: Type.String() }),
]);

export const CustomHostname = Type.Object({
  object: Type.Literal('custom-hostname'),
  hostname: Type.String(),
  target: Target,
  isActive: Type.Boolean(),
  /** `live` once verified; `dns_no_cname` while the DNS record is not found. */
  status: Type.Optional(StringEnum(['live', 'dns_no_cname'])),
  /** The TXT record that verifies the claim (Bindery's; absent for an operator's hostname). */
  verification: Type.Optional(Type.Object({ type: Type.Literal('TXT'), name: Type.String(), value: Type.String() })),
  urls: Type.Object({ location: Type.String() }),
});

export const Subdomain = Type.Object({
  object: Type.Literal('subdomain'),
  subdomain: Type.String(),
  target: Type.Object({ type: Type.Literal('organization'), organization: Type.String() }),
  isActive: Type.Boolean(),
});
