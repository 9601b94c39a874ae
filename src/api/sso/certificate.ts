/**
 * Identity providers' signing certificates. Admins paste them as PEM or, as SAML metadata carries
 * them, as the bare base64 of the DER; either is parsed here (so a wrong one is a 400 when it is
 * given, not a failed sign-in later) and stored as PEM.
 */
import { X509Certificate } from 'node:crypto';

/** The certificate as PEM, or null when `text` is not one X.509 certificate. */
export function normalizeCertificate(text: string): string | null {
  const body = text.replace(/-----(BEGIN|END) CERTIFICATE-----/g, '').replace(/\s+/g, '');
  if (body === '' || !/^[A-Za-z0-9+/]+={0,2}$/.test(body)) return null;
  try {
    new X509Certificate(Buffer.from(body, 'base64'));
  } catch {
    return null;
  }
  const lines = body.match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----`;
}
