/**
 * How a custom hostname proves it is its claimant's: a DNS TXT record at
 * `_bindery-verification.<hostname>` holding `bindery-verification=<token>`, the token of that claim
 * (each claim has its own, so only whoever controls the zone can verify one). The lookup itself is
 * the app's `resolveTxt` (node:dns by default; tests inject their own).
 */

/** The TXT records at `name`, each as its strings (the shape of `node:dns` `resolveTxt`). */
export type ResolveTxt = (name: string) => Promise<string[][]>;

/** The record a claim of `hostname` with `token` asks for. */
export function verificationRecord(hostname: string, token: string) {
  return { type: 'TXT' as const, name: `_bindery-verification.${hostname}`, value: `bindery-verification=${token}` };
}

/** Whether one of `records` (a record's strings are joined, as DNS splits long ones) is `value`. */
export function holdsRecord(records: string[][], value: string): boolean {
  return records.some((chunks) => chunks.join('').trim() === value);
}

/**
 * A hostname as claimed: letters, digits and inner hyphens in at least three labels (the official
 * `SiteHostname`: `docs.example.com`, not `example.com`), at most 253 characters. Compared lower-case.
 */
export const HOSTNAME_PATTERN = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;
