/** `oidc-provider` ships no types: the little of it the tests use (test/helpers/sso.ts). */
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface Account {
    accountId: string;
    claims(): Promise<Record<string, unknown>>;
  }

  export default class Provider {
    constructor(
      issuer: string,
      configuration: {
        clients: Array<Record<string, unknown>>;
        claims?: Record<string, string[]>;
        cookies?: { keys: string[] };
        findAccount(ctx: unknown, id: string): Promise<Account | undefined>;
      },
    );
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
  }
}
