// Benchmark of the MCP server (not a test).
//
//   npm run bench:mcp [-- CORPUS] [--calls 1000] [--tool-calls 300]   (default: the SymPy corpus of bash test/bench/corpora.sh)
//
// `allot mcp` runs as a real process on a temporary COPY of the corpus and
// starts the real daemon, which builds the index cold. Once it is idle, the
// same warm `get_context` queries (budget 4096, default retriever) go through
// MCP (the SDK's client over stdio) and straight to the daemon over HTTP (the
// client library), interleaved one by one so both see the same conditions.
// Printed: p50/p99 of each path, the MCP overhead (p50 difference and the
// median of per-query differences), and the MCP server's RSS. Then each
// symbol tool (find_symbol, find_references, file_outline, read_file), warm,
// through MCP and straight over HTTP, on inputs drawn from the index itself
// (`drawSymbolInputs`), with its p50/p99 and CPU-seconds of the daemon.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { connect, stopDaemonProcess } from '../../client/lib/index.ts';
import { openStore } from '../../indexer/store/open.ts';
import { percentile } from './measure.ts';
import { drawQueries, drawSymbolInputs } from './queries.ts';

const PROJECT = fileURLToPath(new URL('../../', import.meta.url));
const BIN = path.join(PROJECT, 'client/bin/allot.js');
const DEFAULT_CORPUS = path.join(PROJECT, 'bench-data/sympy/usr/lib/python3/dist-packages/sympy');
const WARMUP = 100;
const BUDGET = 4096;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const ms = (v: number) => `${v.toFixed(2)} ms`;

/** User + system CPU seconds a process has used (from /proc, clock ticks of 1/100 s). */
function daemonCpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

function rssMb(pid: number): number {
  const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : NaN;
}

