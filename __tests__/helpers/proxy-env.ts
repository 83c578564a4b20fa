// The environment's proxy for one test's requests (io/proxy.ts reads it at each request).

/** Runs `fn` with HTTP_PROXY set to `proxy` and no NO_PROXY, the environment put back after. */
export async function withHttpProxy<T>(proxy: string, fn: () => Promise<T>): Promise<T> {
  const names = ['HTTP_PROXY', 'NO_PROXY', 'no_proxy'] as const;
  const saved = names.map((k) => [k, process.env[k]] as const);
  process.env.HTTP_PROXY = proxy;
  delete process.env.NO_PROXY;
  delete process.env.no_proxy;
  try {
    return await fn();
  } finally {
    for (const [k, v] of saved)
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
  }
}
