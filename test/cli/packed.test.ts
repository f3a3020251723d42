// The package as a user installs it: `npm pack`, then an offline `npm ci` of the tarball into a scratch
// project, then plain `node` (no tsx, no sources) imports `allot/client`, asks a real daemon, and runs the bin.
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildState } from '../../client/bin/build-state.js';
import { killDaemons, serve, settled, type Served } from '../helpers/daemon.ts';
import { copyFixture, PROJECT, tempDir } from '../helpers/repo.ts';

const NPM_FLAGS = ['--offline', '--ignore-scripts', '--no-audit', '--no-fund', '--loglevel=error'];

/**
 * A lock file for a project depending on the tarball alone: the tarball's entry plus the project's own runtime
 * packages at their locked versions, so `npm ci --offline` takes everything from the npm cache `npm ci` filled.
 */
function scratchLock(tarball: string): object {
  const manifest = JSON.parse(fs.readFileSync(path.join(PROJECT, 'package.json'), 'utf8'));
  const lock = JSON.parse(fs.readFileSync(path.join(PROJECT, 'package-lock.json'), 'utf8'));
  const runtime = Object.entries(lock.packages as Record<string, { dev?: boolean }>).filter(([p, v]) => p !== '' && !v.dev);
  const allot = {
    version: manifest.version, resolved: `file:${tarball}`, dependencies: manifest.dependencies,
    optionalDependencies: manifest.optionalDependencies, bin: manifest.bin, engines: manifest.engines,
  };
  const root = { name: 'scratch', version: '1.0.0', dependencies: { allot: `file:${tarball}` } };
  return { name: 'scratch', version: '1.0.0', lockfileVersion: 3, requires: true, packages: { '': root, 'node_modules/allot': allot, ...Object.fromEntries(runtime) } };
}

const run = (cmd: string, args: string[], cwd: string, input?: string) =>
  spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 120_000, ...(input !== undefined ? { input } : {}) });

describe('the packed package', () => {
  let scratch: string;
  let served: Served;

  beforeAll(async () => {
    // The tarball packs dist/ as it is: build it when the sources changed since (CI's `npm ci` just built it).
    if (buildState(new URL(`file://${PROJECT}`)) !== 'built') execFileSync(process.execPath, [path.join(PROJECT, 'client/bin/build.js')], { cwd: PROJECT, stdio: 'ignore' });
    const work = tempDir('allot-packed-');
    const packed = JSON.parse(execFileSync('npm', ['pack', '--json', '--ignore-scripts', '--pack-destination', work], { cwd: PROJECT, encoding: 'utf8' }));
    const tarball = path.join(work, packed[0].filename);
    scratch = path.join(work, 'scratch');
    fs.mkdirSync(scratch);
    fs.writeFileSync(path.join(scratch, 'package.json'), JSON.stringify({ name: 'scratch', version: '1.0.0', private: true, type: 'module', dependencies: { allot: `file:${tarball}` } }));
    fs.writeFileSync(path.join(scratch, 'package-lock.json'), JSON.stringify(scratchLock(tarball)));
    // Without install scripts and optional packages: the client library needs no native build and no model runtime.
    const ci = run('npm', ['ci', '--omit=optional', ...NPM_FLAGS], scratch);
    expect(ci.status, ci.stderr).toBe(0);
    served = await serve(copyFixture('python'));
    await settled(served.client);
  }, 180_000);

  afterAll(async () => {
    await served?.stop();
    killDaemons();
  });

  it('ships JavaScript with declarations, and no TypeScript sources', () => {
    const pkg = path.join(scratch, 'node_modules/allot');
    expect(fs.existsSync(path.join(pkg, 'dist/client/lib/index.js'))).toBe(true);
    expect(fs.existsSync(path.join(pkg, 'dist/client/lib/index.d.ts'))).toBe(true);
    expect(fs.existsSync(path.join(pkg, 'dist/migrations/001_initial.sql'))).toBe(true);
    expect(fs.existsSync(path.join(pkg, 'dist/indexer/languages/python.scm'))).toBe(true);
    expect(fs.existsSync(path.join(pkg, 'client/cli/main.ts'))).toBe(false);
  });

  it("imports 'allot/client' in plain node and searches through a running daemon", () => {
    const script = `
      import { connect, NoDaemon } from 'allot/client';
      const allot = await connect({ repo: process.argv[1] });
      const hits = await allot.search({ query: 'quantize', k: 3, retriever: 'bm25' });
      allot.close();
      const none = await connect({ repo: process.argv[2] }).catch((e) => e);
      console.log(JSON.stringify({ hits: hits.map((h) => h.object), noDaemon: none instanceof NoDaemon }));`;
    const r = run(process.execPath, ['--input-type=module', '-e', script, served.repo, tempDir()], scratch);
    expect(r.status, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout);
    expect(out.noDaemon).toBe(true);
    expect(out.hits.length).toBeGreaterThan(0);
    expect(out.hits.some((o: string) => /quantize/.test(o))).toBe(true);
  });

  it('runs its bin from the build', () => {
    const bin = path.join(scratch, 'node_modules/allot/client/bin/allot.js');
    const version = run(process.execPath, [bin, '--version'], scratch);
    expect(version.status, version.stderr).toBe(0);
    expect(version.stdout.trim()).toBe(JSON.parse(fs.readFileSync(path.join(PROJECT, 'package.json'), 'utf8')).version);
    const search = run(process.execPath, [bin, '--repo', served.repo, 'search', 'quantize', '--k', '2', '--retriever', 'bm25', '--json'], scratch);
    expect(search.status, search.stderr).toBe(0);
    expect(JSON.parse(search.stdout).length).toBe(2);
  });
});