async function main(): Promise<void> {
  const corpus = path.resolve(process.argv[2] && !process.argv[2].startsWith('--') ? process.argv[2] : DEFAULT_CORPUS);
  if (!fs.existsSync(corpus)) throw new Error(`no corpus at ${corpus}: run bash test/bench/corpora.sh`);
  const calls = arg('calls', 1000);
  const toolCalls = arg('tool-calls', 300);
  const repo = fs.mkdtempSync(path.join(os.tmpdir(), 'allot-bench-mcp-'));
  fs.cpSync(corpus, repo, { recursive: true });
  console.log(`corpus ${corpus} copied to ${repo}`);

  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, 'mcp', repo], stderr: 'pipe' });
  transport.stderr?.on('data', () => {});
  const mcp = new Client({ name: 'allot-bench', version: '1' });
  const started = performance.now();
  await mcp.connect(transport);
  const tool = async (name: string, args: Record<string, unknown>) => {
    const r = (await mcp.callTool({ name, arguments: args })) as CallToolResult;
    if (r.isError) throw new Error(`${name}: ${(r.content[0] as { text: string }).text}`);
    return r;
  };
  try {
    for (;;) {
      const s = (await tool('index_status', {})).structuredContent as { catchingUp: boolean; state: string; index: { files: number } };
      if (!s.catchingUp && s.index.files > 0) break;
      await sleep(500);
    }
    console.log(`index built through the MCP server's daemon in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    const http = await connect({ repo });
    const db = openStore(path.join(repo, '.allot/index.db'), { readonly: true });
    const queries = drawQueries(db, 200);
    // Distinct inputs for every timed call: nothing is answered twice.
    const inputs = drawSymbolInputs(db, WARMUP + toolCalls);
    db.close();

    for (let i = 0; i < WARMUP; i++) {
      const q = queries[i % queries.length];
      await tool('get_context', { query: q, budget: BUDGET });
      await http.context({ query: q, budget: BUDGET });
    }
    const viaMcp: number[] = [];
    const viaHttp: number[] = [];
    const diff: number[] = [];
    for (let i = 0; i < calls; i++) {
      const q = queries[i % queries.length];
      // Alternate which path goes first so neither always benefits from a warmed cache line.
      const order = i % 2 === 0 ? (['mcp', 'http'] as const) : (['http', 'mcp'] as const);
      const t: Record<string, number> = {};
      for (const p of order) {
        const t0 = performance.now();
        if (p === 'mcp') await tool('get_context', { query: q, budget: BUDGET });
        else await http.context({ query: q, budget: BUDGET });
        t[p] = performance.now() - t0;
      }
      viaMcp.push(t.mcp);
      viaHttp.push(t.http);
      diff.push(t.mcp - t.http);
    }
    const mcpPid = transport.pid!;
    console.log(`\nwarm get_context, budget ${BUDGET}, ${calls} calls each (after ${WARMUP} warm-up), ${queries.length} distinct queries`);
    console.log(`  through MCP (stdio -> allot mcp -> HTTP -> daemon): p50 ${ms(percentile(viaMcp, 50))}  p99 ${ms(percentile(viaMcp, 99))}`);
    console.log(`  through HTTP (client library -> daemon):           p50 ${ms(percentile(viaHttp, 50))}  p99 ${ms(percentile(viaHttp, 99))}`);
    console.log(`  MCP overhead: p50 difference ${ms(percentile(viaMcp, 50) - percentile(viaHttp, 50))}, median per-query difference ${ms(percentile(diff, 50))}, p99 per-query difference ${ms(percentile(diff, 99))}`);
    console.log(`  ratio MCP/HTTP at p50: ${(percentile(viaMcp, 50) / percentile(viaHttp, 50)).toFixed(3)}`);
    console.log(`  MCP server RSS: ${rssMb(mcpPid).toFixed(0)} MB`);

    // The symbol tools, each alone: warm-up over every input once, then `toolCalls` timed calls per path.
    const daemonPid = (await http.status()).pid;
    const symbolTools: { tool: string; args: (i: number) => Record<string, unknown>; direct: (a: Record<string, unknown>) => Promise<unknown> }[] = [
      { tool: 'find_symbol', args: (i) => ({ name: inputs.names[i % inputs.names.length] }), direct: (a) => http.findSymbol(a as never) },
      { tool: 'find_references', args: (i) => ({ id: inputs.referenced[i % inputs.referenced.length] }), direct: (a) => http.findReferences(a as never) },
      { tool: 'file_outline', args: (i) => ({ path: inputs.files[i % inputs.files.length] }), direct: (a) => http.fileOutline(a as never) },
      { tool: 'read_file', args: (i) => inputs.windows[i % inputs.windows.length], direct: (a) => http.readFile(a as never) },
    ];
    console.log(`\nsymbol tools: ${toolCalls} timed calls per path, each on an input not asked before (after ${WARMUP} warm-up calls)`);
    for (const t of symbolTools) {
      for (let i = 0; i < WARMUP; i++) await t.direct(t.args(i));
      const viaTool: number[] = [];
      const direct: number[] = [];
      const cpu0 = daemonCpuSeconds(daemonPid);
      for (let i = WARMUP; i < WARMUP + toolCalls; i++) {
        // Both paths on the same input, alternating which goes first.
        const order = i % 2 === 0 ? (['mcp', 'http'] as const) : (['http', 'mcp'] as const);
        for (const p of order) {
          const t0 = performance.now();
          if (p === 'mcp') await tool(t.tool, t.args(i));
          else await t.direct(t.args(i));
          (p === 'mcp' ? viaTool : direct).push(performance.now() - t0);
        }
      }
      const cpuMs = ((daemonCpuSeconds(daemonPid) - cpu0) * 1000) / (2 * toolCalls);
      console.log(
        `  ${t.tool.padEnd(16)} MCP p50 ${ms(percentile(viaTool, 50))}  p99 ${ms(percentile(viaTool, 99))}   HTTP p50 ${ms(percentile(direct, 50))}  p99 ${ms(percentile(direct, 99))}   daemon CPU ${cpuMs.toFixed(2)} ms/call`,
      );
    }
    http.close();
  } finally {
    await mcp.close().catch(() => undefined);
    await stopDaemonProcess(repo).catch(() => null);
    fs.rmSync(repo, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
