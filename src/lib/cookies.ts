/** Reading and writing the session cookie's header (RFC 6265), without a dependency. */

/** The value of cookie `name` in a `Cookie` header (the first one when it comes twice); null when absent. */
export function cookieValue(header: string | undefined, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() !== name) continue;
    let value = part.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1);
    return value === '' ? null : value;
  }
  return null;
}

export interface CookieOptions {
  /** Seconds; 0 deletes the cookie. */
  maxAge: number;
  secure: boolean;
}

/** A `Set-Cookie` value: HttpOnly, `Path=/`, `SameSite=Lax`, and `Secure` when asked. */
export function setCookieHeader(name: string, value: string, options: CookieOptions): string {
  const parts = [`${name}=${value}`, 'Path=/', 'HttpOnly', 'SameSite=Lax', `Max-Age=${Math.floor(options.maxAge)}`];
  if (options.maxAge <= 0) parts.push('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  if (options.secure) parts.push('Secure');
  return parts.join('; ');
}
