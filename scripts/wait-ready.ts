// `node scripts/wait-ready.ts <url> [seconds]`: waits until the URL (a server's /readyz) answers
// 200, for at most the given seconds (default 30); exit 0 when it did, 1 otherwise. The systemd
// unit (docs/deploy/) runs it after starting a process, so that "started" means "ready".
const [url, seconds = '30'] = process.argv.slice(2);
if (!url || !/^\d+$/.test(seconds)) {
  console.error('usage: node scripts/wait-ready.ts <url> [seconds]');
  process.exit(2);
}
const deadline = Date.now() + Number(seconds) * 1000;
let last = '';
while (Date.now() < deadline) {
  try {
    const res = await fetch(url, { signal: AbortSignal.timeout(2000) });
    if (res.status === 200) process.exit(0);
    last = `HTTP ${res.status}`;
  } catch (err) {
    last = err instanceof Error ? err.message : String(err);
  }
  await new Promise((resolve) => setTimeout(resolve, 250));
}
console.error(`${url} did not answer 200 within ${seconds} s (last: ${last})`);
process.exit(1);
