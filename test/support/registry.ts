// Helpers for tests generated from the route registry.

/** A concrete path for a route pattern: each named group replaced by a value its regex accepts. */
export function samplePath(pattern: string): string {
  return pattern.replace(/\(\?P<(\w+)>([^)]*)\)/g, (_m, name: string, re: string) => {
    if (name === 'initiator_type') return 'cms';
    if (re.includes('\\d,')) return '1,2';
    if (re.includes('\\d')) return '1';
    return 'global';
  });
}

/**
 * An answer in the contract's shape: 2xx/4xx (501 for routes not built yet), errors as
 * `{code, message, data: {status}}` — or, for sched/v1, its envelope `{response_code, error}`
 * whose response_code equals the HTTP status.
 */
export function assertWellFormedAnswer(status: number, contentType: string | undefined, body: string, where: string): void {
  if (!(status < 500 || status === 501)) throw new Error(`${where}: status ${status} ${body.slice(0, 300)}`);
  if (status < 400 || !String(contentType).includes('json')) return;
  const json = JSON.parse(body) as Record<string, any>;
  const ok = 'response_code' in json
    ? json.response_code === status && typeof json.error === 'string'
    : typeof json.code === 'string' && typeof json.message === 'string' && json.data?.status === status;
  if (!ok) throw new Error(`${where}: error body not in the contract's shape: ${body.slice(0, 300)}`);
}
