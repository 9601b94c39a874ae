/** Git Sync operations (official shapes) and the `export.zip` download (Bindery extension). */
import { Type } from 'typebox';

const GitInfo = Type.Object(
  {
    provider: Type.Optional(Type.Union([Type.Literal('github'), Type.Literal('gitlab')])),
    url: Type.Optional(Type.String()),
  },
  { additionalProperties: false },
);

const common = {
  url: Type.String({
    minLength: 1,
    maxLength: 2048,
    description:
      'http(s) URL of the repository; it can contain basic-auth credentials (never stored in clear, logged or returned)',
  }),
  ref: Type.String({ minLength: 1, maxLength: 255, description: 'Git ref, e.g. "refs/heads/main"' }),
  repoCacheID: Type.Optional(Type.String({ deprecated: true })),
  repoTreeURL: Type.Optional(Type.String({ maxLength: 2048 })),
  repoCommitURL: Type.Optional(Type.String({ maxLength: 2048 })),
  repoProjectDirectory: Type.Optional(Type.String({ maxLength: 1024 })),
  timestamp: Type.Optional(Type.String({ format: 'date-time' })),
  force: Type.Optional(Type.Boolean()),
  standalone: Type.Optional(Type.Boolean()),
  gitInfo: Type.Optional(GitInfo),
};

export const ImportGitRepository = Type.Object(common, { additionalProperties: false });

export const ExportToGitRepository = Type.Object(
  { ...common, commitMessage: Type.String({ minLength: 1, maxLength: 10_000 }) },
  { additionalProperties: false },
);

const OperationState = Type.Union([
  Type.Literal('running'),
  Type.Literal('failure'),
  Type.Literal('success'),
  Type.Literal('timeout'),
]);

export const GitSyncState = Type.Object({
  repoName: Type.Optional(Type.String()),
  installationStatus: Type.Union([Type.Literal('unauthenticated'), Type.Literal('active'), Type.Literal('pending')]),
  installationProvider: Type.Union(
    [Type.Literal('github'), Type.Literal('gitlab'), Type.Literal('github-legacy'), Type.Literal('git')],
    {
      description:
        'Who hosts the repository. `git` (a Bindery extension, outside the official enum): a plain Git server, neither GitHub nor GitLab',
    },
  ),
  installationId: Type.String(),
  url: Type.Optional(Type.String()),
  operation: Type.Optional(
    Type.Object({
      state: OperationState,
      direction: Type.Union([Type.Literal('export'), Type.Literal('import')]),
      startedAt: Type.String(),
      endedAt: Type.Optional(Type.String()),
      error: Type.Optional(Type.String()),
    }),
  ),
  operationTimeout: Type.Optional(Type.Integer()),
  updatedAt: Type.Optional(Type.String()),
});

export const ZipFile = Type.Unsafe<Buffer>({
  type: 'string',
  format: 'binary',
  description: 'A .zip archive of the live content in the Git Sync layout',
});
