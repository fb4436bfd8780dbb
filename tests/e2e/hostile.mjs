// Misbehaving web AIs on 127.0.0.1, for the browser tests: each path breaks the protocol one way.
// Every answer but /no-cors carries Access-Control-Allow-Origin, so the page can read what went wrong.
import http from 'node:http';

// A legal first move for red in the arena preset, and variations on it.
const move = (to) => JSON.stringify({ from: { x: 2, y: 14 }, to });
export const behaviours = {
  '/slow': { wait: 1500, body: move([{ x: 2, y: 13 }]) },
  '/status-500': { status: 500, body: 'boom' },
  '/html': { type: 'text/html', body: '<html><body><script>window.pwned = 1</script><b>hello</b></body></html>' },
  '/empty': { body: '' },
  '/bad-json': { body: '{"from": {"x": 2, "y": 14}, "to": [' },
  '/wrong-shape': { body: JSON.stringify({ move: 'e2e4' }) },
  '/array': { body: JSON.stringify([JSON.parse(move([{ x: 2, y: 13 }]))]) },
  '/negative': { body: move([{ x: -1, y: 13 }]) },
  '/huge': { body: move([{ x: 1e20, y: 13 }]) },
  '/fraction': { body: move([{ x: 2.5, y: 13 }]) },
  '/two-pieces': { body: move([{ x: 2, y: 13 }, { x: 2, y: 12 }]) },
  '/ten-mb': { body: `{"pad":"${'x'.repeat(10 * 1024 * 1024)}"}` },
  '/no-cors': { cors: false, body: move([{ x: 2, y: 13 }]) },
  '/redirect-loop': { status: 302, location: '/redirect-loop', body: '' },
  '/never-answers': { hang: true },
  '/good': { body: move([{ x: 2, y: 13 }]) },
  '/markup': { type: 'text/html', body: '<b>bold</b><img src=x onerror="window.pwned=1">' },
  // The same good move with debug marks (docs/protocol.md): well formed, and malformed in every part.
  '/debug': { body: JSON.stringify({ ...JSON.parse(move([{ x: 2, y: 13 }])), thinkMs: 0, debug: {
    text: 'best of 5: <b>+1</b>',
    marks: [{ at: { x: 2, y: 13 }, color: 'green', label: '+1' }, { from: { x: 2, y: 14 }, to: { x: 4, y: 12 }, color: 'orange', label: 2 }],
  } }) },
  '/bad-debug': { body: JSON.stringify({ ...JSON.parse(move([{ x: 2, y: 13 }])), debug: {
    text: 7,
    marks: [{ at: { x: 40, y: 1 } }, { at: { x: 5, y: 5 }, color: 'url(javascript:alert(1))' }, { at: { x: 1, y: 1 }, label: '<img src=x onerror=alert(1)>' }],
  } }) },
};

export async function startHostile() {
  const sockets = new Set();
  const log = [];
  const server = http.createServer((req, res) => {
    log.push({ method: req.method, path: req.url, type: req.headers['content-type'] });
    const b = behaviours[new URL(req.url, 'http://x').pathname];
    const cors = { 'access-control-allow-origin': '*' };
    if (req.method === 'OPTIONS') {
      res.writeHead(204, { ...cors, 'access-control-allow-methods': 'POST', 'access-control-allow-headers': 'content-type' });
      return res.end();
    }
    if (!b) { res.writeHead(404, cors); return res.end(); }
    req.resume();
    req.on('end', () => {
      if (b.hang) return; // accepts, reads, and never answers or closes
      setTimeout(() => {
        const headers = { 'content-type': b.type || 'application/json', ...(b.cors === false ? {} : cors) };
        if (b.location) headers.location = b.location;
        res.writeHead(b.status || 200, headers);
        res.end(b.body);
      }, b.wait || 0);
    });
  });
  server.on('connection', (s) => { sockets.add(s); s.on('close', () => sockets.delete(s)); });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return {
    log,
    url: (p) => `http://127.0.0.1:${server.address().port}${p}`,
    close: () => { for (const s of sockets) s.destroy(); server.close(); },
  };
}

/** A port on 127.0.0.1 with nothing listening: connections to it are refused. */
export async function closedPort() {
  const s = http.createServer();
  await new Promise((ok) => s.listen(0, '127.0.0.1', ok));
  const { port } = s.address();
  await new Promise((ok) => s.close(ok));
  return port;
}
