import net from 'node:net';

/**
 * A port of 127.0.0.1 free right now, for a server whose address must be known before it starts
 * (PUBLIC_URL must be where a browser or a provider reaches it).
 */
export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
