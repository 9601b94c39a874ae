/**
 * New ids for what the editor adds to a table (a record, a column): random, in the shape of the
 * format's keys (20 letters and digits, as the app's new block keys), so that a new row can never
 * take the id of a row deleted earlier (a comment on that row's cell would then point at it) nor of
 * another writer's new row merged alongside, as positional ids (`row3`) could.
 */
const ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function newTableId(): string {
  // Web Crypto: the same in browsers and Node (globalThis.crypto); 256 = 4 × 62 + 8, a small bias is harmless here.
  const bytes = globalThis.crypto.getRandomValues(new Uint8Array(20));
  return Array.from(bytes, (byte) => ALPHABET[byte % ALPHABET.length]).join('');
}
