/**
 * A real Git server on loopback for tests: `git http-backend` (Git's own smart-HTTP CGI program)
 * behind a small node:http server that requires basic auth, with bare repositories prepared and
 * read back through the `git` command.
 */
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

export interface GitServer {
  /** `http://user:password@127.0.0.1:port/<name>.git` (without credentials when `auth` is false). */
  url(name: string, auth?: boolean | { user: string; password: string }): string;
  /** A bare repository with one commit of `files` on `branch` (none: an empty repository). */
  createRepo(name: string, files?: Record<string, string | Buffer>, branch?: string): void;
  /** Path → bytes of `ref` in the repository. */
  readTree(name: string, ref?: string): Map<string, Buffer>;
  /** `git rev-parse` of `ref`. */
  head(name: string, ref?: string): string;
  /** Blob id of every path of `ref`. */
  blobs(name: string, ref?: string): Map<string, string>;
  /** Commit subjects of `ref`, newest first. */
  log(name: string, ref?: string): string[];
  /** Runs `git <args>` in the bare repository (`input` on its stdin); its output. For crafted objects. */
  run(name: string, args: string[], input?: string | Buffer): string;
  /** Authorization headers the server received. */
  authorizations: string[];
  close(): Promise<void>;
}

const git = (args: string[], cwd?: string, input?: string | Buffer) =>
  execFileSync('git', args, {
    cwd,
    input,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.test',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.test',
    },
    maxBuffer: 64 * 1024 * 1024,
  });

export async function startGitServer(credentials = { user: 'alice', password: 's3cr3t-p@ss' }): Promise<GitServer> {
  const root = mkdtempSync(join(tmpdir(), 'bindery-git-server-'));
  const authorizations: string[] = [];
  const expected = `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`;

  const server = http.createServer((req, res) => {
    authorizations.push(String(req.headers.authorization ?? ''));
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' }).end('unauthorized');
      return;
    }
    const url = new URL(req.url ?? '/', 'http://localhost');
    const cgi = spawn('git', ['http-backend'], {
      env: {
        PATH: process.env.PATH,
        GIT_PROJECT_ROOT: root,
        GIT_HTTP_EXPORT_ALL: '1',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.slice(1),
        REQUEST_METHOD: req.method ?? 'GET',
        CONTENT_TYPE: String(req.headers['content-type'] ?? ''),
        REMOTE_USER: credentials.user,
        REMOTE_ADDR: '127.0.0.1',
        // What real servers pass on (GitHub, GitLab, Gitea): the client's protocol request, so a
        // client asking for protocol v2 gets v2 answers here too.
        ...(req.headers['git-protocol'] ? { GIT_PROTOCOL: String(req.headers['git-protocol']) } : {}),
        GIT_HTTP_MAX_REQUEST_BUFFER: '100M',
      },
    });
    req.pipe(cgi.stdin);
    const out: Buffer[] = [];
    cgi.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    cgi.on('close', () => {
      const raw = Buffer.concat(out);
      const split = raw.indexOf('\r\n\r\n');
      const head = raw.subarray(0, split).toString('utf8');
      const body = raw.subarray(split + 4);
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.split('\r\n')) {
        const at = line.indexOf(':');
        const name = line.slice(0, at).trim().toLowerCase();
        const value = line.slice(at + 1).trim();
        if (name === 'status') status = Number.parseInt(value, 10);
        else if (name) headers[name] = value;
      }
      res.writeHead(status, headers).end(body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const bare = (name: string) => join(root, `${name}.git`);

  return {
    authorizations,
    url(name, auth = true) {
      const who = auth === true ? credentials : auth === false ? null : auth;
      const userinfo = who ? `${encodeURIComponent(who.user)}:${encodeURIComponent(who.password)}@` : '';
      return `http://${userinfo}127.0.0.1:${port}/${name}.git`;
    },
    createRepo(name, files, branch = 'main') {
      git(['init', '--bare', '--initial-branch', branch, bare(name)]);
      git(['config', 'http.receivepack', 'true'], bare(name));
      if (!files) return;
      const work = mkdtempSync(join(tmpdir(), 'bindery-git-work-'));
      try {
        git(['init', '--initial-branch', branch], work);
        for (const [path, content] of Object.entries(files)) {
          mkdirSync(dirname(join(work, path)), { recursive: true });
          writeFileSync(join(work, path), content);
        }
        git(['add', '-A'], work);
        git(['commit', '-m', 'Prepared by the test'], work);
        git(['push', bare(name), `${branch}:${branch}`], work);
      } finally {
        rmSync(work, { recursive: true, force: true });
      }
    },
    readTree(name, ref = 'main') {
      const out = new Map<string, Buffer>();
      const paths = git(['ls-tree', '-r', '--name-only', '-z', ref], bare(name)).toString('utf8').split('\0');
      for (const path of paths.filter(Boolean)) out.set(path, git(['show', `${ref}:${path}`], bare(name)));
      return out;
    },
    head(name, ref = 'main') {
      return git(['rev-parse', ref], bare(name)).toString('utf8').trim();
    },
    blobs(name, ref = 'main') {
      const out = new Map<string, string>();
      for (const line of git(['ls-tree', '-r', '-z', ref], bare(name)).toString('utf8').split('\0')) {
        const match = /^\d+ blob ([0-9a-f]+)\t(.+)$/.exec(line);
        if (match?.[1] && match[2]) out.set(match[2], match[1]);
      }
      return out;
    },
    run(name, args, input) {
      return git(args, bare(name), input).toString('utf8');
    },
    log(name, ref = 'main') {
      return git(['log', '--format=%s', ref], bare(name)).toString('utf8').trim().split('\n').filter(Boolean);
    },
    async close() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(root, { recursive: true, force: true });
    },
  };
}
