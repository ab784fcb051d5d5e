import { createServer, type Server, type Socket } from 'node:net';
import Redis from 'ioredis';
import { createRedisClient, type RedisClient } from '../../src/state/redis-client';
import { waitFor } from '../helpers/server-process';

// Issue 34: test/state/redis-tls.int.test.ts failed now and then with an uncaught
// "tlsv1 alert decode error": a TLS socket whose handshake fails can emit 'error' twice (the
// certificate verdict, then the server's alert), and ioredis listens with once(). A socket of the
// store's client keeps a listener, so a second error cannot end the process.

let server: Server;
let port: number;
const sockets: Socket[] = [];
const clients: Redis[] = [];

beforeAll(async () => {
  // Accepts and never answers: the client connects and waits for its ready check.
  server = createServer((socket) => sockets.push(socket));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  port = typeof address === 'object' && address ? address.port : 0;
});
afterAll(async () => {
  for (const c of clients) c.disconnect();
  for (const s of sockets) s.destroy();
  await new Promise((resolve) => server.close(resolve));
});

/** A client connected to the silent server, its errors collected. */
async function connected(make: (url: string) => RedisClient): Promise<{ client: Redis; errors: string[] }> {
  const client = make(`redis://127.0.0.1:${port}`) as Redis;
  clients.push(client);
  const errors: string[] = [];
  client.on('error', (err: Error) => errors.push(err.message));
  await waitFor(async () => client.status === 'connect', 'the connection');
  return { client, errors };
}

function twoErrors(client: Redis): void {
  client.stream.emit('error', new Error('the certificate verdict'));
  client.stream.emit('error', new Error("the server's alert"));
}

test("a socket's second error is dropped, its first reaches the client", async () => {
  const { client, errors } = await connected((url) =>
    createRedisClient({ topology: { kind: 'standalone', url }, keyPrefix: 'x:', waitReplicas: 0 }, 5000),
  );
  expect(() => twoErrors(client)).not.toThrow();
  expect(errors[0]).toBe('the certificate verdict');
});

test("with ioredis's own connector the second error is thrown (what the store's client guards against)", async () => {
  const { client } = await connected((url) => new Redis(url, { maxRetriesPerRequest: 0, retryStrategy: () => null }));
  expect(() => twoErrors(client)).toThrow("the server's alert");
});
