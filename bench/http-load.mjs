/**
 * The HTTP load generator of records.ts, in its own process so that it does not share the server's event loop:
 * `node bench/http-load.mjs '<json>'` with { url, method, headers, body, connections, seconds } runs autocannon
 * against the URL and prints one JSON line { requests, errors, non2xx, p50, p99 }.
 */
import autocannon from 'autocannon';

const options = JSON.parse(process.argv[2] ?? '{}');
const result = await autocannon({
  url: options.url,
  method: options.method ?? 'GET',
  headers: options.headers ?? {},
  body: options.body,
  connections: options.connections ?? 50,
  duration: options.seconds ?? 3,
});
process.stdout.write(
  `${JSON.stringify({
    requests: result.requests.average,
    errors: result.errors + result.timeouts,
    non2xx: result.non2xx,
    p50: result.latency.p50,
    p99: result.latency.p99,
  })}\n`,
);
