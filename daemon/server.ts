/**
 * Puts the API on the wire with @hono/node-server: loopback TCP (127.0.0.1,
 * a free port unless one is asked for) or a Unix socket (mode 0600, its path
 * at most 107 bytes). Never any
 * other interface: the daemon serves this machine's user only.
 */
import fs from 'node:fs';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createAdaptorServer } from '@hono/node-server';
import type { Hono } from 'hono';
import { removeStaleSocket, socketPathProblem } from './lifecycle.ts';

export const LOOPBACK = '127.0.0.1';

export interface Listening {
  host: typeof LOOPBACK | null;
  port: number | null;
  socket: string | null;
  /** Stops accepting, ends idle keep-alive connections, and the rest after `graceMs`. */
  close(graceMs?: number): Promise<void>;
}

export async function listen(app: Hono, where: { port?: number; socket?: string }): Promise<Listening> {
  const server = createAdaptorServer({ fetch: app.fetch }) as Server;
  // Slow or idle clients must not pin connections forever.
  server.headersTimeout = 10_000;
  server.requestTimeout = 30_000;
  // Clients (editors, agents) keep connections between queries; a longer idle window means fewer reconnects.
  server.keepAliveTimeout = 30_000;
  if (where.socket) {
    // Refused before binding: the kernel would cut a longer path and put the socket elsewhere.
    const problem = socketPathProblem(where.socket);
    if (problem) throw new Error(problem);
    removeStaleSocket(where.socket);
  }
  // The socket is created private (umask 0177: mode 0600) rather than chmod-ed after the fact, which would follow a link
  // put in its place meanwhile.
  const umask = where.socket ? process.umask(0o177) : null;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    const done = () => {
      server.off('error', reject);
      resolve();
    };
    if (where.socket) server.listen(where.socket, done);
    else server.listen(where.port ?? 0, LOOPBACK, done);
  }).finally(() => umask !== null && process.umask(umask));
  const addr = server.address();
  const port = where.socket ? null : (addr as AddressInfo).port;
  return {
    host: where.socket ? null : LOOPBACK,
    port,
    socket: where.socket ?? null,
    close: (graceMs = 2000) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(() => server.closeAllConnections(), graceMs);
        server.close(() => {
          clearTimeout(timer);
          // only our socket: whatever else took its place is left alone
          if (where.socket && fs.lstatSync(where.socket, { throwIfNoEntry: false })?.isSocket()) fs.rmSync(where.socket);
          resolve();
        });
        server.closeIdleConnections();
      }),
  };
}
