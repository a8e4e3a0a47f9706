// Helpers of the operations tests: a server listening on the loopback, and a stream that keeps
// what is written to it.
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';

/** Listens on a free port of 127.0.0.1; returns the base address. */
export async function listenOnLoopback(server: FastifyInstance): Promise<string> {
  await server.listen({ port: 0, host: '127.0.0.1' });
  return `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
}

/** A writable stream that keeps everything written to it. */
export function capture(): { stream: Writable; text(): string; lines(): string[] } {
  let text = '';
  return {
    stream: new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk);
        done();
      },
    }),
    text: () => text,
    lines: () => text.split('\n').filter(Boolean),
  };
}
