import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';

/** A throwaway `redis-server` on a free port, without persistence (what the queue benchmark runs on). */
export async function startRedisServer(): Promise<{ port: number; stop: () => void }> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const child = spawn('redis-server', [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
  ]);
  await new Promise<void>((resolve, reject) => {
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('Ready to accept connections')) resolve();
    });
    child.once('error', () => reject(new Error('redis-server not found: apt-get install -y redis-server')));
  });
  child.stdout.resume();
  return { port, stop: () => child.kill('SIGTERM') };
}
