/**
 * A self-signed X.509 certificate for a key pair made with node:crypto, written in DER by hand
 * (node:crypto parses certificates but does not make them, and no certificate library is a
 * dependency): enough for an identity provider of the tests to sign with.
 */
import { createSign, generateKeyPairSync, type KeyObject, randomBytes, X509Certificate } from 'node:crypto';

function length(n: number): Buffer {
  if (n < 0x80) return Buffer.from([n]);
  const bytes: number[] = [];
  for (let v = n; v > 0; v >>= 8) bytes.unshift(v & 0xff);
  return Buffer.from([0x80 | bytes.length, ...bytes]);
}
const tlv = (tag: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const seq = (...content: Buffer[]) => tlv(0x30, ...content);
const set = (...content: Buffer[]) => tlv(0x31, ...content);
const int = (bytes: Buffer) =>
  tlv(0x02, bytes[0] !== undefined && bytes[0] & 0x80 ? Buffer.concat([Buffer.from([0]), bytes]) : bytes);
const oid = (text: string) => {
  const [a, b, ...rest] = text.split('.').map(Number) as [number, number, ...number[]];
  const out = [40 * a + b];
  for (const n of rest) {
    const chunk = [n & 0x7f];
    for (let v = n >> 7; v > 0; v >>= 7) chunk.unshift((v & 0x7f) | 0x80);
    out.push(...chunk);
  }
  return tlv(0x06, Buffer.from(out));
};
const utf8 = (text: string) => tlv(0x0c, Buffer.from(text, 'utf8'));
const time = (date: Date) => tlv(0x17, Buffer.from(`${date.toISOString().slice(2, 19).replace(/[-T:]/g, '')}Z`));
const SHA256_RSA = seq(oid('1.2.840.113549.1.1.11'), Buffer.from([0x05, 0x00]));

/**
 * A positive serial number of 8 random bytes whose first is not 0: DER wants an INTEGER's shortest
 * form, and a leading zero byte before one without its high bit (1 in 128 of the random serials this
 * helper made before) made the certificate unreadable.
 */
function serialNumber(): Buffer {
  const bytes = randomBytes(8);
  bytes[0] = ((bytes[0] as number) & 0x7f) | 0x01;
  return bytes;
}

export interface TestKeyPair {
  privateKey: KeyObject;
  /** The self-signed certificate, PEM. */
  certificate: string;
  /** The certificate's DER in base64, as SAML metadata carries it. */
  certificateBase64: string;
}

/** A new RSA key pair and a self-signed certificate for it, valid from yesterday for a year. */
export function selfSignedKeyPair(commonName = 'Test IdP'): TestKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const name = seq(set(seq(oid('2.5.4.3'), utf8(commonName))));
  const now = Date.now();
  const tbs = seq(
    tlv(0xa0, int(Buffer.from([2]))),
    int(serialNumber()),
    SHA256_RSA,
    name,
    seq(time(new Date(now - 86_400_000)), time(new Date(now + 365 * 86_400_000))),
    name,
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = createSign('sha256').update(tbs).sign(privateKey);
  const der = seq(tbs, SHA256_RSA, tlv(0x03, Buffer.from([0]), signature));
  new X509Certificate(der); // fails here rather than in the test when the encoding is wrong
  const base64 = der.toString('base64');
  return {
    privateKey,
    certificate: `-----BEGIN CERTIFICATE-----\n${base64.match(/.{1,64}/g)?.join('\n')}\n-----END CERTIFICATE-----\n`,
    certificateBase64: base64,
  };
}
