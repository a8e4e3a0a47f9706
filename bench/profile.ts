// Summary of a V8 .cpuprofile (`node --cpu-prof`): where the time went, by function (self
// time), by function including callees (total time, our code only) and by file.
// `node bench/profile.ts <file.cpuprofile> [top]` prints it; the bench uses summarize().
import fs from 'node:fs';
import path from 'node:path';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

const ROOT = path.resolve(import.meta.dirname, '..');

function shortUrl(url: string): string {
  if (!url) return '(native)';
  const file = url.replace(/^file:\/\//, '');
  if (file.startsWith(ROOT + '/node_modules/')) {
    const rest = file.slice(ROOT.length + '/node_modules/'.length);
    return rest;
  }
  return file.startsWith(ROOT + '/') ? file.slice(ROOT.length + 1) : file;
}

/** Our files by path, packages by name, node internals as one group. */
function fileOf(url: string, name: string): string {
  if (!url) return `(${name || 'native'})`;
  if (url.startsWith('node:')) return 'node internals';
  const file = url.replace(/^file:\/\//, '');
  const nm = file.lastIndexOf('/node_modules/');
  if (nm >= 0) {
    const parts = file.slice(nm + '/node_modules/'.length).split('/');
    return parts[0]!.startsWith('@') ? `${parts[0]}/${parts[1]}` : parts[0]!;
  }
  return shortUrl(url);
}

export interface ProfileSummary {
  totalMs: number;
  idleMs: number;
  self: { name: string; ms: number; pct: number }[];
  total: { name: string; ms: number; pct: number }[];
  files: { name: string; ms: number; pct: number }[];
}

export function summarize(file: string, top = 15): ProfileSummary {
  const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  profile.samples.forEach((id, i) => selfUs.set(id, (selfUs.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));

  const label = (n: ProfileNode) =>
    `${n.callFrame.functionName || '(anonymous)'} ${shortUrl(n.callFrame.url)}${n.callFrame.url ? `:${n.callFrame.lineNumber + 1}` : ''}`;
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  const files = new Map<string, number>();
  let all = 0;
  let idle = 0;
  for (const [id, us] of selfUs) {
    const node = byId.get(id)!;
    all += us;
    const name = node.callFrame.functionName;
    if (name === '(idle)' || name === '(program)') {
      if (name === '(idle)') idle += us;
    }
    self.set(label(node), (self.get(label(node)) ?? 0) + us);
    const fileKey = fileOf(node.callFrame.url, name);
    files.set(fileKey, (files.get(fileKey) ?? 0) + us);
    // Inclusive time of every frame on the stack, each counted once per sample.
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur)!;
      if (!n.callFrame.url.includes('/src/')) continue;
      const key = label(n);
      if (seen.has(key)) continue;
      seen.add(key);
      total.set(key, (total.get(key) ?? 0) + us);
    }
  }
  const busy = all - idle;
  const rows = (m: Map<string, number>) =>
    [...m.entries()]
      .filter(([k]) => !k.startsWith('(idle)'))
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({
        name,
        ms: Math.round(us / 1000),
        pct: Math.round((1000 * us) / Math.max(1, busy)) / 10,
      }));
  return {
    totalMs: Math.round(all / 1000),
    idleMs: Math.round(idle / 1000),
    self: rows(self),
    total: rows(total),
    files: rows(files),
  };
}

export function formatSummary(s: ProfileSummary): string {
  const out = [`busy ${s.totalMs - s.idleMs} ms of ${s.totalMs} ms sampled`, '', 'self time:'];
  for (const r of s.self) out.push(`  ${String(r.pct).padStart(5)} %  ${r.name}`);
  out.push('', 'total time (our code, callees included):');
  for (const r of s.total) out.push(`  ${String(r.pct).padStart(5)} %  ${r.name}`);
  out.push('', 'self time by file / package:');
  for (const r of s.files) out.push(`  ${String(r.pct).padStart(5)} %  ${r.name}`);
  return out.join('\n');
}

if (import.meta.main) {
  process.stdout.write(formatSummary(summarize(process.argv[2]!, Number(process.argv[3] ?? 25))) + '\n');
}
