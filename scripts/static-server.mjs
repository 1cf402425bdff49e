// Minimal static file server for build/web (used by scripts/serve and the browser tests).
// Usage as a script: node scripts/static-server.mjs [root] [port]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const MIME = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript',
  '.wasm': 'application/wasm', '.css': 'text/css', '.png': 'image/png', '.svg': 'image/svg+xml',
  '.json': 'application/json', '.csv': 'text/csv', '.ttf': 'font/ttf',
};

// Serves `root` on 127.0.0.1:`port` (0 = any free port). Resolves to {url, close}.
export function serveStatic(root, port = 0) {
  root = path.resolve(root);
  const server = http.createServer((req, res) => {
    let urlPath;
    try { urlPath = decodeURIComponent(new URL(req.url, 'http://x').pathname); } catch { res.writeHead(400).end(); return; }
    let file = path.normalize(path.join(root, urlPath));
    if (file !== root && !file.startsWith(root + path.sep)) { res.writeHead(403).end(); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    fs.readFile(file, (err, data) => {
      if (err) { res.writeHead(404).end('not found'); return; }
      res.writeHead(200, { 'Content-Type': MIME[path.extname(file)] || 'application/octet-stream', 'Cache-Control': 'no-cache' });
      res.end(data);
    });
  });
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(port, '127.0.0.1', () => {
      const { port: actual } = server.address();
      resolve({ url: `http://127.0.0.1:${actual}`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = process.argv[2] || 'build/web';
  const port = Number(process.argv[3] || 8080);
  serveStatic(root, port).then(({ url }) => {
    console.log(`posenc is served at ${url}/  (Ctrl-C to stop)`);
  }, (err) => {
    console.error(`serve: cannot listen on 127.0.0.1:${port}: ${err.message}`);
    process.exit(1);
  });
}
