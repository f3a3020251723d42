/**
 * The report's chart, written by hand as SVG (no dependency): one line per
 * method over the budgets, with the 95% interval as error bars. A PNG is made
 * from it only when a real SVG renderer is on the machine.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';

export interface Series {
  name: string;
  /** Drawn dashed (baselines), solid otherwise. */
  dashed?: boolean;
  /** One point per x category (null where the method has no value). */
  points: ({ y: number; low: number; high: number } | null)[];
}

export interface ChartSpec {
  title: string;
  xLabel: string;
  yLabel: string;
  /** Category labels of the x axis, in order. */
  x: string[];
  series: Series[];
}

const PALETTE = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf', '#7f7f7f', '#bcbd22'];
const DASHES = ['', '6 3', '2 3', '8 3 2 3'];

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const f = (v: number) => (Math.round(v * 10) / 10).toString();

/** The chart as an SVG document; y is a rate, from 0 to the next 10% above the highest interval. */
export function lineChartSvg(spec: ChartSpec): string {
  const W = 760;
  const H = 440;
  const left = 64;
  const right = 210;
  const top = 44;
  const bottom = 56;
  const pw = W - left - right;
  const ph = H - top - bottom;
  const n = spec.x.length;
  const inset = 28;
  const xAt = (i: number) => left + inset + (n <= 1 ? (pw - 2 * inset) / 2 : (i * (pw - 2 * inset)) / (n - 1));
  // The y axis ends at the next 10% above the highest interval (at least 20%), so low rates stay readable.
  const highest = Math.max(0, ...spec.series.flatMap((s) => s.points.map((p) => (p ? p.high : 0))));
  const yMax = Math.min(1, Math.max(0.2, Math.ceil((highest + 0.02) * 10) / 10));
  const yAt = (v: number) => top + ph - (Math.max(0, Math.min(yMax, v)) / yMax) * ph;
  // Series with equal values would hide one another: each is shifted by a pixel or two.
  const nudge = (k: number) => (k - (spec.series.length - 1) / 2) * 2;
  const out: string[] = [];
  out.push(`<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="Helvetica, Arial, sans-serif" font-size="12">`);
  out.push(`<rect width="${W}" height="${H}" fill="#ffffff"/>`);
  out.push(`<text x="${left + pw / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${esc(spec.title)}</text>`);
  const step = yMax <= 0.5 ? 0.05 : 0.1;
  for (let k = 0; k * step <= yMax + 1e-9; k++) {
    const v = k * step;
    const y = yAt(v);
    out.push(`<line x1="${left}" y1="${f(y)}" x2="${left + pw}" y2="${f(y)}" stroke="#e5e5e5"/>`);
    out.push(`<text x="${left - 8}" y="${f(y + 4)}" text-anchor="end" fill="#444">${Math.round(v * 100)}%</text>`);
  }
  out.push(`<line x1="${left}" y1="${top}" x2="${left}" y2="${top + ph}" stroke="#888"/>`);
  out.push(`<line x1="${left}" y1="${top + ph}" x2="${left + pw}" y2="${top + ph}" stroke="#888"/>`);
  spec.x.forEach((label, i) => {
    out.push(`<line x1="${f(xAt(i))}" y1="${top + ph}" x2="${f(xAt(i))}" y2="${top + ph + 5}" stroke="#888"/>`);
    out.push(`<text x="${f(xAt(i))}" y="${top + ph + 20}" text-anchor="middle" fill="#444">${esc(label)}</text>`);
  });
  out.push(`<text x="${left + pw / 2}" y="${H - 12}" text-anchor="middle">${esc(spec.xLabel)}</text>`);
  out.push(`<text x="16" y="${top + ph / 2}" text-anchor="middle" transform="rotate(-90 16 ${top + ph / 2})">${esc(spec.yLabel)}</text>`);
  spec.series.forEach((s, k) => {
    const color = PALETTE[k % PALETTE.length];
    const dash = s.dashed ? '6 3' : DASHES[Math.floor(k / PALETTE.length) % DASHES.length];
    const pts = s.points.map((p, i) => (p ? { x: xAt(i) + nudge(k), y: yAt(p.y), lo: yAt(p.low), hi: yAt(p.high) } : null));
    const path = pts.filter((p): p is NonNullable<typeof p> => p !== null).map((p) => `${f(p.x)},${f(p.y)}`).join(' ');
    out.push(`<g stroke="${color}" fill="${color}">`);
    if (path) out.push(`<polyline points="${path}" fill="none" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`);
    for (const p of pts) {
      if (!p) continue;
      out.push(`<line x1="${f(p.x)}" y1="${f(p.lo)}" x2="${f(p.x)}" y2="${f(p.hi)}" stroke-width="1" opacity="0.6"/>`);
      out.push(`<circle cx="${f(p.x)}" cy="${f(p.y)}" r="3.2"/>`);
    }
    out.push('</g>');
    const ly = top + 8 + k * 20;
    const lx = left + pw + 18;
    out.push(`<line x1="${lx}" y1="${ly}" x2="${lx + 22}" y2="${ly}" stroke="${color}" stroke-width="2"${dash ? ` stroke-dasharray="${dash}"` : ''}/>`);
    out.push(`<circle cx="${lx + 11}" cy="${ly}" r="3.2" fill="${color}"/>`);
    out.push(`<text x="${lx + 30}" y="${ly + 4}">${esc(s.name)}</text>`);
  });
  out.push('</svg>');
  return out.join('\n') + '\n';
}

/**
 * Renders an SVG file to PNG with the first working renderer among `rsvg-convert` and ImageMagick's `convert`;
 * returns the renderer's name, or null when none produced a PNG (nothing is installed for this).
 */
export function svgToPng(svgFile: string, pngFile: string): string | null {
  const attempts: [string, string[]][] = [
    ['rsvg-convert', ['-f', 'png', '-o', pngFile, svgFile]],
    ['convert', [svgFile, pngFile]],
  ];
  for (const [cmd, args] of attempts) {
    try {
      fs.rmSync(pngFile, { force: true });
      const r = spawnSync(cmd, args, { timeout: 30_000, stdio: 'ignore' });
      if (r.status !== 0 || !fs.existsSync(pngFile)) continue;
      const head = fs.readFileSync(pngFile).subarray(0, 8);
      if (head.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return cmd;
    } catch {
      // not installed or not working: try the next one
    }
  }
  fs.rmSync(pngFile, { force: true });
  return null;
}
